/// What one simulated run comes to, across all its widgets: the numbers a
/// policy comparison ranks on. Kept as counts, so a run stores no rows.
public struct RunMetrics: Equatable, Sendable {
    public var widgetDays: Double = 0
    public var budgetedReloads = 0
    public var freeReloads = 0
    public var withheldRequests = 0
    public var timeouts = 0
    public var views = 0
    public var staleViews = 0
    /// Seconds of staleness summed over all views.
    public var stalenessTotal = 0
    public var stalenessP50 = 0
    public var stalenessP95 = 0
    public var stalenessMax = 0

    public var budgetedPerWidgetDay: Double { rate(budgetedReloads) }
    public var freePerWidgetDay: Double { rate(freeReloads) }
    public var withheldPerWidgetDay: Double { rate(withheldRequests) }
    public var timeoutsPerWidgetDay: Double { rate(timeouts) }
    /// Provider calls, which are server requests when the provider fetches.
    public var callsPerWidgetDay: Double { rate(budgetedReloads + freeReloads) }
    public var stalePercent: Double { views == 0 ? 0 : 100 * Double(staleViews) / Double(views) }
    /// How long, on average, what a view showed had been out of date (a fresh
    /// view counts as 0): how often and how long in one number.
    public var meanStaleness: Double { views == 0 ? 0 : Double(stalenessTotal) / Double(views) }

    private func rate(_ count: Int) -> Double { widgetDays == 0 ? 0 : Double(count) / widgetDays }

    /// Runs `setup` and measures it.
    public static func measure(_ setup: SimulationSetup) -> RunMetrics {
        var observer = MetricsObserver()
        for index in setup.devices.indices {
            var device = DeviceSimulator(simulation: setup, deviceIndex: index, observer: consume observer)
            device.run()
            observer = device.observer
        }
        let widgets = setup.devices.reduce(0) { $0 + $1.widgets.count }
        return observer.metrics(widgetDays: Double(widgets * setup.days))
    }
}

/// Counts a run's events without keeping rows.
struct MetricsObserver: SimulationObserver {
    var counts = RunMetrics()
    var staleness: [Int] = []

    mutating func reloadStarted(_ record: ReloadRecord) {
        if record.budgeted { counts.budgetedReloads += 1 } else { counts.freeReloads += 1 }
        if record.result == .timedOut { counts.timeouts += 1 }
    }

    mutating func widgetViewed(_ record: ViewRecord) {
        counts.views += 1
        if record.isStale { counts.staleViews += 1 }
        counts.stalenessTotal += record.staleness
        staleness.append(record.staleness)
    }

    mutating func reloadWithheld(_ record: WithheldRecord) {
        counts.withheldRequests += record.requests
    }

    mutating func dayStarted(_ record: DayStartRecord) {}

    func metrics(widgetDays: Double) -> RunMetrics {
        var result = counts
        result.widgetDays = widgetDays
        let sorted = staleness.sorted()
        result.stalenessP50 = Percentile.nearestRank(50, of: sorted) ?? 0
        result.stalenessP95 = Percentile.nearestRank(95, of: sorted) ?? 0
        result.stalenessMax = sorted.last ?? 0
        return result
    }
}
