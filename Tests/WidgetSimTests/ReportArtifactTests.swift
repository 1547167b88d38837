import Foundation
import Testing
@testable import WidgetSim

/// Charts and the trace: well-formed, labelled, deterministic.
@Suite("Report artifacts")
struct ReportArtifactTests {
    static func weather() throws -> (SimulationSetup, ReportCollector) {
        var setup = try ScenarioLoader.load(path: Paths.scenario("weather"))
        setup.days = 2
        return (setup, try Simulation.run(setup))
    }

    @Test func chartsAreLabelledSVGWithALegend() throws {
        let (setup, run) = try Self.weather()
        let files = ReportWriter(setup: setup, collector: run).files()
        let timeline = try #require(files.first { $0.name == "timeline-phone-forecast.svg" })
        #expect(timeline.contents.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(timeline.contents.hasSuffix("</svg>\n"))
        for label in ["budgeted reload", "free reload", "withheld request", "stale view", "local time of day", "limit"] {
            #expect(timeline.contents.contains(">\(label)</text>"), "missing \(label)")
        }
        let staleness = try #require(files.first { $0.name == "staleness.svg" })
        #expect(staleness.contents.contains(">share of views</text>"))
        #expect(files.first { $0.name == "summary.md" }!.contents.contains("![Reloads, views and budget of forecast](timeline-phone-forecast.svg)"))
        // The same run draws the same bytes.
        #expect(ReportWriter(setup: setup, collector: run).files() == files)
    }

    /// Ids hold '-', so device `a-b` with widget `c` and device `a` with
    /// widget `b-c` would both draw `timeline-a-b-c.svg`, and the second
    /// file would clash with the first: each gets a name of its own, with a
    /// '+' that no id holds, and the summary shows each.
    @Test func twoWidgetsWhoseChartNamesWouldClashGetChartsOfTheirOwn() throws {
        let setup = try ScenarioLoader.decode("""
            {
              "name": "clash", "days": 1,
              "devices": [
                { "id": "a-b", "widgets": [ { "id": "c", "provider": { "policy": "atEnd" } } ] },
                { "id": "a", "widgets": [ { "id": "b-c", "provider": { "policy": "atEnd" } }, { "id": "d", "provider": { "policy": "atEnd" } } ] }
              ]
            }
            """, file: "clash.json")
        let files = ReportWriter(setup: setup, collector: try Simulation.run(setup)).files()
        let charts = files.map(\.name).filter { $0.hasPrefix("timeline-") }
        #expect(charts == ["timeline-a-b+c.svg", "timeline-a+b-c.svg", "timeline-a-d.svg"])
        let summary = try #require(files.first { $0.name == "summary.md" }).contents
        for chart in charts { #expect(summary.contains("(\(chart))"), "\(chart)") }
    }

    /// A tornado chart's end labels (a delay distribution's is 30-odd
    /// characters) end right of the unknowns' names, start right of nothing
    /// but their bar, and stay on the canvas.
    @Test func tornadoEndLabelsClearTheNamesAndTheCanvasEdge() throws {
        let document = try SensitivityTests.weather(days: 2)
        var options = Sensitivity.Options()
        options.runs = 1
        options.trajectories = 0
        let svg = TornadoChart(sensitivity: try Sensitivity.run(document, options: options)).render()
        let canvas = try #require(svg.firstMatch(of: /width="(\d+)"/))
        let width = try #require(Double(canvas.1))
        var checked = 0
        for match in svg.matches(of: /<text x="([\d.]+)" y="[\d.]+" font-size="11" text-anchor="(start|end)" fill="#222222">([^<]*)<\/text>/) {
            let x = try #require(Double(match.1))
            let extent = SVGCanvas.estimatedWidth(String(match.3), size: 11)
            if match.2 == "end" {
                #expect(x - extent >= TornadoChart.namesEnd, "'\(match.3)' runs into the names")
            } else {
                #expect(x + extent <= width, "'\(match.3)' runs off the canvas")
            }
            checked += 1
        }
        #expect(checked >= 20)
        #expect(svg.contains(">log-normal, median 30s, p95 7m30s</text>"))
    }

    /// Two variants that differ only in where their entries fall or in
    /// whether they forecast must not read alike in a report's policy column.
    @Test func aPolicySummaryNamesAlignedAndForecastEntries() {
        var settings = ConfiguredProvider.Settings()
        settings.policy = .after(interval: Seconds.hour)
        settings.entryCount = 6
        #expect(ProviderSetup.configured(settings).policySummary == "after(1h), 6 entries 1h apart")
        settings.alignEntries = true
        #expect(ProviderSetup.configured(settings).policySummary == "after(1h), 6 entries 1h apart on the clock")
        settings.forecasts = true
        #expect(ProviderSetup.configured(settings).policySummary == "after(1h), 6 entries 1h apart on the clock, forecasts")
        // A single entry is neither placed nor forecast.
        settings.entryCount = 1
        #expect(ProviderSetup.configured(settings).policySummary == "after(1h), 1 entry")
        // Explicit offsets are not aligned; their later entries may forecast.
        settings.entryOffsets = [0, 1_800, 7_200]
        #expect(ProviderSetup.configured(settings).policySummary == "after(1h), 3 entries at +0s, +30m, +2h, forecasts")
    }

    /// Two variants that differ only in whether they skip the truth's
    /// inactive hours (E4, stocks' `after-15m-always` and its base) must
    /// not read alike either.
    @Test func aPolicySummaryNamesSkippedInactiveHours() {
        var settings = ConfiguredProvider.Settings()
        settings.policy = .after(interval: 15 * Seconds.minute)
        #expect(ProviderSetup.configured(settings).policySummary == "after(15m), 1 entry")
        settings.skipInactiveHours = true
        #expect(ProviderSetup.configured(settings).policySummary == "after(15m), 1 entry, skipping inactive hours")
    }

    @Test func textInChartsIsEscaped() {
        #expect(SVGCanvas.escaped("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;")
    }

    @Test func theTraceIsChromeTraceJSONWithOneTrackPerWidget() throws {
        let (setup, run) = try Self.weather()
        let trace = try #require(ReportWriter(setup: setup, collector: run).files(trace: true).first { $0.name == "trace.json" })
        let json = try JSONSerialization.jsonObject(with: Data(trace.contents.utf8)) as! [String: Any]
        let events = json["traceEvents"] as! [[String: Any]]
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.count == run.reloads.count)
        #expect(events.filter { $0["ph"] as? String == "i" }.count == run.views.count + run.withheld.count)
        let threads = events.filter { $0["name"] as? String == "thread_name" }
        #expect(threads.count == 1)
        #expect((threads[0]["args"] as! [String: Any])["name"] as? String == "forecast (com.example.weather.forecast)")
        #expect(slices.allSatisfy { ($0["ts"] as! Int) >= 0 && ($0["dur"] as! Int) > 0 })
    }
}
