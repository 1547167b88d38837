import Foundation
import WidgetSim

/// A progress line on standard error, shown only once a job has run for more
/// than a second. On a terminal it rewrites one line; in a log it prints at
/// each quarter. It measures real elapsed time for the person waiting; the
/// simulation itself never reads a clock.
final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let started: ContinuousClock.Instant
    private let isTerminal: Bool
    /// The clock's reading; the real clock but in tests.
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Where the line goes: standard error but in tests. Raw: the carriage
    /// return that rewrites the line is meant for the terminal.
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private var shown = false
    private var lastQuarter = 0
    /// Set when an interruption is reported: nothing more is written.
    private var stopped = false
    private var lastWrite: ContinuousClock.Instant?
    /// The last count, held back by the rate limit: `finish` shows it, so
    /// the line ends on the true count (calibrate rarely reaches its total).
    private var unwritten: String?

    /// The line now on the terminal, if any, for the interruption's message.
    nonisolated(unsafe) private static var current: ProgressLine?
    private static let currentLock = NSLock()

    init(
        _ label: String,
        isTerminal: Bool = isatty(STDERR_FILENO) != 0,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        write: @escaping @Sendable (String) -> Void = { _ = StandardConsole.write($0, to: 2) }
    ) {
        self.label = DisplayText.visible(label)
        self.isTerminal = isTerminal
        self.now = now
        self.write = write
        self.started = now()
        Self.currentLock.lock()
        Self.current = self
        Self.currentLock.unlock()
    }

    /// Ends the current line for good, before an interruption's message: it
    /// would otherwise be glued to the end of the line, or a later update
    /// written after it.
    static func stopForInterruption() {
        currentLock.lock()
        let line = current
        currentLock.unlock()
        line?.endForInterruption()
    }

    /// Ends this line for good, as `stopForInterruption` ends the current one.
    func endForInterruption() {
        lock.lock()
        defer { lock.unlock() }
        if shown && !stopped { write("\n") }
        stopped = true
    }

    func update(done: Int, total: Int, unit: String = "runs") {
        lock.lock()
        defer { lock.unlock() }
        let instant = now()
        guard !stopped, instant - started > .seconds(1) else { return }
        if isTerminal {
            // Ten rewrites a second at most: runs can finish by the thousand.
            guard done >= total || lastWrite.map({ instant - $0 >= .milliseconds(100) }) ?? true else {
                unwritten = "\r\(label): \(done)/\(total) \(unit)"
                return
            }
            lastWrite = instant
            unwritten = nil
            write("\r\(label): \(done)/\(total) \(unit)")
            shown = true
        } else {
            let quarter = total == 0 ? 4 : done * 4 / total
            if quarter > lastQuarter {
                lastQuarter = quarter
                write("\(label): \(done)/\(total) \(unit)\n")
            }
        }
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown && !stopped { write((unwritten ?? "") + "\n") }
        stopped = true
        Self.currentLock.lock()
        if Self.current === self { Self.current = nil }
        Self.currentLock.unlock()
    }
}

/// Runs a long job behind a progress line (none when `quiet`). The line is
/// finished however the job ends, and a run limit it hits becomes the
/// command's error with the old reports untouched.
func withProgress<Result>(
    _ label: String, quiet: Bool, _ job: (ProgressLine?) throws(RunLimitExceeded) -> Result
) throws(CommandError) -> Result {
    let progress = quiet ? nil : ProgressLine(label)
    defer { progress?.finish() }
    do {
        return try job(progress)
    } catch {
        throw ScenarioReference.stopped(error)
    }
}
