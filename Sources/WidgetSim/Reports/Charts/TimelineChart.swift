/// One widget's run as a chart: a row per local day with its reloads
/// (budgeted, free, withheld) and views (fresh, stale) by hour, and below it
/// the budget used in the trailing 24 hours against the limit.
struct TimelineChart {
    static let maximumDays = 14

    let title: String
    let calendar: CivilCalendar
    let firstDay: Int
    let dayCount: Int
    let reloads: [ReloadRecord]
    let views: [ViewRecord]
    let withheld: [WithheldRecord]
    let endTime: SimTime

    func render() -> String {
        let shownDays = min(dayCount, TimelineChart.maximumDays)
        let left = 64.0
        let right = 736.0
        let rowHeight = 18.0
        let top = 44.0
        let rowsBottom = top + rowHeight * Double(shownDays)
        let budgetTop = rowsBottom + 62
        let budgetHeight = 110.0
        let budgetBottom = budgetTop + budgetHeight
        var svg = SVGCanvas(width: 760, height: Int(budgetBottom + 58))
        svg.text(left, 20, title, size: 13, bold: true)
        if dayCount > shownDays {
            svg.text(right, 20, "first \(shownDays) of \(DisplayText.counted(dayCount, "day"))", anchor: .end, fill: SVGCanvas.Palette.grey)
        }

        // Day rows: x is the local hour.
        func x(hourSecond: Int) -> Double { left + (right - left) * Double(hourSecond) / Double(Seconds.day) }
        for hour in stride(from: 0, through: 24, by: 3) {
            let position = x(hourSecond: hour * Seconds.hour)
            svg.line(position, top, position, rowsBottom, stroke: SVGCanvas.Palette.faint)
            svg.text(position, rowsBottom + 13, String(format2(hour)) + ":00", size: 10, anchor: .middle)
        }
        svg.text((left + right) / 2, rowsBottom + 27, "local time of day", size: 10, anchor: .middle)
        for row in 0..<shownDays {
            let y = top + rowHeight * Double(row)
            if row % 2 == 1 { svg.rect(left, y, right - left, rowHeight, fill: "#F6F6F6") }
            let day = firstDay + row
            let start = calendar.startOfDay(day)
            svg.text(left - 6, y + 13, "\(weekdayName(start)) d\(day)", size: 10, anchor: .end)
        }
        func row(_ t: SimTime) -> Int? {
            let index = calendar.dayIndex(t) - firstDay
            return index >= 0 && index < shownDays ? index : nil
        }
        for view in views {
            guard let index = row(view.time) else { continue }
            let y = top + rowHeight * Double(index) + rowHeight - 4
            svg.circle(x(hourSecond: calendar.secondOfDay(view.time)), y, radius: 2.2,
                       fill: view.isStale ? SVGCanvas.Palette.orange : SVGCanvas.Palette.grey)
        }
        for reload in reloads {
            guard let index = row(reload.time) else { continue }
            let y = top + rowHeight * Double(index)
            let position = x(hourSecond: calendar.secondOfDay(reload.time))
            svg.line(position, y + 2, position, y + rowHeight - 8,
                     stroke: reload.budgeted ? SVGCanvas.Palette.blue : SVGCanvas.Palette.green, width: 1.6)
        }
        for record in withheld {
            guard let index = row(record.time) else { continue }
            let y = top + rowHeight * Double(index) + 2
            let position = x(hourSecond: calendar.secondOfDay(record.time))
            svg.polygon([(position - 3.5, y), (position + 3.5, y), (position, y + 6)], fill: SVGCanvas.Palette.vermillion)
        }

        // Budget used against the limit over the whole run.
        let budgeted = reloads.filter(\.budgeted)
        let limits = budgeted.compactMap(\.budgetLimit)
        let peak = Double(max(limits.max() ?? 0, budgeted.map(\.budgetUsed24h).max() ?? 0, 1))
        let ticks = Ticks.nice(maximum: peak * 1.1, count: 4)
        let ceiling = ticks.last!
        func bx(_ t: SimTime) -> Double { left + (right - left) * Double(t) / Double(max(1, endTime)) }
        func by(_ value: Double) -> Double { budgetBottom - budgetHeight * value / ceiling }
        svg.text(left, budgetTop - 10, "Budgeted reloads in the trailing 24 h, and the daily limit", size: 11, bold: true)
        for tick in ticks {
            svg.line(left, by(tick), right, by(tick), stroke: SVGCanvas.Palette.faint)
            svg.text(left - 6, by(tick) + 4, DurationText.plain(tick), size: 10, anchor: .end)
        }
        for day in stride(from: 0, through: endTime / Seconds.day, by: max(1, endTime / Seconds.day / 14)) {
            let position = bx(day * Seconds.day)
            svg.line(position, budgetBottom, position, budgetBottom + 4, stroke: SVGCanvas.Palette.ink)
            svg.text(position, budgetBottom + 16, "\(day)d", size: 10, anchor: .middle)
        }
        svg.text(left - 40, (budgetTop + budgetBottom) / 2, "reloads", size: 10, anchor: .middle, rotate: true)
        svg.polyline(stepPoints(budgeted.map { ($0.time, Double($0.budgetUsed24h)) }, x: bx, y: by), stroke: SVGCanvas.Palette.blue)
        let limitPoints = budgeted.compactMap { record in record.budgetLimit.map { (record.time, Double($0)) } }
        svg.polyline(stepPoints(limitPoints, x: bx, y: by), stroke: SVGCanvas.Palette.vermillion, dash: "5,3")
        if limits.isEmpty {
            svg.text(right, budgetTop + 14, "no limit (unlimited model)", size: 10, anchor: .end, fill: SVGCanvas.Palette.grey)
        }

        let legendY = budgetBottom + 42
        svg.legend(left, legendY, [
            ("budgeted reload", { canvas, x, y in canvas.line(x, y - 5, x, y + 5, stroke: SVGCanvas.Palette.blue, width: 2) }),
            ("free reload", { canvas, x, y in canvas.line(x, y - 5, x, y + 5, stroke: SVGCanvas.Palette.green, width: 2) }),
            ("withheld request", { canvas, x, y in canvas.polygon([(x - 4, y - 3), (x + 4, y - 3), (x, y + 4)], fill: SVGCanvas.Palette.vermillion) }),
            ("fresh view", { canvas, x, y in canvas.circle(x, y, radius: 3, fill: SVGCanvas.Palette.grey) }),
            ("stale view", { canvas, x, y in canvas.circle(x, y, radius: 3, fill: SVGCanvas.Palette.orange) }),
            ("limit", { canvas, x, y in canvas.line(x - 6, y, x + 6, y, stroke: SVGCanvas.Palette.vermillion, width: 1.5, dash: "5,3") }),
        ])
        return svg.document
    }

    /// Points of a step line through `(time, value)` samples.
    func stepPoints(_ samples: [(SimTime, Double)], x: (SimTime) -> Double, y: (Double) -> Double) -> [(Double, Double)] {
        var points: [(Double, Double)] = []
        for (index, sample) in samples.enumerated() {
            if index > 0 { points.append((x(sample.0), y(samples[index - 1].1))) }
            points.append((x(sample.0), y(sample.1)))
        }
        if let last = samples.last { points.append((x(endTime), y(last.1))) }
        return points
    }

    func weekdayName(_ t: SimTime) -> String {
        ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][calendar.weekday(t).rawValue]
    }

    func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
