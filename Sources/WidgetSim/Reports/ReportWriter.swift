/// One report file: a name inside the report directory and its contents.
public struct ReportFile: Equatable, Sendable {
    public var name: String
    public var contents: String

    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

/// Renders a run into the report files, a stable contract: the columns and
/// their order are documented in the README and pinned by golden files.
public struct ReportWriter {
    public static let reloadsHeader = [
        "seconds", "time", "device", "widget", "kind", "trigger", "budgeted", "budget_used_24h", "budget_limit",
        "waited_seconds", "result", "entries", "policy", "next_eligible_seconds",
    ]
    public static let viewsHeader = [
        "seconds", "time", "device", "widget", "shown_entry_seconds", "data_seconds", "stale", "staleness_seconds",
    ]
    public static let dailyHeader = [
        "day", "device", "widget", "kind", "budget_limit", "reloads_budgeted", "reloads_free", "withheld", "timed_out",
        "views", "stale_views", "mean_staleness_seconds",
    ]

    let setup: SimulationSetup
    let collector: ReportCollector
    let calendars: [CivilCalendar]
    let totals: WidgetTotals
    let freshness: FreshnessFigures

    public init(setup: SimulationSetup, collector: ReportCollector) {
        self.setup = setup
        self.collector = ReportWriter.chronological(collector)
        self.calendars = setup.devices.map { setup.calendar(of: $0) }
        self.totals = WidgetTotals(setup: setup, collector: collector)
        self.freshness = FreshnessFigures(setup: setup, collector: self.collector, calendars: calendars)
    }

    /// At most this many widgets get a timeline chart, so a scenario with many
    /// devices does not write thousands of files.
    public static let maximumTimelineCharts = 12

    /// All report files, in a fixed order; with `trace`, also `trace.json`.
    public func files(trace: Bool = false) -> [ReportFile] {
        var files = [
            ReportFile(name: "reloads.csv", contents: reloadsCSV()),
            ReportFile(name: "views.csv", contents: viewsCSV()),
            ReportFile(name: "daily.csv", contents: dailyCSV()),
            ReportFile(name: "summary.md", contents: SummaryReport(writer: self).render()),
            ReportFile(name: "parameters.csv", contents: ReportRules(setup.scheduler).csv()),
            ReportFile(name: "staleness.svg", contents: stalenessChart()),
            ReportFile(name: "staleness-by-hour.svg", contents: StalenessByHourChart(
                title: "Stale views by local hour: \(DisplayText.singleLine(setup.name))", hours: freshness.hours).render()),
        ]
        for chart in timelineCharts() {
            files.append(ReportFile(name: chart.file, contents: chart.render()))
        }
        if trace {
            files.append(ReportFile(name: "trace.json", contents: TraceWriter(setup: setup, collector: collector).render()))
        }
        return files
    }

    /// The widgets that get a timeline chart, with its file name.
    func timelineCharts() -> [(device: Int, widget: Int, file: String, render: () -> String)] {
        var charts: [(device: Int, widget: Int, file: String, render: () -> String)] = []
        for (deviceIndex, device) in setup.devices.enumerated() {
            for (widgetIndex, widget) in device.widgets.enumerated() where charts.count < ReportWriter.maximumTimelineCharts {
                let chart = TimelineChart(
                    title: setup.devices.count > 1 ? "\(device.id) / \(widget.id)" : widget.id,
                    calendar: calendars[deviceIndex],
                    firstDay: totals.firstDay[deviceIndex],
                    dayCount: totals.perDay[deviceIndex][widgetIndex].count,
                    reloads: collector.reloads.filter { $0.device == deviceIndex && $0.widget == widgetIndex },
                    views: collector.views.filter { $0.device == deviceIndex && $0.widget == widgetIndex },
                    withheld: collector.withheld.filter { $0.device == deviceIndex && $0.widget == widgetIndex },
                    endTime: setup.endTime)
                charts.append((deviceIndex, widgetIndex, "timeline-\(device.id)-\(widget.id).svg", chart.render))
            }
        }
        // Ids hold '-', so device "a-b" with widget "c" and device "a" with
        // widget "b-c" would share a name; such charts are named with a '+',
        // which no id holds, and every other keeps its usual name.
        let names = charts.map(\.file)
        for index in charts.indices where names.filter({ $0 == names[index] }).count > 1 {
            let device = setup.devices[charts[index].device]
            charts[index].file = "timeline-\(device.id)+\(device.widgets[charts[index].widget].id).svg"
        }
        return charts
    }

    func stalenessChart() -> String {
        var series: [(label: String, staleness: [Int])] = []
        for (deviceIndex, device) in setup.devices.enumerated() {
            for (widgetIndex, widget) in device.widgets.enumerated() where series.count < SVGCanvas.Palette.series.count {
                series.append((setup.devices.count > 1 ? "\(device.id)/\(widget.id)" : widget.id, totals.staleness[deviceIndex][widgetIndex]))
            }
        }
        return StalenessChart(title: "Staleness of views, by widget", series: series).render()
    }

    func widget(_ device: Int, _ widget: Int) -> WidgetSetup { setup.devices[device].widgets[widget] }

    /// Rows of several devices interleaved by time (devices run one after
    /// another), ties kept in device order and then in the order they happened.
    static func chronological(_ collector: ReportCollector) -> ReportCollector {
        var sorted = collector
        sorted.sortRows()
        return sorted
    }

    func reloadsCSV() -> String {
        var csv = CSVText(header: ReportWriter.reloadsHeader)
        for record in collector.reloads {
            let widget = widget(record.device, record.widget)
            csv.append([
                String(record.time),
                calendars[record.device].iso8601(record.time),
                setup.devices[record.device].id,
                widget.id,
                widget.kind,
                record.trigger.reportName,
                record.budgeted ? "1" : "0",
                String(record.budgetUsed24h),
                record.budgetLimit.map(String.init) ?? "",
                String(record.waited),
                record.result.rawValue,
                String(record.entryCount),
                record.policy?.name ?? "",
                record.nextEligible.map(String.init) ?? "",
            ])
        }
        return csv.text
    }

    func viewsCSV() -> String {
        var csv = CSVText(header: ReportWriter.viewsHeader)
        for record in collector.views {
            csv.append([
                String(record.time),
                calendars[record.device].iso8601(record.time),
                setup.devices[record.device].id,
                widget(record.device, record.widget).id,
                record.shownEntryDate.map(String.init) ?? "",
                record.dataAsOf.map(String.init) ?? "",
                record.isStale ? "1" : "0",
                String(record.staleness),
            ])
        }
        return csv.text
    }

    func dailyCSV() -> String {
        var csv = CSVText(header: ReportWriter.dailyHeader)
        let dayCount = totals.perDay.map { $0.first?.count ?? 0 }.max() ?? 0
        for offset in 0..<dayCount {
            for device in setup.devices.indices {
                for (index, counts) in totals.perDay[device].enumerated() where offset < counts.count {
                    let day = counts[offset]
                    // A widget not yet added that day has no row.
                    guard day.hasDayStart else { continue }
                    csv.append([
                        String(totals.firstDay[device] + offset),
                        setup.devices[device].id,
                        widget(device, index).id,
                        widget(device, index).kind,
                        day.budgetLimit.map(String.init) ?? "",
                        String(day.events.budgetedReloads),
                        String(day.events.freeReloads),
                        String(day.events.withheldRequests),
                        String(day.events.timeouts),
                        String(day.events.views),
                        String(day.events.staleViews),
                        day.events.views == 0 ? "" : FixedDecimal.format(day.events.meanStaleness, decimals: 1),
                    ])
                }
            }
        }
        return csv.text
    }
}
