/// A comparison as a chart: each variant's mean staleness against the
/// budgeted reloads it spends, with 95 % confidence intervals.
struct ComparisonChart {
    let title: String
    let rows: [Comparison.Row]

    func render() -> String {
        let left = 70.0
        let right = 600.0
        let top = 44.0
        let bottom = 300.0
        var svg = SVGCanvas(width: 760, height: 350)
        svg.text(left, 20, title, size: 13, bold: true)
        let xs = rows.map { $0.budgeted.high ?? $0.budgeted.mean }
        let ys = rows.map { ($0.meanStaleness.high ?? $0.meanStaleness.mean) / 60 }
        let xTicks = Ticks.nice(maximum: max(1, xs.max() ?? 1) * 1.1)
        let yTicks = Ticks.nice(maximum: max(1, ys.max() ?? 1) * 1.1)
        func x(_ value: Double) -> Double { left + (right - left) * value / xTicks.last! }
        func y(_ value: Double) -> Double { bottom - (bottom - top) * value / yTicks.last! }
        for tick in xTicks {
            svg.line(x(tick), top, x(tick), bottom, stroke: SVGCanvas.Palette.faint)
            svg.text(x(tick), bottom + 15, DurationText.plain(tick), size: 10, anchor: .middle)
        }
        for tick in yTicks {
            svg.line(left, y(tick), right, y(tick), stroke: SVGCanvas.Palette.faint)
            svg.text(left - 6, y(tick) + 4, DurationText.plain(tick), size: 10, anchor: .end)
        }
        svg.text((left + right) / 2, bottom + 32, "budgeted reloads per widget-day", size: 11, anchor: .middle)
        svg.text(left - 48, (top + bottom) / 2, "mean staleness (minutes)", size: 11, anchor: .middle, rotate: true)
        for (index, row) in rows.enumerated() {
            let color = SVGCanvas.Palette.series[index % SVGCanvas.Palette.series.count]
            let px = x(row.budgeted.mean)
            let py = y(row.meanStaleness.mean / 60)
            if let low = row.meanStaleness.low, let high = row.meanStaleness.high {
                svg.line(px, y(max(0, low) / 60), px, y(high / 60), stroke: color, width: 1.5)
            }
            if let low = row.budgeted.low, let high = row.budgeted.high {
                svg.line(x(max(0, low)), py, x(high), py, stroke: color, width: 1.5)
            }
            svg.circle(px, py, radius: 5, fill: row.withinBudget ? color : "#FFFFFF", stroke: color)
            svg.text(px + 8, py - 7, "\(row.variant) (\(DurationText.format(row.meanStaleness.mean.rounded())))", size: 11, fill: color)
        }
        svg.line(left, bottom, right, bottom, stroke: SVGCanvas.Palette.ink)
        svg.line(left, top, left, bottom, stroke: SVGCanvas.Palette.ink)
        svg.legend(616, 70, [("within budget", { canvas, x, y in canvas.circle(x, y, radius: 5, fill: SVGCanvas.Palette.grey) })])
        svg.legend(616, 90, [("over budget", { canvas, x, y in canvas.circle(x, y, radius: 5, fill: "#FFFFFF", stroke: SVGCanvas.Palette.grey) })])
        svg.legend(616, 110, [("95% CI", { canvas, x, y in canvas.line(x - 6, y, x + 6, y, stroke: SVGCanvas.Palette.grey, width: 1.5) })])
        svg.text(616, 140, "lower left is better", size: 10, fill: SVGCanvas.Palette.grey)
        return svg.document
    }
}
