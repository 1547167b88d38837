/// Renders a fleet result: `fleet.md`, `fleet.csv`, `server_load.csv`,
/// `reloads_per_device_day.csv`, `load.svg` and `load-peak.svg`.
public struct FleetReport {
    public static let csvHeader = [
        "variant", "devices", "widget_days", "requests", "requests_per_minute_mean", "requests_per_minute_p99",
        "requests_per_minute_peak", "peak_to_mean", "peak_change_vs_base_percent", "reloads_per_device_day_mean",
        "reloads_per_device_day_p50", "reloads_per_device_day_p95", "budgeted_per_widget_day", "free_per_widget_day",
        "withheld_per_widget_day", "timeouts_per_widget_day", "stale_percent", "mean_staleness_seconds",
        "staleness_p50_seconds", "staleness_p95_seconds",
    ]

    /// Load figures of one variant, derived from its integer counters.
    struct Load {
        let minutes: Int
        let total: Int
        let peak: Int
        let peakMinute: Int
        let p99: Int

        init(_ aggregate: FleetAggregate) {
            let counts = aggregate.requestsPerMinute
            minutes = counts.count
            total = counts.reduce(0, +)
            peak = counts.max() ?? 0
            peakMinute = counts.firstIndex(of: peak) ?? 0
            p99 = Percentile.nearestRank(99, of: counts.sorted()) ?? 0
        }

        var mean: Double { minutes == 0 ? 0 : Double(total) / Double(minutes) }
        var peakToMean: Double { mean == 0 ? 0 : Double(peak) / mean }
    }

    let result: FleetResult
    let loads: [Load]
    let calendar: CivilCalendar

    public init(_ result: FleetResult) {
        self.result = result
        self.loads = result.variants.map { Load($0.aggregate) }
        self.calendar = CivilCalendar(localStart: result.start, utcOffsetSeconds: result.utcOffsetSeconds)
    }

    public func files() -> [ReportFile] {
        [
            ReportFile(name: "fleet.md", contents: markdown()),
            ReportFile(name: "fleet.csv", contents: summaryCSV()),
            ReportFile(name: "server_load.csv", contents: loadCSV()),
            ReportFile(name: "reloads_per_device_day.csv", contents: reloadsCSV()),
            ReportFile(name: "load.svg", contents: LoadChart(result: result, calendar: calendar, window: nil).render()),
            ReportFile(name: "load-peak.svg", contents: LoadChart(result: result, calendar: calendar, window: peakWindow()).render()),
        ]
    }

    /// Six hours around the base's busiest minute.
    func peakWindow() -> Range<Int> {
        let minutes = loads.first?.minutes ?? 0
        let center = loads.first?.peakMinute ?? 0
        let start = max(0, min(center - 180, minutes - 360))
        return start..<min(minutes, start + 360)
    }

    /// Percentage change of the peak against the base's.
    func peakChange(_ index: Int) -> Double? {
        guard let base = loads.first, base.peak > 0 else { return nil }
        return 100 * Double(loads[index].peak - base.peak) / Double(base.peak)
    }

    func rate(_ count: Int, _ aggregate: FleetAggregate) -> Double {
        aggregate.widgetDays == 0 ? 0 : Double(count) / Double(aggregate.widgetDays)
    }

    func deviceDays(_ aggregate: FleetAggregate) -> Int { aggregate.reloadsPerDeviceDay.reduce(0, +) }

    func summaryCSV() -> String {
        var csv = CSVText(header: FleetReport.csvHeader)
        for (index, variant) in result.variants.enumerated() {
            let a = variant.aggregate
            let load = loads[index]
            csv.append([
                variant.name, String(a.devices), String(a.widgetDays), String(load.total),
                FixedDecimal.format(load.mean, decimals: 2), String(load.p99), String(load.peak),
                FixedDecimal.format(load.peakToMean, decimals: 2),
                peakChange(index).map { FixedDecimal.format($0, decimals: 1) } ?? "",
                FixedDecimal.format(deviceDays(a) == 0 ? 0 : Double(a.requests) / Double(deviceDays(a)), decimals: 2),
                a.reloadsPerDeviceDayPercentile(50).map(String.init) ?? "",
                a.reloadsPerDeviceDayPercentile(95).map(String.init) ?? "",
                FixedDecimal.format(rate(a.counts.budgetedReloads, a), decimals: 2),
                FixedDecimal.format(rate(a.counts.freeReloads, a), decimals: 2),
                FixedDecimal.format(rate(a.counts.withheldRequests, a), decimals: 3),
                FixedDecimal.format(rate(a.counts.timeouts, a), decimals: 4),
                FixedDecimal.percent(a.counts.staleViews, of: a.counts.views),
                FixedDecimal.format(a.counts.meanStaleness, decimals: 1),
                a.stalenessPercentile(50).map(String.init) ?? "",
                a.stalenessPercentile(95).map(String.init) ?? "",
            ])
        }
        return csv.text
    }

    func loadCSV() -> String {
        var csv = CSVText(header: ["minute", "time"] + result.variants.map(\.name))
        let minutes = loads.first?.minutes ?? 0
        for minute in 0..<minutes {
            csv.append([String(minute), calendar.iso8601(minute * Seconds.minute)]
                + result.variants.map { String($0.aggregate.requestsPerMinute[minute]) })
        }
        return csv.text
    }

    func reloadsCSV() -> String {
        var csv = CSVText(header: ["reloads"] + result.variants.map(\.name))
        let last = result.variants.map { $0.aggregate.reloadsPerDeviceDay.lastIndex { $0 > 0 } ?? 0 }.max() ?? 0
        for reloads in 0...last {
            let label = reloads == FleetAggregate.reloadBinCount - 1 ? "\(reloads)+" : String(reloads)
            csv.append([label] + result.variants.map { String($0.aggregate.reloadsPerDeviceDay[reloads]) })
        }
        return csv.text
    }

    func markdown() -> String {
        var out = "# widgetsim fleet: \(result.scenario)\n\n"
        if !result.description.isEmpty { out += "> \(DisplayText.singleLine(result.description))\n\n" }
        let base = result.variants.first?.aggregate
        out += "\(DisplayText.counted(result.deviceCount, "device")) × \(DisplayText.counted(result.days, "day")) (\(DisplayText.counted(base?.widgetDays ?? 0, "widget-day"))) per variant, seed \(result.seed), "
        out += "measured from \(calendar.iso8601(0)) after \(result.warmUpDays == 1 ? "1 warm-up day that is" : "\(result.warmUpDays) warm-up days that are") simulated but not counted. "
        out += "Every variant ran on the same devices with the same profiles and random streams, so differences come from the policies.\n\n"
        out += "## Server load\n\n"
        out += "Provider calls per minute of the run, over all devices (each call is one request to your server when the provider fetches).\n\n"
        out += "| variant | requests/day | mean per minute | p99 per minute | peak per minute | peak ÷ mean | peak vs \(result.variants.first?.name ?? "base") |\n"
        out += "|---|--:|--:|--:|--:|--:|--:|\n"
        for (index, variant) in result.variants.enumerated() {
            let load = loads[index]
            out += "| \(variant.name) | \(FixedDecimal.format(Double(load.total) / Double(result.days), decimals: 0)) "
            out += "| \(FixedDecimal.format(load.mean, decimals: 1)) | \(load.p99) | \(load.peak) | \(FixedDecimal.format(load.peakToMean, decimals: 1)) "
            out += "| \(index == 0 ? "–" : peakChange(index).map { signedPercent($0) } ?? "–") |\n"
        }
        out += "\n" + peakVerdict() + "\n"
        out += "![Requests per minute over the run](load.svg)\n\n![Requests per minute around the busiest minute](load-peak.svg)\n\n"
        out += momentsSection()
        out += "## Reloads and freshness\n\n"
        out += "| variant | reloads per device-day (mean, p50, p95) | budgeted/widget-day | free/widget-day | withheld/widget-day | timed out per 1,000 calls | stale views | mean staleness | staleness p50 | staleness p95 |\n"
        out += "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
        // Judged as `compare` judges a variant: one that withholds more than
        // a request per widget-day keeps asking after its budget is spent.
        let tolerance = Comparison.Options().withheldTolerance
        var overBudget = false
        for variant in result.variants {
            let a = variant.aggregate
            let days = deviceDays(a)
            let over = rate(a.counts.withheldRequests, a) > tolerance
            overBudget = overBudget || over
            out += "| \(variant.name)\(over ? " (over budget)" : "") | \(FixedDecimal.format(days == 0 ? 0 : Double(a.requests) / Double(days), decimals: 1)), "
            out += "\(a.reloadsPerDeviceDayPercentile(50) ?? 0), \(a.reloadsPerDeviceDayPercentile(95) ?? 0) "
            out += "| \(FixedDecimal.format(rate(a.counts.budgetedReloads, a), decimals: 1)) | \(FixedDecimal.format(rate(a.counts.freeReloads, a), decimals: 1)) "
            out += "| \(FixedDecimal.format(rate(a.counts.withheldRequests, a), decimals: 2)) | \(FixedDecimal.format(a.requests == 0 ? 0 : 1_000 * Double(a.counts.timeouts) / Double(a.requests), decimals: 2)) | \(FixedDecimal.percent(a.counts.staleViews, of: a.counts.views))% "
            out += "| \(DurationText.format(a.counts.meanStaleness.rounded())) "
            out += "| \(binnedStaleness(a.stalenessPercentile(50))) | \(binnedStaleness(a.stalenessPercentile(95))) |\n"
        }
        if overBudget {
            out += "\n*Over budget*: withholds more than \(DurationText.plain(tolerance)) request per widget-day on average, as `compare` judges it: the policy keeps asking after its budget is spent, and its requests wait for the trailing 24 hours to make room. (Within the budget does not mean every reload asked for was granted: under `paced` a request that waits its turn is slowed, not withheld.)\n"
        }
        out += "\n## Variants\n\n| variant | description |\n|---|---|\n"
        for variant in result.variants { out += "| \(variant.name) | \(DisplayText.markdownCell(variant.description)) |\n" }
        out += schedulerSection()
        out += """

            ## How to read this report

            - *peak ÷ mean* is how much capacity the busiest minute needs beyond the average; F25 warns that `after(date)` dates aligned to the wall clock make many devices reload together.
            - *reloads per device-day* counts every provider call of a device in a day (budgeted and free); its distribution is in `reloads_per_device_day.csv`, and every minute's load in `server_load.csv`.
            - Staleness percentiles come from a histogram with 10-second bins: 0s means fresh (a fresh view counts as exactly 0), and "≤ 8m20s" means within the 10 seconds up to 8m20s.
            - *timed out per 1,000 calls* is the share of provider calls that outlasted WidgetKit's time limit and produced nothing (F22).
            - The run is deterministic: the same scenario and seed give the same bytes, whatever the number of threads or shards.

            """
        return out
    }

    /// The scheduler parameters the base ran under, and what each variant
    /// changes: the load rests on them, and two runs with different
    /// `--parameters` files must not read alike.
    func schedulerSection() -> String {
        var out = "\n## Scheduler parameters\n\n"
        guard let base = result.variants.first, !base.scheduler.isEmpty else {
            return out + "Not recorded: the partial results were written by a widgetsim that did not record them.\n"
        }
        out += "Apple publishes ranges, not the algorithm; each rule is a parameter, and the load rests on them (`extraTimelineCalls`, a guess, multiplies the requests of every refresh). [gap] marks a default that no published figure pins down. `widgetsim sensitivity` on a scenario that lists such a device one by one shows how far each moves its server requests.\n\n"
        out += "| parameter | value | rests on |\n|---|---|---|\n"
        let catalogue = SchedulerParameters.catalogue
        for setting in base.scheduler {
            let fact = catalogue.first { $0.name == setting.name }?.restsOn ?? ""
            out += "| \(setting.name) | \(DisplayText.markdownCell(setting.value)) | \(fact) |\n"
        }
        for variant in result.variants.dropFirst() {
            let changed = zip(base.scheduler, variant.scheduler).filter { $0 != $1 }.map { "\($1.name) \(DisplayText.markdownCell($1.value))" }
            if !changed.isEmpty { out += "\n`\(variant.name)` runs under " + changed.joined(separator: ", ") + ".\n" }
        }
        return out
    }

    /// A staleness percentile from the 10-second histogram: the fresh bin is
    /// exact, any other is an upper bound.
    func binnedStaleness(_ seconds: Int?) -> String {
        guard let seconds, seconds > 0 else { return "0s" }
        return "≤ " + DurationText.format(Double(seconds))
    }

    /// "1.1 % fewer", "2.0 % more", "the same number of".
    func changeInWords(_ value: Double) -> String {
        let size = FixedDecimal.format(abs(value), decimals: 1)
        if size == "0.0" { return "the same number of" }
        return size + " % " + (value < 0 ? "fewer" : "more")
    }

    /// Minutes after a moment that its table looks at: the moment's own
    /// pushes arrive at once (F19 gives no delay for a scripted push), and
    /// system changes reload within seconds (F17), so the spike is inside.
    static let momentWindowMinutes = 10

    /// The load each moment causes: requests in the ten minutes from its
    /// minute, against the ten minutes before it and the run's mean.
    func momentsSection() -> String {
        guard !result.moments.isEmpty else { return "" }
        let window = FleetReport.momentWindowMinutes
        var out = "## Moments\n\n"
        out += "Instants that hit a share of the fleet at once. For each variant: requests per minute in the \(window) minutes before the moment, "
        out += "the busiest minute from the moment's minute on (minutes after the moment), and the requests of those \(window) minutes against the run's mean for \(window) minutes.\n\n"
        out += "| moment | at | variant | per minute before | busiest minute after | ÷ mean per minute | requests in \(window) min | ÷ mean for \(window) min |\n"
        out += "|---|---|---|--:|--:|--:|--:|--:|\n"
        for moment in result.moments {
            for (index, variant) in result.variants.enumerated() {
                let counts = variant.aggregate.requestsPerMinute
                // A moment lies inside the run (`FleetResult.momentsWithin`); clamped all the same.
                let first = min(moment.at / Seconds.minute, counts.count)
                let before = counts[max(0, first - window)..<first]
                let after = counts[first..<min(counts.count, first + window)]
                let peak = after.max() ?? 0
                let peakOffset = (after.firstIndex(of: peak) ?? first) - first
                let mean = loads[index].mean
                let beforeMean = before.isEmpty ? 0 : Double(before.reduce(0, +)) / Double(before.count)
                let total = after.reduce(0, +)
                // A moment near the run's end has fewer minutes after it: its
                // requests are those minutes', against the mean for as many.
                let minutes = after.count
                let totalCell = minutes < window ? "\(total) (the run's last \(minutes) min)" : "\(total)"
                out += "| \(DisplayText.markdownCell(moment.label)) | \(calendar.iso8601(moment.at)) | \(variant.name) "
                out += "| \(FixedDecimal.format(beforeMean, decimals: 1)) | \(peak) (+\(peakOffset) min) "
                out += "| \(mean == 0 ? "–" : FixedDecimal.format(Double(peak) / mean, decimals: 1)) | \(totalCell) "
                out += "| \(mean == 0 || minutes == 0 ? "–" : FixedDecimal.format(Double(total) / (mean * Double(minutes)), decimals: 1)) |\n"
            }
        }
        return out + "\n"
    }

    func signedPercent(_ value: Double) -> String {
        (value > 0 ? "+" : "") + FixedDecimal.format(value, decimals: 1) + " %"
    }

    /// The F25 statement: how far each variant moves the peak from the base's.
    func peakVerdict() -> String {
        guard result.variants.count > 1, let base = loads.first, base.peak > 0 else { return "" }
        var lines: [String] = []
        for index in 1..<loads.count {
            let change = peakChange(index)!
            let totalChange = Double(loads[index].total - base.total) / Double(max(1, base.total)) * 100
            var line = "- **`\(result.variants[index].name)` "
            if loads[index].peak == base.peak {
                // A moment that hits every device at once sets the same peak whatever the policy.
                line += "leaves the peak at \(base.peak) requests per minute** against `\(result.variants[0].name)`,"
            } else {
                line += (change < 0 ? "cuts" : "raises") + " the peak"
                line += " from \(base.peak) to \(loads[index].peak) requests per minute (\(signedPercent(change)))** against `\(result.variants[0].name)`,"
            }
            line += " with \(changeInWords(totalChange)) requests in all."
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
