import Foundation
import Testing
@testable import WidgetSim

/// A comparison of several widgets pools them in its verdict; it must also
/// answer for each widget alone, because the best policy of one widget need
/// not be the best of another (per-instance budgets, F7).
@Suite("Comparison per widget")
struct PerWidgetComparisonTests {
    /// Two widgets whose truth changes every 30 minutes, both reloading
    /// hourly; each variant makes one of them reload every 15 minutes.
    static let scenario = """
        {
          "name": "two", "days": 2, "seed": 3,
          "devices": [ { "id": "phone",
            "pages": [ { "name": "home", "viewsPerDay": 30 } ],
            "widgets": [
              { "id": "a", "provider": { "policy": "after", "after": "1h", "entries": 1 }, "truth": { "changeEvery": "30m" } },
              { "id": "b", "provider": { "policy": "after", "after": "1h", "entries": 1 }, "truth": { "changeEvery": "30m" } }
            ] } ],
          "variants": [
            { "name": "fast-a", "widgets": ["a"], "provider": { "after": "15m" } },
            { "name": "fast-b", "widgets": ["b"], "provider": { "after": "15m" } }
          ]
        }
        """

    static func run(runs: Int = 2, threads: Int = 2) throws -> Comparison {
        var options = Comparison.Options()
        options.runs = runs
        options.threads = threads
        options.budgetModels = [.paced]
        return try Comparison.run(try ScenarioLoader.decodeDocument(scenario, file: "two.json"), options: options)
    }

    @Test func eachWidgetsNumbersAddUpToThePooledOnes() throws {
        let comparison = try Self.run()
        #expect(comparison.widgets.map(\.label) == ["a", "b"])
        for row in comparison.rows {
            for metrics in row.replications {
                #expect(metrics.widgets.count == 2)
                var sum = EventCounts()
                for widget in metrics.widgets { sum.add(widget.counts) }
                #expect(sum == metrics.counts)
                #expect(metrics.widgets.allSatisfy { $0.widgetDays == 2 } && metrics.widgetDays == 4)
            }
        }
    }

    /// A widget nobody looks at has no staleness, only zeros: no variant is
    /// named best for it, and the verdict says why.
    @Test func aWidgetNeverViewedIsNotRanked() throws {
        var options = Comparison.Options()
        options.runs = 2
        options.budgetModels = [.paced]
        let hidden = Self.scenario
            .replacingOccurrences(of: #""pages": [ { "name": "home", "viewsPerDay": 30 } ]"#,
                                  with: #""pages": [ { "name": "home", "viewsPerDay": 30 }, { "name": "hidden", "viewsPerDay": 0 } ]"#)
            .replacingOccurrences(of: #"{ "id": "b", "provider""#, with: #"{ "id": "b", "page": "hidden", "provider""#)
        let comparison = try Comparison.run(try ScenarioLoader.decodeDocument(hidden, file: "two.json"), options: options)
        let b = try #require(comparison.widget(named: "b"))
        #expect(!comparison.restricted(to: b).hasViews(for: .paced))
        #expect(comparison.hasViews(for: .paced))
        let markdown = ComparisonReport(comparison.restricted(to: b)).markdown()
        #expect(markdown.contains("**No verdict:** `b` was never viewed in these runs"))
        #expect(!markdown.contains("**Best"))
        // Its table gives the costs, unranked, and so do the CSV rows.
        #expect(markdown.contains("\n| – | **base** |") && !markdown.contains("\n| 1 | "), "\(markdown)")
        let rows = ComparisonReport.csvRows(comparison.restricted(to: b))
        #expect(!rows.isEmpty && rows.allSatisfy { $0[4].isEmpty }, "\(rows)")
        #expect(ComparisonReport.csvRows(comparison).allSatisfy { !$0[4].isEmpty })
        let pooled = ComparisonReport(comparison).markdown()
        #expect(pooled.contains("**Best on staleness within the budget"))
        #expect(pooled.contains("`b` was never viewed in these runs: no variant is ranked on its staleness."))
    }

    @Test func aWidgetIsRankedOnItsOwnNumbersAlone() throws {
        let comparison = try Self.run()
        let a = try #require(comparison.widget(named: "a"))
        let b = try #require(comparison.widget(named: "b"))
        #expect(comparison.restricted(to: a).best(for: .paced)?.variant == "fast-a")
        #expect(comparison.restricted(to: b).best(for: .paced)?.variant == "fast-b")
        // Only widget a's provider differs between the base and fast-a, yet
        // the pooled numbers would credit fast-a with both widgets' views.
        let forA = comparison.restricted(to: a).rows(for: .paced)
        #expect(forA.allSatisfy { $0.replications.allSatisfy { $0.widgetDays == 2 } })
        #expect(comparison.widget(named: "c") == nil)
    }

    @Test func aMultiWidgetComparisonNamesEachWidgetsBestVariant() throws {
        let files = ComparisonReport(try Self.run()).files()
        #expect(files.map(\.name) == ["comparison.csv", "comparison.md", "comparison.svg", "comparison-widgets.csv"])
        let markdown = files[1].contents
        #expect(markdown.contains("## Each widget under paced"))
        #expect(markdown.contains("### a\n\nBest for `a`: **`fast-a`**"))
        #expect(markdown.contains("### b\n\nBest for `b`: **`fast-b`**"))
        // comparison.csv keeps its columns and its one row per variant.
        let pooled = files[0].contents.split(separator: "\n")
        #expect(pooled[0] == Substring(ComparisonReport.csvHeader.joined(separator: ",")))
        #expect(pooled.count == 1 + 3)
        let perWidget = files[3].contents.split(separator: "\n")
        #expect(perWidget[0].hasPrefix("budget_model,device,widget,variant,runs,within_budget,rank,"))
        #expect(perWidget.count == 1 + 2 * 3)
        #expect(perWidget.contains { $0.hasPrefix("paced,phone,a,fast-a,2,1,1,") })
        #expect(perWidget.contains { $0.hasPrefix("paced,phone,b,fast-b,2,1,1,") })
    }

    /// `device/id` names a widget on a scenario of one device too, where the
    /// label is the bare id: the README gives that form for any scenario.
    @Test func deviceSlashIDNamesAWidgetOnASingleDevice() {
        let widgets = [Comparison.WidgetReference(device: "phone", id: "a", label: "a")]
        #expect(Comparison.widget(named: "phone/a", among: widgets)?.id == "a")
        #expect(Comparison.widget(named: "tablet/a", among: widgets) == nil)
    }

    @Test func aWidgetOnSeveralDevicesIsNamedDeviceSlashID() throws {
        let setup = try ScenarioLoader.decode("""
            { "name": "pair", "devices": [
              { "id": "p1", "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } }, { "id": "solo", "provider": { "policy": "atEnd" } } ] },
              { "id": "p2", "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } } ] } ] }
            """, file: "pair.json")
        let widgets = Comparison.widgets(of: setup)
        #expect(widgets.map(\.label) == ["p1/w", "p1/solo", "p2/w"])
        #expect(Comparison.widget(named: "p2/w", among: widgets)?.device == "p2")
        #expect(Comparison.widget(named: "solo", among: widgets)?.label == "p1/solo")
        // A bare id on two devices names neither.
        #expect(Comparison.widget(named: "w", among: widgets) == nil)
    }

    @Test func theTerminalSummaryNamesEachWidgetsBestVariant() throws {
        let summary = ComparisonReport(try Self.run()).terminalSummary()
        #expect(summary.contains("Best for each widget alone (paced; comparison.md has the tables):\n  a: fast-a, mean staleness "))
        #expect(summary.contains("\n  b: fast-b, mean staleness "))
    }

    @Test func oneWidgetsComparisonSaysWhichWidgetItRanks() throws {
        let comparison = try Self.run()
        let report = ComparisonReport(comparison.restricted(to: try #require(comparison.widget(named: "b"))))
        let files = report.files()
        #expect(files.map(\.name) == ["comparison.csv", "comparison.md", "comparison.svg"])
        #expect(files[1].contents.hasPrefix("# widgetsim comparison: two, widget `b`\n"))
        #expect(files[1].contents.contains("**Best for `b` on staleness within its budget (paced): `fast-b`**"))
        #expect(!files[1].contents.contains("## Each widget"))
    }

    @Test func perWidgetReportsDoNotDependOnTheNumberOfThreads() throws {
        #expect(ComparisonReport(try Self.run(threads: 1)).files() == ComparisonReport(try Self.run(threads: 2)).files())
    }
}
