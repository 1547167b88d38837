/// A tornado chart of a sensitivity analysis: for each unknown, the span of
/// the recommended variant's mean staleness across the unknown's range (the
/// others as written), widest first, against the value as written.
struct TornadoChart {
    let sensitivity: Sensitivity

    func render() -> String {
        let s = sensitivity
        let rowHeight = 26.0
        let top = 64.0
        let left = 190.0
        let right = 760.0
        let height = Int(top + rowHeight * Double(max(1, s.unknowns.count)) + 70)
        var svg = SVGCanvas(width: 900, height: height)
        guard let recommended = s.recommended, let baseline = s.baseline.row(recommended)?.meanStaleness.mean else {
            svg.text(20, 30, "No variant stays within the budget as written: nothing to test.", size: 13)
            return svg.document
        }
        // Each unknown's mean staleness (minutes) at each of its sweep positions.
        let sweeps = s.sweeps.enumerated().map { index, points in
            (index: index, values: points.map { ($0.row(recommended)?.meanStaleness.mean ?? baseline) / 60 })
        }
        let ordered = sweeps.sorted { a, b in
            let spanA = (a.values.max() ?? 0) - (a.values.min() ?? 0)
            let spanB = (b.values.max() ?? 0) - (b.values.min() ?? 0)
            return spanA != spanB ? spanA > spanB : a.index < b.index
        }
        let maximum = max(baseline / 60, sweeps.flatMap(\.values).max() ?? 0)
        let ticks = Ticks.nice(maximum: max(1, maximum) * 1.05)
        func x(_ minutes: Double) -> Double { left + (right - left) * minutes / ticks.last! }
        let bottom = top + rowHeight * Double(s.unknowns.count)

        svg.text(20, 24, "How far each unknown moves the mean staleness of \(recommended) (\(s.scenario))", size: 15, bold: true)
        svg.text(20, 44, "one unknown at a time across its plausible range, the others as written; widest first", size: 12, fill: SVGCanvas.Palette.grey)
        for tick in ticks {
            svg.line(x(tick), top - 6, x(tick), bottom, stroke: SVGCanvas.Palette.faint)
            svg.text(x(tick), bottom + 18, DurationText.plain(tick), size: 12, anchor: .middle)
        }
        svg.text((left + right) / 2, bottom + 38, "mean staleness of \(recommended) (minutes)", size: 12, anchor: .middle)
        for (row, sweep) in ordered.enumerated() {
            let y = top + rowHeight * (Double(row) + 0.5)
            let unknown = s.unknowns[sweep.index]
            let low = sweep.values.min() ?? 0
            let high = sweep.values.max() ?? 0
            let quiet = high - low < 1e-9
            svg.text(left - 10, y + 4, unknown.name, size: 12, anchor: .end, fill: quiet ? SVGCanvas.Palette.grey : SVGCanvas.Palette.ink)
            if quiet {
                svg.text(x(baseline / 60) + 8, y + 4, "no effect", size: 11, fill: SVGCanvas.Palette.grey)
                continue
            }
            // The part below the value as written in blue, above in vermillion.
            let middle = baseline / 60
            if low < middle { svg.rect(x(low), y - 8, x(min(high, middle)) - x(low), 16, fill: SVGCanvas.Palette.sky) }
            if high > middle { svg.rect(x(max(low, middle)), y - 8, x(high) - x(max(low, middle)), 16, fill: SVGCanvas.Palette.vermillion) }
            // The value at each end of the bar.
            let positions = unknown.sweepPositions
            if let lowIndex = sweep.values.firstIndex(of: low) {
                svg.text(x(low) - 5, y + 4, unknown.describe(positions[lowIndex]), size: 11, anchor: .end)
            }
            if let highIndex = sweep.values.firstIndex(of: high) {
                svg.text(x(high) + 5, y + 4, unknown.describe(positions[highIndex]), size: 11)
            }
        }
        svg.line(x(baseline / 60), top - 10, x(baseline / 60), bottom, stroke: SVGCanvas.Palette.ink, width: 1.5)
        svg.text(x(baseline / 60), top - 14, "as written: \(EstimateText.duration(baseline))", size: 11, anchor: .middle)
        svg.legend(left, Double(height) - 10, [
            ("fresher than as written", { canvas, x, y in canvas.rect(x - 6, y - 5, 12, 10, fill: SVGCanvas.Palette.sky) }),
            ("staler than as written", { canvas, x, y in canvas.rect(x - 6, y - 5, 12, 10, fill: SVGCanvas.Palette.vermillion) }),
        ])
        return svg.document
    }
}
