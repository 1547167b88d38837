/// Renders `summary.md`: the scenario, one row per widget, the parameters
/// with the facts they rest on, and how to read the numbers.
struct SummaryReport {
    let writer: ReportWriter

    var setup: SimulationSetup { writer.setup }

    func render() -> String {
        var out = "# widgetsim report: \(setup.name)\n\n"
        if !setup.description.isEmpty {
            out += "> \(DisplayText.singleLine(setup.description))\n\n"
        }
        let calendar = setup.calendar
        let widgetCount = setup.devices.reduce(0) { $0 + $1.widgets.count }
        out += "| run | |\n|---|---|\n"
        out += "| seed | \(setup.seed) |\n"
        out += "| days | \(setup.days), from \(calendar.iso8601(0)) to \(calendar.iso8601(setup.endTime)) |\n"
        out += "| devices | \(setup.devices.count) |\n"
        out += "| widgets | \(widgetCount) |\n"
        out += "| budget model | \(setup.scheduler.budgetModel.rawValue) |\n\n"

        out += "## Widgets\n\n"
        let addedLater = setup.devices.contains { $0.widgets.contains { $0.daysInRun(of: setup.days) < setup.days } }
        out += "Columns marked /day are means per day over the \(setup.days) simulated days\(addedLater ? " (for a widget added later, over its days from the one it was added on, as `compare` counts them)" : ""); the others are totals over the run. Every provider call is a server request when the provider fetches, so reloads/day is also the widget's load on its server. Staleness percentiles are over all views, a fresh view counting as 0. *Time to fresh* runs from an unforeseen content change (a tap's action, a move, a pushed, random or scripted change) to the end of the first call after it that produced a timeline: how long until the widget can show it.\n\n"
        out += "| device | widget | policy | reloads (server requests)/day | budgeted/day | free/day | withheld (total) | timed out (total) | views (total) | stale views | staleness p50 | staleness p95 | staleness max | unforeseen content changes (total) | time to fresh p50 | time to fresh p95 |\n"
        out += "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
        for (deviceIndex, device) in setup.devices.enumerated() {
            for (widgetIndex, widget) in device.widgets.enumerated() {
                // A widget never added has no days and no reloads: 0 a day.
                let days = Double(max(1, widget.daysInRun(of: setup.days)))
                let total = writer.totals.total(device: deviceIndex, widget: widgetIndex)
                let sorted = writer.totals.staleness[deviceIndex][widgetIndex]
                let reloads = total.requests
                out += "| \(device.id) | \(widget.id) | \(widget.provider.policySummary) "
                out += "| \(FixedDecimal.format(Double(reloads) / days, decimals: 1)) "
                out += "| \(FixedDecimal.format(Double(total.budgetedReloads) / days, decimals: 1)) "
                out += "| \(FixedDecimal.format(Double(total.freeReloads) / days, decimals: 1)) "
                out += "| \(total.withheldRequests) | \(total.timeouts) | \(total.views) "
                out += "| \(FixedDecimal.percent(total.staleViews, of: total.views))% "
                out += "| \(duration(Percentile.nearestRank(50, of: sorted))) "
                out += "| \(duration(Percentile.nearestRank(95, of: sorted))) "
                out += "| \(duration(sorted.last)) "
                let fresh = writer.freshness.timeToFresh[deviceIndex][widgetIndex]
                let unanswered = fresh.unanswered > 0 ? " (\(fresh.unanswered) unanswered at the end)" : ""
                out += "| \(fresh.changes)\(unanswered) | \(duration(Percentile.nearestRank(50, of: fresh.delays))) "
                out += "| \(duration(Percentile.nearestRank(95, of: fresh.delays))) |\n"
            }
        }
        out += measuredHoursTable()
        out += "\n## Staleness by hour of day\n\n"
        out += "Every widget's views, by the local hour of its device.\n\n"
        out += "| hour | views | stale views | mean staleness |\n|---|--:|--:|--:|\n"
        for (hour, figures) in writer.freshness.hours.enumerated() where figures.views > 0 {
            let label = (hour < 10 ? "0" : "") + "\(hour):00"
            out += "| \(label) | \(figures.views) | \(FixedDecimal.percent(figures.staleViews, of: figures.views))% "
            out += "| \(duration(figures.meanStaleness.map { Int($0.rounded()) })) |\n"
        }
        out += "\n![Share of stale views in each local hour](staleness-by-hour.svg)\n"
        out += "\n## Charts\n\n"
        out += "![Share of views in each staleness band](staleness.svg)\n\n"
        let charts = writer.timelineCharts()
        for chart in charts {
            let widget = setup.devices[chart.device].widgets[chart.widget]
            out += "![Reloads, views and budget of \(widget.id)](\(chart.file))\n\n"
        }
        if charts.count < widgetCount {
            out += "Timeline charts are drawn for the first \(charts.count) of \(widgetCount) widgets.\n\n"
        }
        out += "Each row of a timeline is a local day: blue ticks are budgeted reloads, green ticks free ones, vermillion (red-orange) triangles withheld requests; dots are views, grey when fresh and orange when stale. Below, the budgeted reloads in the trailing 24 hours (blue) climb towards the dashed vermillion daily limit.\n"
        out += "\n## Reloads by trigger\n\n"
        out += triggerTable()
        out += "\n## Scheduler parameters\n\n"
        out += "Apple publishes ranges, not the algorithm; each rule is a parameter. [gap] marks a default that no published figure pins down.\n\n"
        out += "| parameter | value | rests on |\n|---|---|---|\n"
        for row in setup.scheduler.describedRows {
            out += "| \(row.name) | \(row.value) | \(row.fact) |\n"
        }
        out += "\n" + SummaryReport.howToRead
        return out
    }

    /// The views during the scenario's measured hours (`measureDuring`),
    /// the ones `compare` ranks on; empty when every view counts.
    func measuredHoursTable() -> String {
        let measured = setup.measuredHours
        guard !measured.isWholeDay else { return "" }
        let calendars = setup.devices.map { setup.calendar(of: $0) }
        var staleness = setup.devices.map { Array(repeating: [Int](), count: $0.widgets.count) }
        var stale = setup.devices.map { Array(repeating: 0, count: $0.widgets.count) }
        for view in writer.collector.views where measured.contains(view.time, calendar: calendars[view.device]) {
            staleness[view.device][view.widget].append(view.staleness)
            if view.isStale { stale[view.device][view.widget] += 1 }
        }
        var out = "\n## During the measured hours\n\n"
        out += "The views during \(measured.summary), local time (`measureDuring`): the ones `widgetsim compare` ranks the variants on.\n\n"
        out += "| device | widget | views (total) | stale views | mean staleness | staleness p50 | staleness p95 | staleness max |\n"
        out += "|---|---|--:|--:|--:|--:|--:|--:|\n"
        for (deviceIndex, device) in setup.devices.enumerated() {
            for (widgetIndex, widget) in device.widgets.enumerated() {
                let sorted = staleness[deviceIndex][widgetIndex].sorted()
                let mean = sorted.isEmpty ? nil : Int((Double(sorted.reduce(0, +)) / Double(sorted.count)).rounded())
                let share = sorted.isEmpty ? "–" : "\(FixedDecimal.percent(stale[deviceIndex][widgetIndex], of: sorted.count))%"
                out += "| \(device.id) | \(widget.id) | \(sorted.count) | \(share) "
                out += "| \(duration(mean)) | \(duration(Percentile.nearestRank(50, of: sorted))) "
                out += "| \(duration(Percentile.nearestRank(95, of: sorted))) | \(duration(sorted.last)) |\n"
            }
        }
        return out
    }

    func triggerTable() -> String {
        var counts = Array(repeating: (budgeted: 0, free: 0), count: ReloadTrigger.allCases.count)
        for record in writer.collector.reloads {
            let index = ReloadTrigger.allCases.firstIndex(of: record.trigger)!
            if record.budgeted { counts[index].budgeted += 1 } else { counts[index].free += 1 }
        }
        var out = "| trigger | budgeted | free |\n|---|--:|--:|\n"
        for (index, trigger) in ReloadTrigger.allCases.enumerated() where counts[index].budgeted + counts[index].free > 0 {
            out += "| \(trigger.reportName) | \(counts[index].budgeted) | \(counts[index].free) |\n"
        }
        return out
    }

    func duration(_ seconds: Int?) -> String {
        guard let seconds else { return "–" }
        return DurationText.format(Double(seconds))
    }

    static let howToRead = """
        ## How to read this report

        - **reloads.csv** has one row per timeline call WidgetKit made. `budgeted` is 1 when the call counted against the widget's daily budget; `budget_used_24h` counts that widget's budgeted calls in the trailing 24 hours including this one, and `budget_limit` is the limit at that moment (empty under the unlimited model). `waited_seconds` runs from the moment the request became eligible to the call. `next_eligible_seconds` is when the returned policy makes the widget eligible again (empty for `never`).
        - **views.csv** has one row per look at a widget. `data_seconds` is the instant whose truth the shown entry reflects; the view is `stale` when the truth changed after it, and `staleness_seconds` is how long ago that first change was.
        - **daily.csv** totals each widget's local day; `withheld` counts reload requests that found the budget spent and had to wait.
        - A widget that is *withheld* often is asking for more than its budget; one that is *stale* often is not asking at the right times. The policy comparison (`widgetsim compare`) ranks policies on both.

        """
}
