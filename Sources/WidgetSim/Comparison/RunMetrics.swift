/// What one simulated run comes to, across all its widgets: the numbers a
/// policy comparison ranks on. Kept as counts, so a run stores no rows.
public struct RunMetrics: Equatable, Sendable {
    public var widgetDays: Double = 0
    public var counts = EventCounts()
    public var stalenessP50 = 0
    public var stalenessP95 = 0
    public var stalenessMax = 0

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
        let observer = try Simulation.run(setup, observer: MetricsObserver())
        let widgets = setup.devices.reduce(0) { $0 + $1.widgets.count }
        return observer.metrics(widgetDays: Double(widgets * setup.days))
    }
}

/// Counts a run's events without keeping rows (but every view's staleness, for percentiles).
struct MetricsObserver: SimulationObserver {
    var counts = EventCounts()
    var staleness: [Int] = []

    mutating func reloadStarted(_ record: ReloadRecord) { counts.count(record) }

    mutating func widgetViewed(_ record: ViewRecord) {
        counts.count(record)
        staleness.append(record.staleness)
    }

    mutating func reloadWithheld(_ record: WithheldRecord) { counts.count(record) }

    mutating func dayStarted(_ record: DayStartRecord) {}

    var keptBytes: Int { staleness.count * Int(RunEstimate.bytesPerComparedView) }

    func metrics(widgetDays: Double) -> RunMetrics {
        var result = RunMetrics()
        result.counts = counts
        result.widgetDays = widgetDays
        let sorted = staleness.sorted()
        result.stalenessP50 = Percentile.nearestRank(50, of: sorted) ?? 0
        result.stalenessP95 = Percentile.nearestRank(95, of: sorted) ?? 0
        result.stalenessMax = sorted.last ?? 0
        return result
    }
}
