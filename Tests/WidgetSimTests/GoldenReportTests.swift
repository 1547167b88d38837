import Foundation
import Testing
@testable import WidgetSim

/// Regression tests on budget accounting: every shipped scenario's reports,
/// as `make simulate`, `make compare` and `make fleet` write them (and, for
/// `sensitivityScenarios`, `make sensitivity`), are committed under
/// `Reports/<scenario>/`. This test recomputes them and fails on any
/// difference, naming the first differing rows.
///
/// `make golden` re-records them on purpose (`WIDGETSIM_RECORD_GOLDEN=1`);
/// a recording run fails on purpose, so it can never pass unnoticed.
@Suite("Golden reports")
struct GoldenReportTests {
    /// Replications in the committed comparisons; `make compare` uses the same (`RUNS`).
    static let comparisonRuns = 10

    /// The scenarios whose sensitivity reports are committed: the policy
    /// question everyone asks first (weather), polling against pushes (news),
    /// and the per-instance budgets of several widgets (home-screen).
    static let sensitivityScenarios = ["weather", "news", "home-screen"]
    /// Replications per point in the committed sensitivity reports;
    /// `make sensitivity` uses the same (`SENSITIVITY_RUNS`). Four, not the
    /// command's five, to keep `make test` short in a debug build; it is the
    /// fewest whose paired 95 % interval is not ruinously wide (t = 3.18 on 3
    /// degrees of freedom, against 4.30 with three replications).
    static let sensitivityRuns = 4
    /// Morris walks in the committed sensitivity reports; `make sensitivity`
    /// uses the same (`TRAJECTORIES`). Four, Morris's own choice (1991):
    /// each unknown's μ* and σ rest on four elementary effects.
    static let sensitivityTrajectories = 4

    static var scenarioNames: [String] {
        ScenarioLoader.scenarioNames(in: Paths.packageRoot.appendingPathComponent("Scenarios").path)
    }

    /// The shipped scenarios whose reports keep rows (not fleets, which keep counters).
    static var deviceScenarioNames: [String] {
        scenarioNames.filter { (try? ScenarioLoader.load(path: Paths.scenario($0)))?.fleet == nil }
    }

    /// The files `make simulate`, `make compare` and, for the
    /// `sensitivityScenarios`, `make sensitivity` (or, for a fleet,
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
        guard !document.variants.isEmpty else { return simulated }
        let comparison = try Comparison.run(document, options: options)
        let compared = ComparisonReport(comparison, sensitivity: try Sensitivity.citedByComparison(document, options: options)).files()
        guard sensitivityScenarios.contains(name) else { return simulated + compared }
        var sensitivityOptions = Sensitivity.Options()
        sensitivityOptions.runs = sensitivityRuns
        sensitivityOptions.trajectories = sensitivityTrajectories
        return simulated + compared + SensitivityReport(try Sensitivity.run(document, options: sensitivityOptions)).files()
    }

    @Test func everyShippedScenarioHasCommittedReports() {
        #expect(Self.scenarioNames.count >= 13)  // commuter (policies that follow the clock) is the 13th
        #expect(Self.sensitivityScenarios.allSatisfy(Self.scenarioNames.contains))
    }

    /// `make compare SCENARIO=x` and `make sensitivity SCENARIO=x` rewrite the
    /// committed files byte for byte only if the Makefile's defaults are the
    /// options these tests compute them with.
    @Test func theMakefileDefaultsAreTheGoldenOptions() throws {
        let makefile = try String(contentsOf: Paths.packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        let lines = makefile.split(separator: "\n").map(String.init)
        for (variable, value) in [
            ("RUNS", Self.comparisonRuns), ("SENSITIVITY_RUNS", Self.sensitivityRuns), ("TRAJECTORIES", Self.sensitivityTrajectories),
        ] {
            #expect(lines.contains("\(variable) ?= \(value)"), "the Makefile should set '\(variable) ?= \(value)'")
        }
        let sensitivity = try #require(lines.firstIndex(of: "sensitivity: release"))
        #expect(lines[sensitivity + 1].contains("--runs $(SENSITIVITY_RUNS) --trajectories $(TRAJECTORIES)"))
        let compare = try #require(lines.firstIndex(of: "compare: release"))
        #expect(lines[compare + 1].contains("--runs $(RUNS)"))
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
                    changed), run 'make golden' and review 'git diff Reports/'. If you ran 'make simulate', \
                    'make compare' or 'make sensitivity' with other options, restore the committed files with \
                    'git checkout Reports/\(scenario)' (reports never committed, of a scenario of your own: \
                    remove 'Reports/\(scenario)/' and record them with 'make golden').
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
