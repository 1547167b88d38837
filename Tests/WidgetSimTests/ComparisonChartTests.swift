import Foundation
import Testing
@testable import WidgetSim

/// The comparison chart stays legible: a log axis when variants differ
/// tenfold, and labels that never overlap.
@Suite("Comparison chart")
struct ComparisonChartTests {
    /// The labels' boxes (x, baseline y, text) from the chart's SVG.
    static func labels(_ svg: String, of variants: [String]) -> [(x: Double, y: Double, text: String)] {
        var found: [(Double, Double, String)] = []
        for line in svg.components(separatedBy: "<text").dropFirst() {
            guard let close = line.range(of: ">"), let end = line.range(of: "</text>") else { continue }
            let text = String(line[close.upperBound..<end.lowerBound])
            guard variants.contains(where: { text.hasPrefix($0 + " (") }) else { continue }
            func attribute(_ name: String) -> Double? {
                guard let start = line.range(of: " \(name)=\"") else { return nil }
                return Double(line[start.upperBound...].prefix { $0 != "\"" })
            }
            if let x = attribute("x"), let y = attribute("y") { found.append((x, y, text)) }
        }
        return found
    }

    @Test func variantsThatDifferTenfoldGetALogAxisAndLabelsThatDoNotOverlap() throws {
        let comparison = try ComparisonTests.run(runs: 2)
        let rows = comparison.rows(for: comparison.budgetModels[0])
        let budgeted = rows.map(\.budgeted.mean).filter { $0 > 0 }
        try #require((budgeted.max() ?? 0) / (budgeted.min() ?? 1) >= 10, "the test scenario should span a factor of ten")
        let svg = ComparisonChart(title: "t", rows: rows).render()
        #expect(svg.contains("log scale"))
        let labels = Self.labels(svg, of: rows.map(\.variant))
        #expect(labels.count == rows.count)
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] {
                let aw = SVGCanvas.estimatedWidth(a.text, size: 11), bw = SVGCanvas.estimatedWidth(b.text, size: 11)
                let apart = a.x + aw <= b.x || b.x + bw <= a.x || a.y + 3 <= b.y - 11 || b.y + 3 <= a.y - 11
                #expect(apart, "'\(a.text)' overlaps '\(b.text)'")
            }
        }
    }

    @Test func variantsWithinATenfoldRangeKeepALinearAxis() {
        let axis = ComparisonChart.Axis(values: [4, 9, 20], lows: [3, 8, 18])
        #expect(!axis.logarithmic)
        #expect(axis.ticks.first == 0)
    }

    @Test func aLogAxisCoversEveryValue() {
        let axis = ComparisonChart.Axis(values: [0.4, 3, 55], lows: [0.3, 2, 50])
        #expect(axis.logarithmic)
        #expect(axis.ticks.first! <= 0.3)
        #expect(axis.ticks.last! >= 55)
    }
}
