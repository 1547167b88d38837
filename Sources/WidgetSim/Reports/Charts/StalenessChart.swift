/// How stale views were: for each widget, the share of its views in each
/// staleness band.
struct StalenessChart {
    static let bands: [(label: String, upTo: Int)] = [
        ("fresh", 0), ("< 5 min", 300), ("5–15 min", 900), ("15–60 min", 3_600), ("1–3 h", 10_800), ("> 3 h", Int.max),
    ]

    let title: String
    /// (label, every view's staleness in seconds).
    let series: [(label: String, staleness: [Int])]

    /// The share (0...100) of `values` in each band.
    static func shares(_ values: [Int]) -> [Double] {
        var counts = Array(repeating: 0, count: bands.count)
        for value in values {
            let band = bands.firstIndex { value <= $0.upTo } ?? bands.count - 1
            counts[band] += 1
        }
        return counts.map { values.isEmpty ? 0 : 100 * Double($0) / Double(values.count) }
    }

    func render() -> String {
        let left = 64.0
        let right = 736.0
        let top = 44.0
        let bottom = 210.0
        let legendRows = (series.count + 3) / 4
        var svg = SVGCanvas(width: 760, height: Int(bottom) + 44 + 16 * legendRows)
        svg.text(left, 20, title, size: 13, bold: true)
        let ticks = [0.0, 25, 50, 75, 100]
        func y(_ percent: Double) -> Double { bottom - (bottom - top) * percent / 100 }
        for tick in ticks {
            svg.line(left, y(tick), right, y(tick), stroke: SVGCanvas.Palette.faint)
            svg.text(left - 6, y(tick) + 4, "\(Int(tick))%", size: 10, anchor: .end)
        }
        svg.text(left - 42, (top + bottom) / 2, "share of views", size: 10, anchor: .middle, rotate: true)
        let groupWidth = (right - left) / Double(StalenessChart.bands.count)
        let barWidth = min(28, (groupWidth - 12) / Double(max(1, series.count)))
        for (band, definition) in StalenessChart.bands.enumerated() {
            let groupLeft = left + groupWidth * Double(band)
            svg.text(groupLeft + groupWidth / 2, bottom + 16, definition.label, size: 10, anchor: .middle)
            let start = groupLeft + (groupWidth - barWidth * Double(series.count)) / 2
            for (index, item) in series.enumerated() {
                let share = StalenessChart.shares(item.staleness)[band]
                svg.rect(start + barWidth * Double(index), y(share), barWidth - 2, bottom - y(share),
                         fill: SVGCanvas.Palette.series[index % SVGCanvas.Palette.series.count])
                if series.count <= 3 {
                    svg.text(start + barWidth * (Double(index) + 0.5) - 1, y(share) - 3,
                             FixedDecimal.format(share, decimals: 1) + "%", size: 9, anchor: .middle)
                }
            }
        }
        svg.line(left, bottom, right, bottom, stroke: SVGCanvas.Palette.ink)
        for row in 0..<legendRows {
            let items = series.enumerated().filter { $0.offset / 4 == row }
            svg.legend(left, bottom + 40 + 16 * Double(row), items.map { item in
                let color = SVGCanvas.Palette.series[item.offset % SVGCanvas.Palette.series.count]
                return (item.element.label, { canvas, x, y in canvas.rect(x - 5, y - 5, 10, 10, fill: color) })
            })
        }
        return svg.document
    }
}
