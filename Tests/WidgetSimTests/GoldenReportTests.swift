import Foundation
import Testing
@testable import WidgetSim

/// Regression tests on budget accounting: every shipped scenario's reports,
/// as `make simulate`, `make compare` and `make fleet` write them, are committed under
/// `Reports/<scenario>/`. This test recomputes them and fails on any
/// difference, naming the first differing rows.
///
/// `make golden` re-records them on purpose (`WIDGETSIM_RECORD_GOLDEN=1`);
/// a recording run fails on purpose, so it can never pass unnoticed.
@Suite("Golden reports")
struct GoldenReportTests {
    /// Replications in the committed comparisons; `make compare` uses the same.
    static let comparisonRuns = 10

    static var scenarioNames: [String] {
        ScenarioLoader.scenarioNames(in: Paths.packageRoot.appendingPathComponent("Scenarios").path)
    }

    /// The files `make simulate` and `make compare` (or, for a fleet,
    /// `widgetsim fleet`) write for a scenario.
    static func expectedFiles(_ name: String) throws -> [ReportFile] {
        let document = try ScenarioLoader.loadDocument(path: Paths.scenario(name))
        if document.base.fleet != nil {
            return FleetReport(try FleetResult.run(document, fingerprint: document.fingerprint, options: FleetRun.Options())).files()
        }
        let simulated = ReportWriter(setup: document.base, collector: try Simulation.run(document.base)).files()
        var options = Comparison.Options()
        options.runs = comparisonRuns
        let own = document.base.scheduler.budgetModel
        options.budgetModels = [own] + BudgetModel.allCases.filter { $0 != own }
        let compared = ComparisonReport(try Comparison.run(document, options: options)).files()
        return simulated + (document.variants.isEmpty ? [] : compared)
    }

    @Test func everyShippedScenarioHasCommittedReports() {
        #expect(Self.scenarioNames.count >= 10)
    }

    @Test(arguments: GoldenReportTests.scenarioNames)
    func committedReportsMatchWhatTheCodeComputes(scenario: String) throws {
        let directory = Paths.packageRoot.appendingPathComponent("Reports/\(scenario)")
        let files = try Self.expectedFiles(scenario)
        if ProcessInfo.processInfo.environment["WIDGETSIM_RECORD_GOLDEN"] == "1" {
            try ReportDirectory.write(files, to: directory.path)
            Issue.record("Recorded Reports/\(scenario)/ (\(files.count) files). Review the change with 'git diff Reports/\(scenario)', then run 'make test'. A recording run always fails.")
            return
        }
        for file in files {
            let url = directory.appendingPathComponent(file.name)
            guard let committed = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("Reports/\(scenario)/\(file.name) is missing. Run 'make golden' to record it, then review and commit it.")
                continue
            }
            if let difference = GoldenDiff.describe(expected: committed, actual: file.contents, file: "Reports/\(scenario)/\(file.name)") {
                Issue.record("""
                    \(difference)
                    The code no longer computes the committed report. If the change is intended (a rule or a default \
                    changed), run 'make golden' and review 'git diff Reports/'. If you ran 'make simulate' or \
                    'make compare' with other options, restore the committed files with 'git checkout Reports/\(scenario)'.
                    """)
            }
        }
    }

    @Test func theDiffNamesTheFirstDifferingRows() {
        let description = GoldenDiff.describe(expected: "a\nb\nc\nd\n", actual: "a\nB\nc\nD\n", file: "x.csv")
        #expect(description == """
            x.csv differs at 2 of 4 lines; the first:
              line 2
                committed: b
                computed:  B
              line 4
                committed: d
                computed:  D
            """)
        #expect(GoldenDiff.describe(expected: "same\n", actual: "same\n", file: "x") == nil)
    }
}

/// A readable description of how two texts differ, line by line.
enum GoldenDiff {
    static let linesShown = 3

    static func describe(expected: String, actual: String, file: String) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let length = max(old.count, new.count)
        var differing: [Int] = []
        for index in 0..<length where index >= old.count || index >= new.count || old[index] != new[index] {
            differing.append(index)
        }
        let total = max(old.last == "" ? old.count - 1 : old.count, new.last == "" ? new.count - 1 : new.count)
        var text = "\(file) differs at \(differing.count) of \(total) lines; the first:"
        for index in differing.prefix(linesShown) {
            text += "\n  line \(index + 1)"
            text += "\n    committed: " + (index < old.count ? String(old[index]) : "(none)")
            text += "\n    computed:  " + (index < new.count ? String(new[index]) : "(none)")
        }
        return text
    }
}
