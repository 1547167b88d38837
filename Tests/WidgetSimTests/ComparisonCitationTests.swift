import Foundation
import Testing
@testable import WidgetSim

/// `compare`'s verdict cites a one-at-a-time sweep of the unknowns: the
/// recommendation holds over all of them, or the sentence names each
/// unknown and value that flips it (or ties it).
@Suite("Compare cites the sensitivity")
struct ComparisonCitationTests {
    /// Polling every 3 hours against a widget push for each of 100 changes a
    /// day, under a rolling window of 12 reloads. As written, pushes share
    /// the timeline's budget and are withheld, so polling is recommended;
    /// Apple does not say whose budget pushes spend (F19), and where they
    /// are free the push variant is fresher by an hour.
    static let pollOrPush = """
        {
          "name": "poll-or-push", "days": 2, "seed": 3, "baseName": "poll",
          "scheduler": { "budgetModel": "rollingWindow", "dailyBudget": { "min": 12, "max": 12 } },
          "devices": [ { "id": "phone", "pages": [ { "name": "home", "viewsPerDay": 60 } ],
            "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "3h", "entries": 1 },
                           "truth": { "randomChangesPerDay": 100 } } ] } ],
          "variants": [ { "name": "push", "provider": { "policy": "never", "after": null }, "truth": { "onRandomChange": "push" } } ]
        }
        """

    static let design = "(one at a time; `widgetsim sensitivity` also screens interactions)"

    static func compare(
        _ json: String, runs: Int = 3, threads: Int = 2, models: [BudgetModel] = []
    ) throws -> (comparison: Comparison, sensitivity: Sensitivity) {
        let document = try ScenarioLoader.decodeDocument(json, file: "scenario.json")
        var options = Comparison.Options()
        options.runs = runs
        options.threads = threads
        options.budgetModels = models
        let comparison = try Comparison.run(document, options: options)
        let sensitivity = try #require(try Sensitivity.citedByComparison(document, options: options))
        return (comparison, sensitivity)
    }

    @Test func compareVerdictNamesEveryUnknownThatFlipsTheRecommendation() throws {
        let (comparison, sensitivity) = try Self.compare(Self.pollOrPush)
        let sentence = ComparisonReport.sensitivitySentence(sensitivity)
        #expect(sentence == "The recommendation **flips** to `push` when `pushBudget` is free; it holds over the plausible range of the other 15 unknowns besides the budget model \(Self.design).")
        // The rule itself, whatever flips: every unknown and value where another variant wins is named.
        let flips = sensitivity.oneAtATimeChallenges.filter { if case .flips = $0.verdict { return true } else { return false } }
        #expect(!flips.isEmpty)
        for flip in flips {
            let unknown = sensitivity.unknowns[flip.unknown]
            #expect(sentence.contains("`\(unknown.name)` is \(unknown.describe(flip.position))"))
        }
        let markdown = ComparisonReport(comparison, sensitivity: sensitivity).markdown()
        let verdict = try #require(markdown.components(separatedBy: "## Verdict\n\n").last?.components(separatedBy: "\n## ").first)
        #expect(verdict.contains(sentence))
    }

    @Test func compareVerdictSaysItHoldsWhenNoUnknownFlipsIt() throws {
        let (_, sensitivity) = try Self.compare(SensitivityTests.pollOrNever)
        #expect(ComparisonReport.sensitivitySentence(sensitivity)
            == "The recommendation holds over the plausible range of all 16 unknowns besides the budget model \(Self.design).")
    }

    /// Another variant ahead where the replications cannot tell them apart
    /// (here: one replication, so no interval at all) ties; it does not flip.
    @Test func anUnknownThatBringsAnotherVariantWithinTheNoiseTiesTheRecommendation() throws {
        let (_, sensitivity) = try Self.compare(Self.pollOrPush, runs: 1)
        #expect(ComparisonReport.sensitivitySentence(sensitivity)
            == "The recommendation ties (with one replication, whose noise is unknown) with `push` when `pushBudget` is free; it holds over the plausible range of the other 15 unknowns besides the budget model \(Self.design).")
    }

    /// The budget model is compare's own sweep; the citation covers the rest.
    @Test func compareSweepsEveryUnknownButTheBudgetModelOneAtATime() throws {
        let (_, sensitivity) = try Self.compare(Self.pollOrPush, runs: 1)
        #expect(sensitivity.unknowns.map(\.name) == SchedulerParameters.plausibleRanges.map(\.name).filter { $0 != "budgetModel" })
        #expect(sensitivity.walks.isEmpty)
    }

    /// The sweep's point as written is compare's ranking under the verdict's
    /// budget model (the first of `--budget-models`, not the scenario's), on
    /// the same seeds, so the sentence is about compare's recommendation.
    @Test func theRecommendationTestedIsComparesOwn() throws {
        let (comparison, sensitivity) = try Self.compare(Self.pollOrPush, models: [.unlimited, .rollingWindow])
        let rows = comparison.rows(for: .unlimited)
        #expect(sensitivity.recommended == comparison.best(for: .unlimited)?.variant)
        #expect(sensitivity.recommended == "push")
        #expect(sensitivity.baseline.comparison.rows.map(\.replications) == rows.map(\.replications))
        #expect(sensitivity.seeds == comparison.seeds)
    }

    @Test func aScenarioWithoutVariantsHasNothingToCite() throws {
        let document = try ScenarioLoader.decodeDocument(
            SensitivityTests.pollOrNever.replacingOccurrences(of: #""variants": [ { "name": "never", "provider": { "policy": "never", "after": null } } ]"#, with: #""variants": []"#),
            file: "alone.json")
        #expect(document.variants.isEmpty)
        #expect(try Sensitivity.citedByComparison(document, options: Comparison.Options()) == nil)
    }

    @Test func theCitedVerdictDoesNotDependOnTheThreads() throws {
        let one = try Self.compare(Self.pollOrPush, threads: 1)
        let three = try Self.compare(Self.pollOrPush, threads: 3)
        #expect(ComparisonReport(one.comparison, sensitivity: one.sensitivity).files()
            == ComparisonReport(three.comparison, sensitivity: three.sensitivity).files())
    }
}
