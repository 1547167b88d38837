import Foundation
import WidgetSim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum ChaosSetupError: Error, CustomStringConvertible {
    case cannotPrepare(String)
    case referenceRunFailed(String, Termination?, standardError: String)
    case identicalReferences
    case cleanRunBroken([Finding])

    public var description: String {
        switch self {
        case .cannotPrepare(let reason):
            return "cannot prepare the campaign: \(reason)"
        case .referenceRunFailed(let what, let termination, let standardError):
            return "the clean run that writes \(what) failed (\(termination.map(\.description) ?? "it did not end")): \(standardError)"
        case .identicalReferences:
            return "the old and the new reports are identical, so the campaign could not tell them apart; use other seeds"
        case .cleanRunBroken(let findings):
            return "an uninterrupted run already breaks the promises, so interrupting it proves nothing: "
                + findings.map(\.description).joined(separator: "; ")
        }
    }
}

/// A chaos campaign: `widgetsim simulate` runs interrupted at random
/// instants by SIGINT, SIGTERM and SIGKILL, each checked by `ChaosVerdict`.
///
/// Each iteration resets the report directory to a fresh copy of the old
/// reports, starts a run that writes the new ones, signals its process
/// group after a delay drawn from the campaign's seed, waits for it to end,
/// and checks the directory, the exit status, the message and whatever is
/// beside the directory. The directory's parent persists across
/// iterations, so what a killed run leaves is seen by the runs after it; a
/// final clean run must leave the parent holding the report directory only.
///
/// Promised: the plans (instants as fractions of the run, signals) depend
/// only on the seed. Not promised: the same outcomes twice, since the
/// operating system's timing is not seeded; a failure's evidence is kept.
public final class ChaosCampaign {
    public let configuration: ChaosConfiguration
    private let log: (String) -> Void
    private let fileManager = FileManager.default

    private let root: String
    private let scenarioPath: String
    private let oldPath: String
    private let newPath: String
    /// The persistent parent of the report directory.
    private let arena: String
    private let directoryName = "reports"
    private let directory: String
    private let standardErrorPath: String
    public let evidencePath: String

    private var oldImage: DirectoryImage?
    private var newImage: DirectoryImage?
    /// Leftovers of killed runs still beside the directory, one list per run.
    private var pendingLeftovers: [[String]] = []

    public init(_ configuration: ChaosConfiguration, log: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.log = log
        root = configuration.work + "/campaign"
        scenarioPath = root + "/scenario.json"
        oldPath = root + "/old"
        newPath = root + "/new"
        arena = root + "/arena"
        directory = arena + "/" + directoryName
        standardErrorPath = root + "/stderr.txt"
        evidencePath = configuration.work + "/failures/seed-\(configuration.seed)"
    }

    /// Runs the whole campaign; throws only if it cannot start (the
    /// reference runs fail, or a clean run already breaks a promise).
    public func run() throws -> ChaosReport {
        try prepare()
        let size = try writeReferences()
        let calibration = try calibrate()
        let duration = configuration.duration ?? calibration.exit
        log("clean run: \(seconds(calibration.exit)) (median of \(configuration.calibrationRuns))"
            + (calibration.staging.map { "; staging directory from \(seconds($0))" } ?? "")
            + (calibration.swap.map { ", swap at \(seconds($0))" } ?? "")
            + (configuration.duration.map { "; delays are fractions of \(seconds($0)) as asked" } ?? ""))

        var records: [IterationRecord] = []
        let iterations = configuration.iterations
        var failed = 0
        for (index, iteration) in iterations.enumerated() {
            let plan = InterruptionPlan(seed: configuration.seed, iteration: iteration)
            let record = try interruptedRun(plan, duration: duration)
            if !record.findings.isEmpty { failed += 1 }
            records.append(record)
            let step = max(1, iterations.count / 10)
            if (index + 1) % step == 0 || index + 1 == iterations.count {
                log("  \(index + 1)/\(iterations.count) interruptions, \(failed) with a failure")
            }
        }
        let final = try finalRun(duration: duration)
        return ChaosReport(
            configuration: configuration, size: size, calibration: calibration, duration: duration,
            iterations: records, finalRun: final, evidencePath: evidencePath)
    }

    // MARK: Setting up

    private func prepare() throws {
        do {
            try? fileManager.removeItem(atPath: root)
            try? fileManager.removeItem(atPath: evidencePath)
            try fileManager.createDirectory(atPath: arena, withIntermediateDirectories: true)
            let text = try ScaledScenario.text(from: configuration.scenario, devices: configuration.devices, days: configuration.days)
            try Data(text.utf8).write(to: URL(fileURLWithPath: scenarioPath))
        } catch {
            throw ChaosSetupError.cannotPrepare("\(error)")
        }
    }

    /// Writes the old and the new reports with clean runs into directories
    /// of their own; every later state is compared with these bytes.
    private func writeReferences() throws -> ReportSize {
        for (path, seed, what) in [(oldPath, ChaosConfiguration.oldSeed, "the old reports"), (newPath, ChaosConfiguration.newSeed, "the new reports")] {
            let child = try ChildProcess(executable: configuration.binary, arguments: arguments(seed: seed, out: path), standardError: standardErrorPath)
            let termination = child.wait(timeout: 600)
            if termination == nil { child.killAndReap() }
            guard termination == .exited(0) else {
                throw ChaosSetupError.referenceRunFailed(what, termination, standardError: readStandardError())
            }
        }
        guard let old = try DirectoryImage(path: oldPath), let new = try DirectoryImage(path: newPath) else {
            throw ChaosSetupError.cannotPrepare("a reference run exited 0 but wrote no directory")
        }
        guard old != new else { throw ChaosSetupError.identicalReferences }
        oldImage = old
        newImage = new
        let bytes = new.entries.values.reduce(0) { total, entry in
            if case .file(let data) = entry { return total + data.count }
            return total
        }
        log("reports: \(new.entries.count) files, \(bytes / 1_000_000) MB; old seed \(ChaosConfiguration.oldSeed), new seed \(ChaosConfiguration.newSeed)")
        return ReportSize(files: new.entries.count, bytes: bytes)
    }

    /// Times clean runs over a copy of the old reports, watching when each
    /// phase begins. They must keep every promise, or the campaign would
    /// blame interruptions for what the tool does anyway.
    private func calibrate() throws -> Calibration {
        var timelines: [Calibration] = []
        for _ in 0..<max(1, configuration.calibrationRuns) {
            let before = try beside()
            let inode = try resetDirectory()
            let child = try startRun()
            var timeline = Calibration(staging: nil, swap: nil, exit: 0)
            let deadline = 600.0
            while child.elapsed < deadline {
                let phase = observePhase(child, directoryInode: inode)
                let now = child.elapsed
                if phase == .exited { timeline.exit = now; break }
                if phase == .writing && timeline.staging == nil { timeline.staging = now }
                if (phase == .swapping || phase == .swapped) && timeline.swap == nil { timeline.swap = now }
                // Fine enough to see a 30 ms writing phase, coarse enough to
                // leave the run its core.
                usleep(500)
            }
            let observation = try observe(child, signal: nil, phase: nil, before: before)
            let findings = ChaosVerdict.findings(observation)
            guard findings.isEmpty else { throw ChaosSetupError.cleanRunBroken(findings) }
            settleLeftovers(observation)
            timelines.append(timeline)
        }
        func median(_ values: [Double]) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            return sorted[sorted.count / 2]
        }
        return Calibration(
            staging: median(timelines.compactMap(\.staging)), swap: median(timelines.compactMap(\.swap)),
            exit: median(timelines.map(\.exit)) ?? 0)
    }

    // MARK: Runs

    private func interruptedRun(_ plan: InterruptionPlan, duration: Double) throws -> IterationRecord {
        let before = try beside()
        let inode = try resetDirectory()
        let child = try startRun()
        let delay = plan.delay(runDuration: duration)
        let remaining = delay - child.elapsed
        if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
        // Seen the instant before the signal: where the run really was.
        let phase = observePhase(child, directoryInode: inode)
        child.signalGroup(plan.signal.number)
        let observation = try observe(child, signal: plan.signal, phase: phase, before: before, duration: duration)
        let record = try record(
            IterationRecord(iteration: plan.iteration, plan: plan, delay: delay, observation: observation, findings: ChaosVerdict.findings(observation)),
            duration: duration)
        settleLeftovers(observation)
        return record
    }

    /// The last word: a clean run, after which the parent must hold the
    /// report directory and nothing else.
    private func finalRun(duration: Double) throws -> IterationRecord {
        let before = try beside()
        _ = try resetDirectory()
        let child = try startRun()
        let observation = try observe(child, signal: nil, phase: nil, before: before)
        let record = try record(
            IterationRecord(iteration: nil, plan: nil, delay: nil, observation: observation, findings: ChaosVerdict.findings(observation)),
            duration: duration)
        settleLeftovers(observation)
        return record
    }

    private func startRun() throws -> ChildProcess {
        try ChildProcess(executable: configuration.binary, arguments: arguments(seed: ChaosConfiguration.newSeed, out: directory), standardError: standardErrorPath)
    }

    private func arguments(seed: UInt64, out: String) -> [String] {
        // Not quiet: a message about the reports must reach a user who asked for output.
        ["simulate", scenarioPath, "--seed", String(seed), "--out", out] + (configuration.trace ? ["--trace"] : [])
    }

    /// Waits for the run to end and looks at everything it left (and
    /// touches nothing, so a failure's evidence is still there).
    private func observe(
        _ child: ChildProcess, signal: ChaosSignal?, phase: Phase?, before: [String], duration: Double = 0
    ) throws -> RunObservation {
        // Generous: a run that ignores its signal for this long is hung, not slow.
        let timeout = signal == nil ? 600 : max(30, 20 * duration)
        let termination = child.wait(timeout: timeout)
        if termination == nil { child.killAndReap() }
        let after = try beside()
        let created = after.filter { !before.contains($0) }
        let earlier = pendingLeftovers.map { $0.filter(after.contains) }.filter { !$0.isEmpty }
        let observation = RunObservation(
            signal: signal, phase: phase, termination: termination, state: try directoryState(),
            standardError: readStandardError(), created: created, earlierLeftovers: earlier)
        return observation
    }

    /// Keeps a killed run's leftovers for the next runs to clean, and sweeps
    /// leftovers already counted as a failure, so one failure is counted once
    /// and does not poison every later iteration.
    private func settleLeftovers(_ observation: RunObservation) {
        pendingLeftovers = observation.earlierLeftovers
        if observation.completed {
            observation.earlierLeftovers.joined().forEach(removeBeside)
            pendingLeftovers = []
        }
        guard !observation.created.isEmpty else { return }
        if observation.wasKilled {
            pendingLeftovers.append(observation.created)
        } else {
            observation.created.forEach(removeBeside)
        }
    }

    private func removeBeside(_ name: String) {
        try? fileManager.removeItem(atPath: arena + "/" + name)
    }

    // MARK: Looking

    /// Where the run is, from the disk and the process table, in a few
    /// system calls so the signal follows the look within microseconds.
    private func observePhase(_ child: ChildProcess, directoryInode: UInt64) -> Phase {
        if child.hasExited { return .exited }
        guard let inode = inode(directory) else { return .swapping }
        if inode != directoryInode { return .swapped }
        let staging = ".\(directoryName).tmp-\(child.pid)-"
        if let names = try? fileManager.contentsOfDirectory(atPath: arena), names.contains(where: { $0.hasPrefix(staging) }) {
            return .writing
        }
        return .simulating
    }

    private func directoryState() throws -> DirectoryState {
        guard let oldImage, let newImage else { return .broken("no references") }
        guard let image = try DirectoryImage(path: directory) else { return .broken("the directory is missing") }
        if image == newImage { return .new }
        if image == oldImage { return .old }
        let againstNew = image.differences(from: newImage)
        let againstOld = image.differences(from: oldImage)
        return againstNew.count <= againstOld.count
            ? .broken("against the new reports: \(againstNew.summary())")
            : .broken("against the old reports: \(againstOld.summary())")
    }

    /// The names beside the report directory, sorted.
    private func beside() throws -> [String] {
        try fileManager.contentsOfDirectory(atPath: arena).filter { $0 != directoryName }.sorted()
    }

    /// Puts a fresh copy of the old reports in place; returns its inode, by
    /// which a swap is seen.
    private func resetDirectory() throws -> UInt64 {
        try? fileManager.removeItem(atPath: directory)
        try fileManager.copyItem(atPath: oldPath, toPath: directory)
        guard let inode = inode(directory) else { throw ChaosSetupError.cannotPrepare("\(directory) vanished after the copy") }
        return inode
    }

    private func inode(_ path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    private func readStandardError() -> String {
        (try? String(contentsOfFile: standardErrorPath, encoding: .utf8)) ?? ""
    }

    // MARK: Evidence

    /// Keeps what a failed iteration left (a listing of the parent, how the
    /// directory differs from both references, the message) before the next
    /// iteration resets it.
    private func record(_ record: IterationRecord, duration: Double) throws -> IterationRecord {
        guard !record.findings.isEmpty, let oldImage, let newImage else { return record }
        var record = record
        let folder = evidencePath + "/" + (record.iteration.map { "iteration-\($0)" } ?? "final-run")
        try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var text = record.headline(duration: duration) + "\n"
        text += "ended: \(record.observation.termination.map(\.description) ?? "did not end; killed")\n"
        text += "directory: \(record.observation.state)\n"
        text += "standard error:\n" + record.observation.standardError.split(separator: "\n").map { "  \($0)\n" }.joined()
        text += "findings:\n" + record.findings.map { "  - \($0)\n" }.joined()
        if let iteration = record.iteration {
            text += "reproduce:\n" + configuration.reproduce(iteration, duration).map { "  \($0)\n" }.joined()
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/failure.txt"))
        try Data(listing(old: oldImage, new: newImage).utf8).write(to: URL(fileURLWithPath: folder + "/listing.txt"))
        if let image = try DirectoryImage(path: directory) {
            let diff = "against the old reports:\n" + describe(image.differences(from: oldImage))
                + "against the new reports:\n" + describe(image.differences(from: newImage))
            try Data(diff.utf8).write(to: URL(fileURLWithPath: folder + "/diff.txt"))
        } else {
            try Data("the report directory is missing\n".utf8).write(to: URL(fileURLWithPath: folder + "/diff.txt"))
        }
        record.evidence = folder
        return record
    }

    /// Every path under the parent with its size, and for each file whether
    /// its bytes are the old or the new reports' file of that name (so a
    /// leftover holding the old reports is told from a half-written one).
    private func listing(old: DirectoryImage, new: DirectoryImage) -> String {
        guard let image = try? DirectoryImage(path: arena) else { return "(the parent directory is missing)\n" }
        var lines: [String] = []
        for path in image.paths {
            let name = path.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            switch image.entries[path]! {
            case .directory: lines.append("\(path)/")
            case .symbolicLink(let target): lines.append("\(path) -> \(target)")
            case .other: lines.append("\(path) (not a file)")
            case .file(let data):
                let same = [(old, "old"), (new, "new")].filter { $0.0.entries[name] == .file(data) }.map(\.1)
                let verdict = same.isEmpty ? "matches neither reference" : "= \(same.joined(separator: " and ")) \(name)"
                lines.append("\(path)  \(data.count) bytes, \(verdict)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(_ differences: DirectoryDifferences) -> String {
        guard !differences.isEmpty else { return "  identical\n" }
        return differences.missing.map { "  missing \($0)\n" }.joined()
            + differences.extra.map { "  extra   \($0)\n" }.joined()
            + differences.changed.map { "  changed \($0)\n" }.joined()
    }

    private func seconds(_ value: Double) -> String { FixedDecimal.format(value, decimals: 3) + " s" }
}

/// What each run writes.
public struct ReportSize: Sendable {
    public var files: Int
    public var bytes: Int
}

/// When a clean run's phases begin, in seconds after its start (medians).
public struct Calibration: Sendable {
    /// Its staging directory first seen.
    public var staging: Double?
    /// The report directory first seen replaced.
    public var swap: Double?
    public var exit: Double
}
