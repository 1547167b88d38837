/// A kind of failure the harness looks for; each is counted in the summary.
public enum FindingKind: String, CaseIterable, Sendable {
    case brokenDirectory
    case leftBehind
    case notCleaned
    case accumulated
    case wrongExit
    case wrongMessage
    case hung

    /// The summary's label.
    public var label: String {
        switch self {
        case .brokenDirectory: return "broken report directories"
        case .leftBehind: return "leftovers after INT/TERM (or a normal exit)"
        case .notCleaned: return "KILL leftovers not cleaned by the next run"
        case .accumulated: return "leftovers accumulated (two killed runs' at once)"
        case .wrongExit: return "wrong exit statuses"
        case .wrongMessage: return "wrong or missing messages"
        case .hung: return "runs that did not end after the signal"
        }
    }
}

/// One broken promise, with what was seen.
public struct Finding: Equatable, Sendable, CustomStringConvertible {
    public var kind: FindingKind
    public var detail: String

    public init(_ kind: FindingKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.label): \(detail)" }
}

/// The promises of README's "Errors, exit codes and safety", as rules over
/// one run's observation. Pure, so each rule is pinned by a table-shaped test.
///
/// - The report directory holds the old reports or the new ones, byte for
///   byte, whatever happened.
/// - Exit 0 only with the new reports in place. 130 only after SIGINT and
///   143 only after SIGTERM, with a message that says which reports are in
///   place, truthfully. SIGKILL's own status only after SIGKILL. SIGINT's or
///   SIGTERM's default action (the run died before installing its handlers)
///   only while the old reports are untouched.
/// - Any message about the reports is true.
/// - Nothing is left beside the report directory except by a run killed
///   with SIGKILL; the next run that completes removes such leftovers, and
///   a killed run that leaves some has first removed the earlier ones (so
///   there is never more than one killed run's leftovers at a time).
public enum ChaosVerdict {
    public static func findings(_ run: RunObservation) -> [Finding] {
        var findings: [Finding] = []
        if case .broken(let how) = run.state {
            findings.append(Finding(.brokenDirectory, "the report directory holds neither report: \(how)"))
        }
        findings += exitFindings(run)
        findings += messageFindings(run)
        findings += leftoverFindings(run)
        return findings
    }

    private static func exitFindings(_ run: RunObservation) -> [Finding] {
        let sent = run.signal.map { "after SIG\($0.rawValue)" } ?? "in a clean run"
        guard let termination = run.termination else {
            return [Finding(.hung, "still running long after SIG\(run.signal?.rawValue ?? "nothing"); killed")]
        }
        switch termination {
        case .exited(0):
            guard run.state == .new else {
                return [Finding(.wrongExit, "exit 0 \(sent), but the directory holds \(run.state)")]
            }
        case .exited(let code):
            guard let signal = run.signal, code == signal.interruptedExitCode else {
                return [Finding(.wrongExit, "exit \(code) \(sent)")]
            }
        case .signalled(let number):
            guard let signal = run.signal, number == signal.number else {
                return [Finding(.wrongExit, "\(termination) \(sent)")]
            }
            if signal != .kill && run.state != .old {
                return [Finding(.wrongExit, "\(termination) (no handler ran), but the directory holds \(run.state)")]
            }
        }
        return []
    }

    private static func messageFindings(_ run: RunObservation) -> [Finding] {
        let claim = Claim(standardError: run.standardError)
        let interrupted = run.signal.flatMap(\.interruptedExitCode).map { run.termination == .exited($0) } ?? false
        if interrupted && claim == .none {
            return [Finding(.wrongMessage, "\(run.termination!) \(claim), but the directory holds \(run.state)")]
        }
        if !claim.holds(for: run.state) {
            return [Finding(.wrongMessage, "\(run.termination.map(\.description) ?? "the run") \(claim), but the directory holds \(run.state)")]
        }
        return []
    }

    private static func leftoverFindings(_ run: RunObservation) -> [Finding] {
        var findings: [Finding] = []
        if !run.created.isEmpty && !run.wasKilled {
            let how = run.termination.map(\.description) ?? "a run that hung"
            findings.append(Finding(.leftBehind, "\(how) after SIG\(run.signal?.rawValue ?? "nothing") left \(run.created.joined(separator: ", "))"))
        }
        if run.completed {
            for generation in run.earlierLeftovers {
                findings.append(Finding(.notCleaned, "a completed run left an earlier killed run's \(generation.joined(separator: ", "))"))
            }
        }
        if run.wasKilled && !run.created.isEmpty && !run.earlierLeftovers.isEmpty {
            let earlier = run.earlierLeftovers.flatMap { $0 }
            findings.append(Finding(.accumulated, "killed while writing, it left \(run.created.joined(separator: ", ")) beside an earlier run's \(earlier.joined(separator: ", "))"))
        }
        return findings
    }
}
