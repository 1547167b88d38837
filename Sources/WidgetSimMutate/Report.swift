import Foundation
import WidgetSimMutation

/// The summary of a sweep: a table of verdicts per kind, the exit codes
/// seen, the heaviest and slowest mutants, and each distinct failure once,
/// with the command that makes its first mutant again.
///
/// Promised: apart from times and memory figures, the text depends only on
/// the records, never on the order the workers finished in.
struct Report {
    let records: [Record]
    let campaign: Campaign
    let elapsedSeconds: Double

    var text: String {
        var lines: [String] = [""]
        let rate = Double(records.count) / max(elapsedSeconds, 0.001)
        lines.append(String(format: "%d mutants in %.1f s: %.1f mutants/s", records.count, elapsedSeconds, rate))
        lines.append("")
        let verdicts = Outcome.Verdict.allCases
        lines.append("kind".padding(toLength: 18, withPad: " ", startingAt: 0) + "mutants".leftPadded(9)
            + verdicts.map { $0.name.leftPadded(10) }.joined())
        for kind in Mutant.Kind.allCases + [nil] {
            let rows = records.filter { kind == nil || $0.kind == kind }
            guard !rows.isEmpty || kind == nil else { continue }
            var line = (kind?.name ?? "total").padding(toLength: 18, withPad: " ", startingAt: 0) + String(rows.count).leftPadded(9)
            for verdict in verdicts { line += String(rows.filter { $0.outcome.verdict == verdict }.count).leftPadded(10) }
            lines.append(line)
        }

        lines.append("")
        lines.append("exit codes of the clean mutants, by kind:")
        for kind in Mutant.Kind.allCases {
            let codes = records.filter { $0.kind == kind && $0.outcome.verdict == .ok }.compactMap(\.outcome.exitCode)
            guard !codes.isEmpty else { continue }
            let tally = Array(Set(codes)).sorted().map { code in "\(code) ×\(codes.filter { $0 == code }.count)" }
            lines.append("  \(kind.name): \(tally.joined(separator: ", "))")
        }

        let heaviest = records.sorted { ($0.outcome.result.peakBytes, $1.index) > ($1.outcome.result.peakBytes, $0.index) }.prefix(3)
        lines.append("heaviest mutants (peak resident memory):")
        for record in heaviest {
            lines.append("  #\(record.index) \(Outcome.formatBytes(record.outcome.result.peakBytes)), \(record.outcome.verdict.name): \(describe(record))")
        }
        let slowest = records.filter { $0.outcome.verdict == .ok }.sorted { ($0.outcome.result.elapsed, $1.index) > ($1.outcome.result.elapsed, $0.index) }.prefix(3)
        lines.append("slowest clean mutants:")
        for record in slowest {
            lines.append("  #\(record.index) \(Outcome.formatSeconds(record.outcome.result.elapsed)): \(describe(record))")
        }

        let failures = records.filter { $0.outcome.verdict != .ok }
        lines.append("")
        guard !failures.isEmpty else {
            lines.append("no failures: every mutant exited cleanly, in time and within the memory limit")
            return lines.joined(separator: "\n")
        }
        // Grouped by signature; groups ordered by verdict, then by their first mutant.
        var signatures: [String] = []
        for record in failures where !signatures.contains(record.outcome.signature) { signatures.append(record.outcome.signature) }
        let groups = signatures.map { signature in failures.filter { $0.outcome.signature == signature } }
            .sorted { ($0[0].outcome.verdict, $0[0].index) < ($1[0].outcome.verdict, $1[0].index) }
        lines.append("\(failures.count) failing mutant(s), \(groups.count) distinct failure(s):")
        for (number, group) in groups.enumerated() {
            let first = group[0]
            let kinds = Mutant.Kind.allCases.compactMap { kind -> String? in
                let count = group.filter { $0.kind == kind }.count
                return count == 0 ? nil : "\(kind.name) ×\(count)"
            }
            lines.append("  \(number + 1). \(first.outcome.signature)")
            lines.append("     \(group.count) mutant(s) (\(kinds.joined(separator: ", "))); first #\(first.index): \(first.outcome.summary)")
            let places = ordered(group.compactMap(\.outcome.crashLine))
            if !places.isEmpty { lines.append("     at \(places.joined(separator: ", "))") }
            let commands = ordered(group.compactMap(\.arguments.first))
            if commands.count > 1 {
                lines.append("     commands: " + commands.map { command in "\(command) ×\(group.filter { $0.arguments.first == command }.count)" }.joined(separator: ", "))
            }
            lines.append("     \(describe(first))")
            let others = group.dropFirst().prefix(5).map { "#\($0.index)" }
            if !others.isEmpty { lines.append("     also \(others.joined(separator: ", "))\(group.count > 6 ? ", …" : "")") }
            lines.append("     reproduce: \(campaign.reproduceCommand(first.index))")
        }
        lines.append("")
        lines.append("each failing mutant is saved in \(campaign.settings.failures)/<n>/: its files, command.txt (the exact command), stderr.txt and outcome.txt")
        return lines.joined(separator: "\n")
    }

    /// Distinct values, sorted.
    func ordered(_ values: [String]) -> [String] {
        Array(Set(values)).sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
    }

    func describe(_ record: Record) -> String {
        let edits = record.edits.count > 240 ? String(record.edits.prefix(240)) + "…" : record.edits
        let command = record.arguments.map { $0.count > 40 ? String($0.prefix(24)) + "…(\($0.utf8.count) bytes)" : $0 }.joined(separator: " ")
        return "\(record.kind.name) from \(record.origin), widgetsim \(command); \(edits)"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
