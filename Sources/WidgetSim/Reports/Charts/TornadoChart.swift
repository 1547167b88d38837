/// A tornado chart of a sensitivity analysis: for each unknown, the span of
/// the recommended variant's mean staleness across the unknown's range (the
/// others as written), widest first, against the value as written.
///
/// Promised: no end label runs into the unknowns' names or past the right
/// edge (the axis starts further right, and the canvas grows, to make room),
/// and none crosses the line of the value as written; text widths are
/// estimated, not measured, so this holds for ordinary sans-serif fonts.
struct TornadoChart {
    let sensitivity: Sensitivity

    /// Where the unknowns' names end, the axis starts at the latest, and ends.
    static let namesEnd = 180.0
    static let plotLeft = 190.0
    static let plotRight = 760.0
    static let labelSize = 11

    func render() -> String {
        let s = sensitivity
        let rowHeight = 26.0
        // Room above the rows for the title, the subtitle and, below them, the "as written" label.
        let top = 84.0
        let height = Int(top + rowHeight * Double(max(1, s.unknowns.count)) + 70)
        guard let recommended = s.recommended, let baseline = s.baseline.row(recommended)?.meanStaleness.mean else {
            var svg = SVGCanvas(width: 900, height: height)
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
        let middle = baseline / 60
        let right = Self.plotRight
        // Each bar's end labels: the lower one ends left of the bar (and of the
        // line as written), the higher one starts right of them.
        let labels = ordered.map { sweep -> (low: String, lowAt: Double, high: String, highAt: Double)? in
            let low = sweep.values.min() ?? 0
            let high = sweep.values.max() ?? 0
            guard high - low >= 1e-9 else { return nil }
            let unknown = s.unknowns[sweep.index]
            let positions = unknown.sweepPositions
            return (unknown.describe(positions[sweep.values.firstIndex(of: low)!]), min(low, middle),
                    unknown.describe(positions[sweep.values.firstIndex(of: high)!]), max(high, middle))
        }
        // The axis starts far enough right that every lower label clears the
        // names: left + (right - left) f - 5 - width >= namesEnd, f being the
        // label's anchor as a fraction of the axis (below 1: the axis runs 5 % past the maximum).
        var left = Self.plotLeft
        for label in labels.compactMap({ $0 }) {
            let f = label.lowAt / ticks.last!
            let width = SVGCanvas.estimatedWidth(label.low, size: Self.labelSize)
            left = max(left, (Self.namesEnd + 5 + width - right * f) / (1 - f))
        }
        func x(_ minutes: Double) -> Double { left + (right - left) * minutes / ticks.last! }
        // The canvas grows until every higher label fits.
        var width = 900.0
        for label in labels.compactMap({ $0 }) {
            width = max(width, x(label.highAt) + 5 + SVGCanvas.estimatedWidth(label.high, size: Self.labelSize) + 10)
        }
        var svg = SVGCanvas(width: Int(width.rounded(.up)), height: height)
        let bottom = top + rowHeight * Double(s.unknowns.count)

        let during = s.baseline.comparison.measuredHours.isWholeDay ? "" : " in the measured hours"
        svg.text(20, 24, "How far each unknown moves the mean staleness\(during) of \(recommended) (\(s.scenario))", size: 15, bold: true)
        svg.text(20, 44, "one unknown at a time across its plausible range, the others as written; widest first", size: 12, fill: SVGCanvas.Palette.grey)
        for tick in ticks {
            svg.line(x(tick), top - 6, x(tick), bottom, stroke: SVGCanvas.Palette.faint)
            svg.text(x(tick), bottom + 18, DurationText.plain(tick), size: 12, anchor: .middle)
        }
        svg.text((left + right) / 2, bottom + 38, "mean staleness of \(recommended) (minutes)", size: 12, anchor: .middle)
        for (row, (sweep, label)) in zip(ordered, labels).enumerated() {
            let y = top + rowHeight * (Double(row) + 0.5)
            let unknown = s.unknowns[sweep.index]
            svg.text(Self.namesEnd, y + 4, unknown.name, size: 12, anchor: .end, fill: label == nil ? SVGCanvas.Palette.grey : SVGCanvas.Palette.ink)
            guard let label else {
                svg.text(x(middle) + 8, y + 4, "no effect", size: Self.labelSize, fill: SVGCanvas.Palette.grey)
                continue
            }
            let low = sweep.values.min() ?? 0
            let high = sweep.values.max() ?? 0
            // The part below the value as written in blue, above in vermillion.
            if low < middle { svg.rect(x(low), y - 8, x(min(high, middle)) - x(low), 16, fill: SVGCanvas.Palette.sky) }
            if high > middle { svg.rect(x(max(low, middle)), y - 8, x(high) - x(max(low, middle)), 16, fill: SVGCanvas.Palette.vermillion) }
            svg.text(x(label.lowAt) - 5, y + 4, label.low, size: Self.labelSize, anchor: .end)
            svg.text(x(label.highAt) + 5, y + 4, label.high, size: Self.labelSize)
        }
        svg.line(x(middle), top - 10, x(middle), bottom, stroke: SVGCanvas.Palette.ink, width: 1.5)
        svg.text(x(middle), top - 14, "as written: \(EstimateText.duration(baseline))", size: Self.labelSize, anchor: .middle)
        svg.legend(left, Double(height) - 10, [
            ("fresher than as written", { canvas, x, y in canvas.rect(x - 6, y - 5, 12, 10, fill: SVGCanvas.Palette.sky) }),
            ("staler than as written", { canvas, x, y in canvas.rect(x - 6, y - 5, 12, 10, fill: SVGCanvas.Palette.vermillion) }),
        ])
        return svg.document
    }
}
