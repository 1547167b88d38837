import Foundation
import WidgetSim

/// A progress line on standard error, shown only once a job has run for more
/// than a second. On a terminal it rewrites one line; in a log it prints at
/// each quarter. It measures real elapsed time for the person waiting; the
/// simulation itself never reads a clock.
final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let lock = NSLock()
    private var shown = false
    private var lastQuarter = 0

    init(_ label: String) {
        self.label = DisplayText.visible(label)
        self.started = clock.now
    }

    func update(done: Int, total: Int, unit: String = "runs") {
        lock.lock()
        defer { lock.unlock() }
        guard clock.now - started > .seconds(1) else { return }
        if isTerminal {
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
        if shown { write("\n") }
    }

    /// Raw: the carriage return that rewrites the line is meant for the terminal.
    private func write(_ text: String) {
        _ = StandardConsole.write(text, to: 2)
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
