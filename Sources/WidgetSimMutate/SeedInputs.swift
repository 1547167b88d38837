import Foundation
import WidgetSimMutation

/// Makes the seed inputs with the binary under test, so that the reports
/// and partials mutants start from are exactly what this build writes.
enum SeedInputs {
    /// Days simulated for each seed report: enough for day boundaries and
    /// trailing 24-hour windows, small enough that a mutant is written in microseconds.
    static let reportDays = "3"

    /// Writes `<scratch>/seeds/reports/<scenario>/` and
    /// `<scratch>/seeds/device-logs/<scenario>.csv` for every scenario with a
    /// device list and `<scratch>/seeds/partials/<scenario>/part-{1,2}.txt` for
    /// every fleet scenario, then loads them with the scenarios as the corpus.
    static func make(binary: String, scenarioDirectory: String, scratch: String) throws -> MutationCorpus {
        let seeds = scratch + "/seeds"
        try? FileManager.default.removeItem(atPath: seeds)
        try FileManager.default.createDirectory(atPath: seeds + "/reports", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: seeds + "/partials", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: seeds + "/device-logs", withIntermediateDirectories: true)
        let scenarios = try MutationCorpus.load(scenarioDirectory: scenarioDirectory, reportDirectories: [], partialGroups: [])
        let scenarioPath = { (name: String) in URL(fileURLWithPath: scenarioDirectory).appendingPathComponent(name).path }

        var reportDirectories: [String] = []
        var partialGroups: [[String]] = []
        var deviceLogs: [String] = []
        for name in scenarios.scenarioNames {
            let base = String(name.dropLast(5))
            if scenarios.fleetScenarioNames.contains(name) {
                let directory = seeds + "/partials/" + base
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                var group: [String] = []
                for shard in 1...2 {
                    let part = directory + "/part-\(shard).txt"
                    try run(binary, ["fleet", scenarioPath(name), "--devices", "20", "--days", "1", "--shard", "\(shard)/2",
                                     "--partial", part, "--threads", "1", "-q"], in: seeds)
                    group.append(part)
                }
                try run(binary, ["merge"] + group + ["--out", directory + "/merged", "-q"], in: seeds)
                partialGroups.append(group)
            } else {
                let directory = seeds + "/reports/" + base
                // The first device's log too, named after its scenario: a calibration mutant is given both.
                let log = seeds + "/device-logs/" + base + ".csv"
                try run(binary, ["simulate", scenarioPath(name), "--days", reportDays, "--out", directory, "--device-log", log, "-q"], in: seeds)
                try run(binary, ["check", directory], in: seeds)
                reportDirectories.append(directory)
                deviceLogs.append(log)
            }
        }
        return try MutationCorpus.load(
            scenarioDirectory: scenarioDirectory, reportDirectories: reportDirectories, partialGroups: partialGroups, deviceLogPaths: deviceLogs)
    }

    /// Runs one set-up command; it must succeed, or the seeds would not be valid.
    static func run(_ binary: String, _ arguments: [String], in directory: String) throws {
        let log = directory + "/setup-stderr.txt"
        let result = try ChildProcess.run(binary, arguments: arguments, directory: directory, standardErrorPath: log,
                                          timeout: .seconds(120), memoryLimit: Int.max)
        guard result.ending == .exited(0), !result.timedOut else {
            let message = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw SeedError(description: "making the seed inputs: widgetsim \(arguments.joined(separator: " ")) failed (\(result.ending)): \(message)")
        }
    }
}

struct SeedError: Error, CustomStringConvertible {
    var description: String
}
