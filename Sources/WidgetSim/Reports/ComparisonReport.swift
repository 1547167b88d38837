/// Renders a `Comparison` as `comparison.csv`, `comparison.md` and `comparison.svg`.
public struct ComparisonReport {
    public static let csvHeader = [
        "budget_model", "variant", "runs", "within_budget", "rank",
        "budgeted_per_widget_day", "budgeted_ci95", "free_per_widget_day", "free_ci95",
        "withheld_per_widget_day", "withheld_ci95", "timeouts_per_widget_day", "timeouts_ci95",
        "stale_percent", "stale_percent_ci95", "mean_staleness_seconds", "mean_staleness_ci95",
        "staleness_p50_seconds", "staleness_p50_ci95",
        "staleness_p95_seconds", "staleness_p95_ci95", "staleness_max_seconds", "staleness_max_ci95",
        "provider_calls_per_widget_day", "provider_calls_ci95",
        // The model the row's runs used: `budget_model` (the section's) unless
        // the variant sets its own, which it keeps in every section.
        "ran_under",
    ]

    let comparison: Comparison
    /// The one-at-a-time sweep the verdict cites (`Sensitivity.citedByComparison`), if it ran.
    let sensitivity: Sensitivity?

    public init(_ comparison: Comparison, sensitivity: Sensitivity? = nil) {
        self.comparison = comparison
        self.sensitivity = sensitivity
    }

    /// The columns of `comparison-widgets.csv`: `comparison.csv`'s, with the
    /// widget's device and id after the budget model. A file of its own, so
    /// that `comparison.csv`'s columns and rows stay as they were for its readers.
    public static let widgetsCSVHeader = Array(csvHeader.prefix(1)) + ["device", "widget"] + Array(csvHeader.dropFirst())

    public func files() -> [ReportFile] {
        var files = [
            ReportFile(name: "comparison.csv", contents: csv()),
            ReportFile(name: "comparison.md", contents: markdown()),
            ReportFile(name: "comparison.svg", contents: chart()),
        ]
        if showsEachWidget { files.append(ReportFile(name: "comparison-widgets.csv", contents: widgetsCSV())) }
        return files
    }

    /// A pooled comparison of several widgets also ranks the variants for each
    /// widget alone: the pooled verdict mixes widgets whose best policies may differ.
    var showsEachWidget: Bool { comparison.widget == nil && comparison.widgets.count > 1 }

    var primaryModel: BudgetModel { comparison.budgetModels[0] }

    /// The ranking and verdict as plain text, for a terminal.
    public func terminalSummary() -> String {
        var text = table(for: primaryModel) + "\n" + verdict()
        if showsEachWidget { text += "\n" + eachWidgetsBest() }
        return String(text.filter { $0 != "`" && $0 != "*" })
    }

    /// One line per widget naming its best variant, for the terminal: the
    /// pooled verdict alone would hide a widget whose best policy differs.
    func eachWidgetsBest() -> String {
        let model = primaryModel
        var out = "Best for each widget alone (\(model.rawValue); comparison.md has the tables):\n"
        let width = comparison.widgets.map(\.label.count).max() ?? 0
        for widget in comparison.widgets {
            let narrowed = comparison.restricted(to: widget)
            let best = narrowed.best(for: model)
            out += "  \(widget.label):" + String(repeating: " ", count: width - widget.label.count)
            if !narrowed.hasViews(for: model) {
                out += " never viewed, not ranked\n"
                continue
            }
            out += " " + (best.map { "\($0.variant), mean staleness \(showDuration($0.meanStaleness))" } ?? "no variant within its budget") + "\n"
        }
        return out
    }

    func csv() -> String {
        var csv = CSVText(header: ComparisonReport.csvHeader)
        for fields in Self.csvRows(comparison) { csv.append(fields) }
        return csv.text
    }

    /// One row per budget model, widget and variant, in that order.
    func widgetsCSV() -> String {
        var csv = CSVText(header: ComparisonReport.widgetsCSVHeader)
        for model in comparison.budgetModels {
            for widget in comparison.widgets {
                let narrowed = comparison.restricted(to: widget)
                for fields in Self.csvRows(narrowed, models: [model]) {
                    csv.append([fields[0], widget.device, widget.id] + fields.dropFirst())
                }
            }
        }
        return csv.text
    }

    /// `comparison.csv`'s rows of `comparison`, for `models` (default: all of them).
    static func csvRows(_ comparison: Comparison, models: [BudgetModel]? = nil) -> [[String]] {
        var rows: [[String]] = []
        for model in models ?? comparison.budgetModels {
            let ranking = comparison.ranking(for: model).map(\.variant)
            // Nothing viewed, nothing to rank on: the rank is left empty.
            let ranked = comparison.hasViews(for: model)
            for row in comparison.rows(for: model) {
                var fields = [
                    model.rawValue, row.variant, String(row.replications.count), row.withinBudget ? "1" : "0",
                    ranked ? String(ranking.firstIndex(of: row.variant)! + 1) : "",
                ]
                for (estimate, decimals) in [
                    (row.budgeted, 2), (row.free, 2), (row.withheld, 2), (row.timeouts, 3), (row.stalePercent, 2),
                    (row.meanStaleness, 1), (row.stalenessP50, 1), (row.stalenessP95, 1), (row.stalenessMax, 1), (row.calls, 2),
                ] {
                    fields.append(FixedDecimal.format(estimate.mean, decimals: decimals))
                    fields.append(estimate.halfWidth.map { FixedDecimal.format($0, decimals: decimals) } ?? "")
                }
                fields.append((row.ownBudgetModel ?? model).rawValue)
                rows.append(fields)
            }
        }
        return rows
    }

    func chart() -> String {
        ComparisonChart(
            title: "\(comparison.scenario)\(comparison.widget.map { ", widget \($0.label)" } ?? ""): staleness\(comparison.measuredHours.isWholeDay ? "" : " in the measured hours") against budget spent (\(primaryModel.rawValue))",
            // A variant never viewed has no staleness to plot (nor 0s).
            rows: comparison.rows(for: primaryModel).filter { $0.wasViewed || !comparison.hasViews(for: primaryModel) }
        ).render()
    }

    func show(_ estimate: Estimate, decimals: Int, suffix: String = "") -> String {
        EstimateText.show(estimate, decimals: decimals, suffix: suffix)
    }

    /// A staleness, whose interval stays within the run.
    func showDuration(_ estimate: Estimate) -> String {
        EstimateText.showDuration(estimate, atMost: Double(comparison.days * Seconds.day))
    }

    func markdown() -> String {
        let runs = comparison.seeds.count
        var out = "# widgetsim comparison: \(comparison.scenario)"
        if let widget = comparison.widget { out += ", widget `\(widget.label)`" }
        out += "\n\n"
        if !comparison.description.isEmpty { out += "> \(DisplayText.singleLine(comparison.description))\n\n" }
        if let widget = comparison.widget {
            out += "Ranked on widget `\(widget.label)`'s numbers alone (`--widget`): its reloads, withheld requests, views, staleness and provider calls, per day. *Within budget* is judged on its own withheld requests. The other widgets still ran, so shared effects (coalescing, the app's sessions) are in its numbers.\n\n"
        }
        out += "Each variant ran \(runs) replication\(runs == 1 ? "" : "s") of \(DisplayText.counted(comparison.days, "day")). Replication *r* of every variant used the same seed (common random numbers), so all variants saw the same user and the same truth. Values are means"
        out += runs > 1 ? " ± the half-width of a 95 % confidence interval (Student's t).\n\n" : "; run with `--runs 2` or more for confidence intervals.\n\n"
        if !comparison.measuredHours.isWholeDay {
            out += "**Measured hours** (`measureDuring`): views count only during \(comparison.measuredHours.summary), local time, so mean staleness, stale views and the staleness percentiles are theirs. Reloads, withheld requests, timeouts and server requests count every hour.\n\n"
        }
        out += "## Verdict\n\n" + verdict() + "\n"
        out += "## Variants under \(primaryModel.rawValue)\n\n"
        out += table(for: primaryModel)
        out += ownModelsNote()
        out += "\n![Mean staleness against budgeted reloads per variant](comparison.svg)\n\n"
        if showsEachWidget { out += eachWidget() }
        if comparison.budgetModels.count > 1 {
            out += "## Does the ranking hold under other budget models?\n\n"
            out += "Apple's budget algorithm is unpublished, so the same variants ran under each plausible model. Each cell is the variant's rank (within-budget variants first, by mean staleness) and its mean staleness.\n\n"
            out += sweepTable() + "\n" + sweepVerdict() + "\n\n"
        }
        out += "## Variants\n\n| variant | policy | description |\n|---|---|---|\n"
        for row in comparison.rows(for: primaryModel) {
            out += "| \(row.variant) | \(DisplayText.markdownCell(row.policy)) | \(DisplayText.markdownCell(row.description)) |\n"
        }
        out += "\n## Seeds\n\n" + comparison.seeds.enumerated().map { "r\($0.offset): \($0.element)" }.joined(separator: ", ") + "\n\n"
        // Said only where it widens the intervals (`Estimate.criticalValue`).
        let count = comparison.variantCount
        let multiplicity = count > 3
            ? " The variant ranked ahead was picked from \(count) as the freshest, so the interval of a gap to it is widened: each one-sided bound is at 1 − 0.05/\(count - 1), so that its bounds over all \(count - 1) others hold together at 95 % (Hsu's multiple comparisons with the best, by Bonferroni; the interval printed is two-sided at 1 − 0.1/\(count - 1)). It leads beyond the noise only when it leads every other variant within the budget beyond that widened noise."
            : ""
        out += """
            ## How to read this comparison

            - *within budget* means the variant withheld at most \(DurationText.plain(comparison.withheldTolerance)) request per widget-day on average: its requests rarely found the budget spent. It does not mean the variant got every reload it asked for: under `paced` (the default model) a request that waits for its turn is slowed, not withheld, so a policy that asks more often than its budget allows can be within budget and still get far fewer reloads than it asks for (`budgeted reloads` says how many it got; a simulation's `reloads.csv` shows each call's wait). A variant over budget keeps asking after its budget is spent, and its requests wait for the trailing 24 hours to make room.
            - *mean staleness*, the ranking key, is how long on average what a view showed had been out of date (a fresh view counts as 0): it weighs how often a widget is stale and for how long. *stale views* is the share of looks that showed something the truth had already moved past; the staleness columns are percentiles over all views\(comparison.measuredHours.isWholeDay ? "" : " during the measured hours").
            - *provider calls* are the requests each widget sends your server per day.
            - Two variants differ by more than the noise when the paired 95 % interval of their difference excludes zero.\(multiplicity)
            - Reloads, requests, shares and staleness cannot be negative, nor a share pass 100 % or a staleness the run's length, so an interval that would cross such a bound is cut there and written as a range, as in `2s (0s–6s)`: the t interval truncated at the bound, which keeps its 95 % coverage.

            """
        return out
    }

    /// The variants ranked for each widget alone, under the verdict's budget
    /// model, by the same rule as the pooled verdict.
    func eachWidget() -> String {
        let model = primaryModel
        var out = "## Each widget under \(model.rawValue)\n\n"
        out += "The verdict above pools every widget. Here the variants are ranked again on each widget's numbers alone, by the same rule (within its budget first, then mean staleness); the values are per day of that widget. `widgetsim compare --widget <id>` writes one widget's full comparison.\n\n"
        for widget in comparison.widgets {
            let narrowed = comparison.restricted(to: widget)
            out += "### \(widget.label)\n\n"
            if !narrowed.hasViews(for: model) {
                let during = comparison.measuredHours.isWholeDay ? "" : " during the measured hours"
                out += "`\(widget.label)` was never viewed\(during) in these runs: no variant is ranked on its staleness.\n\n"
            } else if let best = narrowed.best(for: model) {
                out += "Best for `\(widget.label)`: **`\(best.variant)`** (\(DisplayText.markdownCell(best.policy))): mean staleness \(showDuration(best.meanStaleness)), "
                out += "\(EstimateText.showPercent(best.stalePercent)) of views stale, for \(show(best.budgeted, decimals: 1)) budgeted reloads a day."
                // The same paired test as the verdict's: a first place within the noise is said to be one.
                if let close = narrowed.firstWithinTheNoise(of: best.variant, under: model) {
                    let runnerUp = narrowed.ranking(for: model).first { $0.isRanked && $0.variant != best.variant }?.variant
                    out += close == runnerUp ? " The runner-up, `\(close)`, is within the noise of it." : " `\(close)`, though ranked below the runner-up, is within the noise of it."
                }
                out += "\n\n"
            } else {
                out += "No variant keeps `\(widget.label)` within its budget under \(model.rawValue).\n\n"
            }
            out += Self.table(narrowed.ranking(for: model), days: comparison.days, ranked: narrowed.hasViews(for: model))
            out += "\n"
        }
        return out
    }

    func table(for model: BudgetModel) -> String {
        Self.table(comparison.ranking(for: model), days: comparison.days, ranked: comparison.hasViews(for: model))
    }

    /// A ranking of runs `days` long as a markdown table, best first; with
    /// `ranked` false (nothing was viewed, so nothing to rank on) the rank
    /// column says so.
    static func table(_ ranking: [Comparison.Row], days: Int, ranked: Bool = true) -> String {
        func show(_ estimate: Estimate, decimals: Int) -> String {
            EstimateText.show(estimate, decimals: decimals)
        }
        func showDuration(_ estimate: Estimate) -> String {
            EstimateText.showDuration(estimate, atMost: Double(days * Seconds.day))
        }
        var out = "| rank | variant | budgeted reloads/widget-day | free | withheld | timeouts | mean staleness | stale views | staleness p50 | p95 | max | provider calls |\n"
        out += "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
        var partlyViewed: [String] = []
        for (rank, row) in ranking.enumerated() {
            // A variant never viewed has no staleness: not ranked, nothing to show.
            let viewed = !ranked || row.wasViewed
            let notes = (row.withinBudget ? [] : ["over budget"]) + (row.ownBudgetModel.map { ["under its own `\($0.rawValue)`"] } ?? [])
                + (viewed ? [] : ["never viewed"])
            let name = (row.withinBudget ? "**\(row.variant)**" : row.variant) + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
            let staleness = { (text: String) in viewed ? text : "–" }
            out += "| \(ranked && viewed ? String(rank + 1) : "–") | \(name) | \(show(row.budgeted, decimals: 1)) | \(show(row.free, decimals: 1)) "
            out += "| \(show(row.withheld, decimals: 1)) | \(show(row.timeouts, decimals: 2)) | \(staleness(showDuration(row.meanStaleness))) "
            out += "| \(staleness(EstimateText.showPercent(row.stalePercent))) "
            out += "| \(staleness(showDuration(row.stalenessP50))) | \(staleness(showDuration(row.stalenessP95))) | \(staleness(showDuration(row.stalenessMax))) "
            out += "| \(show(row.calls, decimals: 1)) |\n"
            if row.wasViewed && row.viewedReplications < row.replications.count {
                partlyViewed.append("`\(row.variant)` \(row.viewedReplications) of \(row.replications.count)")
            }
        }
        if !partlyViewed.isEmpty {
            // A replication without a view has no staleness, not a fresh one.
            out += "\nStaleness is over the replications that saw a view: \(partlyViewed.joined(separator: ", ")).\n"
        }
        return out
    }

    func verdict() -> String {
        let model = primaryModel
        let ranking = comparison.ranking(for: model)
        let during = comparison.measuredHours.isWholeDay ? "" : " during the measured hours"
        guard comparison.hasViews(for: model) else {
            let subject = comparison.widget.map { "`\($0.label)` was never viewed" } ?? "no widget was viewed"
            return "**No verdict:** \(subject)\(during) in these runs, so there is no staleness to rank the variants on (its zeros are not freshness), and the table does not rank them. It still gives each variant's reloads and server requests.\n"
        }
        guard let best = comparison.best(for: model) else {
            return "No variant stays within the budget under \(model.rawValue): every one withholds more than \(DurationText.plain(comparison.withheldTolerance)) request per widget-day.\n"
        }
        let scope = comparison.widget.map { "for `\($0.label)` on staleness\(during) within its budget" } ?? "on staleness\(during) within the budget"
        var out = "**Best \(scope) (\(model.rawValue)): `\(best.variant)`** (\(best.policy)): "
        out += "mean staleness \(showDuration(best.meanStaleness)), \(EstimateText.showPercent(best.stalePercent)) of views stale, "
        out += "for \(show(best.budgeted, decimals: 1)) budgeted reloads per widget-day.\n\n"
        // Variants the model cannot tell from the best are named as one with it.
        let twins = comparison.exactlyAsFresh(as: best, under: model)
        if !twins.isEmpty {
            let names = Self.list(twins.map { "`\($0.variant)`" }, lastSeparator: " and ")
            out += "\(names) \(twins.count == 1 ? "was" : "were") exactly as fresh as `\(best.variant)` in every replication: the same views, equally stale. Under these settings the model makes no difference between them, so no number of runs separates them (they make \(Self.list(([best] + twins).map { "\(show($0.budgeted, decimals: 1))" }, lastSeparator: " and ")) budgeted reloads per widget-day). The runner-up below is the next variant that ran differently.\n\n"
        }
        if let runnerUp = ranking.first(where: { row in row.isRanked && row.variant != best.variant && !twins.contains { $0.variant == row.variant } }) {
            let gap = comparison.stalenessGap(from: best, to: runnerUp)
            out += "The runner-up, `\(runnerUp.variant)`, is staler by \(signedDuration(gap.mean)) of mean staleness"
            if gap.low != nil, gap.high != nil {
                out += " (\(pairedInterval(gap))): "
                if gap.excludesZero {
                    out += "**larger than the noise** between replications. " + tradeOff(best: best, runnerUp: runnerUp)
                    // A staler variant may spread too widely to rank behind the best at all.
                    if let close = comparison.firstWithinTheNoise(of: best.variant, under: model),
                       let closeRow = ranking.first(where: { $0.variant == close }) {
                        let closeGap = comparison.stalenessGap(from: best, to: closeRow)
                        out += " But `\(close)`, ranked below `\(runnerUp.variant)`, is staler by \(signedDuration(closeGap.mean)) on average and still **within the noise** of `\(best.variant)` (\(pairedInterval(closeGap))): its replications spread too widely to rank it behind; \(separationAdvice(closeGap))."
                    }
                    out += "\n\n"
                } else {
                    out += "**within the noise** of \(gap.count) replications; " + separationAdvice(gap) + "."
                    // Treated as equal, the cost decides: say which of the two it
                    // favours, whichever it is, when the difference shows at the
                    // precision printed (else "cheaper" would sit beside equal figures).
                    let shown = { (row: Comparison.Row) in FixedDecimal.format(row.budgeted.mean, decimals: 1) }
                    let requests = { (row: Comparison.Row) in FixedDecimal.format(row.calls.mean, decimals: 1) }
                    // Paired like the staleness: a cost gap inside the noise
                    // names no cheaper choice either.
                    let costGap = Estimate(zip(runnerUp.replications, best.replications).map { $0.budgetedPerWidgetDay - $1.budgetedPerWidgetDay })
                    if shown(runnerUp) == shown(best) {
                        out += " Treated as equal, neither is cheaper: both make about \(shown(best)) budgeted reloads per widget-day (\(show(best.calls, decimals: 1)) and \(show(runnerUp.calls, decimals: 1)) server requests)."
                    } else if costGap.halfWidth != nil && !costGap.excludesZero {
                        out += " Treated as equal, neither is cheaper beyond the noise: `\(best.variant)` makes \(show(best.budgeted, decimals: 1)) budgeted reloads per widget-day and `\(runnerUp.variant)` \(show(runnerUp.budgeted, decimals: 1)) (\(show(best.calls, decimals: 1)) and \(show(runnerUp.calls, decimals: 1)) server requests)."
                    } else {
                        let (thrifty, other) = runnerUp.budgeted.mean < best.budgeted.mean ? (runnerUp, best) : (best, runnerUp)
                        let also = thrifty.variant == best.variant ? "also " : ""
                        let budget = "\(show(thrifty.budgeted, decimals: 1)) budgeted reloads per widget-day against \(show(other.budgeted, decimals: 1))"
                        let server = "\(show(thrifty.calls, decimals: 1)) server requests against \(show(other.calls, decimals: 1))"
                        if thrifty.calls.mean > other.calls.mean && requests(thrifty) != requests(other) {
                            // Less budget but more requests (free reloads: location,
                            // the app): "cheaper" would hide the server's side.
                            out += " Treated as equal, `\(thrifty.variant)` \(also)spends less of the budget, \(budget), but makes more server requests: \(show(thrifty.calls, decimals: 1)) against \(show(other.calls, decimals: 1))."
                        } else {
                            out += " Treated as equal, `\(thrifty.variant)` is \(also)the cheaper choice: \(budget), and \(server)."
                        }
                    }
                    out += "\n\n"
                }
            } else {
                out += "; with one replication the noise is unknown (use `--runs 2` or more).\n\n"
            }
        }
        let unseen = ranking.filter { $0.withinBudget && !$0.wasViewed }.map { "`\($0.variant)`" }
        if !unseen.isEmpty {
            out += "Never viewed\(during) in these runs, so not ranked on staleness: \(unseen.joined(separator: ", ")).\n\n"
        }
        let over = ranking.filter { !$0.withinBudget }.map { "`\($0.variant)`" + withheldBeyondTheTolerance($0) }
        if !over.isEmpty {
            out += "Over budget (withholding more than \(DurationText.plain(comparison.withheldTolerance)) request per widget-day): \(over.joined(separator: ", ")).\n\n"
        }
        out += budgetEdge(best: best, ranking: ranking)
        // What holds the recommendation up, a paragraph each: the budget models, then the other unknowns.
        var robustness: [String] = []
        if comparison.budgetModels.count > 1 {
            robustness.append(sweepVerdict())
            let robust = robustChoice()
            if !robust.isEmpty { robustness.append(robust) }
        }
        if let sensitivity { robustness.append(Self.sensitivitySentence(sensitivity)) }
        out += robustness.map { $0 + "\n" }.joined(separator: "\n")
        return out
    }

    /// What the best's lead over the runner-up costs, in budgeted reloads
    /// and server requests per widget-day, so the staleness saved can be
    /// weighed against them: a fresher variant is often the costlier one.
    func tradeOff(best: Comparison.Row, runnerUp: Comparison.Row) -> String {
        let budget = "\(show(best.budgeted, decimals: 1)) budgeted reloads per widget-day against `\(runnerUp.variant)`'s \(show(runnerUp.budgeted, decimals: 1))"
        let server = "\(show(best.calls, decimals: 1)) server requests against \(show(runnerUp.calls, decimals: 1))"
        // "More" only when it shows at the precision printed.
        let shown = { (value: Double) in FixedDecimal.format(value, decimals: 1) }
        let moreBudget = shown(best.budgeted.mean) != shown(runnerUp.budgeted.mean) && best.budgeted.mean > runnerUp.budgeted.mean
        let moreRequests = shown(best.calls.mean) != shown(runnerUp.calls.mean) && best.calls.mean > runnerUp.calls.mean
        switch (moreBudget, moreRequests) {
        case (true, true): return "For that lead, `\(best.variant)` makes \(budget), and \(server)."
        case (true, false): return "For that lead, `\(best.variant)` makes \(budget), though no more server requests: \(server)."
        case (false, true): return "For that lead, `\(best.variant)` spends no more of the budget (\(budget)) but makes more server requests: \(server)."
        case (false, false):
            let less = shown(best.budgeted.mean) != shown(runnerUp.budgeted.mean) || shown(best.calls.mean) != shown(runnerUp.calls.mean)
            return "`\(best.variant)` \(less ? "is also cheaper" : "costs the same"): \(budget), and \(server)."
        }
    }

    /// The variants the recommendation rests on whose budget call is within
    /// the noise: the best, and any fresher one over the budget. Judged on
    /// the mean alone, they may fall the other way with other replications,
    /// and the recommendation with them (`sensitivity`'s own replications
    /// may, say). Empty when there is none, or one replication.
    func budgetEdge(best: Comparison.Row, ranking: [Comparison.Row]) -> String {
        let tolerance = comparison.withheldTolerance
        let edge = ranking.filter { $0.isAtTheBudgetsEdge(under: best, tolerance: tolerance) }
        guard !edge.isEmpty else { return "" }
        let named = edge.enumerated().map { index, row in
            "`\(row.variant)` withholds \(show(row.withheld, decimals: 1))\(index == 0 ? " requests per widget-day" : "") and counts as \(row.withinBudget ? "within" : "over") the budget"
        }
        let them = edge.count == 1 ? "it" : "them"
        let intervals = edge.count == 1 ? "its interval holds" : "each interval holds"
        // No count of replications here, as there is for a gap: a mean this
        // near the tolerance moves with every run (weather's tokenBucket call
        // asked for 353 at 10 replications and was settled at 38).
        return "**At the budget's edge:** \(named.joined(separator: "; ")) (the tolerance is \(DurationText.plain(tolerance))), but \(intervals) the tolerance: other replications may count \(them) the other way, and the recommendation would change with \(them); run more (`--runs`) to settle it.\n\n"
    }

    /// " (1.03 withheld)" for a mean that the table's one decimal shows as
    /// the tolerance itself ("1.0" would read as within it); empty otherwise.
    func withheldBeyondTheTolerance(_ row: Comparison.Row) -> String {
        let tolerance = comparison.withheldTolerance
        guard FixedDecimal.format(row.withheld.mean, decimals: 1) == FixedDecimal.format(tolerance, decimals: 1) else { return "" }
        let decimals = (2...6).first { FixedDecimal.format(row.withheld.mean, decimals: $0) != FixedDecimal.format(tolerance, decimals: $0) } ?? 6
        return " (\(FixedDecimal.format(row.withheld.mean, decimals: decimals)) withheld)"
    }

    /// "paired 95 % CI 9s to 1m27s, widened for the best of 5 variants":
    /// a gap to the best, whose interval is widened with more than three
    /// variants (`Comparison.stalenessGap`).
    func pairedInterval(_ gap: Estimate) -> String {
        guard let low = gap.low, let high = gap.high else { return "one replication" }
        let widened = gap.comparisons > 2 ? ", widened for the best of \(gap.comparisons + 1) variants" : ""
        return "paired 95 % CI \(signedDuration(low)) to \(signedDuration(high))\(widened)"
    }

    /// What to do about a runner-up within the noise: how many replications,
    /// at the spread these showed, would put the gap beyond the noise if it
    /// is real (`Estimate.replicationsToExclude`): "at the spread these
    /// showed, a gap of 25s would be beyond the noise at about 38
    /// replications, if it is real: run that many (`--runs 38`) to …".
    func separationAdvice(_ gap: Estimate) -> String {
        let limit = 10_000
        let what = signedDuration(abs(gap.mean)) == "0s" ? "a gap under a second" : "a gap of \(signedDuration(abs(gap.mean)))"
        guard let replications = gap.replicationsToExclude(0, limit: limit) else {
            return "run more (`--runs`) to separate them, or treat them as equal"
        }
        guard replications <= limit else {
            return "at the spread these showed, \(what) would not be beyond the noise within \(DisplayText.counted(limit, "replication")): treat them as equal"
        }
        return "at the spread these showed, \(what) would be beyond the noise at about \(DisplayText.counted(replications, "replication")), if it is real: run that many (`--runs \(replications)`) to separate them, or treat them as equal"
    }

    /// The sentence `compare`'s verdict cites its one-at-a-time sweep with
    /// (`Sensitivity.citedByComparison`): the recommendation holds over the
    /// plausible range of every unknown swept, or it names each unknown and
    /// value at which another variant beats it beyond the noise (it flips)
    /// or within it (it ties), grouped by that variant, and where it goes over
    /// the budget with every other variant.
    ///
    /// Empty when `sensitivity` has no recommendation (no variant within the budget).
    public static func sensitivitySentence(_ sensitivity: Sensitivity) -> String {
        guard sensitivity.recommended != nil else { return "" }
        let unknowns = sensitivity.unknowns
        let scope = unknowns.contains { $0.name == "budgetModel" } ? "" : " besides the budget model"
        let design = "(one at a time; `widgetsim sensitivity` also screens interactions)"
        let challenges = sensitivity.oneAtATimeChallenges
        guard !challenges.isEmpty else {
            return "The recommendation holds over the plausible range of all \(unknowns.count) unknowns\(scope) \(design)."
        }

        /// "`a` is 1 or 2", "`b` is off": one condition per unknown, in order of
        /// first appearance. `markOverBudget` adds, to a value where the
        /// recommendation leaves the budget, that it does (a flip it causes).
        func conditions(_ mine: [Sensitivity.Challenge], markOverBudget: Bool) -> [String] {
            var unknownsNamed: [Int] = []
            for challenge in mine where !unknownsNamed.contains(challenge.unknown) { unknownsNamed.append(challenge.unknown) }
            return unknownsNamed.map { index in
                let values = mine.filter { $0.unknown == index }.map { challenge in
                    var value = unknowns[index].describe(challenge.position)
                    // A distribution's value has commas of its own; keep it apart from the list's.
                    if value.contains(",") { value = "(\(value))" }
                    // A flip that comes from leaving the budget, not from staleness, says so.
                    if markOverBudget, let recommended = sensitivity.recommended, challenge.point.row(recommended)?.withinBudget == false {
                        value += " (where `\(recommended)` goes over budget)"
                    }
                    return value
                }
                return "`\(unknowns[index].name)` is \(values.joined(separator: " or "))"
            }
        }

        // The variant the recommendation leads by less than the noise as written, if any.
        let withinTheNoiseAsWritten: String? = {
            guard let recommended = sensitivity.recommended, let model = sensitivity.baseline.comparison.budgetModels.first else { return nil }
            return sensitivity.baseline.comparison.firstWithinTheNoise(of: recommended, under: model)
        }()

        /// "to `x` when `a` is 1 or 2, or `b` is off" (`naming` writes "to `x`"):
        /// one clause per winning variant, in order of first appearance.
        func clauses(
            _ verdicts: [(winner: String, challenge: Sensitivity.Challenge)], markOverBudget: Bool = true, naming: (String) -> String
        ) -> [String] {
            var winners: [String] = []
            for entry in verdicts where !winners.contains(entry.winner) { winners.append(entry.winner) }
            return winners.map { winner in
                let mine = verdicts.filter { $0.winner == winner }.map(\.challenge)
                return "\(naming(winner)) when \(Self.list(conditions(mine, markOverBudget: markOverBudget), lastSeparator: ", or "))"
            }
        }
        let flips = challenges.compactMap { challenge -> (winner: String, challenge: Sensitivity.Challenge)? in
            if case .flips(let winner) = challenge.verdict { return (winner, challenge) } else { return nil }
        }
        let ties = challenges.compactMap { challenge -> (winner: String, challenge: Sensitivity.Challenge)? in
            if case .ties(let winner) = challenge.verdict { return (winner, challenge) } else { return nil }
        }
        var parts: [String] = []
        if !flips.isEmpty {
            parts.append("**flips** " + Self.list(clauses(flips) { "to `\($0)`" }, lastSeparator: ", and "))
        }
        let overBudget = challenges.filter { $0.verdict == .overBudget }
        if !overBudget.isEmpty {
            // No variant beats it there, but none stays within the budget either.
            let overBudgetConditions = Self.list(conditions(overBudget, markOverBudget: false), lastSeparator: ", or ")
            parts.append("**goes over the budget**, as every variant does, when \(overBudgetConditions)")
        }
        let edges = challenges.compactMap { challenge -> (winner: String, challenge: Sensitivity.Challenge)? in
            if case .atTheBudgetsEdge(let first) = challenge.verdict { return (first, challenge) } else { return nil }
        }
        if !edges.isEmpty {
            // Over the budget by less than the noise: not a flip beyond the noise.
            let each = clauses(edges, markOverBudget: false) { "with `\($0)` first" }
            parts.append("is **at the budget's edge** (over it by less than the noise) " + Self.list(each, lastSeparator: ", and "))
        }
        if !ties.isEmpty {
            let runs = sensitivity.seeds.count
            let noise = runs > 1 ? "within the noise of \(runs) replications" : "with one replication, whose noise is unknown"
            // A tie with the variant it leads by less than the noise as
            // written says no more than the scenario as written does.
            let each = clauses(ties) { winner in
                "with `\(winner)`" + (winner == withinTheNoiseAsWritten ? " (which it leads by less than the noise as written, too)" : "")
            }
            parts.append("ties (\(noise)) " + Self.list(each, lastSeparator: ", and "))
        }
        var challenged: [Int] = []
        for challenge in challenges where !challenged.contains(challenge.unknown) { challenged.append(challenge.unknown) }
        let others = unknowns.count - challenged.count
        var sentence = "The recommendation " + parts.joined(separator: "; it ")
        switch others {
        case 0: sentence += " \(design)."
        case 1: sentence += "; it holds over the plausible range of the one other unknown\(scope) \(design)."
        default: sentence += "; it holds over the plausible range of the other \(others) unknowns\(scope) \(design)."
        }
        return sentence
    }

    /// "a", "a and b", "a, b and c" (with `lastSeparator` before the last).
    static func list(_ items: [String], lastSeparator: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + lastSeparator + items.last!
    }

    func signedDuration(_ seconds: Double) -> String { EstimateText.signedDuration(seconds) }

    /// Which variants set their own budget model, and so ran under it in
    /// every section: empty when none does.
    func ownModelsNote() -> String {
        let own = comparison.rows(for: primaryModel).compactMap { row in
            ownModel(of: row.variant).map { "`\(row.variant)` sets its own budget model, `\($0.rawValue)`" }
        }
        guard !own.isEmpty else { return "" }
        return "\n" + own.joined(separator: "; ") + ": a variant compares what it sets, so it ran under that model in every section of this comparison and is ranked beside the others there.\n"
    }

    /// The budget model `variant` sets itself, if it ran under it in some
    /// section whose model differs (in its own model's section it is no exception).
    func ownModel(of variant: String) -> BudgetModel? {
        comparison.rows.lazy.compactMap { $0.variant == variant ? $0.ownBudgetModel : nil }.first
    }

    func sweepTable() -> String {
        var out = "| variant | " + comparison.budgetModels.map(\.rawValue).joined(separator: " | ") + " |\n"
        out += "|---|" + comparison.budgetModels.map { _ in "--:|" }.joined() + "\n"
        for row in comparison.rows(for: primaryModel) {
            out += "| \(row.variant)\(ownModel(of: row.variant).map { " (its own `\($0.rawValue)` throughout)" } ?? "") |"
            for model in comparison.budgetModels {
                let ranking = comparison.ranking(for: model)
                let rank = ranking.firstIndex { $0.variant == row.variant }!
                let cell = ranking[rank]
                // Without a view there is no staleness to rank on (the verdict's "No verdict").
                guard comparison.hasViews(for: model) else {
                    out += " –\(cell.withinBudget ? "" : "*") |"
                    continue
                }
                guard cell.wasViewed else {
                    out += " –\(cell.withinBudget ? "" : "*") (never viewed) |"
                    continue
                }
                let edge = cell.isAtTheBudgetsEdge(tolerance: comparison.withheldTolerance) ? "†" : ""
                out += " \(rank + 1)\(cell.withinBudget ? "" : "*")\(edge) (\(DurationText.format(cell.meanStaleness.mean.rounded()))) |"
            }
            out += "\n"
        }
        // Each footnote only when some cell carries its mark.
        let rows = comparison.budgetModels.flatMap { comparison.rows(for: $0) }
        var notes = ""
        if rows.contains(where: { !$0.withinBudget }) { notes += "\\* over budget under that model.\n" }
        if rows.contains(where: { $0.isAtTheBudgetsEdge(tolerance: comparison.withheldTolerance) }) {
            if !notes.isEmpty { notes += "\n" }
            notes += "† at the budget's edge under that model: the 95 % interval of its withheld requests holds the tolerance of \(DurationText.plain(comparison.withheldTolerance)), so other replications may count it the other way.\n"
        }
        return out + (notes.isEmpty ? "" : "\n" + notes)
    }

    /// The recommendation's standing under each budget model, in one
    /// paragraph: where it leads (and whether by more than the noise), where
    /// it ties, where whether it ranks first rests on a budget call within
    /// the noise (**at the budget's edge**), and where another variant beats it.
    func sweepVerdict() -> String {
        guard comparison.hasViews(for: primaryModel), let best = comparison.best(for: primaryModel) else { return "" }
        var leads: [String] = []
        var narrow: [(model: String, runnerUp: String)] = []
        var tied: [String] = []
        var edge: [String] = []
        var fails: [String] = []
        for model in comparison.budgetModels {
            switch comparison.standing(of: best.variant, under: model) {
            case .leads, nil: leads.append(model.rawValue)
            case .leadsWithinTheNoise(let other): narrow.append((model.rawValue, other))
            case .ties(let first): tied.append("\(model.rawValue) (`\(first)` first, within the noise)")
            case .atTheBudgetsEdge(let variants, let first):
                edge.append(edgeClause(model: model, variants: variants, recommended: best.variant, first: first, unit: edge.isEmpty))
            case .beaten(let first):
                fails.append("\(model.rawValue) (\(first.map { "best: `\($0)`" } ?? "no variant stays within budget"))")
            }
        }
        var parts: [String] = []
        if !leads.isEmpty { parts.append("holds under \(leads.joined(separator: ", "))") }
        if !narrow.isEmpty {
            // A first place within the noise is not a plain "holds": said as
            // the verdict's runner-up is, grouped by the variant within the noise.
            var groups: [(runnerUp: String, models: [String])] = []
            for entry in narrow {
                if let index = groups.firstIndex(where: { $0.runnerUp == entry.runnerUp }) {
                    groups[index].models.append(entry.model)
                } else {
                    groups.append((entry.runnerUp, [entry.model]))
                }
            }
            parts.append("ranks first, but by less than the noise, " + Self.list(
                groups.map { "ahead of `\($0.runnerUp)` under \($0.models.joined(separator: ", "))" }, lastSeparator: " and "))
        }
        if !tied.isEmpty { parts.append("ties under " + Self.list(tied, lastSeparator: " and ")) }
        if !edge.isEmpty { parts.append("is **at the budget's edge** under " + Self.list(edge, lastSeparator: " and ")) }
        var text = "The recommendation `\(best.variant)` " + parts.joined(separator: "; it ")
        if !fails.isEmpty {
            text += "; but **not** under " + Self.list(fails, lastSeparator: " and ") + ": it depends on how WidgetKit really accounts the budget."
        } else if tied.isEmpty && edge.isEmpty && narrow.isEmpty {
            text += ": every budget model tried."
        } else if edge.isEmpty {
            text += ": no budget model tried beats it beyond the noise."
        } else {
            text += "."
        }
        if !edge.isEmpty {
            let tolerance = DurationText.plain(comparison.withheldTolerance)
            text += " At the budget's edge, the 95 % interval of the requests a variant withholds holds the tolerance of \(tolerance): other replications may count each such variant the other way, and the ranking with it; run more (`--runs`) to settle it."
        }
        return text
    }

    /// The variants no budget model tried beats beyond the noise (each one
    /// leads, ties or stands on a budget call within the noise under every
    /// model, `Comparison.standing(of:under:)`), and the cheapest of them: a
    /// choice that holds however WidgetKit really counts the budget, which
    /// may not be the recommendation, the freshest under the verdict's model.
    /// Empty with one replication (no noise to judge by) or no views.
    func robustChoice() -> String {
        guard comparison.budgetModels.count > 1, comparison.seeds.count > 1, comparison.hasViews(for: primaryModel) else { return "" }
        let rows = comparison.rows(for: primaryModel)
        let robust = rows.filter { row in
            comparison.budgetModels.allSatisfy { model in
                switch comparison.standing(of: row.variant, under: model) {
                case .leads, .leadsWithinTheNoise, .ties, .atTheBudgetsEdge: return true
                case .beaten, nil: return false
                }
            }
        }
        guard !robust.isEmpty else {
            return "**Whatever the budget model:** every variant is beaten beyond the noise, or goes over the budget beyond the noise, under some budget model tried, so the choice depends on how WidgetKit really counts the budget."
        }
        let costs = { (row: Comparison.Row) in "\(show(row.budgeted, decimals: 1)) budgeted reloads and \(show(row.calls, decimals: 1)) server requests per widget-day" }
        guard robust.count > 1 else {
            return "**Whatever the budget model:** no budget model tried beats `\(robust[0].variant)` beyond the noise (\(costs(robust[0])) under \(primaryModel.rawValue)); every other variant is beaten, or over the budget, under some."
        }
        let names = Self.list(robust.map { "`\($0.variant)`" }, lastSeparator: " or ")
        // Cheaper only when it shows at the precision printed and beyond the
        // noise against each of the others, paired as the verdict's cost gap
        // is, and widened as a staleness gap is: the least was picked from them.
        func clearlyLeast(_ value: KeyPath<RunMetrics, Double>, _ estimate: (Comparison.Row) -> Estimate) -> Comparison.Row? {
            let least = robust.min { estimate($0).mean < estimate($1).mean }!
            func shown(_ row: Comparison.Row) -> String { FixedDecimal.format(estimate(row).mean, decimals: 1) }
            let clear = robust.allSatisfy { other in
                other.variant == least.variant || (shown(other) != shown(least)
                    && Estimate(
                        zip(other.replications, least.replications).map { $0[keyPath: value] - $1[keyPath: value] },
                        comparisons: robust.count - 1
                    ).excludesZero)
            }
            return clear ? least : nil
        }
        let thrifty = clearlyLeast(\.budgetedPerWidgetDay) { $0.budgeted }
        let fewestRequests = clearlyLeast(\.callsPerWidgetDay) { $0.calls }
        let each = robust.map { "`\($0.variant)` \(costs($0))" }.joined(separator: "; ")
        var text = "**Whatever the budget model:** no budget model tried beats \(names) beyond the noise"
        if let thrifty {
            text += "; of them, `\(thrifty.variant)` spends \(robust.count == 2 ? "less" : "least") of the budget"
            if let fewestRequests, fewestRequests.variant != thrifty.variant {
                text += ", though `\(fewestRequests.variant)` makes fewer server requests"
            }
            text += " (\(each), under \(primaryModel.rawValue)): a choice that holds under every budget model tried."
        } else {
            text += ", and none of them spends less of the budget beyond the noise (\(each), under \(primaryModel.rawValue)): each holds under every budget model tried."
        }
        return text
    }

    /// "rollingWindow (it withholds 0.5 (0.0–1.5) requests per widget-day and
    /// counts as within the budget)" (the unit in the first clause only):
    /// each variant the ranking rests on (the recommendation, "it"; a
    /// fresher one over the budget; the one ranked first ahead of it), and
    /// the variant ranked first when it is not the recommendation.
    func edgeClause(model: BudgetModel, variants: [String], recommended: String, first: String?, unit: Bool) -> String {
        let rows = variants.compactMap { variant in comparison.rows(for: model).first { $0.variant == variant } }
        let each = rows.enumerated().map { index, row in
            let subject = row.variant == recommended ? "it" : row.variant == first ? "`\(row.variant)`, first," : "`\(row.variant)`, fresher,"
            // A variant that sets its own budget model ran under it here.
            let own = row.ownBudgetModel.map { " (under its own \($0.rawValue))" } ?? ""
            let perDay = unit && index == 0 ? " requests per widget-day" : ""
            return "\(subject)\(own) withholds \(show(row.withheld, decimals: 1))\(perDay) and counts as \(row.withinBudget ? "within" : "over") the budget"
        }
        var clause = "\(model.rawValue) (" + Self.list(each, lastSeparator: "; ")
        // First on the budget calls, it may lead another by less than the noise too.
        if first == recommended, let close = comparison.firstWithinTheNoise(of: recommended, under: model) {
            clause += ", and it leads `\(close)` by less than the noise"
        }
        if let first, first != recommended, !variants.contains(first) {
            clause += ", so `\(first)` ranks first"
        } else if first == nil {
            clause += ", so no variant stays within it"
        }
        return clause + ")"
    }
}
