/// `calibration.md`, `calibration.csv` and `parameters.json`: what a device
/// log says about the unknowns, how well the fitted model reproduces the
/// log, and a parameters file that `simulate`, `compare` and `sensitivity`
/// accept (`--parameters`).
public struct CalibrationReport {
    public var calibration: Calibration
    /// How the command line named the scenario (a name or a path), for the
    /// "use it" line; the scenario's name when nil.
    public var scenarioArgument: String?
    /// The scenario's variant the phone was described by (`--variant`), if not its base.
    public var variant: String?
    /// The parameters file the scenario was calibrated with (`--parameters`),
    /// whose settings `parameters.json` carries beside the identified
    /// unknowns: the "use it" line replaces it, so it must not lose them.
    public var parameters: ParametersFile?
    /// The scheduler fields `variant` sets itself. A variant's settings apply
    /// over `--parameters`, so a fitted value of one of them never reaches
    /// the "use it" run.
    public var variantFields: [String]
    /// The scenario's floor on the daily limit before a variant applies: a
    /// parameters file is merged there, so a fitted limit below it (fitted
    /// under a variant's lower floor) needs the fitted floor beside it, or
    /// the "use it" run refuses the file.
    public var baseMinimumDailyBudget: Int?

    /// `minimumDailyBudget`, when the fitted limit lies below the floor the
    /// file is checked against.
    var floorFields: [String] {
        guard let floor = baseMinimumDailyBudget, calibration.fittedFields.contains("dailyBudget"),
              calibration.fitted.dailyBudgetMin < floor else { return [] }
        return ["minimumDailyBudget"]
    }

    public init(
        _ calibration: Calibration, scenarioArgument: String? = nil, variant: String? = nil, parameters: ParametersFile? = nil,
        variantFields: [String] = [], baseMinimumDailyBudget: Int? = nil
    ) {
        self.calibration = calibration
        self.scenarioArgument = scenarioArgument
        self.variant = variant
        self.parameters = parameters
        self.variantFields = variantFields
        self.baseMinimumDailyBudget = baseMinimumDailyBudget
    }

    /// Why a fitted value will not reach the "use it" run, in a sentence:
    /// the variant sets that field itself. Nil when no fitted field is one.
    public var variantOverrideWarning: String? {
        guard let variant else { return nil }
        let overridden = calibration.estimates.filter { $0.isFitted && variantFields.contains($0.knob.field) }
        guard !overridden.isEmpty else { return nil }
        let fitted = overridden.map { "`\($0.knob.field)` \($0.knob.format($0.value))" }.joined(separator: ", ")
        return "The variant `\(DisplayText.markdownCell(variant))` sets \(overridden.count == 1 ? "this field" : "these fields") itself, and a variant's settings apply over `--parameters`, "
            + "so the fitted \(fitted) will not reach a run with `--variant \(DisplayText.markdownCell(variant))`: write \(overridden.count == 1 ? "it" : "them") into the variant, or remove \(overridden.count == 1 ? "it" : "them") there."
    }

    public func files() -> [ReportFile] {
        [
            ReportFile(name: "calibration.md", contents: markdown()),
            ReportFile(name: "calibration.csv", contents: csv()),
            ReportFile(name: "parameters.json", contents: parametersFile()),
        ]
    }

    func text(_ value: Double?, duration: Bool) -> String {
        guard let value else { return "—" }
        // Signed: the lateness and the wait a call asks for can be negative.
        return duration ? EstimateText.signedDuration(value) : FixedDecimal.format(value, decimals: 1)
    }

    func interval(_ estimate: Calibration.Finding) -> String {
        guard let interval = estimate.interval else { return "—" }
        return estimate.knob.format(interval.lowerBound) + " – " + estimate.knob.format(interval.upperBound)
    }

    func status(_ estimate: Calibration.Finding) -> String {
        switch estimate.status {
        case .identified: return "identified"
        case .notIdentifiable: return "not identifiable: every value from \(estimate.knob.format(estimate.knob.low)) to \(estimate.knob.format(estimate.knob.high)) fits; it needs \(estimate.knob.needs)"
        case .noData: return "no data: the log has no \(estimate.knob.statistic.label)"
        case .outsideRange: return "outside the range: no value from \(estimate.knob.format(estimate.knob.low)) to \(estimate.knob.format(estimate.knob.high)) reproduces the log; \(estimate.knob.format(estimate.value)) came closest"
        case .bounded: return Self.boundText(estimate, replications: calibration.options.replications)
        }
    }

    /// "bounded: at most 8m23s; the values tried below it, down to 1m,
    /// fit, ...": what the log says of a bounded unknown, and which value
    /// the model keeps. The bound itself is the first value tried that the
    /// log rules out (or a step past the last that fits), so it is named as
    /// the edge, not as a value that fits. `replications`, when given, is
    /// named beside what the log needs: a log that has it already may be
    /// bounded only by the simulated logs' noise, which more replications
    /// narrow (a foreground delay was bounded at 4 replications a value,
    /// and identified at the default 16, from the same log).
    public static func boundText(_ estimate: Calibration.Finding, replications: Int? = nil) -> String {
        guard let interval = estimate.interval else { return "bounded" }
        let knob = estimate.knob
        let bound = estimate.boundIsUpper
            ? "at most \(knob.format(interval.upperBound)); the values tried below it, down to \(knob.format(knob.low)), fit"
            : "at least \(knob.format(interval.lowerBound)); the values tried above it, up to \(knob.format(knob.high)), fit"
        let kept: String
        if estimate.movedToFitThePair {
            kept = "the scenario's value lies within, but beside the other's (the pacing window and the daily limit go together) it does not fit the log, so \(knob.format(estimate.value)), of the pair that fits best, replaces it"
        } else if estimate.replacedScenarioValue {
            kept = "the scenario's value lies outside, so \(knob.format(estimate.value)), the value tried nearest it that fits, replaces it"
        } else {
            kept = "the scenario's value lies within and stays"
        }
        let noise = replications.map { " (a log that has that already: more days, or more replications than the \($0) each value had)" } ?? ""
        return "bounded: \(bound), and the log cannot tell them apart; \(kept); to pin it down it needs \(knob.needs)\(noise)"
    }

    /// An unfitted unknown's value as the scenario gives it: a daily limit
    /// the scenario draws for each widget from a range ("40–70") is named
    /// as that range, not as its middle, which no widget need have drawn.
    func scenarioValue(_ estimate: Calibration.Finding) -> String {
        let model = calibration.fitted
        if estimate.knob.field == "dailyBudget" && !estimate.isFitted && model.dailyBudgetMin != model.dailyBudgetMax {
            return "\(model.dailyBudgetMin)–\(model.dailyBudgetMax)"
        }
        return estimate.knob.format(estimate.value)
    }

    /// A warning when the fitted model does not reproduce two or more of
    /// the log's statistics (the goodness of fit's **no** rows), naming
    /// them: the scenario may not describe the phone, and a run that only
    /// reads the exit code would not know. One alone is not warned of: each
    /// range holds 95 %, so of 11 statistics one misses by chance in about
    /// two runs in five, and two in about one in ten.
    public var misfitWarning: String? {
        let judged = calibration.fit.filter { $0.fits != nil }
        let missed = judged.filter { $0.fits == false }
        guard missed.count >= 2 else { return nil }
        return "the fitted model does not reproduce \(missed.count) of the log's \(judged.count) statistics ("
            + missed.map(\.label).joined(separator: "; ")
            + "; calibration.md, Goodness of fit): check that the scenario describes the phone, its widgets' policies above all"
    }

    /// Why the estimates may describe another widget, a sentence for each
    /// widget that asks unlike the log's; nil when every one asks as it does.
    public var policyWarning: String? {
        let mismatches = calibration.policyMismatches
        guard !mismatches.isEmpty else { return nil }
        // Every widget that asks unlike the log's is named: fixing the
        // first alone and calibrating again would meet the next.
        let sentences = mismatches.map { mismatch -> String in
            let what: String
            let widget: String
            switch mismatch {
            case .policy(let key, let observed, let simulatedShare, let simulated, let observedShare):
                widget = key
                func percent(_ share: Double) -> String { FixedDecimal.format(100 * share, decimals: 0) + " %" }
                what = "most of the log's calls return `\(observed.rawValue)` (\(percent(simulatedShare)) of the scenario's simulated calls do), "
                    + "most of the simulated calls `\(simulated.rawValue)` (\(percent(observedShare)) of the log's calls do)"
            case .wait(let key, let observed, let simulated):
                widget = key
                func text(_ waits: Calibration.AskedWaits) -> String {
                    // Signed: an `after` date already past asks for a negative wait.
                    func duration(_ seconds: Double) -> String { EstimateText.signedDuration(seconds) }
                    return "a median \(duration(waits.median)) (80 % of them from \(duration(waits.low)) to \(duration(waits.high)))"
                }
                what = "the log's calls ask for a reload \(text(observed)) after the call (`reload_after`), the scenario's simulated calls \(text(simulated))"
            }
            return "The scenario's widget `\(DisplayText.markdownCell(widget))` does not ask for reloads as the log's does: \(what). "
        }
        let several = mismatches.count > 1
        return sentences.joined()
            + "The unknowns are fitted to the scenario's widget\(several ? "s" : ""), so the estimates describe \(several ? "other widgets" : "another widget"): "
            + "describe the log's widget\(several ? "s" : "") in the scenario (\(several ? "their providers' policies" : "its provider's policy") and spacing), or pick the variant that does with --variant, and calibrate again."
    }

    public func markdown() -> String {
        let c = calibration
        let a = c.analysis
        var lines: [String] = []
        // The variant too: two calibrations of one scenario's variants read alike otherwise.
        let variantName = variant.map { " (variant \(DisplayText.markdownCell($0)))" } ?? ""
        lines.append("# Calibration of \(DisplayText.markdownCell(c.scenario))\(variantName) from \(DisplayText.markdownCell(c.logFile))")
        lines.append("")
        if let policyWarning {
            lines.append("**Check the scenario first.** " + policyWarning)
            lines.append("")
        }
        let identified = c.estimates.filter { $0.status == .identified }
        let bounded = c.estimates.filter { $0.status == .bounded }
        let outside = c.estimates.filter { $0.status == .outsideRange }
        let others = c.estimates.filter { $0.status == .notIdentifiable || $0.status == .noData }
        if identified.isEmpty {
            lines.append("**Nothing identified:** this log pins down no unknown (the status column says why for each); the scenario's values stay\(bounded.contains(where: \.replacedScenarioValue) ? " unless a bound rules them out" : "").")
        } else {
            lines.append("**Identified:** " + identified.map { "`\($0.knob.field)` \($0.knob.format($0.value)) (95 % interval \(interval($0)))" }.joined(separator: "; ") + ".")
        }
        if !bounded.isEmpty {
            lines.append("**Bounded only:** " + bounded.map { estimate in
                let interval = estimate.interval!
                let bound = estimate.boundIsUpper ? "at most \(estimate.knob.format(interval.upperBound))" : "at least \(estimate.knob.format(interval.lowerBound))"
                let kept = estimate.replacedScenarioValue ? "set to \(estimate.knob.format(estimate.value))" : "the scenario's \(scenarioValue(estimate)) stays"
                return "`\(estimate.knob.field)` \(bound) (\(kept))"
            }.joined(separator: "; ") + ".")
        }
        if !outside.isEmpty {
            lines.append("**Outside the range:** " + outside.map { "`\($0.knob.field)`" }.joined(separator: ", ") + " (no value tried reproduces the log; see the table; the scenario's values stay).")
        }
        if !others.isEmpty {
            lines.append("**Not identified:** " + others.map { "`\($0.knob.field)`" }.joined(separator: ", ") + " (see the table; the scenario's values stay).")
        }
        lines.append("")
        // Quoted for a shell, but for the placeholder, which the reader replaces.
        let variantOption = variant.map { " --variant \(DisplayText.shellQuoted($0))" } ?? ""
        let command = "widgetsim simulate \(DisplayText.shellQuoted(scenarioArgument ?? c.scenario))\(variantOption) --parameters <this directory>/parameters.json"
        lines.append("Use it: \(DisplayText.codeSpan(command)) (also `compare` and `sensitivity`).")
        lines.append("")
        if let variantOverrideWarning {
            lines.append("**But:** " + variantOverrideWarning)
            lines.append("")
        }
        lines.append("## The log")
        lines.append("")
        lines.append("Device `\(DisplayText.markdownCell(c.device))`: \(DisplayText.counted(a.lineCount, "line")), \(DisplayText.counted(a.widgets.count, "widget")), \(DurationText.span(a.observedSeconds)) observed; \(DisplayText.counted(a.offGaps, "silence")) longer than \(DurationText.format(Double(c.options.analysis.offGap))) (phone off), \(DisplayText.counted(a.clockJumps, "clock jump")) back, \(DisplayText.counted(a.offsetChanges, "time-zone change")).")
        lines.append("")
        lines.append("| widget | calls | the app's | WidgetKit's own | most own in 24 h | smallest own gap |")
        lines.append("|---|--:|--:|--:|--:|--:|")
        for widget in a.widgets {
            let smallest = widget.gaps.map(\.seconds).min().map { DurationText.format(Double($0)) } ?? "—"
            lines.append("| \(DisplayText.markdownCell(widget.key)) | \(widget.callCount) | \(widget.appCalls) | \(widget.scheduledCount) | \(widget.mostIn24Hours) | \(smallest) |")
        }
        lines.append("")
        lines.append("*calls* counts every call, the widget's first (its adding) too, which is neither the app's nor WidgetKit's own.")
        lines.append("")
        lines.append("## Estimates")
        lines.append("")
        lines.append("Each unknown is fitted by simulating the scenario over its range (\(c.options.gridPoints) values, then \(c.options.refinePoints) within the interval; \(c.options.replications) replications each; \(c.options.passes) passes; seed \(c.options.seed)), \(DisplayText.counted(c.days, "day")) a run. A value is in the 95 % interval when the log's statistic lies within the central 95 % of the simulated ones there.")
        lines.append("")
        lines.append("| unknown | facts | meaning | estimate | 95 % interval | statistic | observed | status |")
        lines.append("|---|---|---|--:|---|---|--:|---|")
        for estimate in c.estimates {
            // Outside the range, the closest value tried; otherwise the scenario's.
            let value = estimate.isFitted ? estimate.knob.format(estimate.value)
                : "(\(estimate.status == .outsideRange ? estimate.knob.format(estimate.value) : scenarioValue(estimate)))"
            lines.append("| `\(estimate.knob.field)` | \(estimate.knob.facts) | \(estimate.knob.meaning) | \(value) | \(interval(estimate)) | \(estimate.knob.statistic.label) | \(text(estimate.observed, duration: estimate.knob.statistic.isDuration)) | \(status(estimate)) |")
        }
        if c.estimates.contains(where: { !$0.isFitted }) {
            lines.append("")
            lines.append("An estimate in parentheses is not fitted and stays out of `parameters.json`: for an unknown outside its range, the value tried whose simulated statistic came closest to the log's; otherwise the scenario's value, which stays.")
        }
        lines.append("")
        lines.append("## Goodness of fit")
        lines.append("")
        lines.append("The log beside \(c.options.replications) simulated logs of the fitted model. A statistic fits when it lies in the range where one more simulated log's would fall with 95 % probability; for a gap between calls, at least 3 % or a minute either side of the mean, the slack the fitting allows (the pace sets a simulated gap almost exactly, while a real phone's delays shift it).")
        lines.append("")
        lines.append("| statistic | observed | simulated mean | simulated 95 % range | fits |")
        lines.append("|---|--:|--:|--:|---|")
        for row in c.fit {
            let range = row.simulatedLow.map { text($0, duration: row.isDuration) + " – " + text(row.simulatedHigh, duration: row.isDuration) } ?? "—"
            let fits = row.fits.map { $0 ? "yes" : "**no**" } ?? "—"
            lines.append("| \(row.label) | \(text(row.observed, duration: row.isDuration)) | \(text(row.simulatedMean, duration: row.isDuration)) | \(range) | \(fits) |")
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    public func csv() -> String {
        var csv = CSVText(header: ["unknown", "status", "estimate", "interval_low", "interval_high", "statistic", "observed"])
        for estimate in calibration.estimates {
            let status: String
            switch estimate.status {
            case .identified: status = "identified"
            case .notIdentifiable: status = "not_identifiable"
            case .noData: status = "no_data"
            case .outsideRange: status = "outside_range"
            case .bounded: status = estimate.replacedScenarioValue ? "bounded_replaced" : "bounded_kept"
            }
            csv.append([
                estimate.knob.field, status, FixedDecimal.format(estimate.value, decimals: 3),
                estimate.interval.map { FixedDecimal.format($0.lowerBound, decimals: 3) } ?? "",
                estimate.interval.map { FixedDecimal.format($0.upperBound, decimals: 3) } ?? "",
                estimate.knob.statistic.rawValue, estimate.observed.map { FixedDecimal.format($0, decimals: 3) } ?? "",
            ])
        }
        return csv.text
    }

    public func parametersFile() -> String {
        let c = calibration
        // The given file's own values, not the fitted model's: a variant's
        // scheduler changes apply on top of the file and stay the variant's.
        let given = parameters.flatMap { $0.fields.isEmpty ? nil : $0 }
        let fitted = "the fitted unknowns (identified, or bounded and moved: the scenario's value lay outside the bound, or, for the pacing window and the daily limit, did not fit the log as a pair)"
        let what = given.map { " with \($0.path): \(fitted), over that file's settings" } ?? "; only \(fitted)"
        return ParametersFile.render(
            (given.map { [($0.parameters, $0.fields)] } ?? []) + [(c.fitted, c.fittedFields + floorFields)],
            description: "calibrated by widgetsim from \(c.logFile) (device \(c.device)) against the scenario \(c.scenario)\(what)")
    }
}
