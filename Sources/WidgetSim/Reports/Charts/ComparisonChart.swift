/// A comparison as a chart: each variant's mean staleness against the
/// budgeted reloads it spends, with 95 % confidence intervals.
///
/// When the variants on an axis span a factor of ten or more, that axis is
/// logarithmic (1-2-5 ticks), so a variant ten times cheaper or staler does
/// not squash the others into a corner. Labels are placed so that none
/// overlaps another: a label that would is moved down, line by line.
struct ComparisonChart {
    let title: String
    let rows: [Comparison.Row]

    /// One axis: linear from 0, or logarithmic over the data's decades.
    struct Axis {
        var ticks: [Double]
        var logarithmic: Bool

        init(values: [Double], lows: [Double]) {
            let positive = (values + lows).filter { $0 > 0 }
            let top = max(1e-9, values.max() ?? 1)
            if let smallest = positive.min(), top / smallest >= 10 {
                logarithmic = true
                // 1-2-5 ticks from the last one at or below the smallest value
                // to the first at or above the largest.
                var decade = 1.0
                while decade > smallest { decade /= 10 }
                while decade * 10 <= smallest { decade *= 10 }
                var ticks: [Double] = []
                while ticks.last.map({ $0 < top }) ?? true {
                    for multiple in [1.0, 2.0, 5.0] {
                        let tick = decade * multiple
                        if tick <= smallest { ticks = [tick] } else if ticks.last.map({ $0 < top }) ?? true { ticks.append(tick) }
                    }
                    decade *= 10
                }
                self.ticks = ticks
            } else {
                logarithmic = false
                ticks = Ticks.nice(maximum: max(1, top) * 1.1)
            }
        }

        /// Where `value` falls, from 0 at the first tick to 1 at the last.
        func fraction(_ value: Double) -> Double {
            guard logarithmic else { return value / ticks.last! }
            let low = DeterministicMath.log(ticks.first!), high = DeterministicMath.log(ticks.last!)
            return (DeterministicMath.log(max(value, ticks.first!)) - low) / (high - low)
        }
    }

    func render() -> String {
        let left = 70.0
        let right = 600.0
        let top = 44.0
        let bottom = 300.0
        var svg = SVGCanvas(width: 760, height: 350)
        svg.text(left, 20, title, size: 13, bold: true)
        let xAxis = Axis(values: rows.map { $0.budgeted.high ?? $0.budgeted.mean }, lows: rows.map(\.budgeted.mean))
        let yAxis = Axis(values: rows.map { ($0.meanStaleness.high ?? $0.meanStaleness.mean) / 60 }, lows: rows.map { $0.meanStaleness.mean / 60 })
        func x(_ value: Double) -> Double { left + (right - left) * xAxis.fraction(value) }
        func y(_ value: Double) -> Double { bottom - (bottom - top) * yAxis.fraction(value) }
        for tick in xAxis.ticks {
            svg.line(x(tick), top, x(tick), bottom, stroke: SVGCanvas.Palette.faint)
            svg.text(x(tick), bottom + 15, DurationText.plain(tick), size: 10, anchor: .middle)
        }
        for tick in yAxis.ticks {
            svg.line(left, y(tick), right, y(tick), stroke: SVGCanvas.Palette.faint)
            svg.text(left - 6, y(tick) + 4, DurationText.plain(tick), size: 10, anchor: .end)
        }
        svg.text((left + right) / 2, bottom + 32, "budgeted reloads per widget-day" + (xAxis.logarithmic ? " (log scale)" : ""), size: 11, anchor: .middle)
        svg.text(left - 48, (top + bottom) / 2, "mean staleness (minutes)" + (yAxis.logarithmic ? ", log scale" : ""), size: 11, anchor: .middle, rotate: true)
        var placed: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
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
            let own = row.ownBudgetModel.map { ", own \($0.rawValue)" } ?? ""
            let label = "\(row.variant) (\(DurationText.format(row.meanStaleness.mean.rounded()))\(own))"
            let width = SVGCanvas.estimatedWidth(label, size: 11)
            // Beside the point (right, or left near the edge), else the
            // nearest free line above or below it inside the plot.
            func free(_ lx: Double, _ ly: Double) -> Bool {
                ly - 11 >= top - 12 && ly + 3 <= bottom - 2
                    && !placed.contains { lx < $0.x1 && lx + width > $0.x0 && ly - 11 < $0.y1 && ly + 3 > $0.y0 }
            }
            let sides = px + 8 + width > 750 ? [px - 8 - width] : [px + 8, px - 8 - width]
            var lx = sides[0], ly = py - 7
            search: for step in 0..<40 {
                let shift = Double((step + 1) / 2) * (step % 2 == 0 ? 14 : -14)
                for side in sides where side >= 4 && free(side, py - 7 + shift) {
                    lx = side
                    ly = py - 7 + shift
                    break search
                }
            }
            placed.append((lx, ly - 11, lx + width, ly + 3))
            svg.text(lx, ly, label, size: 11, fill: color)
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
