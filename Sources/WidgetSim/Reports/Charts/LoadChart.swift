/// Requests per minute as a line per variant: the whole run (each point the
/// busiest minute of a 10-minute bucket, so peaks survive) or a window at
/// minute resolution.
struct LoadChart {
    let result: FleetResult
    let calendar: CivilCalendar
    let window: Range<Int>?

    func render() -> String {
        let left = 70.0
        let right = 736.0
        let top = 44.0
        let bottom = 280.0
        var svg = SVGCanvas(width: 760, height: 340)
        let minutes = result.variants.first?.aggregate.requestsPerMinute.count ?? 0
        let range = window ?? 0..<minutes
        let bucket = window == nil ? 10 : 1
        let title = window == nil ? "Requests per minute (busiest minute of each 10)" : "Requests per minute around the busiest minute"
        svg.text(left, 20, "\(result.scenario): \(title)", size: 13, bold: true)
        let series = result.variants.map { variant -> [(Int, Int)] in
            stride(from: range.lowerBound, to: range.upperBound, by: bucket).map { start in
                (start, variant.aggregate.requestsPerMinute[start..<min(range.upperBound, start + bucket)].max() ?? 0)
            }
        }
        let peak = Double(series.flatMap { $0.map(\.1) }.max() ?? 1)
        let ticks = Ticks.nice(maximum: max(1, peak) * 1.05)
        func x(_ minute: Int) -> Double { left + (right - left) * Double(minute - range.lowerBound) / Double(max(1, range.count)) }
        func y(_ value: Double) -> Double { bottom - (bottom - top) * value / ticks.last! }
        for tick in ticks {
            svg.line(left, y(tick), right, y(tick), stroke: SVGCanvas.Palette.faint)
            svg.text(left - 6, y(tick) + 4, DurationText.plain(tick), size: 10, anchor: .end)
        }
        svg.text(left - 52, (top + bottom) / 2, "requests per minute", size: 11, anchor: .middle, rotate: true)
        if window == nil {
            for day in 0...(minutes / 1_440) {
                svg.line(x(day * 1_440), bottom, x(day * 1_440), bottom + 4, stroke: SVGCanvas.Palette.ink)
                svg.text(x(day * 1_440), bottom + 16, "\(day)d", size: 10, anchor: .middle)
            }
            svg.text((left + right) / 2, bottom + 32, "days since the start", size: 11, anchor: .middle)
        } else {
            for minute in stride(from: range.lowerBound - range.lowerBound % 60 + 60, to: range.upperBound, by: 60) {
                let civil = calendar.civil(minute * Seconds.minute)
                svg.line(x(minute), top, x(minute), bottom, stroke: SVGCanvas.Palette.faint)
                svg.text(x(minute), bottom + 16, (civil.hour < 10 ? "0" : "") + "\(civil.hour):00", size: 10, anchor: .middle)
            }
            svg.text((left + right) / 2, bottom + 32, "time (\(CivilCalendar.formatOffset(calendar.utcOffsetSeconds)))", size: 11, anchor: .middle)
        }
        for (index, points) in series.enumerated() {
            let color = SVGCanvas.Palette.series[index % SVGCanvas.Palette.series.count]
            svg.polyline(points.map { (x($0.0), y(Double($0.1))) }, stroke: color, width: 1.2)
        }
        svg.line(left, bottom, right, bottom, stroke: SVGCanvas.Palette.ink)
        svg.legend(left, bottom + 52, result.variants.enumerated().map { item in
            let color = SVGCanvas.Palette.series[item.offset % SVGCanvas.Palette.series.count]
            let peak = item.element.aggregate.requestsPerMinute.max() ?? 0
            return ("\(item.element.name) (peak \(peak))", { canvas, x, y in canvas.line(x - 6, y, x + 6, y, stroke: color, width: 2) })
        })
        return svg.document
    }
}
