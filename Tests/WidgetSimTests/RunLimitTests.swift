import Foundation
import Testing
@testable import WidgetSim

/// What `validate` accepts, a run finishes: the estimate refuses a run past
/// the limits before it starts, and a run that passes them anyway stops
/// with an error instead of crashing or exhausting the machine.
@Suite("Run limits")
struct RunLimitTests {
    static func weather(days: Int = 2) throws -> SimulationSetup {
        var setup = try ScenarioLoader.load(path: Paths.scenario("weather"))
        setup.days = days
        return setup
    }

    @Test func aDeviceThatSchedulesMoreEventsThanTheGuardStopsWithAnError() throws {
        var limits = RunLimits()
        limits.guardEventsPerDevice = 2_000
        #expect(throws: RunLimitExceeded.self) { _ = try Simulation.run(try Self.weather(days: 30), limits: limits) }
        let setup = try Self.weather(days: 30)
        do throws(RunLimitExceeded) {
            _ = try Simulation.run(setup, limits: limits)
        } catch {
            #expect(error.kind == .events && error.device == "phone" && error.limit == 2_000)
            #expect(error.description.contains("scheduled more than 2,000 events"))
        }
    }

    @Test func aRunWhoseRowsPassTheMemoryLimitStopsWithAnError() throws {
        var limits = RunLimits()
        limits.memoryBytes = 200_000
        let setup = try Self.weather(days: 30)
        do throws(RunLimitExceeded) {
            _ = try Simulation.run(setup, limits: limits)
            Issue.record("the run did not stop")
        } catch {
            #expect(error.kind == .memory)
        }
    }

    @Test func aRunWithinTheLimitsIsUnchangedByThem() throws {
        let setup = try Self.weather()
        var generous = RunLimits()
        generous.guardEventsPerDevice = 1 << 40
        let a = ReportWriter(setup: setup, collector: try Simulation.run(setup)).files()
        let b = ReportWriter(setup: setup, collector: try Simulation.run(setup, limits: generous)).files()
        #expect(a == b)
    }

    @Test func theEstimateRefusesARunPastTheLimitsAndNamesTheField() throws {
        var setup = try Self.weather(days: 366)
        let template = setup.devices[0].widgets[0]
        setup.population = .devices([{
            var device = setup.devices[0]
            device.widgets = (0..<20).map { index in
                var widget = template
                widget.id = "w\(index)"
                widget.truth.randomChangesPerDay = 10_000
                widget.truth.reaction = .reloadAll
                return widget
            }
            return device
        }()])
        let refusal = try #require(RunLimits.refusal(RunEstimate(setup), command: "simulate"))
        #expect(refusal.contains("devices[0].widgets[*].truth.randomChangesPerDay (20 widgets)"))
    }

    /// A weather phone whose widget, copied `widgets` times, returns
    /// `entries` entries a call.
    static func weather(widgets: Int, entries: Int) throws -> SimulationSetup {
        var setup = try Self.weather()
        var device = setup.devices[0]
        let template = device.widgets[0]
        device.widgets = (0..<widgets).map { index in
            var widget = template
            widget.id = "w\(index)"
            guard case .configured(var settings) = widget.provider else { return widget }
            settings.entryCount = entries
            widget.provider = .configured(settings)
            return widget
        }
        setup.population = .devices([device])
        return setup
    }

    /// The timelines a device's providers return live as long as the device
    /// runs, one device a thread: a run of long timelines is refused for
    /// the memory they hold, naming the entries, not left to fail to allocate.
    @Test func theTimelinesOfTheDevicesInFlightCountInTheMemoryARunHolds() throws {
        let estimate = RunEstimate(try Self.weather(widgets: 200, entries: 10_000))
        let perDevice = 200 * 10_000 * RunEstimate.bytesPerTimelineEntry
        #expect(estimate.timelineBytesPerDevice == perDevice)
        #expect(estimate.simulateBytes >= perDevice)
        #expect(estimate.compareBytes(threads: 3) >= 3 * perDevice)
        #expect(estimate.timelineBytes(threads: 3) == 3 * perDevice)
        // 64 threads hold 12 GiB, past any machine's limit (at most 8 GiB).
        let refusal = try #require(RunLimits.refusal(estimate, command: "fleet", threads: 64))
        #expect(refusal.contains("most of it the timelines its widgets' providers return (64 devices at a time, one a thread)"), "\(refusal)")
        #expect(refusal.contains("Lower the entries of the longest, devices[0].widgets[0].provider.entries"), "\(refusal)")
    }

    /// A fleet device's views and sessions are the template's times a draw
    /// of the fleet's scales: the estimate counts them at the scales' means,
    /// so ten million devices whose views are scaled a million times (about
    /// 35 hours of work, measured) are refused, naming the scale.
    @Test func aFleetsEstimateCountsViewsAndSessionsAtTheirScalesMeans() throws {
        func fleet(viewsScale: String, sessionsScale: String = "1") throws -> SimulationSetup {
            try ScenarioLoader.decode("""
                { "name": "scaled", "days": 14,
                  "fleet": { "devices": 10000000, "viewsScale": \(viewsScale), "sessionsScale": \(sessionsScale),
                    "device": { "pages": [ { "name": "home", "viewsPerDay": 40 } ], "apps": [ { "id": "a", "sessionsPerDay": 4 } ],
                      "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "1h" } } ] } } }
                """, file: "scaled.json")
        }
        let plain = RunEstimate(try fleet(viewsScale: "1"))
        let views = { (estimate: RunEstimate) in estimate.sources.first { $0.field.hasPrefix("fleet.device.pages[0].viewsPerDay") }!.eventsPerDay }
        let sessions = { (estimate: RunEstimate) in estimate.sources.first { $0.field.hasPrefix("fleet.device.apps[0].sessionsPerDay") }!.eventsPerDay }
        #expect(views(plain) == 40)
        #expect(sessions(plain) == 8)
        let scaled = RunEstimate(try fleet(
            viewsScale: #"{ "distribution": "uniform", "min": 1, "max": 3 }"#, sessionsScale: #"{ "distribution": "uniform", "min": 0, "max": 1 }"#))
        #expect(views(scaled) == 80)
        #expect(sessions(scaled) == 4)
        // The calls that sessions bring (free reloads, F17) name the scale too;
        // a field no scale moves does not.
        #expect(scaled.sources.contains { $0.field.hasPrefix("fleet.device.widgets[0].provider") && $0.field.hasSuffix("× fleet.sessionsScale (mean 0.50)") },
                "\(scaled.sources.map(\.field))")
        #expect(scaled.sources.contains { $0.field == "days" })
        let refusal = try #require(RunLimits.refusal(RunEstimate(try fleet(viewsScale: "1000000")), command: "fleet"))
        #expect(refusal.contains("fleet.device.pages[0].viewsPerDay × fleet.viewsScale (mean 1000000.00)"), "\(refusal)")
        #expect(RunLimits.refusal(plain, command: "fleet") == nil)
    }

    /// An unlimited fleet whose provider asks for a reload every second
    /// ten million times a day in all: `after(1s)` in a schedule rule, or
    /// failing fetches retried after a second, or many fleet moments.
    static func unlimitedFleet(provider: String, moments: String = "") throws -> SimulationSetup {
        try ScenarioLoader.decode("""
            { "name": "busy", "days": 366,
              "scheduler": { "budgetModel": "unlimited", "minimumSpacing": "0s", "coalescingWindow": "0s", "schedulingDelay": "0s" },
              "fleet": { "devices": 1000000\(moments),
                "device": { "user": { "locationChangesPerDay": 0, "systemChangesPerDay": 0 }, "pages": [ { "name": "home", "viewsPerDay": 40 } ],
                  "widgets": [ { "id": "w", "provider": \(provider) } ] } } }
            """, file: "busy.json")
    }

    /// The provider calls a day the estimate counts (a row each).
    static func calls(_ estimate: RunEstimate) -> Double {
        estimate.sources.first { $0.field == "fleet.device.widgets[0].provider" }?.rowsPerDay ?? 0
    }

    static func refusedAsOneFleetRun(_ estimate: RunEstimate) -> Bool {
        estimate.events > RunLimits.maximumEventsPerFleetRun
    }

    /// A schedule rule's `after` counts as if it applied all day: one of
    /// `after(1s)` makes a fleet's estimate that of `after(1s)` itself, which
    /// a million devices for a year are refused for (found by a red-team
    /// pass: such a run was accepted, about six days of work).
    @Test func aScheduleRulesShortestAfterCountsInTheEstimate() throws {
        let plain = RunEstimate(try Self.unlimitedFleet(provider: #"{ "policy": "after", "after": "30m" }"#))
        let ruled = RunEstimate(try Self.unlimitedFleet(provider: #"""
            { "policy": "after", "after": "30m", "schedule": [ { "from": "07:00", "to": "08:00", "policy": "after", "after": "1s" } ] }
            """#))
        let everySecond = RunEstimate(try Self.unlimitedFleet(provider: #"{ "policy": "after", "after": "1s" }"#))
        #expect(Self.calls(plain) == 48)
        #expect(Self.calls(ruled) == Self.calls(everySecond))
        #expect(Self.calls(ruled) == Double(Seconds.day))
        #expect(!Self.refusedAsOneFleetRun(plain))
        #expect(Self.refusedAsOneFleetRun(ruled))
    }

    /// A failed fetch asks again after `retryAfterFailure` whatever started
    /// it, and so does a failed retry: each call brings a chain of f / (1 − f)
    /// retries on average, at most one a `retryAfterFailure`.
    @Test func failedFetchesRetriesCountInTheEstimate() throws {
        func calls(_ failureRate: String, retry: String) throws -> Double {
            Self.calls(RunEstimate(try Self.unlimitedFleet(
                provider: #"{ "policy": "after", "after": "30m", "failureRate": \#(failureRate), "retryAfterFailure": "\#(retry)" }"#)))
        }
        // 48 calls a day by the policy, and their retries:
        #expect(try calls("0", retry: "1s") == 48)
        #expect(try calls("0.5", retry: "10m") == 48 + 48)
        #expect(abs(try calls("0.999", retry: "1s") - (48 + 48 * 999)) < 1e-6)
        // At most one retry a retryAfterFailure, and always so when every fetch fails.
        #expect(try calls("0.999", retry: "1m") == 48 + 1_440)
        #expect(try calls("1", retry: "1s") == 48 + Double(Seconds.day))
        #expect(Self.refusedAsOneFleetRun(RunEstimate(try Self.unlimitedFleet(
            provider: #"{ "policy": "after", "after": "30m", "failureRate": 1, "retryAfterFailure": "1s" }"#))))
    }

    /// Each fleet moment that can hit a device counts as its action and a
    /// reload of every widget: 50,000 of them on a million devices for a
    /// year are refused (ten million devices for a week took about 39 hours,
    /// measured by a red-team pass).
    @Test func aFleetsMomentsCountInItsEstimate() throws {
        let provider = #"{ "policy": "after", "after": "30m" }"#
        let plain = RunEstimate(try Self.unlimitedFleet(provider: provider))
        let hit = RunEstimate(try Self.unlimitedFleet(provider: provider, moments: #", "moments": [ { "at": "1h", "share": 1, "action": "systemChange" }, { "at": "2h", "share": 0.5, "action": "systemChange" }, { "at": "3h", "share": 0, "action": "systemChange" } ]"#))
        let moments = try #require(hit.sources.first { $0.field == "fleet.moments (2)" })
        // Two moments (a share of 0 hits nobody), each its action (2), a
        // request (1) and a call (3 events and its one entry's work).
        let perMoment = 2 + 1 + 3 + RunEstimate.eventsPerTimelineEntry
        #expect(abs(hit.eventsPerDevice - plain.eventsPerDevice - 2 * perMoment) < 1e-6)
        #expect(moments.eventsPerDay > 0)
        let many = (0..<50_000).map { #"{ "at": "\#($0)s", "share": 1, "action": "systemChange" }"# }.joined(separator: ", ")
        let busy = RunEstimate(try Self.unlimitedFleet(provider: provider, moments: #", "moments": [ \#(many) ]"#))
        #expect(Self.refusedAsOneFleetRun(busy))
        #expect(!Self.refusedAsOneFleetRun(plain))
    }

    /// A refusal gives its size and the limit in GiB to a tenth, or in MiB
    /// when both would read the same (under a small `ulimit -v`, "about 0.1
    /// GiB" against "0.1 GiB" gave no reason), never equal when over it.
    @Test func aRefusalsSizeAndLimitReadApartInMiBWhenTheyWouldReadTheSameInGiB() {
        let mib = 1_048_576.0, gib = 1_073_741_824.0
        let apart = RunLimits.sizes(2.3 * gib, limit: 1.5 * gib)
        #expect(apart.size == "2.3 GiB" && apart.limit == "1.5 GiB")
        let small = RunLimits.sizes(130 * mib, limit: 97 * mib)
        #expect(small.size == "130 MiB" && small.limit == "97 MiB")
        let close = RunLimits.sizes(100.2 * mib, limit: 100 * mib)
        #expect(close.size == "101 MiB" && close.limit == "100 MiB")
        let large = RunLimits.sizes(8.04 * gib, limit: 8 * gib)
        #expect(large.size == "8,233 MiB" && large.limit == "8,192 MiB")
    }

    /// A log-normal scale's mean is e^(σ²/2) times its median, and no more
    /// than e^30, where its draws stop.
    @Test func aScalesMeanIsItsDistributionsMean() {
        #expect(ValueDistribution.fixed(2.5).mean == 2.5)
        #expect(ValueDistribution.uniform(min: 1, max: 4).mean == 2.5)
        let sigma = DeterministicMath.log(2.5) / DurationDistribution.z95
        let mean = ValueDistribution.logNormal(median: 1, p95: 2.5).mean
        #expect(abs(mean - DeterministicMath.exp(sigma * sigma / 2)) < 1e-12)
        #expect(ValueDistribution.logNormal(median: 1e6, p95: 1e6).mean > 0.999_999e6)
        #expect(ValueDistribution.logNormal(median: 1, p95: 1e6).mean == DeterministicMath.exp(30))
    }

    /// Building a call's entries is work the event estimate counts: a long
    /// timeline makes each call cost more than its own events.
    @Test func theEntriesACallBuildsCountInTheEventEstimate() throws {
        let short = RunEstimate(try Self.weather(widgets: 1, entries: 1))
        let long = RunEstimate(try Self.weather(widgets: 1, entries: 10_000))
        let calls = try #require(short.sources.first { $0.field == "devices[0].widgets[0].provider" }).rowsPerDay
        #expect(calls > 0)
        let added = calls * 9_999 * RunEstimate.eventsPerTimelineEntry * Double(short.days)
        #expect(abs(long.eventsPerDevice - short.eventsPerDevice - added) < 1e-6 * long.eventsPerDevice)
    }

    /// A count in a refusal or an estimate reads as a person writes it:
    /// thousands grouped below a million, millions and billions in words.
    @Test func aCountIsGroupedByThousandsBelowAMillionAndInWordsAbove() {
        #expect(RunLimits.count(0) == "0")
        #expect(RunLimits.count(999) == "999")
        #expect(RunLimits.count(1_000) == "1,000")
        #expect(RunLimits.count(109_800) == "109,800")
        #expect(RunLimits.count(999_999) == "999,999")
        #expect(RunLimits.count(999_999.6) == "1 million")
        #expect(RunLimits.count(1_000_000) == "1 million")
        #expect(RunLimits.count(3_140_000_000) == "3.1 billion")
        #expect(RunLimits.count(1_389_240_000_000) == "1,389.2 billion")
        #expect(RunLimits.count(2_000_000_000) == "2 billion")
        #expect(RunLimits.count(1e30) == "1e+21 billion")
        #expect(DisplayText.grouped(-1_234_567) == "-1,234,567")
        #expect(DisplayText.grouped(Int.min) == "-9,223,372,036,854,775,808")
    }

    /// Every scripted action is planned before the run starts, so a script
    /// whose daily entries multiply past the limit is refused with its
    /// field, whatever the days (a file's own, or --days).
    @Test func aScriptPastTheActionLimitIsRefusedBeforeItExpands() throws {
        var setup = try Self.weather(days: 366)
        var device = setup.devices[0]
        device.repeatingScript = (0..<300).map { RepeatingAction(secondOfDay: $0 * 60, .systemChange) }
        setup.population = .devices([device])
        let refusal = try #require(RunLimits.refusal(RunEstimate(setup), command: "simulate"))
        #expect(refusal.contains("devices[0].script over 366 days would give one device 109,800 scripted actions"))
        setup.days = 7
        #expect(RunLimits.refusal(RunEstimate(setup), command: "simulate") == nil)
    }

    /// The count is the simulator's own: a script of exactly the limit runs,
    /// one more action does not.
    @Test func aScriptOfExactlyTheActionLimitRuns() throws {
        var setup = try Self.weather(days: 100)
        var device = setup.devices[0]
        device.repeatingScript = (0..<1_000).map { RepeatingAction(secondOfDay: $0 * 60, .systemChange) }
        setup.population = .devices([device])
        let expanded = device.repeatingScript.reduce(0) { $0 + $1.instants(before: setup.endTime, calendar: setup.calendar).count }
        #expect(expanded == 100_000)
        #expect(RunEstimate(setup).scriptedActionsPerDevice == 100_000)
        #expect(RunLimits.refusal(RunEstimate(setup), command: "simulate") == nil)
        device.script = [ScriptedAction(at: 0, .systemChange)]
        setup.population = .devices([device])
        #expect(RunLimits.refusal(RunEstimate(setup), command: "simulate") != nil)
    }

    /// Only actions inside the run are planned, so only they count: a fixed
    /// action after the end adds nothing, and a fleet's time zone of weight 0
    /// (never drawn) does not set the count.
    @Test func onlyActionsADeviceCanGetCountTowardTheActionLimit() throws {
        var setup = try Self.weather(days: 1)
        var device = setup.devices[0]
        device.script = (0..<200_000).map { ScriptedAction(at: 2 * Seconds.day + $0, .systemChange) }
        setup.population = .devices([device])
        #expect(RunEstimate(setup).scriptedActionsPerDevice == 0)

        var fleet = try FleetMomentTests.document().base
        fleet.days = 1
        fleet.population.updateFleet { fleet in
            fleet.warmUpDays = 0
            fleet.moments = []
            fleet.template.script = []
            // Thursdays at 13:00 on the device's own clock: the run is Friday
            // 2026-03-27 at +00:00, but from Thursday noon to Friday noon at -12:00.
            fleet.template.repeatingScript = [RepeatingAction(secondOfDay: 13 * Seconds.hour, weekdays: [.thursday], .systemChange)]
            fleet.variation.utcOffsets = [(0, 1), (-12 * Seconds.hour, 0)]
        }
        #expect(RunEstimate(fleet).scriptedActionsPerDevice == 0)
        fleet.population.updateFleet { $0.variation.utcOffsets = [(0, 1), (-12 * Seconds.hour, 1)] }
        #expect(RunEstimate(fleet).scriptedActionsPerDevice == 1)
    }

    /// A fleet device holds the template's script and every moment.
    @Test func aFleetTemplatesScriptAndMomentsCountTowardTheActionLimit() throws {
        var document = try FleetMomentTests.document()
        document.base.population.updateFleet { fleet in
            fleet.moments = (0..<Int(RunLimits.maximumScriptedActionsPerDevice)).map { _ in FleetMomentTests.moment(share: 0.5) }
        }
        let refusal = try #require(RunLimits.refusal(RunEstimate(document.base), command: "fleet"))
        #expect(refusal.contains("fleet.device.script and fleet.moments (100000) over 3 days"))
        // A moment that hits no device adds nothing.
        document.base.population.updateFleet { fleet in
            for index in fleet.moments.indices { fleet.moments[index].share = 0 }
        }
        #expect(RunLimits.refusal(RunEstimate(document.base), command: "fleet") == nil)
    }

    @Test(arguments: GoldenReportTests.scenarioNames)
    func everyShippedScenarioIsWithinTheLimits(scenario: String) throws {
        let document = try ScenarioLoader.loadDocument(path: Paths.scenario(scenario))
        for variant in document.all {
            #expect(RunLimits.refusal(RunEstimate(variant.setup), command: variant.setup.fleet == nil ? "simulate" : "fleet") == nil)
        }
    }

    /// The estimate is an upper estimate: no shipped scenario handles more
    /// events or keeps more rows than it says.
    @Test(arguments: GoldenReportTests.deviceScenarioNames)
    func theEstimateBoundsWhatAShippedScenarioDoes(scenario: String) throws {
        let setup = try ScenarioLoader.load(path: Paths.scenario(scenario))
        var events = 0
        let collector = try Simulation.run(setup, devices: 0..<setup.population.count, observer: ReportCollector()) { _, _, handled in
            events += handled
        }
        let rows = collector.reloads.count + collector.views.count + collector.withheld.count + collector.dayStarts.count
        let estimate = RunEstimate(setup)
        #expect(Double(events) <= estimate.events, "\(events) events, estimated \(estimate.events)")
        #expect(Double(rows) <= estimate.rows, "\(rows) rows, estimated \(estimate.rows)")
    }
}
