import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WidgetSimMutation

/// What the fuzzer was told: where things are and what counts as a failure.
struct Settings: Sendable {
    var binary: String
    var scratch: String
    var failures: String
    var timeout: Duration
    var memoryLimit: Int
    var jobs: Int
    /// The failures directory may hold at most this much mutant data; past it,
    /// failures are listed but not saved (`make mutate SEED=n` makes them again).
    var failureBytesBudget = 2 << 30
}

/// One mutant's outcome, as the summary needs it.
struct Record: Sendable {
    var index: UInt64
    var kind: Mutant.Kind
    var origin: String
    var edits: String
    var arguments: [String]
    var outcome: Outcome
}

/// Runs mutants against the binary in child processes, one per core, and
/// saves every failing mutant with the command that shows its failure.
final class Campaign: @unchecked Sendable {
    let mutator: Mutator
    let settings: Settings
    private let lock = NSLock()
    private var queue: [UInt64] = []
    private var nextPosition = 0
    private var records: [Record?] = []
    private var finished = 0
    private var failuresSaved = 0
    private var failureBytes = 0
    private var lastReport = ContinuousClock.now

    init(mutator: Mutator, settings: Settings) {
        self.mutator = mutator
        self.settings = settings
    }

    /// Runs every mutant in `indices`; the records come back in the same order.
    func run(_ indices: [UInt64], progress: Bool) -> [Record] {
        queue = indices
        records = Array(repeating: nil, count: indices.count)
        let began = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: settings.jobs) { worker in
            let workspace = "\(settings.scratch)/work-\(worker)"
            while let position = take() {
                let record = runOne(queue[position], workspace: workspace)
                lock.lock()
                records[position] = record
                finished += 1
                if progress && (ContinuousClock.now - lastReport > .seconds(15) || finished == queue.count) {
                    lastReport = ContinuousClock.now
                    let seconds = (ContinuousClock.now - began).seconds
                    let failures = records.compactMap { $0 }.filter { $0.outcome.verdict != .ok }.count
                    let rate = Double(finished) / max(seconds, 0.001)
                    FileHandle.standardError.write(Data(String(
                        format: "  %d/%d mutants, %.1f/s, %d failure(s)\n", finished, queue.count, rate, failures).utf8))
                }
                lock.unlock()
            }
        }
        return records.compactMap { $0 }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextPosition < queue.count else { return nil }
        nextPosition += 1
        return nextPosition - 1
    }

    /// Makes mutant `index`, writes it into a fresh directory, runs it, and
    /// saves it if it fails.
    func runOne(_ index: UInt64, workspace: String, alwaysSave: Bool = false) -> Record {
        let mutant = mutator.mutant(index)
        let directory = workspace + "/mutant"
        let errorPath = workspace + "/stderr.txt"
        try? FileManager.default.removeItem(atPath: directory)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Campaign.materialize(mutant, in: directory)
        } catch {
            fatal("cannot write mutant \(index) into \(directory): \(error)")
        }
        let result: ChildResult
        do {
            result = try ChildProcess.run(settings.binary, arguments: mutant.arguments, directory: directory, standardErrorPath: errorPath,
                                          timeout: settings.timeout, memoryLimit: settings.memoryLimit)
        } catch {
            fatal("\(error)")
        }
        let standardError = Campaign.readPrefix(errorPath, bytes: 256 * 1024)
        let outcome = Outcome(result, standardError: standardError, mutant: mutant, timeout: settings.timeout, memoryLimit: settings.memoryLimit)
        let record = Record(
            index: index, kind: mutant.kind, origin: mutant.origin, edits: mutant.edits.map(\.description).joined(separator: "; "),
            arguments: mutant.arguments, outcome: outcome)
        if outcome.verdict != .ok || alwaysSave {
            save(mutant, record: record, standardError: standardError)
        }
        try? FileManager.default.removeItem(atPath: directory)
        return record
    }

    /// The failure's directory: the mutant's files, the command, its standard error and the verdict.
    func save(_ mutant: Mutant, record: Record, standardError: String) {
        lock.lock()
        let fits = failureBytes + mutant.byteCount <= settings.failureBytesBudget
        if fits { failureBytes += mutant.byteCount }
        lock.unlock()
        guard fits else { return }
        let directory = failureDirectory(record.index)
        try? FileManager.default.removeItem(atPath: directory)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Campaign.materialize(mutant, in: directory)
            try commandText(record).write(toFile: directory + "/command.txt", atomically: true, encoding: .utf8)
            try standardError.write(toFile: directory + "/stderr.txt", atomically: true, encoding: .utf8)
            let outcome = record.outcome
            var lines = [
                "mutant \(record.index) (master seed \(mutator.masterSeed)): \(record.kind.name) from \(record.origin)",
                "verdict: \(outcome.verdict.name): \(outcome.summary)",
                "ending: \(outcome.result.ending), \(Outcome.formatSeconds(outcome.result.elapsed)), peak memory \(Outcome.formatBytes(outcome.result.peakBytes))",
                "edits:",
            ]
            lines += mutant.edits.map { "  " + $0.description }
            try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/outcome.txt", atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("widgetsim-mutate: cannot save mutant \(record.index) in \(directory): \(error)\n".utf8))
        }
        lock.lock()
        failuresSaved += 1
        lock.unlock()
    }

    func failureDirectory(_ index: UInt64) -> String { "\(settings.failures)/\(index)" }

    /// The command that shows the failure by hand, from the package root.
    func commandText(_ record: Record) -> String {
        let binary = URL(fileURLWithPath: settings.binary).standardizedFileURL.path
        return """
            # mutant \(record.index) (master seed \(mutator.masterSeed)): \(record.kind.name) from \(record.origin)
            # made again and run by: \(reproduceCommand(record.index))
            cd \(Campaign.shellQuoted(failureDirectory(record.index))) && \(([binary] + record.arguments).map(Campaign.shellQuoted).joined(separator: " "))

            """
    }

    func reproduceCommand(_ index: UInt64) -> String {
        "make mutate SEED=\(index)" + (mutator.masterSeed == Mutator.defaultMasterSeed ? "" : " MASTER=\(mutator.masterSeed)")
    }

    // MARK: Files

    /// Creates the mutant's files under `directory`.
    static func materialize(_ mutant: Mutant, in directory: String) throws {
        for file in mutant.files {
            let path = directory + "/" + file.path
            let parent = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            switch file.content {
            case .bytes(let bytes):
                guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                    throw SeedError(description: "\(path): cannot create")
                }
            case .fifo:
                guard mkfifo(path, 0o644) == 0 else { throw SeedError(description: "\(path): mkfifo failed") }
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            case .symbolicLink(let target):
                guard symlink(target, path) == 0 else { throw SeedError(description: "\(path): symlink failed") }
            }
        }
    }

    static func readPrefix(_ path: String, bytes: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: bytes)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func shellQuoted(_ argument: String) -> String {
        let safe = argument.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || "-_./:=+,".unicodeScalars.contains(scalar)
        }
        if safe && !argument.isEmpty { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

func fatal(_ message: String, code: Int32 = 70) -> Never {
    FileHandle.standardError.write(Data("widgetsim-mutate: \(message)\n".utf8))
    exit(code)
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
