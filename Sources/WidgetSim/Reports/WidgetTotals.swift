/// Per-widget and per-day totals of a run, computed once from the collected
/// rows and shared by `daily.csv` and `summary.md`.
///
/// Promised: indexed by device, widget and local day in setup order; no
/// dictionary is involved, so iteration order is fixed.
struct WidgetTotals {
    struct Counts {
        var budgetLimit: Int?
        var hasDayStart = false
        var events = EventCounts()
    }

    /// The first local day of each device.
    let firstDay: [Int]
    /// `perDay[device][widget][day - firstDay[device]]`.
    private(set) var perDay: [[[Counts]]]
    /// Every view's staleness (0 when fresh), per device and widget, sorted.
    private(set) var staleness: [[[Int]]]

    init(setup: SimulationSetup, collector: ReportCollector) {
        let calendars = setup.devices.map { setup.calendar(of: $0) }
        let firstDays = calendars.map { $0.dayIndex(0) }
        firstDay = firstDays
        let dayCounts = calendars.indices.map { calendars[$0].dayIndex(setup.endTime - 1) - firstDays[$0] + 1 }
        perDay = setup.devices.indices.map { device in
            setup.devices[device].widgets.map { _ in Array(repeating: Counts(), count: dayCounts[device]) }
        }
        staleness = setup.devices.map { device in device.widgets.map { _ in [] } }

        func slot(_ device: Int, _ t: SimTime) -> Int { calendars[device].dayIndex(t) - firstDays[device] }
        for record in collector.dayStarts {
            let day = record.day - firstDays[record.device]
            guard !perDay[record.device][record.widget][day].hasDayStart else { continue }
            perDay[record.device][record.widget][day].hasDayStart = true
            perDay[record.device][record.widget][day].budgetLimit = record.budgetLimit
        }
        for record in collector.reloads {
            perDay[record.device][record.widget][slot(record.device, record.time)].events.count(record)
        }
        for record in collector.withheld {
            perDay[record.device][record.widget][slot(record.device, record.time)].events.count(record)
        }
        for record in collector.views {
            perDay[record.device][record.widget][slot(record.device, record.time)].events.count(record)
            staleness[record.device][record.widget].append(record.staleness)
        }
        for device in staleness.indices {
            for widget in staleness[device].indices { staleness[device][widget].sort() }
        }
    }

    /// The widget's totals over the whole run.
    func total(device: Int, widget: Int) -> EventCounts {
        perDay[device][widget].reduce(into: EventCounts()) { sum, day in sum.add(day.events) }
    }
}
