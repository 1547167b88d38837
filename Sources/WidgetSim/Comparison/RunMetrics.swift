/// What one simulated run comes to, across all its widgets: the numbers a
/// policy comparison ranks on. Kept as counts, so a run stores no rows.
///
/// `widgets` holds the same numbers for each widget alone, in setup order
/// (device by device, then the device's widgets), so a comparison can rank
/// the variants for one widget; an entry's own `widgets` is empty.
public struct RunMetrics: Equatable, Sendable {
    public var widgetDays: Double = 0
    public var counts = EventCounts()
    public var stalenessP50 = 0
    public var stalenessP95 = 0
    public var stalenessMax = 0
    /// Each widget's own metrics, in setup order; `widgetDays` of each is
    /// the run's days from the day it was added (`WidgetSetup.daysInRun`).
    public var widgets: [RunMetrics] = []

    public var budgetedPerWidgetDay: Double { rate(counts.budgetedReloads) }
    public var freePerWidgetDay: Double { rate(counts.freeReloads) }
    public var withheldPerWidgetDay: Double { rate(counts.withheldRequests) }
    public var timeoutsPerWidgetDay: Double { rate(counts.timeouts) }
    /// Provider calls, which are server requests when the provider fetches.
    public var callsPerWidgetDay: Double { rate(counts.requests) }
    public var stalePercent: Double { counts.stalePercent }
    public var meanStaleness: Double { counts.meanStaleness }

    private func rate(_ count: Int) -> Double { widgetDays == 0 ? 0 : Double(count) / widgetDays }

    /// Runs `setup` and measures it.
    public static func measure(_ setup: SimulationSetup) throws(RunLimitExceeded) -> RunMetrics {
        let observer = try Simulation.run(setup, observer: MetricsObserver(setup))
        return observer.metrics()
    }
}

/// Counts a run's events per widget without keeping rows (but every view's
/// staleness, for percentiles).
struct MetricsObserver: SimulationObserver {
    /// The index in `perWidget` of each device's first widget.
    let firstWidget: [Int]
    /// Each widget's days in the run, in `perWidget`'s order.
    let widgetDays: [Int]
    var perWidget: [EventCounts]
    var staleness: [[Int]]
    private var keptViews = 0
    /// The hours whose views count (`measureDuring`), and each device's
    /// calendar to place a view in them; empty calendars when every view counts.
    let measuredHours: MeasuredHours
    let calendars: [CivilCalendar]

    init(_ setup: SimulationSetup) {
        var first: [Int] = []
        var total = 0
        for device in setup.devices {
            first.append(total)
            total += device.widgets.count
        }
        firstWidget = first
        measuredHours = setup.measuredHours
        calendars = setup.measuredHours.isWholeDay ? [] : setup.devices.map { setup.calendar(of: $0) }
        widgetDays = setup.devices.flatMap { $0.widgets.map { $0.daysInRun(of: setup.days) } }
        perWidget = Array(repeating: EventCounts(), count: total)
        staleness = Array(repeating: [], count: total)
    }

    mutating func reloadStarted(_ record: ReloadRecord) { perWidget[firstWidget[record.device] + record.widget].count(record) }

    mutating func widgetViewed(_ record: ViewRecord) {
        // Outside the measured hours a view does not count (`MeasuredHours`).
        guard measuredHours.isWholeDay || measuredHours.contains(record.time, calendar: calendars[record.device]) else { return }
        let index = firstWidget[record.device] + record.widget
        perWidget[index].count(record)
        staleness[index].append(record.staleness)
        keptViews += 1
    }

    mutating func reloadWithheld(_ record: WithheldRecord) { perWidget[firstWidget[record.device] + record.widget].count(record) }

    mutating func dayStarted(_ record: DayStartRecord) {}

    var keptBytes: Int { keptViews * Int(RunEstimate.bytesPerComparedView) }

    func metrics() -> RunMetrics {
        func measured(_ counts: EventCounts, widgetDays: Double, sortedStaleness sorted: [Int]) -> RunMetrics {
            var result = RunMetrics()
            result.counts = counts
            result.widgetDays = widgetDays
            result.stalenessP50 = Percentile.nearestRank(50, of: sorted) ?? 0
            result.stalenessP95 = Percentile.nearestRank(95, of: sorted) ?? 0
            result.stalenessMax = sorted.last ?? 0
            return result
        }
        let widgets = perWidget.indices.map { index in
            measured(perWidget[index], widgetDays: Double(widgetDays[index]), sortedStaleness: staleness[index].sorted())
        }
        let total = perWidget.reduce(into: EventCounts()) { sum, counts in sum.add(counts) }
        var result = measured(total, widgetDays: Double(widgetDays.reduce(0, +)), sortedStaleness: staleness.flatMap { $0 }.sorted())
        result.widgets = widgets
        return result
    }
}
