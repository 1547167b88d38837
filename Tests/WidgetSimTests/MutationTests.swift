import Foundation
import Testing
@testable import WidgetSim
@testable import WidgetSimCLI
@testable import WidgetSimMutation

/// Mutated inputs of every format get a clean error or are accepted, never a
/// crash (README, "Errors, exit codes and safety": "There is never a crash or
/// a stack trace"). The mutants are `make mutate`'s, at a small scale, fed
/// in-process to the parsers the commands use: the scenario decoder, the
/// report checker with `check`'s options, and the partial-file reader with
/// the merge and the fleet report after it, and the device-log reader with
/// its analysis.
///
/// Each sweep runs in a child process (an exit test), so a crash fails the
/// test instead of ending the test run. The child writes each mutant's number
/// to a file before feeding it, so a crash names its mutant, and the sweep
/// goes on after it to find the next. `make mutate` is the long version
/// against the release binary, with timeouts and a memory limit.
///
/// The inputs that crashed before issue 11's fixes are pinned below, each
/// with the function that crashed, so none can come back.
@Suite("Mutation")
struct MutationTests {
    /// Fixed, so a failure names a mutant that stays the same from run to run.
    static let masterSeed: UInt64 = 2_026_112_301

    static let mutantsPerKind: [Mutant.Kind: Int] = [.scenario: 300, .reportDirectory: 200, .reloadsLog: 300, .fleetPartial: 120, .deviceLog: 200]

    /// The committed reports mutants start from: small ones, so a debug build gets through them quickly.
    static let reportNames = ["weather", "news", "stocks"]

    /// The shipped scenarios, three committed reports, the two shards of
    /// a 20-device, 1-day fleet-weather run, made here as `widgetsim fleet
    /// --shard i/2 --partial` would, and the device logs of the same three
    /// scenarios' phones over 3 days, as `simulate --device-log` writes them.
    static func corpus() throws -> MutationCorpus {
        let document = try FleetTests.document(devices: 20, days: 1)
        let parts = (0..<2).map { index in
            SeedFile(name: "part-\(index + 1).txt", bytes: Array(partial(document, shard: index).utf8))
        }
        let logs = try reportNames.map { name in
            var setup = try ScenarioLoader.load(path: Paths.scenario(name))
            setup.days = 3
            return SeedFile(name: "\(name).csv", bytes: Array(try Simulation.deviceLog(setup, device: 0).render().utf8))
        }
        return try MutationCorpus.load(
            scenarioDirectory: Paths.packageRoot.appendingPathComponent("Scenarios").path,
            reportDirectories: reportNames.map { Paths.packageRoot.appendingPathComponent("Reports/\($0)").path },
            partialGroups: [], partials: [SeedGroup(name: "partials/fleet-weather", files: parts)], deviceLogs: logs)
    }

    /// Shard `shard` of 2 as a partial file.
    static func partial(_ document: ScenarioDocument, shard: Int) -> String {
        // A 20-device day is far inside the run limits; a failure here is a broken test.
        FleetPartialFile.render(try! FleetTests.run(document, threads: 1, shard: FleetRun.Shard(index: shard, count: 2)))
    }

    // MARK: Feeding a mutant to the parsers

    /// Feeds `mutant` to what its command would run, in-process (a device
    /// log to what `check --device-log` and `calibrate` read it with; the
    /// calibration itself runs in `make mutate`, against the release build). Returns
    /// whether the input was accepted or refused with an error: both are fine.
    @discardableResult
    static func feed(_ mutant: Mutant) -> Bool {
        func text(_ path: String) -> String? { mutant.bytes(at: path).map { String(decoding: $0, as: UTF8.self) } }
        switch mutant.kind {
        case .scenario:
            // A special file (a pipe, a directory) has no bytes to parse; `make mutate` runs those.
            guard let file = mutant.files.first, let bytes = mutant.bytes(at: file.path) else { return false }
            return (try? ScenarioLoader.decodeDocument(bytes, file: file.path, catalog: .builtIn)) != nil
        case .reportDirectory, .reloadsLog:
            let command: CheckCommand
            do {
                command = try CheckCommand(ParsedArguments(Array(mutant.arguments.dropFirst()), options: CheckCommand.options, command: "check"))
            } catch {
                return false
            }
            let rules: ReportRules?
            do {
                rules = try command.rules()
            } catch {
                return false
            }
            if let log = command.reloadsLog {
                guard let log = text(log) else { return false }
                return (try? ReportChecker.checkReloadsLog(log, file: "reloads.csv", rules: rules ?? ReportRules())) != nil
            }
            return (try? ReportChecker.checkDirectory(command.directory ?? "report", rules: rules, read: text)) != nil
        case .fleetPartial:
            var parts: [FleetResult] = []
            for path in mutant.arguments.dropFirst() where path.hasSuffix(".txt") {
                guard let partial = text(path), let part = try? FleetPartialFile.parse(partial, file: path) else { return false }
                parts.append(part)
            }
            guard let merged = try? FleetResult.merge(parts) else { return false }
            // What `merge` writes next: the report's arithmetic runs on the merged counters.
            _ = FleetReport(merged).files()
            return true
        case .deviceLog:
            guard let bytes = mutant.bytes(at: "log.csv") else { return false }
            _ = LogFormat(header: bytes)
            guard let log = try? DeviceLog.parse(bytes, file: "log.csv") else { return false }
            let analysis = DeviceLogAnalysis(log)
            // What both commands compute from the analysis before they go on.
            _ = (analysis.widgets.map { $0.gaps.count + $0.mostIn24Hours }, Calibration.simulatedDays(analysis), analysis.sortedGaps)
            return true
        }
    }

    /// In the child process: feeds mutants `first..<end` of `kind`, writing
    /// each one's number to `progress` first, so a crash leaves its name behind.
    static func feedMutants(kind: Mutant.Kind, from first: Int, to end: Int, progress: String) throws {
        let mutator = Mutator(corpus: try corpus(), masterSeed: masterSeed, scale: .small)
        let log = FileHandle(forWritingAtPath: progress)
        for index in first..<end {
            log?.write(Data("\(index)\n".utf8))
            feed(mutator.mutant(UInt64(index), kind: kind))
        }
    }

    /// Sweeps the mutants of `kind` in child processes, going on past each
    /// crash; returns the crashing mutants, each with its edits and the
    /// runtime's reason.
    static func crashingMutants(_ kind: Mutant.Kind) async -> [String] {
        let count = mutantsPerKind[kind] ?? 0
        let progress = Paths.temporaryDirectory("mutation").appendingPathComponent("progress.txt").path
        var crashes: [String] = []
        var first = 0
        while first < count {
            _ = FileManager.default.createFile(atPath: progress, contents: nil)
            let passed = await #expect(processExitsWith: .success, "a \(kind.name) mutant from number \(first) on crashed (named below)") {
                [kind = kind.rawValue as Int, first = first as Int, count = count as Int, progress = progress as String] in
                try MutationTests.feedMutants(kind: Mutant.Kind(rawValue: kind)!, from: first, to: count, progress: progress)
            } != nil
            if passed { break }
            let started = (try? String(contentsOfFile: progress, encoding: .utf8))?.split(separator: "\n").last.flatMap { Int($0) }
            guard let index = started else {
                crashes.append("the sweep from \(first) crashed before its first mutant")
                break
            }
            crashes.append("mutant \(index): \(await crashReason(kind, index)); \(describe(kind, index))")
            first = index + 1
        }
        return crashes
    }

    /// Runs one mutant again, expecting the crash, to read the runtime's message.
    static func crashReason(_ kind: Mutant.Kind, _ index: Int) async -> String {
        // The child inherits this: a backtrace names the function that crashed.
        // (Only after a crash, and the value is the runtime's own default on
        // Linux, so other tests' children are not changed by it.)
        setenv("SWIFT_BACKTRACE", "enable=yes,interactive=no", 1)
        let result = await #expect(processExitsWith: .failure, observing: [\.exitStatus, \.standardErrorContent]) {
            [kind = kind.rawValue as Int, index = index as Int] in
            try MutationTests.feedMutants(kind: Mutant.Kind(rawValue: kind)!, from: index, to: index + 1, progress: "/dev/null")
        }
        guard let result else { return "it crashed once but not again" }
        return CrashReport.site(in: String(decoding: result.standardErrorContent, as: UTF8.self)) ?? "\(result.exitStatus)"
    }

    static func describe(_ kind: Mutant.Kind, _ index: Int) -> String {
        guard let mutant = try? Mutator(corpus: corpus(), masterSeed: masterSeed, scale: .small).mutant(UInt64(index), kind: kind) else { return "?" }
        let arguments = mutant.arguments.dropFirst().map { $0.count > 40 ? String($0.prefix(24)) + "…" : $0 }
        let options = mutant.arguments.contains { $0.hasPrefix("--") } ? " [\(arguments.joined(separator: " "))]" : ""
        return "\(mutant.origin)\(options): \(mutant.edits.map(\.description).joined(separator: "; "))"
    }

    // MARK: Sweeps

    @Test func mutatedScenariosLoadOrGetACleanError() async {
        let crashes = await Self.crashingMutants(.scenario)
        #expect(crashes.isEmpty, "\(crashes.count) crash(es):\n\(crashes.joined(separator: "\n"))")
    }

    @Test func mutatedReportDirectoriesPassCheckOrGetACleanError() async {
        let crashes = await Self.crashingMutants(.reportDirectory)
        #expect(crashes.isEmpty, "\(crashes.count) crash(es):\n\(crashes.joined(separator: "\n"))")
    }

    @Test func mutatedReloadsLogsAndCheckOptionsPassOrGetACleanError() async {
        let crashes = await Self.crashingMutants(.reloadsLog)
        #expect(crashes.isEmpty, "\(crashes.count) crash(es):\n\(crashes.joined(separator: "\n"))")
    }

    @Test func mutatedFleetPartialsMergeOrGetACleanError() async {
        let crashes = await Self.crashingMutants(.fleetPartial)
        #expect(crashes.isEmpty, "\(crashes.count) crash(es):\n\(crashes.joined(separator: "\n"))")
    }

    @Test func mutatedDeviceLogsAreReadOrGetACleanError() async {
        let crashes = await Self.crashingMutants(.deviceLog)
        #expect(crashes.isEmpty, "\(crashes.count) crash(es):\n\(crashes.joined(separator: "\n"))")
    }

    /// The mutator is deterministic: `make mutate SEED=n` must make the same bytes as the sweep did.
    @Test func theSameSeedMakesTheSameMutant() throws {
        let corpus = try Self.corpus()
        let first = Mutator(corpus: corpus, masterSeed: Self.masterSeed, scale: .small)
        let second = Mutator(corpus: corpus, masterSeed: Self.masterSeed, scale: .small)
        for index in UInt64(0)..<200 {
            let (a, b) = (first.mutant(index), second.mutant(index))
            #expect(a.kind == b.kind && a.arguments == b.arguments && a.edits == b.edits)
            #expect(a.files.map(\.path) == b.files.map(\.path))
            #expect(a.files.map { a.bytes(at: $0.path) } == b.files.map { b.bytes(at: $0.path) })
        }
        #expect(first.mutant(7).edits != first.mutant(8).edits)
    }

    /// A mutated option the command already has (compare's and fleet's
    /// `--threads 1`, say) takes the new value in place of the old one: an
    /// option given twice is refused at parsing (64), so a repeated one
    /// would never reach the option's value.
    @Test func aMutatedOptionTheCommandAlreadyHasIsReplacedNotRepeated() {
        let commands = [
            ["compare", "s.json", "--runs", "2", "--out", "out", "-q", "--threads", "1"],
            ["fleet", "s.json", "--shard", "1/2", "--partial", "part.txt", "-q", "--threads", "1"],
            ["simulate", "s.json", "--out", "out", "-q"],
        ]
        var replaced = 0
        for command in commands {
            for seed in UInt64(0)..<200 {
                var arguments = command
                var random = RandomStream(seed: seed)
                let edit = Mutator.mutateOption(&arguments, random: &random)
                let option = String(edit.detail.prefix { $0 != " " })
                #expect(arguments.filter { $0 == option }.count == 1, "\(arguments)")
                if command.contains(option) {
                    replaced += 1
                    #expect(arguments.count == command.count, "\(arguments)")
                } else {
                    #expect(arguments.count == command.count + 2, "\(arguments)")
                }
                // The same draws make the same mutant.
                var again = command
                var repeated = RandomStream(seed: seed)
                _ = Mutator.mutateOption(&again, random: &repeated)
                #expect(again == arguments)
            }
        }
        #expect(replaced > 0)
    }

    // MARK: Known crashes

    /// Inputs that crashed widgetsim when this test was written (November
    /// 2026), pinned so each fix can be checked by name. Each must get a clean
    /// error, or be accepted; until its fix lands, its test fails.
    enum KnownCrash: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
        /// `check --minimum-spacing inf`: Int(Double.infinity) in CheckCommand.
        case minimumSpacingInfinity
        /// `check --minimum-spacing 1e308`: a finite Double past Int.max.
        case minimumSpacingPastIntMax
        /// A tokenBucket log whose budget_limit is Int.max: the audit's bound overflows.
        case tokenBucketLimitNearIntMax
        /// A paced log whose budget_limit is near Int.max: PacedBudget's audit overflows.
        case pacedLimitNearIntMax
        /// A views.csv whose staleness_seconds sum past Int.max.
        case viewsStalenessPastIntMax
        /// `merge` of one partial whose shards line is `9223372036854775807 0`.
        case shardCountIntMax
        /// `merge` of two partials whose counters add up past Int.max.
        case countersNearIntMax
        /// `merge` of partials whose reloads-per-device-day counts add up past Int.max: the report's sums overflow.
        case reloadsPerDeviceDayNearIntMax

        var testDescription: String { rawValue }
    }

    @Test(arguments: KnownCrash.allCases)
    func knownCrashInputGetsACleanError(_ crash: KnownCrash) async {
        let passed = await #expect(processExitsWith: .success, "\(crash.rawValue) still crashes") { [crash = crash as KnownCrash] in
            MutationTests.feed(try MutationTests.knownCrashMutant(crash))
        } != nil
        guard !passed else { return }
        setenv("SWIFT_BACKTRACE", "enable=yes,interactive=no", 1)
        let result = await #expect(processExitsWith: .failure, observing: [\.exitStatus, \.standardErrorContent]) { [crash = crash as KnownCrash] in
            MutationTests.feed(try MutationTests.knownCrashMutant(crash))
        }
        let site = result.flatMap { CrashReport.site(in: String(decoding: $0.standardErrorContent, as: UTF8.self)) } ?? "no backtrace"
        Issue.record("\(crash.rawValue): \(site)")
    }

    /// The pinned input: a seed with one edit, as `make mutate` found it.
    static func knownCrashMutant(_ crash: KnownCrash) throws -> Mutant {
        let weather = Paths.packageRoot.appendingPathComponent("Reports/weather").path
        func read(_ name: String) throws -> String { try String(contentsOfFile: weather + "/" + name, encoding: .utf8) }
        /// `text` with column `column` of every data row set to `value`.
        func everyRow(_ text: String, column: Int, _ value: String) -> [UInt8] {
            let lines = text.split(separator: "\n").enumerated().map { number, line -> String in
                guard number > 0 else { return String(line) }
                var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                fields[column] = value
                return fields.joined(separator: ",")
            }
            return Array((lines.joined(separator: "\n") + "\n").utf8)
        }
        func reloadsLog(_ bytes: [UInt8], _ options: [String]) -> Mutant {
            Mutant(index: 0, kind: .reloadsLog, origin: "reports/weather", files: [MutantFile(path: "reloads.csv", bytes: bytes)],
                   arguments: ["check", "--reloads", "reloads.csv"] + options, edits: [MutationEdit("pinned", crash.rawValue)])
        }
        let document = try FleetTests.document(devices: 20, days: 1)
        func editedPartial(_ shard: Int, _ edit: (String) -> String) -> MutantFile {
            let lines = MutationTests.partial(document, shard: shard).split(separator: "\n", omittingEmptySubsequences: false).map { edit(String($0)) }
            return MutantFile(path: "part-\(shard + 1).txt", bytes: Array(lines.joined(separator: "\n").utf8))
        }
        func merge(_ files: [MutantFile]) -> Mutant {
            Mutant(index: 0, kind: .fleetPartial, origin: "partials/fleet-weather", files: files,
                   arguments: ["merge"] + files.map(\.path) + ["--out", "out"], edits: [MutationEdit("pinned", crash.rawValue)])
        }
        let budgetLimit = ReportWriter.reloadsHeader.firstIndex(of: "budget_limit")!
        switch crash {
        case .minimumSpacingInfinity:
            return reloadsLog(Array(try read("reloads.csv").utf8), ["--minimum-spacing", "inf"])
        case .minimumSpacingPastIntMax:
            return reloadsLog(Array(try read("reloads.csv").utf8), ["--minimum-spacing", "1e308"])
        case .tokenBucketLimitNearIntMax:
            return reloadsLog(everyRow(try read("reloads.csv"), column: budgetLimit, "9223372036854775807"), ["--budget-model", "tokenBucket"])
        case .pacedLimitNearIntMax:
            return reloadsLog(everyRow(try read("reloads.csv"), column: budgetLimit, "9223372036854775806"), ["--budget-model", "paced"])
        case .viewsStalenessPastIntMax:
            let staleness = ReportWriter.viewsHeader.firstIndex(of: "staleness_seconds")!
            let stale = ReportWriter.viewsHeader.firstIndex(of: "stale")!
            let views = String(decoding: everyRow(try read("views.csv"), column: staleness, "4611686018427387904"), as: UTF8.self)
            let files = try ["reloads.csv", "daily.csv", "parameters.csv"].map { MutantFile(path: "report/" + $0, bytes: Array(try read($0).utf8)) }
                + [MutantFile(path: "report/views.csv", bytes: everyRow(views, column: stale, "1"))]
            return Mutant(index: 0, kind: .reportDirectory, origin: "reports/weather", files: files, arguments: ["check", "report"],
                          edits: [MutationEdit("pinned", crash.rawValue)])
        case .shardCountIntMax:
            return merge([editedPartial(0) { $0.hasPrefix("shards ") ? "shards 9223372036854775807 0" : $0 }])
        case .countersNearIntMax:
            let counters = { (line: String) -> String in
                line.hasPrefix("counts ") ? "counts " + Array(repeating: "4611686018427387904", count: 10).joined(separator: " ") : line
            }
            return merge([editedPartial(0, counters), editedPartial(1, counters)])
        case .reloadsPerDeviceDayNearIntMax:
            return merge([
                editedPartial(0) { $0.hasPrefix("reloads-per-device-day ") ? "reloads-per-device-day 1:9223372036854775806 2:5" : $0 },
                editedPartial(1) { $0.hasPrefix("reloads-per-device-day ") ? "reloads-per-device-day " : $0 },
            ])
        }
    }
}
