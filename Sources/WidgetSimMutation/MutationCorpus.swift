import Foundation
import WidgetSim

/// One seed input file: its name and bytes.
public struct SeedFile: Sendable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// Seed files that are read together: a report directory, or the partials of one sharded run.
public struct SeedGroup: Sendable {
    public var name: String
    public var files: [SeedFile]

    public init(name: String, files: [SeedFile]) {
        self.name = name
        self.files = files
    }
}

/// Why the seed inputs cannot be used.
public struct MutationCorpusError: Error, Equatable, CustomStringConvertible {
    public var description: String
}

/// The valid inputs mutants are made from, parsed once: scenario trees,
/// report tables and partial files, with the vocabulary found in them.
///
/// Promised: everything is kept in the order given (callers sort by name),
/// so the same files always give the same mutants.
public struct MutationCorpus: Sendable {
    struct Scenario: Sendable {
        var name: String
        var bytes: [UInt8]
        var tree: JSONTree
        var isFleet: Bool
    }

    struct Report: Sendable {
        var name: String
        var files: [SeedFile]
        var documents: [CSVDocument]
        /// The rules the report ran under, from its `parameters.csv`.
        var budgetModel: String?
        var minimumSpacing: String?
    }

    struct Partials: Sendable {
        var name: String
        var files: [SeedFile]
    }

    /// A device log, and the scenario (by file name) whose phone wrote it,
    /// which a calibration against it is given.
    struct DeviceLogSeed: Sendable {
        var name: String
        var scenario: String
        var document: CSVDocument
    }

    let scenarios: [Scenario]
    let reports: [Report]
    let partials: [Partials]
    let deviceLogs: [DeviceLogSeed]
    /// Every key of every scenario, sorted and without repeats.
    let scenarioKeys: [String]
    /// Every string value of every scenario, sorted and without repeats.
    let scenarioStrings: [String]
    /// Words that mean something in a report: triggers, results, policies, budget models, booleans.
    let reportVocabulary: [String]
    /// Words that mean something in a device log: events, policies, families, entry counts at their limits.
    let deviceLogVocabulary: [String]

    public var scenarioCount: Int { scenarios.count }
    /// The seed scenarios' file names, in corpus order.
    public var scenarioNames: [String] { scenarios.map(\.name) }
    /// The file names of the seed scenarios with a `fleet` section.
    public var fleetScenarioNames: [String] { scenarios.filter(\.isFleet).map(\.name) }
    public var reportCount: Int { reports.count }
    public var partialSetCount: Int { partials.count }
    public var deviceLogCount: Int { deviceLogs.count }

    /// The kinds of mutant this corpus can make.
    public var kinds: [Mutant.Kind] {
        var kinds: [Mutant.Kind] = []
        if !scenarios.isEmpty { kinds.append(.scenario) }
        if !reports.isEmpty { kinds += [.reportDirectory, .reloadsLog] }
        if !partials.isEmpty { kinds.append(.fleetPartial) }
        if !deviceLogs.isEmpty { kinds.append(.deviceLog) }
        return kinds
    }

    /// - Parameters:
    ///   - scenarios: scenario files, each valid JSON.
    ///   - reports: report directories, each with `reloads.csv` (and usually `views.csv`, `daily.csv`, `parameters.csv`).
    ///   - partials: the partial files of sharded fleet runs, one group per run.
    ///   - deviceLogs: device logs, each named after the scenario whose
    ///     phone wrote it (`weather.csv` from `weather.json`), which must be
    ///     among `scenarios`.
    public init(scenarios: [SeedFile], reports: [SeedGroup], partials: [SeedGroup], deviceLogs: [SeedFile] = []) throws(MutationCorpusError) {
        var parsed: [Scenario] = []
        for seed in scenarios {
            let node: JSONNode
            do {
                node = try JSONParser.parse(seed.bytes)
            } catch {
                throw MutationCorpusError(description: "\(seed.name): a seed scenario must be valid JSON: \(error.message)")
            }
            let tree = JSONTree(node)
            var isFleet = false
            if case .object(let members) = tree { isFleet = members.contains { $0.key == "fleet" } }
            parsed.append(Scenario(name: seed.name, bytes: seed.bytes, tree: tree, isFleet: isFleet))
        }
        self.scenarios = parsed

        var reportSeeds: [Report] = []
        for group in reports {
            guard group.files.contains(where: { $0.name == "reloads.csv" }) else {
                throw MutationCorpusError(description: "\(group.name): a seed report needs reloads.csv")
            }
            let documents = group.files.map { CSVDocument($0.bytes) }
            var report = Report(name: group.name, files: group.files, documents: documents)
            if let index = group.files.firstIndex(where: { $0.name == "parameters.csv" }) {
                for record in documents[index].records where record.count == 2 {
                    if record[0] == "budget_model" { report.budgetModel = record[1] }
                    if record[0] == "minimum_spacing_seconds" { report.minimumSpacing = record[1] }
                }
            }
            reportSeeds.append(report)
        }
        self.reports = reportSeeds
        self.partials = partials.map { Partials(name: $0.name, files: $0.files) }
        var logSeeds: [DeviceLogSeed] = []
        for log in deviceLogs {
            let scenario = String(log.name.dropLast(log.name.hasSuffix(".csv") ? 4 : 0)) + ".json"
            guard parsed.contains(where: { $0.name == scenario }) else {
                throw MutationCorpusError(description: "\(log.name): a seed device log needs its scenario, \(scenario), among the seed scenarios")
            }
            logSeeds.append(DeviceLogSeed(name: log.name, scenario: scenario, document: CSVDocument(log.bytes)))
        }
        self.deviceLogs = logSeeds

        var keys: [String] = []
        var strings: [String] = []
        for scenario in parsed {
            for path in scenario.tree.allPaths() {
                switch scenario.tree[path] {
                case .object(let members): keys += members.map(\.key)
                case .string(let text): strings.append(text)
                default: break
                }
            }
        }
        scenarioKeys = Array(Set(keys)).sorted()
        scenarioStrings = Array(Set(strings)).sorted()
        let words = ReloadTrigger.allCases.map(\.rawValue) + ReloadResult.allCases.map(\.rawValue)
            + BudgetModel.allCases.map(\.rawValue) + PushBudget.allCases.map(\.rawValue)
            + ["atEnd", "after", "never", "0", "1", "", "true", "false"]
        reportVocabulary = Array(Set(words)).sorted()
        let logWords = DeviceLog.Event.allCases.map(\.rawValue) + DeviceLog.TimelinePolicyName.allCases.map(\.rawValue)
            + WidgetFamily.allCases.map(\.rawValue) + ["", "0", "1", "400", "401", "1000000", "1000001"]
        deviceLogVocabulary = Array(Set(logWords)).sorted()
        if scenarioKeys.isEmpty && !parsed.isEmpty {
            throw MutationCorpusError(description: "the seed scenarios hold no objects")
        }
    }

    /// Reads the seeds from disk: every `*.json` in `scenarioDirectory`, the
    /// four CSV files of each report directory, each group of partial files,
    /// and each device log (named after its scenario); `partials` and
    /// `deviceLogs` are made elsewhere and come after them.
    public static func load(
        scenarioDirectory: String?, reportDirectories: [String], partialGroups: [[String]], partials made: [SeedGroup] = [],
        deviceLogPaths: [String] = [], deviceLogs madeLogs: [SeedFile] = []
    ) throws(MutationCorpusError) -> MutationCorpus {
        func read(_ path: String) throws(MutationCorpusError) -> SeedFile {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw MutationCorpusError(description: "\(path): cannot read this seed input")
            }
            return SeedFile(name: (path as NSString).lastPathComponent, bytes: [UInt8](data))
        }
        var scenarios: [SeedFile] = []
        if let scenarioDirectory {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: scenarioDirectory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            guard !names.isEmpty else { throw MutationCorpusError(description: "\(scenarioDirectory): no *.json scenario files") }
            for name in names { scenarios.append(try read(scenarioDirectory + "/" + name)) }
        }
        var reports: [SeedGroup] = []
        for directory in reportDirectories {
            var files: [SeedFile] = []
            for name in reportFileNames where FileManager.default.fileExists(atPath: directory + "/" + name) {
                files.append(try read(directory + "/" + name))
            }
            reports.append(SeedGroup(name: "reports/" + (directory as NSString).lastPathComponent, files: files))
        }
        var partials: [SeedGroup] = []
        for group in partialGroups {
            var files: [SeedFile] = []
            for path in group { files.append(try read(path)) }
            partials.append(SeedGroup(name: "partials/" + ((group.first ?? "") as NSString).lastPathComponent, files: files))
        }
        var logs: [SeedFile] = []
        for path in deviceLogPaths { logs.append(try read(path)) }
        return try MutationCorpus(scenarios: scenarios, reports: reports, partials: partials + made, deviceLogs: logs + madeLogs)
    }

    /// The files `widgetsim check` reads from a report directory, in the order they are mutated and written.
    public static let reportFileNames = ["reloads.csv", "views.csv", "daily.csv", "parameters.csv"]
}
