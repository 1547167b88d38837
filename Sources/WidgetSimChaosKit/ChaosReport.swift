import WidgetSim

/// One run of a campaign and what the rules found in it.
public struct IterationRecord: Sendable {
    /// Numbered from 1; nil for the final clean run.
    public var iteration: Int?
    public var plan: InterruptionPlan?
    /// Seconds after the start of the run at which the signal was sent.
    public var delay: Double?
    public var observation: RunObservation
    public var findings: [Finding]
    /// Where the evidence of a failure was kept.
    public var evidence: String?

    /// "iteration 17: SIGTERM at 0.612 s (0.83 of the run), while writing".
    public func headline(duration: Double) -> String {
        guard let iteration, let plan, let delay, let phase = observation.phase else { return "final clean run" }
        let fraction = FixedDecimal.format(plan.fraction, decimals: 2)
        return "iteration \(iteration): SIG\(plan.signal.rawValue) at \(FixedDecimal.format(delay, decimals: 3)) s (\(fraction) of the \(FixedDecimal.format(duration, decimals: 3)) s run), \(phase.rawValue)"
    }
}

/// A campaign's figures and failures.
public struct ChaosReport: Sendable {
    public var configuration: ChaosConfiguration
    public var size: ReportSize
    public var calibration: Calibration
    /// The duration the delays were fractions of.
    public var duration: Double
    public var iterations: [IterationRecord]
    public var finalRun: IterationRecord
    public var evidencePath: String

    /// Every run with a failure, the final one included.
    public var failures: [IterationRecord] {
        (iterations + [finalRun]).filter { !$0.findings.isEmpty }
    }

    /// Findings of each kind, over every run.
    public func count(_ kind: FindingKind) -> Int {
        (iterations + [finalRun]).reduce(0) { $0 + $1.findings.filter { $0.kind == kind }.count }
    }

    /// Interrupted runs that were at `phase` when signalled with `signal` (any signal when nil).
    public func count(_ phase: Phase, _ signal: ChaosSignal? = nil) -> Int {
        iterations.filter { $0.observation.phase == phase && (signal == nil || $0.plan?.signal == signal) }.count
    }

    /// The table, the failure counts, and up to `examples` failures of each
    /// kind with the lines that reproduce them.
    public func summary(examples: Int = 3) -> String {
        var lines: [String] = []
        let c = configuration
        lines.append("widgetsim-chaos: seed \(c.seed), \(iterations.count) interruption(s) of `widgetsim simulate` on \(c.devices) copies of \(c.scenario.split(separator: "/").last ?? "") over \(c.days) days\(c.trace ? ", with --trace" : "")")
        lines.append("  \(size.files) report files, \(FixedDecimal.format(Double(size.bytes) / 1e6, decimals: 1)) MB a run; clean run \(FixedDecimal.format(calibration.exit, decimals: 3)) s"
            + (calibration.staging.map { ", staging directory from \(FixedDecimal.format($0, decimals: 3)) s" } ?? "")
            + (calibration.swap.map { ", swap at \(FixedDecimal.format($0, decimals: 3)) s" } ?? "")
            + "; delays uniform over 0 to \(FixedDecimal.format(InterruptionPlan.span * duration, decimals: 3)) s")
        lines.append("")
        lines.append(row("phase at the signal", ChaosSignal.allCases.map(\.rawValue) + ["all", "→ old", "new", "broken"]))
        for phase in Phase.allCases {
            let runs = iterations.filter { $0.observation.phase == phase }
            var cells = ChaosSignal.allCases.map { String(count(phase, $0)) } + [String(runs.count)]
            cells += outcomes(runs)
            lines.append(row("  " + phase.rawValue, cells))
        }
        lines.append(row("  all", ChaosSignal.allCases.map { signal in String(iterations.filter { $0.plan?.signal == signal }.count) }
            + [String(iterations.count)] + outcomes(iterations)))
        let early = iterations.filter(\.observation.diedBeforeHandlers).count
        if early > 0 {
            lines.append("  \(early) run(s) ended by SIGINT's or SIGTERM's default action: signalled before the handlers were installed")
        }
        // Allowed (the new reports are in place), but the user's Ctrl-C was
        // ignored until the whole run was done: worth knowing.
        let ignored = iterations.filter { record in
            record.plan?.signal != .kill && record.observation.completed
                && [.simulating, .writing].contains(record.observation.phase)
        }
        if !ignored.isEmpty {
            lines.append("  \(ignored.count) run(s) signalled with INT or TERM while simulating or writing ran to the end and exited 0 (iterations \(ignored.compactMap(\.iteration).map(String.init).joined(separator: ", ")))")
        }
        lines.append("")
        lines.append(row("failures", ["count"], width: 50))
        for kind in FindingKind.allCases {
            lines.append(row("  " + kind.label, [String(count(kind))], width: 50))
        }
        lines.append("  final clean run: " + (finalRun.findings.isEmpty ? "ok, the parent holds the report directory only" : finalRun.findings.map(\.description).joined(separator: "; ")))
        let failed = failures
        lines.append("")
        guard !failed.isEmpty else {
            lines.append("PASS: every run left the old or the new reports, said which, exited as promised, and left nothing behind")
            return lines.joined(separator: "\n")
        }
        lines.append("FAIL: \(failed.count) run(s) broke a promise; evidence in \(evidencePath)/")
        lines.append("(a replay repeats the instant as a fraction of the run and the signal; the operating system's timing is not seeded, so it lands near the same phase, not at the same microsecond)")
        for kind in FindingKind.allCases where count(kind) > 0 {
            lines.append("")
            lines.append("\(kind.label):")
            let runs = failed.filter { $0.findings.contains { $0.kind == kind } }
            for record in runs.prefix(examples) {
                lines.append("  \(record.headline(duration: duration))")
                for finding in record.findings where finding.kind == kind {
                    lines.append("    \(finding.detail)")
                }
                if let iteration = record.iteration {
                    lines += configuration.reproduce(iteration, duration).map { "    reproduce: \($0)" }
                }
            }
            if runs.count > examples {
                lines.append("  ... and \(runs.count - examples) more: iterations " + runs.dropFirst(examples).compactMap(\.iteration).map(String.init).joined(separator: ", "))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func outcomes(_ runs: [IterationRecord]) -> [String] {
        let old = runs.filter { $0.observation.state == .old }.count
        let new = runs.filter { $0.observation.state == .new }.count
        return [String(old), String(new), String(runs.count - old - new)]
    }

    private func row(_ label: String, _ cells: [String], width: Int = 24) -> String {
        var text = label.count < width ? label + String(repeating: " ", count: width - label.count) : label + " "
        for cell in cells {
            text += String(repeating: " ", count: max(1, 7 - cell.count)) + cell
        }
        return text
    }
}
