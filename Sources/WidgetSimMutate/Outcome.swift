import Foundation
import WidgetSimMutation

/// What one mutant did to `widgetsim`, judged by the README's promise:
/// a clean exit (0, 1 from `check`, or a sysexits code 64–78) with no
/// stack trace, in bounded time and memory.
struct Outcome: Sendable {
    enum Verdict: Int, CaseIterable, Sendable, Comparable {
        case ok, crash, hang, memory, badExit

        var name: String {
            switch self {
            case .ok: return "ok"
            case .crash: return "crash"
            case .hang: return "hang"
            case .memory: return "memory"
            case .badExit: return "bad exit"
            }
        }

        static func < (left: Verdict, right: Verdict) -> Bool { left.rawValue < right.rawValue }
    }

    var verdict: Verdict
    var result: ChildResult
    /// What groups this failure with others of the same cause (empty when OK):
    /// for a crash, the reason and the function; for a hang or too much
    /// memory, the kind of input and the edit that made it big.
    var signature: String
    /// Where a crash happened, such as "EventCounts.swift:44".
    var crashLine: String?
    /// One line saying what happened, for the failure list.
    var summary: String

    init(_ result: ChildResult, standardError: String, mutant: Mutant, timeout: Duration, memoryLimit: Int) {
        self.result = result
        crashLine = CrashReport.frame(in: standardError).map { "\($0.file):\($0.line)" }
        let trace = CrashReport.isCrash(standardError)
        let memory = Outcome.formatBytes(result.peakBytes)
        if result.timedOut {
            verdict = .hang
            signature = "hang: \(mutant.kind.name) with \(mutant.operationSummary)"
            summary = "no exit within \(Outcome.formatSeconds(timeout)): killed"
        } else if result.overMemory {
            verdict = .memory
            signature = "memory: \(mutant.kind.name) with \(mutant.operationSummary)"
            summary = "peak memory \(memory), over the limit of \(Outcome.formatBytes(memoryLimit))"
        } else if case .signalled(let signal) = result.ending {
            verdict = .crash
            signature = "crash: \(Outcome.crashCause(standardError) ?? "signal \(Outcome.signalName(signal))")"
            summary = "killed by \(Outcome.signalName(signal))"
        } else if trace {
            verdict = .crash
            signature = "crash: \(Outcome.crashCause(standardError) ?? "a stack trace on standard error")"
            summary = "a stack trace on standard error"
        } else if case .exited(let code) = result.ending, !Outcome.isClean(code) {
            verdict = .badExit
            signature = "exit \(code): \(mutant.kind.name)"
            summary = "exit code \(code), which is neither 0, 1 nor a sysexits code"
        } else {
            verdict = .ok
            signature = ""
            summary = "ok"
        }
        if verdict == .crash, let message = CrashReport.message(in: standardError) { summary += ": \(message)" }
    }

    /// The reason and the function, without the line: one overflowing
    /// function is one failure, however many of its lines trap.
    static func crashCause(_ standardError: String) -> String? {
        let message = CrashReport.message(in: standardError)
        guard let frame = CrashReport.frame(in: standardError) else { return message }
        let place = frame.function.isEmpty ? frame.file : "\(frame.function) (\(frame.file))"
        return message.map { "\($0) in \(place)" } ?? "in \(place)"
    }

    /// 0, 1 (`check` found a broken rule) and the sysexits codes.
    static func isClean(_ code: Int32) -> Bool { code == 0 || code == 1 || (64...78).contains(code) }

    var exitCode: Int32? {
        if case .exited(let code) = result.ending { return code }
        return nil
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGKILL: return "SIGKILL"
        case SIGFPE: return "SIGFPE"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(signal)"
        }
    }

    static func formatSeconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        return seconds >= 10 || seconds == seconds.rounded() ? String(format: "%.0f s", seconds) : String(format: "%.2f s", seconds)
    }

    static func formatBytes(_ bytes: Int) -> String {
        let mebibytes = Double(bytes) / 1_048_576
        return mebibytes >= 1024 ? String(format: "%.2f GiB", mebibytes / 1024) : String(format: "%.0f MiB", mebibytes)
    }
}
