/// Renders a `Sensitivity` as `sensitivity.md`, `sensitivity.csv` and the
/// tornado chart `sensitivity.svg`.
///
/// The markdown answers in its first lines: does the recommendation survive
/// every unknown (and if not, which values flip it), which unknown matters
/// most, and how far each headline number moves.
public struct SensitivityReport {
    public static let csvHeader = [
        "design", "point", "unknown", "value", "variant", "within_budget", "budgeted_per_widget_day", "stale_percent",
        "mean_staleness_seconds", "provider_calls_per_widget_day", "withheld_per_widget_day", "best", "verdict", "positions",
    ]

    let sensitivity: Sensitivity
    /// The scenario as the command was given it (a path, or a name), for the
    /// line that reproduces the run; nil gives the scenario's name.
    let scenarioArgument: String?
    /// The parameters file the command merged in, if any (it moves every number).
    let parametersArgument: String?

    public init(_ sensitivity: Sensitivity, scenarioArgument: String? = nil, parametersArgument: String? = nil) {
        self.sensitivity = sensitivity
        self.scenarioArgument = scenarioArgument
        self.parametersArgument = parametersArgument
    }

    /// The command line that writes this report again, each argument
    /// quoted as a shell needs it, so that it can be pasted.
    var reproducingCommand: String {
        let s = sensitivity
        var words = ["widgetsim", "sensitivity", DisplayText.shellQuoted(scenarioArgument ?? s.scenario)]
        if let parametersArgument { words += ["--parameters", DisplayText.shellQuoted(parametersArgument)] }
        words += ["--runs", "\(s.seeds.count)", "--trajectories", "\(s.trajectories)", "--seed", "\(s.seeds.first ?? 0)", "--days", "\(s.days)"]
        return words.joined(separator: " ")
    }

    public func files() -> [ReportFile] {
        [
            ReportFile(name: "sensitivity.csv", contents: csv()),
            ReportFile(name: "sensitivity.md", contents: markdown()),
            ReportFile(name: "sensitivity.svg", contents: TornadoChart(sensitivity: sensitivity).render()),
        ]
    }

    /// The verdict lines, as plain text for a terminal.
    public func terminalSummary() -> String {
        Self.plainText(verdict())
    }

    /// Markdown's code and emphasis marks taken out, but the star of μ*, a
    /// name and not a mark: the terminal said "see μ under ..." for "see μ* under ...".
    static func plainText(_ markdown: String) -> String {
        markdown.split(separator: "μ*", omittingEmptySubsequences: false)
            .map { String($0.filter { $0 != "`" && $0 != "*" }) }
            .joined(separator: "μ*")
    }

    // MARK: Findings

    /// One unknown's sweep as the report states it.
    struct Sweep {
        var index: Int
        var points: [Sensitivity.Point]
        /// The recommended variant's mean staleness at each point.
        var staleness: [Double]
        var span: Double { (staleness.max() ?? 0) - (staleness.min() ?? 0) }
    }

    var sweeps: [Sweep] {
        sensitivity.sweeps.enumerated().map { index, points in
            Sweep(index: index, points: points, staleness: points.map { point in
                sensitivity.recommended.flatMap { point.row($0) }.map { $0.meanStaleness.mean } ?? 0
            })
        }
    }

    /// The unknowns that showed an effect one at a time: those the scenario
    /// lets act (its static screen, `relevant`) and whose sweep moved some
    /// variant's headline numbers away from the baseline's. A push budget
    /// in a scenario that shares it with the rest moves nothing, though
    /// pushes are sent: a newcomer found four such unknowns counted as able
    /// to change the runs. On common random numbers an unknown without
    /// effect gives the very same numbers, so the comparison is exact.
    var effective: [Bool] {
        let s = sensitivity
        func headlines(_ point: Sensitivity.Point) -> [[Double]?] {
            s.variants.map { variant in point.row(variant).map { row in Sensitivity.Headline.allCases.map { $0.value(row) } } }
        }
        let baseline = headlines(s.baseline)
        return s.unknowns.indices.map { index in
            s.relevant[index] && (index >= s.sweeps.count || s.sweeps[index].contains { headlines($0) != baseline })
        }
    }

    /// The unknowns whose steps in the Morris walks moved the headline
    /// numbers of one of `variants` (a μ* above 0): only those can tell
    /// where one of them beats another. The one-at-a-time sweep cannot
    /// say: an unknown idle as written (a token bucket's burst under
    /// `paced`) may act when the walk moves the budget model too.
    func movesInTheWalks(of variants: [String]) -> [Bool] {
        let s = sensitivity
        var moves = Array(repeating: false, count: s.unknowns.count)
        for variant in variants {
            for headline in Sensitivity.Headline.allCases {
                for (index, effect) in s.elementaryEffects(on: headline, of: variant).enumerated() where effect.muStar > 0 { moves[index] = true }
            }
        }
        return moves
    }

    func value(_ unknown: Int, at position: Double?) -> String {
        position.map { sensitivity.unknowns[unknown].describe($0) } ?? sensitivity.asWritten[unknown]
    }

    func verdict() -> String {
        let s = sensitivity
        guard let recommended = s.recommended else {
            let baseline = s.baseline.comparison
            guard baseline.hasViews(for: baseline.budgetModels[0]) else {
                // As compare's "No verdict": zeros of staleness are not freshness.
                let during = baseline.measuredHours.isWholeDay ? "" : " during the measured hours"
                return "No widget was viewed\(during) in the runs as the scenario is written, so there is no staleness to rank the variants on and no recommendation to test.\n"
            }
            return "No variant stays within the budget as the scenario is written, so there is no recommendation to test.\n"
        }
        let relevantCount = effective.filter { $0 }.count
        var out = ""
        let measured = s.baseline.comparison.measuredHours
        if !measured.isWholeDay {
            out += "Staleness counts only the views during \(measured.summary), local time (`measureDuring`); reloads and requests count every hour.\n\n"
        }
        // The ranking this verdict tests, from this run's own replications:
        // `compare`, with more of them, may put a variant within the noise of
        // this one first.
        let asWritten = s.baseline.comparison.ranking(for: s.baseline.comparison.budgetModels[0])
        out += "As written, with \(DisplayText.counted(s.seeds.count, "replication")) a variant, the variants rank "
        // A budget call within the noise that the recommendation rests on (its
        // own, or a fresher variant's over the budget) is marked, as compare's
        // verdict names it: other replications may make it the other way.
        let tolerance = s.baseline.comparison.withheldTolerance
        let tested = s.baseline.row(recommended)
        out += asWritten.map { row in
            let edge = tested.map { row.isAtTheBudgetsEdge(under: $0, tolerance: tolerance) } ?? false
            let mark = row.withinBudget ? (edge ? " (within the budget by less than the noise)" : "") : (edge ? " (over the budget by less than the noise)" : " (over the budget)")
            return "`\(row.variant)`" + mark
        }.joined(separator: ", ")
        out += "; this analysis tests `\(recommended)`, the first within the budget"
        out += s.seeds.count > 1 ? " (`compare`, with its own replications, may rank a variant within the noise of it first).\n\n" : ".\n\n"
        let tiesNoise = s.seeds.count > 1
            ? "within the noise of \(s.seeds.count) replications"
            : "with one replication, whose noise is unknown (use `--runs 2` or more),"
        // One at a time.
        var flips: [String] = []
        var ties: [String] = []
        var overBudget: [String] = []
        var edges: [String] = []
        for challenge in s.oneAtATimeChallenges {
            let at = "`\(s.unknowns[challenge.unknown].name)` at \(value(challenge.unknown, at: challenge.position))"
            switch challenge.verdict {
            case .holds, .untested: break
            case .ties(let other): ties.append("\(at) (`\(other)` ties)")
            case .flips(let other): flips.append("\(at) (`\(other)` \(gapText(challenge.point, from: other, to: recommended)))")
            case .overBudget: overBudget.append(at)
            case .atTheBudgetsEdge(let first):
                let withheld = challenge.point.row(recommended).map { EstimateText.show($0.withheld, decimals: 1) } ?? "?"
                edges.append("\(at) (it withholds \(withheld) requests per widget-day; `\(first)` first)")
            }
        }
        // A flip on a budget call within the noise is not beyond the noise:
        // said apart, as compare's sweep says it.
        let edgeSentence = edges.isEmpty ? "" : " It is **at the budget's edge** at \(edges.joined(separator: "; ")): over the budget on its mean, but the interval holds the tolerance of \(DurationText.plain(s.baseline.comparison.withheldTolerance)), and counted within it, it would rank first; more replications may count it either way."
        // Where nothing stays within the budget, no variant beats it, but it
        // does not hold either: it withholds more than the tolerance there.
        let overBudgetSentence = "It goes over the budget, as every variant does, at \(overBudget.joined(separator: "; "))."
        if flips.isEmpty && overBudget.isEmpty {
            // "Stays the best" only when nothing ties it or stands on a budget call within the noise.
            out += ties.isEmpty && edges.isEmpty
                ? "**`\(recommended)` stays the best choice over the plausible range of every unknown, one at a time** "
                : "**`\(recommended)` is not beaten beyond the noise over the plausible range of any unknown, one at a time** "
            out += "(\(s.unknowns.count) unknowns, \(relevantCount) of which changed this scenario's runs)"
            out += ties.isEmpty ? "." : "; \(tiesNoise) it ties at \(ties.joined(separator: "; "))."
            out += edgeSentence + "\n\n"
        } else if flips.isEmpty {
            out += "**`\(recommended)` does not stay within the budget over every unknown.** "
            out += overBudgetSentence
            out += ties.isEmpty ? "" : " \(tiesNoise.prefix(1).uppercased() + tiesNoise.dropFirst()) it ties at \(ties.joined(separator: "; "))."
            out += edgeSentence + "\n\n"
        } else {
            out += "**`\(recommended)` does not survive every unknown.** One at a time, another variant is better\(s.seeds.count > 1 ? " beyond the noise" : "") at "
            out += flips.joined(separator: "; ") + "."
            out += ties.isEmpty ? "" : " \(tiesNoise.prefix(1).uppercased() + tiesNoise.dropFirst()) it ties at \(ties.joined(separator: "; "))."
            out += edgeSentence + "\n\n"
            if !overBudget.isEmpty { out += overBudgetSentence + "\n\n" }
        }
        // All at once.
        let walk = s.walkPoints
        if !walk.isEmpty {
            let holds = walk.filter { $0.verdict == .holds }.count
            let tied = walk.filter { if case .ties = $0.verdict { return true } else { return false } }.count
            let flipped = walk.compactMap { point -> String? in if case .flips(let other) = point.verdict { return other } else { return nil } }
            let edge = walk.filter { if case .atTheBudgetsEdge = $0.verdict { return true } else { return false } }.count
            out += "**All unknowns at once** (Morris design: \(DisplayText.counted(s.trajectories, "walk")), \(walk.count) points): it holds at \(holds), "
            out += s.seeds.count > 1
                ? "ties at \(tied) and is beaten beyond the noise at \(flipped.count)"
                : "ties at \(tied) (with one replication, whose noise is unknown) and is beaten at \(flipped.count)"
            if !flipped.isEmpty {
                let winners = orderedCounts(flipped).map { "`\($0.name)` \($0.count)" }.joined(separator: ", ")
                out += " (\(winners)), most often when " + flipConditions()
            }
            let over = walk.filter { $0.verdict == .overBudget }.count
            if edge > 0 { out += "; at \(edge) it is at the budget's edge (over it by less than the noise, with another variant first)" }
            out += over == 0 ? ".\n\n" : "; at \(over) it goes over the budget, as every variant does.\n\n"
        }
        // What matters most.
        let ranked = sweeps.sorted { $0.span != $1.span ? $0.span > $1.span : $0.index < $1.index }
        if let top = ranked.first, top.span > 0 {
            let unknown = s.unknowns[top.index]
            let low = top.staleness.enumerated().min { $0.element < $1.element }!
            let high = top.staleness.enumerated().max { $0.element < $1.element }!
            let positions = unknown.sweepPositions
            out += "**What matters most for `\(recommended)`, one unknown at a time: `\(unknown.name)`**, which moves its mean staleness from "
            out += "\(EstimateText.duration(low.element)) (\(unknown.describe(positions[low.offset]))) to "
            out += "\(EstimateText.duration(high.element)) (\(unknown.describe(positions[high.offset])))"
            let next = ranked.dropFirst().prefix(2).filter { $0.span > 0 }
            if !next.isEmpty {
                out += "; then " + next.map { "`\(s.unknowns[$0.index].name)` (\(EstimateText.duration($0.span)))" }.joined(separator: " and ")
            }
            out += "."
            if !walk.isEmpty {
                // The Morris table below orders the unknowns by their effect
                // with all of them moving, which can differ: a knob that moves
                // little alone may matter beside another.
                out += " With every unknown moving at once, the order can differ: see μ* under *All unknowns at once*."
            }
            out += "\n\n"
        }
        // How far the headline numbers move.
        out += "**Headline numbers of `\(recommended)` across every point** (lowest – highest): "
        let every = [s.baseline] + s.sweeps.flatMap { $0 } + walk
        let rows = every.compactMap { $0.row(recommended) }
        out += Sensitivity.Headline.allCases.map { headline in
            let values = rows.map { headline.value($0) }
            return "\(headline.name) \(format(values.min() ?? 0, headline)) – \(format(values.max() ?? 0, headline))"
        }.joined(separator: "; ") + ".\n"
        return out
    }

    /// "is fresher by 41s, 95 % CI 12s to 1m10s" (after "comes within the budget
    /// here and " for a variant over it as written), or "stays within the budget; `x` does not".
    func gapText(_ point: Sensitivity.Point, from best: String, to recommended: String) -> String {
        guard let bestRow = point.row(best), let own = point.row(recommended) else { return "is better" }
        guard own.withinBudget else { return "stays within the budget; `\(recommended)` does not" }
        let gap = point.comparison.stalenessGap(from: bestRow, to: own)
        // A variant over the budget as written may be fresher everywhere: what
        // changed here is that it stays within the budget, so that is said first.
        let cameWithin = sensitivity.baseline.row(best).map { !$0.withinBudget } ?? false
        var text = (cameWithin ? "comes within the budget here and " : "") + "is fresher by \(EstimateText.signedDuration(gap.mean))"
        if let low = gap.low, let high = gap.high {
            text += ", 95 % CI \(EstimateText.signedDuration(low)) to \(EstimateText.signedDuration(high))"
            // Widened as `compare`'s verdict says (`Comparison.stalenessGap`).
            if gap.comparisons > 2 { text += " widened for the best of \(gap.comparisons + 1) variants" }
        }
        return text
    }

    /// The unknowns whose positions differ most between the Morris points
    /// where the recommendation is beaten and all points, among those whose
    /// steps moved the numbers of the recommended variant or of one that
    /// beats it (a newcomer found "`pushDailyBudget` is high" named, which
    /// moves only a push variant that beats nothing: its positions differed
    /// by the draw alone).
    func flipConditions() -> String {
        let s = sensitivity
        let walk = s.walkPoints
        let beaten = walk.filter { if case .flips = $0.verdict { return true } else { return false } }
        var shifts: [(index: Int, shift: Double)] = []
        // The recommended variant and those that beat it: an unknown that
        // moves only a third variant's numbers cannot be why it is beaten.
        var rivals: [String] = s.recommended.map { [$0] } ?? []
        for point in beaten {
            if case .flips(let other) = point.verdict, !rivals.contains(other) { rivals.append(other) }
        }
        let moves = movesInTheWalks(of: rivals)
        for index in s.unknowns.indices where s.relevant[index] && moves[index] {
            let mean = { (points: [Sensitivity.Point]) in points.reduce(0.0) { $0 + ($1.positions[index] ?? 0) } / Double(max(1, points.count)) }
            shifts.append((index, mean(beaten) - mean(walk)))
        }
        let top = shifts.sorted { abs($0.shift) != abs($1.shift) ? abs($0.shift) > abs($1.shift) : $0.index < $1.index }.prefix(2)
        return top.map { shift in
            let unknown = s.unknowns[shift.index]
            guard unknown.isCategorical else { return "`\(unknown.name)` is \(shift.shift > 0 ? "high" : "low")" }
            // A list of levels has no low or high: name the level the beaten
            // points hold more often than the walk as a whole does.
            func share(_ level: Int, among points: [Sensitivity.Point]) -> Double {
                let count = points.filter { PlausibleRange.level($0.positions[shift.index] ?? 0, of: unknown.levels.count) == level }.count
                return Double(count) / Double(max(1, points.count))
            }
            let level = unknown.levels.indices.max { a, b in
                let (da, db) = (share(a, among: beaten) - share(a, among: walk), share(b, among: beaten) - share(b, among: walk))
                return da != db ? da < db : a > b
            }!
            return "`\(unknown.name)` is `\(unknown.levels[level])`"
        }.joined(separator: " and ")
    }

    func orderedCounts(_ names: [String]) -> [(name: String, count: Int)] {
        var counts: [(name: String, count: Int)] = []
        for name in names {
            if let index = counts.firstIndex(where: { $0.name == name }) { counts[index].count += 1 } else { counts.append((name, 1)) }
        }
        return counts.enumerated().sorted { $0.element.count != $1.element.count ? $0.element.count > $1.element.count : $0.offset < $1.offset }.map(\.element)
    }

    func format(_ value: Double, _ headline: Sensitivity.Headline) -> String {
        switch headline {
        case .meanStaleness: return EstimateText.duration(value)
        case .stalePercent: return FixedDecimal.format(value, decimals: 1) + "%"
        case .budgetedReloads, .requests: return FixedDecimal.format(value, decimals: 1)
        }
    }

    // MARK: Files

    func markdown() -> String {
        let s = sensitivity
        var out = "# widgetsim sensitivity: \(s.scenario)\n\n"
        if !s.description.isEmpty { out += "> \(DisplayText.singleLine(s.description))\n\n" }
        out += verdict() + "\n"
        out += "\(DisplayText.counted(s.seeds.count, "replication")) per point and variant on common random numbers (seeds \(s.seeds.map(String.init).joined(separator: ", "))), "
        out += "\(DisplayText.counted(s.days, "day")); \(1 + s.sweeps.reduce(0) { $0 + $1.count }) points one at a time and \(s.walkPoints.count) in the Morris design. "
        out += "Ranked as `compare` ranks: within the budget first, then mean staleness. Reproduce with \(DisplayText.codeSpan(reproducingCommand)).\n\n"

        if let recommended = s.recommended {
            out += "## One unknown at a time\n\n"
            out += "The recommended variant, `\(recommended)`, as each unknown moves across its range and the others stay as written.\n\n"
            out += "| unknown | as written | values | mean staleness | stale views | budgeted reloads/widget-day | server requests/widget-day | best there |\n"
            out += "|---|---|---|---|---|---|---|---|\n"
            let effective = self.effective
            for sweep in sweeps {
                let unknown = s.unknowns[sweep.index]
                let rows = sweep.points.map { $0.row(recommended) }
                func list(_ headline: Sensitivity.Headline) -> String {
                    rows.map { $0.map { format(headline.value($0), headline) } ?? "–" }.joined(separator: " / ")
                }
                let values = unknown.sweepPositions.map { unknown.describe($0) }.joined(separator: " / ")
                let best = sweep.points.map { $0.best ?? "none" }.joined(separator: " / ")
                out += "| \(unknown.name)\(effective[sweep.index] ? "" : " (no effect here)") | \(DisplayText.markdownCell(s.asWritten[sweep.index])) | \(DisplayText.markdownCell(values)) | "
                out += "\(list(.meanStaleness)) | \(list(.stalePercent)) | \(list(.budgetedReloads)) | \(list(.requests)) | \(best) |\n"
            }
            out += "\nAs written: mean staleness \(format(s.baseline.row(recommended).map { Sensitivity.Headline.meanStaleness.value($0) } ?? 0, .meanStaleness)). "
            out += "\"No effect here\": no value of the unknown tried, with the others as written, moved any variant's numbers in this scenario (a push budget without pushes, say); with the others moving, as in the Morris table below, it may.\n\n"
            out += "![How far each unknown moves the mean staleness of \(recommended)](sensitivity.svg)\n\n"

            if !s.walks.isEmpty {
                out += "## All unknowns at once\n\n"
                out += "Morris elementary effects on `\(recommended)`: μ* is the mean absolute change across an unknown's whole range, "
                out += "σ its spread over the other unknowns' values (a large σ means the effect depends on them). "
                out += "Both count only the steps where the unknown could act on `\(recommended)`: a step that moved a pacing setting while the walk's budget model is not paced, "
                out += "or a push budget where nothing pushes, ran `\(recommended)` exactly as before, so its effect is 0 by construction, not by measurement, and it is not counted. "
                out += "An unknown none of whose steps could act is not measured here (–), which is not the same as having no effect; "
                out += "one measured at 0s could act and did not move these numbers. σ needs two steps.\n\n"
                out += "| unknown | steps measured | μ* mean staleness | σ | μ* stale views | μ* budgeted reloads | μ* server requests |\n|---|--:|--:|--:|--:|--:|--:|\n"
                let staleness = s.elementaryEffects(on: .meanStaleness, of: recommended)
                let stale = s.elementaryEffects(on: .stalePercent, of: recommended)
                let budgeted = s.elementaryEffects(on: .budgetedReloads, of: recommended)
                let requests = s.elementaryEffects(on: .requests, of: recommended)
                // The measured first, by μ*; the unmeasured last, in the unknowns' order.
                let order = s.unknowns.indices.sorted { a, b in
                    let (x, y) = (staleness[a], staleness[b])
                    if (x.steps > 0) != (y.steps > 0) { return x.steps > 0 }
                    return x.muStar != y.muStar ? x.muStar > y.muStar : a < b
                }
                for index in order {
                    let measured = staleness[index].steps > 0
                    let cell = { (text: String) in measured ? text : "–" }
                    out += "| \(s.unknowns[index].name) | \(staleness[index].steps) of \(staleness[index].tried) | "
                    out += "\(cell(EstimateText.duration(staleness[index].muStar))) | \(staleness[index].steps > 1 ? EstimateText.duration(staleness[index].sigma) : "–") | "
                    out += "\(cell(FixedDecimal.format(stale[index].muStar, decimals: 1) + "%")) | \(cell(FixedDecimal.format(budgeted[index].muStar, decimals: 1))) | "
                    out += "\(cell(FixedDecimal.format(requests[index].muStar, decimals: 1))) |\n"
                }
                out += "\n"
            }
        }
        out += "## The plausible ranges\n\n| unknown | low | high | rests on | why |\n|---|---|---|---|---|\n"
        for unknown in s.unknowns {
            let ends = unknown.isCategorical ? (unknown.levels.first ?? "", unknown.levels.dropFirst().joined(separator: ", ")) : (unknown.describe(0), unknown.describe(1))
            out += "| \(unknown.name) | \(DisplayText.markdownCell(ends.0)) | \(DisplayText.markdownCell(ends.1)) | \(unknown.facts) | \(DisplayText.markdownCell(unknown.reason)) |\n"
        }
        return out
    }

    func csv() -> String {
        let s = sensitivity
        var csv = CSVText(header: SensitivityReport.csvHeader)
        func append(_ design: String, _ point: Int, _ unknown: String, _ value: String, _ entry: Sensitivity.Point) {
            let positions = entry.positions.map { $0.map { FixedDecimal.format($0, decimals: 3) } ?? "" }.joined(separator: ";")
            for row in entry.comparison.rows {
                csv.append([
                    design, String(point), unknown, value, row.variant, row.withinBudget ? "1" : "0",
                    FixedDecimal.format(row.budgeted.mean, decimals: 2), FixedDecimal.format(row.stalePercent.mean, decimals: 2),
                    FixedDecimal.format(row.meanStaleness.mean, decimals: 1), FixedDecimal.format(row.calls.mean, decimals: 2),
                    FixedDecimal.format(row.withheld.mean, decimals: 2), entry.best ?? "", entry.verdict.label, positions,
                ])
            }
        }
        append("as-written", 0, "", "", s.baseline)
        var point = 1
        for (index, sweep) in s.sweeps.enumerated() {
            for (entry, position) in zip(sweep, s.unknowns[index].sweepPositions) {
                append("one-at-a-time", point, s.unknowns[index].name, s.unknowns[index].describe(position), entry)
                point += 1
            }
        }
        for (walk, order) in zip(s.walks, s.walkOrder) {
            for (step, entry) in walk.enumerated() {
                let unknown = step == 0 ? "" : s.unknowns[order[step - 1]].name
                let value = step == 0 ? "" : entry.positions[order[step - 1]].map { s.unknowns[order[step - 1]].describe($0) } ?? ""
                append("morris", point, unknown, value, entry)
                point += 1
            }
        }
        return csv.text
    }
}
