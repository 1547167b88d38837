/// Two answers summary.md gives about freshness: when in the day views are
/// stale, and how long after an unforeseen content change (a goal, a tap's
/// action, a move, a pushed story) a reload shows it.
struct FreshnessFigures {
    struct Hour {
        var views = 0
        var staleViews = 0
        var stalenessSum = 0

        var staleShare: Double { views == 0 ? 0 : Double(staleViews) / Double(views) }
        var meanStaleness: Double? { views == 0 ? nil : Double(stalenessSum) / Double(views) }
    }

    struct TimeToFresh {
        var changes = 0
        /// Seconds from each change to the end of the first call that started after it and produced a timeline.
        var delays: [Int] = []
        /// Changes no call had answered when the run ended.
        var unanswered: Int { changes - delays.count }
    }

    /// Views of every widget by the local hour of its device's clock.
    let hours: [Hour]
    /// Per device, per widget.
    let timeToFresh: [[TimeToFresh]]

    init(setup: SimulationSetup, collector: ReportCollector, calendars: [CivilCalendar]) {
        var hours = Array(repeating: Hour(), count: 24)
        for view in collector.views {
            let hour = calendars[view.device].civil(view.time).hour
            hours[hour].views += 1
            if view.isStale { hours[hour].staleViews += 1 }
            hours[hour].stalenessSum += view.staleness
        }
        self.hours = hours
        var starts: [[[SimTime]]] = setup.devices.map { $0.widgets.map { _ in [] } }
        var ends: [[[SimTime]]] = starts
        for reload in collector.reloads where reload.result == .ok {
            starts[reload.device][reload.widget].append(reload.time)
            ends[reload.device][reload.widget].append(reload.completesAt)
        }
        var fresh: [[TimeToFresh]] = setup.devices.map { $0.widgets.map { _ in TimeToFresh() } }
        for change in collector.contentChanges {
            fresh[change.device][change.widget].changes += 1
            let calls = starts[change.device][change.widget]
            // The first call that started at or after the change (calls are in time order).
            let index = calls.firstIndex(greaterThan: change.time - 1)
            if index < calls.count {
                fresh[change.device][change.widget].delays.append(ends[change.device][change.widget][index] - change.time)
            }
        }
        timeToFresh = fresh.map { $0.map { var item = $0; item.delays.sort(); return item } }
    }
}

/// The share of stale views in each local hour: when in the day the widget lags.
struct StalenessByHourChart {
    let title: String
    let hours: [FreshnessFigures.Hour]

    func render() -> String {
        let left = 64.0, right = 736.0, top = 44.0, bottom = 210.0
        var svg = SVGCanvas(width: 760, height: Int(bottom) + 40)
        svg.text(left, 20, title, size: 13, bold: true)
        let highest = max(0.05, hours.map(\.staleShare).max() ?? 0)
        // Round the axis up to a whole 10 %, so ticks read cleanly.
        let top100 = min(100, (highest * 100 / 10).rounded(.up) * 10)
        func y(_ percent: Double) -> Double { bottom - (bottom - top) * percent / top100 }
        for step in 0...4 {
            let tick = top100 * Double(step) / 4
            svg.line(left, y(tick), right, y(tick), stroke: SVGCanvas.Palette.faint)
            svg.text(left - 6, y(tick) + 4, FixedDecimal.format(tick, decimals: tick == tick.rounded() ? 0 : 1) + "%", size: 10, anchor: .end)
        }
        svg.text(left - 42, (top + bottom) / 2, "stale views", size: 10, anchor: .middle, rotate: true)
        let width = (right - left) / 24
        for (hour, figures) in hours.enumerated() {
            let x = left + width * Double(hour)
            if figures.views > 0 {
                let share = 100 * figures.staleShare
                svg.rect(x + 2, y(share), width - 4, bottom - y(share), fill: SVGCanvas.Palette.vermillion)
            } else {
                svg.text(x + width / 2, bottom - 4, "·", size: 10, anchor: .middle, fill: SVGCanvas.Palette.grey)
            }
            if hour % 3 == 0 { svg.text(x + width / 2, bottom + 16, String(format2(hour)) + ":00", size: 10, anchor: .middle) }
        }
        svg.line(left, bottom, right, bottom, stroke: SVGCanvas.Palette.ink)
        svg.text(right, bottom + 32, "local hour of the view; a dot: no views that hour", size: 9, anchor: .end, fill: SVGCanvas.Palette.grey)
        return svg.document
    }

    func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
