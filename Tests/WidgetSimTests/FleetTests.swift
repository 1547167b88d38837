import Foundation
import Testing
@testable import WidgetSim

/// Fleet mode: independent devices, integer aggregates that merge exactly,
/// sharding, and the server-load effect of aligned dates (F25).
@Suite("Fleet")
struct FleetTests {
    /// The shipped fleet scenario, shrunk to a size a debug build runs quickly.
    static func document(devices: Int = 120, days: Int = 2) throws -> ScenarioDocument {
        var document = try ScenarioLoader.loadDocument(path: Paths.scenario("fleet-weather"))
        document.base.population.updateFleet { $0.deviceCount = devices }
        document.base.days = days
        for index in document.variants.indices {
            document.variants[index].setup.population.updateFleet { $0.deviceCount = devices }
            document.variants[index].setup.days = days
        }
        return document
    }

    static func run(_ document: ScenarioDocument, threads: Int = 2, shard: FleetRun.Shard = .whole) throws -> FleetResult {
        var options = FleetRun.Options()
        options.threads = threads
        options.shard = shard
        return try FleetResult.run(document, fingerprint: document.fingerprint, options: options)
    }

    /// A draw just below 1 can pass every option by rounding, as with these
    /// weights (found by a red-team review): it falls on the last option
    /// with weight, never on one the scenario weighted 0.
    @Test func anOptionOfWeightZeroIsNeverPicked() {
        let weights = [0.3, 0.1, 2.5, 2.5, 0]
        #expect(FleetVariation.pickIndex(weights: weights, { $0 }, draw: 1 - 0x1p-53) == 3)
        #expect(FleetVariation.pickIndex(weights: weights, { $0 }, draw: 0) == 0)
        #expect(FleetVariation.pickIndex(weights: [Double](), { $0 }, draw: 0.5) == nil)
    }

    @Test func aFleetDeviceDependsOnlyOnItsIndexAndTheSeed() throws {
        let fleet = try Self.document().base.fleet!
        let seed = StreamSeed(25)
        let first = fleet.device(7, master: seed)
        let again = fleet.device(7, master: seed)
        #expect(first.id == "d7")
        #expect(first.user == again.user && first.utcOffsetSeconds == again.utcOffsetSeconds)
        #expect(first.widgets.map(\.id) == again.widgets.map(\.id))
        // Devices differ from each other.
        let profiles = (0..<40).map { fleet.device($0, master: seed) }
        #expect(Set(profiles.map(\.user.wakeSecond)).count > 20)
        #expect(Set(profiles.map { $0.utcOffsetSeconds ?? 0 }).count >= 4)
    }

    /// The aggregate is the same whatever the number of threads.
    /// A widget set keeps some of the template's widgets, renumbered: a
    /// scripted tap or truth change follows its widget to its new index, and
    /// one on a widget the device lacks never happens.
    @Test func aScriptFollowsItsWidgetIntoAWidgetSet() throws {
        let text = """
        { "name": "sets", "seed": 1, "days": 2,
          "fleet": { "devices": 4, "widgetSets": [ { "widgets": ["a", "c"] } ],
            "device": {
              "widgets": [
                { "id": "a", "kind": "k.a", "provider": { "policy": "never" } },
                { "id": "b", "kind": "k.b", "provider": { "policy": "never" } },
                { "id": "c", "kind": "k.c", "provider": { "policy": "never" } }
              ],
              "script": [
                { "at": "1h", "action": "tap", "widget": "c" },
                { "at": "2h", "action": "truthChange", "widget": "b" },
                { "daily": "10:00", "action": "tap", "widget": "b" },
                { "daily": "11:00", "action": "truthChange", "widget": "a" }
              ] } } }
        """
        let document = try ScenarioLoader.decodeDocument(text, file: "sets.json")
        let device = document.base.fleet!.device(0, master: StreamSeed(1))
        #expect(device.widgets.map(\.id) == ["a", "c"])
        #expect(device.script.map(\.action) == [.tap(widget: 1)])
        #expect(device.repeatingScript.map(\.action) == [.truthChange(widget: 0)])
        // The run that trapped on the tap of the missing widget now finishes.
        #expect(try Self.run(document).variants[0].aggregate.widgetDays == 16)
    }

    @Test func threadsDoNotChangeTheResult() throws {
        let document = try Self.document()
        let oneThread = try Self.run(document, threads: 1)
        let threeThreads = try Self.run(document, threads: 3)
        #expect(oneThread == threeThreads)
    }

    /// Shards merged give exactly the unsharded result, in any order.
    @Test func mergedShardsEqualTheWholeRun() throws {
        let document = try Self.document()
        let whole = try Self.run(document)
        let shards = try (0..<3).map { try Self.run(document, shard: FleetRun.Shard(index: $0, count: 3)) }
        var merged = try FleetResult.merge([shards[2], shards[0], shards[1]])
        merged.shards = whole.shards
        merged.shardCount = whole.shardCount
        #expect(merged.variants == whole.variants)
        #expect(FleetReport(try FleetResult.merge(shards)).files().map(\.contents) == FleetReport(whole).files().map(\.contents))
    }

    @Test func aPartialResultSurvivesItsFileFormat() throws {
        let result = try Self.run(try Self.document(), shard: FleetRun.Shard(index: 1, count: 2))
        let text = FleetPartialFile.render(result)
        #expect(try FleetPartialFile.parse(text, file: "p.txt") == result)
    }

    /// A partial file records the report directory its run's report takes
    /// (the scenario file's base name), as one plain name: it becomes
    /// Reports/<name>, so a path is refused.
    @Test func aPartialFileRecordsItsReportNameAndNeverAPath() throws {
        var result = try Self.run(try Self.document(devices: 4, days: 1), shard: FleetRun.Shard(index: 0, count: 2))
        result.reportName = "my copy"
        let text = FleetPartialFile.render(result)
        #expect(text.contains("\nscenario fleet-weather\nreport my copy\n"))
        #expect(try FleetPartialFile.parse(text, file: "p.txt").reportName == "my copy")
        // A name no directory under Reports/ can take is read as none: merge
        // then asks for --out, and never refuses shards that took hours.
        for name in ["../../elsewhere", "..", "", "a\\u0007b", String(repeating: "n", count: 201)] {
            let edited = text.replacingOccurrences(of: "\nreport my copy\n", with: "\nreport \(name)\n")
            #expect(try FleetPartialFile.parse(edited, file: "p.txt").reportName == nil, "\(name)")
        }
    }

    @Test func mergingRefusesMissingDuplicateAndForeignShards() throws {
        let document = try Self.document(devices: 30, days: 1)
        let first = try Self.run(document, shard: FleetRun.Shard(index: 0, count: 2))
        let second = try Self.run(document, shard: FleetRun.Shard(index: 1, count: 2))
        #expect(throws: FleetMergeError.missingShards(["2/2"])) { try FleetResult.merge([first]) }
        #expect(throws: FleetMergeError.duplicateShard(1, of: 2)) { try FleetResult.merge([first, first, second]) }
        var foreign = second
        foreign.seed += 1
        #expect(throws: FleetMergeError.self) { try FleetResult.merge([first, foreign]) }
        // The refusal says what differs, and only that.
        #expect(first.differences(from: foreign) == ["seed \(first.seed) and \(first.seed + 1)"])
        var edited = second
        edited.fingerprint &+= 1
        #expect(first.differences(from: edited) == ["the scenario file (or the --parameters file) changed between them"])
        #expect(first.differences(from: second).isEmpty)
        #expect(throws: FleetMergeError.self) { try FleetPartialFile.parse("not a partial", file: "x") }
    }

    /// The report prints the scenario's and the variants' descriptions, so
    /// partials whose descriptions differ (one edited) are refused, naming
    /// the field: keeping the first file's would make the report depend on
    /// the order of merge's arguments.
    @Test func partialsWhoseDescriptionsDifferAreNotMerged() throws {
        let document = try Self.document(devices: 30, days: 1)
        let first = try Self.run(document, shard: FleetRun.Shard(index: 0, count: 2))
        let second = try Self.run(document, shard: FleetRun.Shard(index: 1, count: 2))
        var edited = second
        edited.description = "EDITED"
        #expect(first.differences(from: edited) == ["the scenario's 'description' differs"])
        #expect(throws: FleetMergeError.self) { try FleetResult.merge([first, edited]) }
        #expect(throws: FleetMergeError.self) { try FleetResult.merge([edited, first]) }
        var hacked = second
        hacked.variants[0].description = "HACKED"
        #expect(first.differences(from: hacked) == ["the 'variant-description' of variant '\(second.variants[0].name)' differs"])
        #expect(throws: FleetMergeError.self) { try FleetResult.merge([first, hacked]) }
    }

    /// Shard i of n holds the fleet's devices whose index leaves remainder
    /// i, so a partial's shards fix its device count: a shards line edited
    /// to claim more shards than ran is refused, not merged into a report
    /// of the whole fleet that counted a part of it.
    @Test func aPartialFileWhoseDeviceCountIsNotItsShardsIsRefused() throws {
        let document = try Self.document(devices: 50, days: 1)
        let first = try Self.run(document, shard: FleetRun.Shard(index: 0, count: 3))
        #expect(first.variants.allSatisfy { $0.aggregate.devices == 17 })
        let text = FleetPartialFile.render(first)
        #expect(try FleetPartialFile.parse(text, file: "p.txt") == first)
        let claimed = text.replacingOccurrences(of: "\nshards 3 0\n", with: "\nshards 3 0,1\n")
        do {
            _ = try FleetPartialFile.parse(claimed, file: "p.txt")
            Issue.record("a partial claiming two shards with one shard's devices was not refused")
        } catch {
            guard case .malformed(_, _, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason == "variant '\(first.variants[0].name)' counts 17 devices, but shards 1/3, 2/3 of a fleet of 50 devices hold 34", "\(reason)")
        }
    }

    /// A partial file is input: every number in it is range-checked where it
    /// is read, and merging adds counters without overflow.
    @Test func aPartialFileFromNoRealRunIsRefusedNotTrusted() throws {
        let document = try Self.document(devices: 30, days: 1)
        let first = try Self.run(document, shard: FleetRun.Shard(index: 0, count: 2))
        let second = try Self.run(document, shard: FleetRun.Shard(index: 1, count: 2))
        let text = FleetPartialFile.render(first)
        func edited(_ key: String, _ value: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(key + " ") ? Substring(key + " " + value) : $0 }.joined(separator: "\n")
        }
        for (key, value) in [
            ("shards", "9223372036854775807 0"), ("shards", "2 1,0"), ("shards", "2 0,0"), ("shards", "0 0"),
            ("start", "-9223372036854775808 1 1 0 0 0"), ("start", "2026 13 45 99 99 99"), ("days", "0"),
            ("devices", "99999999999"), ("utc-offset", "999999"), ("scenario", "../../elsewhere"),
        ] {
            #expect(throws: FleetMergeError.self, "\(key) \(value)") { try FleetPartialFile.parse(edited(key, value), file: "p.txt") }
        }
        // Counters that contradict each other, and text after the end.
        let counts = text.split(separator: "\n").first { $0.hasPrefix("counts ") }!.split(separator: " ").map(String.init)
        var moreStaleThanViews = counts
        moreStaleThanViews[9] = String(Int(counts[8])! + 1)
        var stalenessWithoutStaleViews = counts
        (stalenessWithoutStaleViews[9], stalenessWithoutStaleViews[10]) = ("0", "5")
        for forged in [moreStaleThanViews, stalenessWithoutStaleViews] {
            #expect(throws: FleetMergeError.self, "\(forged)") { try FleetPartialFile.parse(edited("counts", forged.dropFirst().joined(separator: " ")), file: "p.txt") }
        }
        #expect(throws: FleetMergeError.self) { try FleetPartialFile.parse(text + "garbage\n", file: "p.txt") }
        #expect(throws: FleetMergeError.self) { try FleetPartialFile.parse(text + "\n" + text, file: "p.txt") }
        var huge = second
        huge.variants[0].aggregate.counts.budgetedReloads = Int.max - 1
        var alsoHuge = first
        alsoHuge.variants[0].aggregate.counts.budgetedReloads = Int.max - 1
        #expect(throws: FleetMergeError.self) { try FleetResult.merge([alsoHuge, huge]) }
    }

    /// A hand-made partial of one device's shard with `variants` variant
    /// blocks, all counters zero but the device.
    static func partialText(variants: Int, days: Int = 1) -> String {
        let head = ["widgetsim-fleet-partial 1", "scenario z", "fingerprint 1", "seed 1", "days \(days)", "start 2026 3 2 0 0 0",
                    "utc-offset 0", "devices 1", "warm-up-days 0", "shards 1 0", "description "]
        let blocks = (0..<variants).flatMap {
            ["variant v\($0)", "variant-description ", "counts 1 0 0 0 0 0 0 0 0 0", "requests-per-minute ", "reloads-per-device-day ", "staleness "]
        }
        return (head + blocks + ["end"]).joined(separator: "\n") + "\n"
    }

    /// A fleet run has its base and at most `ScenarioLimits.maximumVariants`
    /// variants; a partial file claiming more was not written by one, and
    /// each variant would cost the merge days × 1,440 counters.
    @Test func aPartialFileWithMoreVariantsThanAScenarioMayHaveIsRefused() throws {
        let most = ScenarioLimits.maximumVariants + 1
        #expect(try FleetPartialFile.parse(Self.partialText(variants: most), file: "p.txt").variants.count == most)
        #expect(throws: FleetMergeError.malformed(file: "p.txt", line: 11 + most * 6 + 1, reason: "more than 65 variants, the most a fleet run has (its base and at most 64 variants, as a scenario may declare)")) {
            try FleetPartialFile.parse(Self.partialText(variants: most + 1), file: "p.txt")
        }
    }

    /// Merging holds a partial's variants three times (the merged result, its
    /// copy while adding, and the file being read): a merge that would need more memory than a fleet
    /// run may plan on is refused at the variant that passes the limit,
    /// before its counters are allocated.
    @Test func aPartialFileNeedingMoreMemoryThanARunMayPlanOnIsRefused() throws {
        let text = Self.partialText(variants: 3, days: 366)
        let two = FleetAggregate.plannedBytes(days: 366, variants: 2, inFlight: 4, readingBytes: text.utf8.count)
        #expect(try FleetPartialFile.parse(text, file: "p.txt", memoryLimit: 1 << 40).variants.count == 3)
        do {
            _ = try FleetPartialFile.parse(text, file: "p.txt", memoryLimit: two)
            Issue.record("a merge needing more memory than the limit was not refused")
        } catch {
            guard case .needsTooMuchMemory(let file, let line, let reason) = error else { Issue.record("\(error)"); return }
            #expect(file == "p.txt" && line == 11 + 2 * 6 + 1)
            #expect(reason.hasPrefix("merging 3 variants × 366 days would need about "), "\(reason)")
        }
    }

    /// A merge reads, then writes: the file's text and its counters are gone
    /// before the per-minute CSV text is built, so the two are not planned
    /// on together. A year of a base and 64 variants writes more than a
    /// 100 MiB partial file takes to read, so reading it adds nothing.
    @Test func aMergeIsPlannedOnItsLargerPhaseNotBoth() {
        let writing = FleetAggregate.plannedBytes(days: 366, variants: 65, inFlight: 0)
        let readingToo = FleetAggregate.plannedBytes(days: 366, variants: 65, inFlight: 0, readingBytes: 100 * 1_024 * 1_024)
        #expect(readingToo == writing)
        // A file larger than all the writing takes is planned on in full.
        let huge = FleetAggregate.plannedBytes(days: 366, variants: 65, inFlight: 0, readingBytes: 1 << 30)
        #expect(huge > writing)
    }

    /// Memory does not grow with devices: the aggregate's size depends on days only.
    @Test func theAggregateSizeDependsOnDaysNotDevices() throws {
        let small = try Self.run(try Self.document(devices: 10, days: 2)).variants[0].aggregate
        let large = try Self.run(try Self.document(devices: 200, days: 2)).variants[0].aggregate
        #expect(small.requestsPerMinute.count == 2 * 1_440 && large.requestsPerMinute.count == 2 * 1_440)
        #expect(small.stalenessHistogram.count == large.stalenessHistogram.count)
        #expect(large.devices == 200 && small.devices == 10)
    }

    /// F25: after(date) rounded to the wall-clock hour makes the fleet reload
    /// together; jitter spreads it.
    @Test func jitterCutsThePeakOfHourAlignedReloads() throws {
        let result = try Self.run(try Self.document(devices: 300, days: 2))
        let peaks = result.variants.map { $0.aggregate.requestsPerMinute.max()! }
        #expect(result.variants.map(\.name) == ["hour-aligned", "jitter-10m", "not-aligned"])
        #expect(Double(peaks[1]) < 0.6 * Double(peaks[0]))
        #expect(peaks[2] < peaks[1])
    }

    @Test func warmUpDaysAreSimulatedButNotCounted() throws {
        var document = try Self.document(devices: 40, days: 1)
        document.base.population.updateFleet { $0.warmUpDays = 0 }
        let cold = try FleetRun.run(document.base, options: FleetRun.Options())
        document.base.population.updateFleet { $0.warmUpDays = 1 }
        let warm = try FleetRun.run(document.base, options: FleetRun.Options())
        #expect(cold.widgetDays == warm.widgetDays)
        #expect(warm.events > cold.events)
        // Without warm-up every widget's initial reload falls in the counted day.
        #expect(cold.counts.freeReloads > warm.counts.freeReloads)
    }

    /// fleet.md marks a variant that withholds more than a request per
    /// widget-day as over budget, as `compare` does, and says what it means.
    @Test func aVariantThatWithholdsMoreThanTheToleranceIsMarkedOverBudget() throws {
        let text = """
        { "name": "greedy", "seed": 1, "days": 2, "scheduler": { "budgetModel": "rollingWindow", "dailyBudget": { "min": 10, "max": 10 } },
          "fleet": { "devices": 10, "warmUpDays": 0,
            "device": {
              "pages": [ { "name": "home", "viewsPerDay": 40 } ],
              "widgets": [ { "id": "w", "page": "home", "provider": { "policy": "after", "after": "5m" },
                             "truth": { "randomChangesPerDay": 48, "onRandomChange": "push" } } ] } },
          "baseName": "every-5m",
          "variants": [ { "name": "hourly", "provider": { "after": "1h" }, "truth": { "onRandomChange": "none" },
                          "scheduler": { "dailyBudget": { "min": 70, "max": 70 } } } ] }
        """
        let report = FleetReport(try Self.run(try ScenarioLoader.decodeDocument(text, file: "greedy.json"))).markdown()
        #expect(report.contains("| every-5m (over budget) |"), "\(report)")
        #expect(report.contains("| hourly |"))
        #expect(report.contains("*Over budget*: withholds more than 1 request per widget-day on average"))
        #expect(!FleetReport(try Self.run(try Self.document(devices: 20, days: 1))).markdown().contains("over budget"))
    }

    /// A fleet's load rests on the scheduler's guesses (`extraTimelineCalls`
    /// alone can triple it), so fleet.md names the parameters the base ran
    /// under and what each variant changes, and a partial file carries them
    /// to `merge`: two runs under different settings do not read alike.
    @Test func aFleetReportNamesTheSchedulerParametersItRanUnder() throws {
        let text = """
        { "name": "guesses", "seed": 1, "days": 1, "scheduler": { "extraTimelineCalls": { "min": 0, "max": 4 } },
          "fleet": { "devices": 4, "warmUpDays": 0,
            "device": {
              "pages": [ { "name": "home", "viewsPerDay": 20 } ],
              "widgets": [ { "id": "w", "page": "home", "provider": { "policy": "after", "after": "1h" } } ] } },
          "variants": [ { "name": "same", "provider": { "after": "30m" } },
                        { "name": "paced-less", "scheduler": { "pacingWindow": "12h", "pushBudget": "free" } } ] }
        """
        let result = try Self.run(try ScenarioLoader.decodeDocument(text, file: "guesses.json"))
        let report = FleetReport(result).markdown()
        #expect(report.contains("| extraTimelineCalls | 0–4 | F18 [gap] |"), "\(report)")
        #expect(report.contains("| pacingWindow | 18h | F8, F10 [gap] |"))
        #expect(report.contains("`paced-less` runs under pacingWindow 12h, pushBudget free."))
        #expect(!report.contains("`same` runs under"))
        let read = try FleetPartialFile.parse(FleetPartialFile.render(result), file: "p.txt")
        #expect(read.variants.map(\.scheduler) == result.variants.map(\.scheduler))
        #expect(read.variants[0].scheduler.count == SchedulerParameters.catalogue.count)
        var edited = read
        edited.variants[2].scheduler[0].value = "unlimited"
        #expect(result.differences(from: edited) == ["the scheduler settings of variant 'paced-less' differ"])
        // A file whose settings are out of order, repeated or cut short was
        // edited or damaged: refused, not shown as a table it does not hold.
        let lines = FleetPartialFile.render(result).split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.firstIndex { $0.hasPrefix("setting ") })
        var swapped = lines
        swapped.swapAt(first, first + 1)
        var repeated = lines
        repeated.insert(lines[first], at: first + 1)
        var short = lines
        short.remove(at: first + SchedulerParameters.catalogue.count - 1)
        for damaged in [swapped, repeated, short] {
            #expect(throws: FleetMergeError.self) { try FleetPartialFile.parse(damaged.joined(separator: "\n"), file: "p.txt") }
        }
    }

    /// A partial file written before the scheduler settings were recorded
    /// merges with one that records them, in either order, and the merged
    /// report shows them.
    @Test func aPartialWithoutSchedulerSettingsMergesWithOneThatHasThem() throws {
        let document = try Self.document(devices: 30, days: 1)
        let first = try Self.run(document, shard: FleetRun.Shard(index: 0, count: 2))
        let second = try Self.run(document, shard: FleetRun.Shard(index: 1, count: 2))
        var older = first
        for index in older.variants.indices { older.variants[index].scheduler = [] }
        #expect(second.differences(from: older).isEmpty)
        let whole = try Self.run(document)
        for parts in [[older, second], [second, older]] {
            #expect(try FleetResult.merge(parts).variants.map(\.scheduler) == whole.variants.map(\.scheduler))
        }
    }

    /// A fleet template's scripted instants and truth changes known in
    /// advance are instants of the measured run, as moments are: the
    /// warm-up days before it do not move them a day early.
    @Test func warmUpLeavesTheTemplatesInstantsWhereTheyWereWritten() throws {
        let text = """
        { "name": "fixtures", "seed": 1, "days": 3, "start": "2026-03-02T00:00", "utcOffset": "+00:00",
          "fleet": { "devices": 30, "warmUpDays": 1, "addedWithin": "0s",
            "device": {
              "pages": [ { "name": "home", "viewsPerDay": 20 } ],
              "apps": [ { "id": "scores", "sessionsPerDay": 0 } ],
              "widgets": [
                { "id": "score", "kind": "k.score", "app": "scores", "page": "home", "provider": { "policy": "never" },
                  "truth": { "scheduledChanges": ["2026-03-03T15:00", "2d20h"] } }
              ],
              "script": [ { "at": ["2026-03-03T15:10", "2d20h10m"], "action": "push", "app": "scores" } ] } } }
        """
        let setup = try ScenarioLoader.decodeDocument(text, file: "fixtures.json").base
        let simulated = setup.warmedUp
        let template = simulated.fleet!.template
        let written = ["2026-03-03T15:10:00+00:00", "2026-03-04T20:10:00+00:00"]
        #expect(template.script.map { simulated.calendar.iso8601($0.at) } == written)
        #expect(template.widgets[0].truth.scheduledChanges.map { simulated.calendar.iso8601($0) }
            == ["2026-03-03T15:00:00+00:00", "2026-03-04T20:00:00+00:00"])
        // The widget never asks for a reload, so its requests are the pushes':
        // nearly every device's (a few wait for a view, F9) in the two hours
        // after each time written, counted from the measured start, and none
        // a day earlier.
        let counts = try FleetRun.run(setup, options: FleetRun.Options()).requestsPerMinute
        func requests(inTwoHoursFrom t: SimTime) -> Int { counts[(t / Seconds.minute)..<(t + 2 * Seconds.hour) / Seconds.minute].reduce(0, +) }
        for pushed in [Seconds.day + 15 * Seconds.hour + 10 * Seconds.minute, 2 * Seconds.day + 20 * Seconds.hour + 10 * Seconds.minute] {
            #expect(requests(inTwoHoursFrom: pushed) >= 25)
            #expect(requests(inTwoHoursFrom: pushed - Seconds.day) == 0)
        }
    }
}
