import Foundation
import Testing
@testable import WidgetSim

/// Policy comparison: variants, replications on common random numbers,
/// confidence intervals, ranking and the budget-model sweep.
@Suite("Comparison")
struct ComparisonTests {
    static let scenario = """
        {
          "name": "cmp", "days": 2, "seed": 5, "scheduler": { "budgetModel": "rollingWindow" },
          "devices": [ { "id": "phone",
            "pages": [ { "name": "home", "viewsPerDay": 30 } ],
            "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "1h", "entries": 1 },
                           "truth": { "changeEvery": "30m" } } ] } ],
          "variants": [
            { "name": "same", "description": "identical to the base" },
            { "name": "fast", "provider": { "after": "15m" } },
            { "name": "never", "provider": { "policy": "never", "after": null }, "truth": { "onRandomChange": "push", "randomChangesPerDay": 3 } },
            { "name": "greedy", "provider": { "after": "5m" }, "scheduler": { "dailyBudget": { "min": 5, "max": 5 } } }
          ]
        }
        """

    static func document() throws -> ScenarioDocument {
        try ScenarioLoader.decodeDocument(scenario, file: "cmp.json")
    }

    static func run(runs: Int, threads: Int = 2, models: [BudgetModel] = []) throws -> Comparison {
        var options = Comparison.Options()
        options.runs = runs
        options.threads = threads
        options.budgetModels = models
        return try Comparison.run(try document(), options: options)
    }

    /// Rates per widget-day count a widget's days from the one it is added
    /// on (as daily.csv does): a widget added on the last day of seven
    /// withholds its requests on that one day, not on a seventh of it each
    /// day, and one never added counts none. The same in a fleet.
    @Test func aWidgetDayIsADayTheWidgetExists() throws {
        let text = """
        { "name": "late", "days": 8, "devices": [ { "id": "p", "widgets": [
            { "id": "first", "provider": { "policy": "after", "after": "1h" } },
            { "id": "last", "addedAt": "6d12h", "provider": { "policy": "after", "after": "1h" } },
            { "id": "never", "addedAt": "7d", "provider": { "policy": "after", "after": "1h" } } ] } ] }
        """
        // Run for 7 days, as `--days 7` would: the third widget is never added.
        var setup = try ScenarioLoader.decodeDocument(text, file: "late.json").base
        setup.days = 7
        let metrics = try RunMetrics.measure(setup)
        #expect(metrics.widgets.map(\.widgetDays) == [7, 1, 0])
        #expect(metrics.widgetDays == 8)
        let fleet = """
        { "name": "late-fleet", "days": 3, "fleet": { "devices": 5, "warmUpDays": 1, "addedWithin": "0s", "device": {
            "pages": [ { "name": "home", "viewsPerDay": 20 } ],
            "widgets": [ { "id": "w", "page": "home", "addedAt": "2d12h", "provider": { "policy": "after", "after": "1h" } } ] } } }
        """
        // Added 2.5 days after the simulated start, 1.5 after the measured one: on 2 of its 3 days.
        let aggregate = try FleetRun.run(try ScenarioLoader.decodeDocument(fleet, file: "late-fleet.json").base, options: FleetRun.Options())
        #expect(aggregate.widgetDays == 10)
    }

    @Test func studentTQuantilesMatchTheTables() {
        #expect(StudentT.quantile975(degreesOfFreedom: 1) == 12.706)
        #expect(StudentT.quantile975(degreesOfFreedom: 30) == 2.042)
        // Published values for 60, 120 and 1000 degrees of freedom.
        #expect(abs(StudentT.quantile975(degreesOfFreedom: 60) - 2.000) < 0.001)
        #expect(abs(StudentT.quantile975(degreesOfFreedom: 120) - 1.980) < 0.001)
        #expect(abs(StudentT.quantile975(degreesOfFreedom: 1_000) - 1.962) < 0.001)
    }

    /// Any coverage, for intervals that hold together: published values of
    /// t, and the tables' own at 95 %.
    @Test func studentTQuantilesAtAnyCoverageMatchPublishedValues() {
        for df in 1...30 {
            #expect(abs(StudentT.quantile(coverage: 0.95, degreesOfFreedom: df) - StudentT.quantile975(degreesOfFreedom: df)) < 0.0006, "\(df)")
        }
        // t(0.995, 9), t(0.9975, 9), t(0.995, 1), t(0.9875, 9), and the normal quantile far out.
        #expect(abs(StudentT.quantile(coverage: 0.99, degreesOfFreedom: 9) - 3.2498) < 0.0001)
        #expect(abs(StudentT.quantile(coverage: 0.995, degreesOfFreedom: 9) - 3.6897) < 0.0001)
        #expect(abs(StudentT.quantile(coverage: 0.99, degreesOfFreedom: 1) - 63.657) < 0.001)
        #expect(abs(StudentT.quantile(coverage: 0.975, degreesOfFreedom: 9) - 2.6850) < 0.0001)
        #expect(abs(StudentT.quantile(coverage: 0.95, degreesOfFreedom: 1_000_000) - 1.959966) < 0.00001)
        #expect(abs(StudentT.quantile(coverage: 0.95, degreesOfFreedom: 20_001) - StudentT.quantile(coverage: 0.95, degreesOfFreedom: 20_000)) < 1e-7)
    }

    /// The quantile's arctangent is its own, from square roots (the same
    /// bits on every platform), and agrees with the system's.
    @Test func theQuantilesArctangentAgreesWithTheSystems() {
        for x in [0, 1e-9, 0.1, 0.19, 0.5, 0.99, 1, 1.01, 3, 100, 1e12] {
            #expect(abs(StudentT.arctangent(x) - atan(x)) < 1e-15, "\(x)")
        }
    }

    /// One or two comparisons keep the tables' 95 % interval; more widen
    /// each one-sided bound to 1 − 0.05/m, so that all m hold at once.
    @Test func anIntervalAmongSeveralComparisonsIsWidenedByBonferroni() {
        let values: [Double] = [3, -1, 4, 1, 5, 9, 2, 6, 5, 3]
        let alone = Estimate(values)
        #expect(Estimate(values, comparisons: 2) == Estimate(values, comparisons: 2))
        #expect(Estimate(values, comparisons: 2).halfWidth == alone.halfWidth)
        let four = Estimate(values, comparisons: 4)
        #expect(four.comparisons == 4 && four.mean == alone.mean)
        // t(1 − 0.05/4, 9) = t(0.9875, 9) = 2.685 against t(0.975, 9) = 2.262.
        #expect(abs(four.halfWidth! / alone.halfWidth! - 2.6850 / 2.262) < 0.0001)
    }

    @Test func anEstimateIsTheMeanWithAStudentTInterval() {
        let estimate = Estimate([1, 2, 3])
        #expect(estimate.mean == 2)
        // s = 1, t(0.975, 2) = 4.303, half-width = 4.303 / sqrt(3).
        #expect(abs(estimate.halfWidth! - 4.303 / 3.0.squareRoot()) < 1e-12)
        #expect(Estimate([4]).halfWidth == nil)
        // 2 ± 2.48 includes zero; 11 ± 2.48 does not.
        #expect(!Estimate([1, 2, 3]).excludesZero)
        #expect(Estimate([10, 11, 12]).excludesZero)
    }

    /// A difference that rounds to no whole second has no sign: game's
    /// report printed "paired 95 % CI -0s to 0s".
    /// "Run more" in numbers: the fewest replications at which an interval
    /// of the spread seen would exclude the value, if the mean stayed put.
    @Test func theReplicationsToSeparateAGapScaleWithItsSpread() {
        // Mean 1, standard deviation 2.31, from 4 replications: an interval of 1 ± 3.67.
        let gap = Estimate([3, -1, 3, -1])
        let spread = gap.halfWidth! * 2 / StudentT.quantile975(degreesOfFreedom: 3)
        #expect(abs(spread - (16.0 / 3).squareRoot()) < 1e-9)
        guard let n = gap.replicationsToExclude(0) else {
            Issue.record("no count for a gap within the noise")
            return
        }
        let halfWidth = { (n: Int) in StudentT.quantile975(degreesOfFreedom: n - 1) * spread / Double(n).squareRoot() }
        #expect(halfWidth(n) < abs(gap.mean) && halfWidth(n - 1) >= abs(gap.mean), "\(n)")
        // Already beyond the noise, or no spread: nothing to ask for.
        #expect(Estimate([10, 11, 12]).replicationsToExclude(0) == nil)
        #expect(Estimate([5]).replicationsToExclude(0) == nil)
        // A mean on the value itself never excludes it.
        #expect(Estimate([-1, 1, -1, 1]).replicationsToExclude(0, limit: 100) == 101)
        // Among four comparisons, the widened interval's multiplier decides.
        let amongFour = Estimate([3, -1, 3, -1], comparisons: 4)
        guard let wider = amongFour.replicationsToExclude(0) else {
            Issue.record("no count among four comparisons")
            return
        }
        let widened = { (n: Int) in Estimate.criticalValue(degreesOfFreedom: n - 1, comparisons: 4) * spread / Double(n).squareRoot() }
        #expect(wider > n && widened(wider) < 1 && widened(wider - 1) >= 1, "\(wider)")
    }

    /// The verdict says how many replications would separate a runner-up
    /// within the noise, at the spread seen (weather's 25s gap: about 38;
    /// its 40 replications did separate them).
    @Test func aRunnerUpWithinTheNoiseSaysHowManyReplicationsWouldSeparateIt() {
        let run = { (staleness: Int) in Self.replication(staleness: staleness) }
        let text = Self.verdict([Self.row("best", [run(60), run(80), run(70)]), Self.row("other", [run(75), run(65), run(72)])])
        #expect(text.contains("at the spread these showed, a gap of "), "\(text)")
        #expect(text.contains("would be beyond the noise at about ") && text.contains("(`--runs "), "\(text)")
    }

    /// The recommendation is the freshest of the variants, picked because it
    /// came out ahead: its lead is beyond the noise only if it would be
    /// over all the others at once (multiple comparisons with the best,
    /// Bonferroni). A lead of 20s ± 18s is beyond a lone 95 % interval, but
    /// not once three more variants were in the running.
    @Test func aLeadPickedFromSeveralVariantsMustHoldOverAllOfThemAtOnce() {
        let gaps = [20, -20, 40, 0, 50, 30, -20, 40, 30, 30]
        let best = Self.row("best", (0..<10).map { Self.replication(staleness: 100 + $0) })
        let runnerUp = Self.row("runner-up", gaps.enumerated().map { Self.replication(staleness: 100 + $0.offset + $0.element) })
        let others = (1...3).map { k in Self.row("stale-\(k)", (0..<10).map { Self.replication(staleness: 1_000 * k + $0) }) }
        let two = Self.verdict([best, runnerUp])
        #expect(two.contains("(paired 95 % CI 2s to 38s): **larger than the noise**"), "\(two)")
        let five = Self.verdict([best, runnerUp] + others)
        #expect(five.contains("(paired 95 % CI -1s to 41s, widened for the best of 5 variants): **within the noise**"), "\(five)")
        #expect(Self.comparison([best, runnerUp] + others).stalenessGap(from: best, to: runnerUp).comparisons == 4)
    }

    /// Leading beyond the noise means leading every other variant so: a
    /// staler variant whose replications spread wider than the runner-up's
    /// may still be within the noise, and is named (news' `after-15m`).
    @Test func aVariantBelowTheRunnerUpMayStillBeWithinTheNoise() {
        let best = Self.row("best", (0..<6).map { Self.replication(staleness: 100 + $0) })
        let runnerUp = Self.row("runner-up", (0..<6).map { Self.replication(staleness: 130 + $0) })
        let wild = Self.row("wild", [0, 400, 10, 390, 5, 395].map { Self.replication(staleness: $0) })
        let text = Self.verdict([best, runnerUp, wild])
        #expect(text.contains("**larger than the noise**"), "\(text)")
        #expect(text.contains("But `wild`, ranked below `runner-up`, is staler by 1m38s on average and still **within the noise** of `best`"), "\(text)")
        let comparison = Self.comparison([best, runnerUp, wild])
        #expect(comparison.firstWithinTheNoise(of: "best", under: .paced) == "wild")
        #expect(comparison.standing(of: "best", under: .paced) == .leadsWithinTheNoise(other: "wild"))
        // Without it, the lead is beyond the noise over every variant.
        #expect(Self.comparison([best, runnerUp]).standing(of: "best", under: .paced) == .leads)
    }

    /// Two policies the model treats alike (a WidgetKit push and an app's
    /// reload on a notification, under the shared push budget) ran the same
    /// views with the same staleness: no number of runs separates them, so
    /// they are named as one, and the runner-up is the next that differs.
    @Test func variantsExactlyAsFreshAsTheBestAreNamedAsOneWithIt() {
        let run = { (staleness: Int) in Self.replication(staleness: staleness) }
        let push = Self.row("push", [run(60), run(80), run(70)])
        let appReload = Self.row("app-reload", [run(60), run(80), run(70)])
        let poll = Self.row("poll", [run(200), run(230), run(210)])
        let text = Self.verdict([push, appReload, poll])
        #expect(text.contains("`app-reload` was exactly as fresh as `push` in every replication"), "\(text)")
        #expect(text.contains("The runner-up, `poll`, is staler by 2m23s"), "\(text)")
        #expect(!text.contains("The runner-up, `app-reload`"), "\(text)")
        let comparison = Self.comparison([push, appReload, poll])
        #expect(comparison.exactlyAsFresh(as: push, under: .paced).map(\.variant) == ["app-reload"])
        #expect(comparison.firstWithinTheNoise(of: "push", under: .paced) == nil)
        // With one replication equal values may be chance.
        #expect(Self.comparison([Self.row("a", [run(60)]), Self.row("b", [run(60)])]).exactlyAsFresh(as: Self.row("a", [run(60)]), under: .paced).isEmpty)
    }

    /// Over the budget by a hair, a mean the table shows as "1.0" is given
    /// with the decimals that show it is over.
    @Test func aWithheldMeanJustOverTheToleranceIsShownBeyondIt() {
        let run = { (withheld: Int, staleness: Int) in Self.replication(withheld: withheld, staleness: staleness) }
        let best = Self.row("best", [run(0, 100), run(0, 110), run(0, 105)])
        let greedy = Self.row("greedy", [run(10, 50), run(10, 50), run(11, 50)])
        #expect(!greedy.withinBudget)
        let text = Self.verdict([best, greedy])
        #expect(text.contains("Over budget (withholding more than 1 request per widget-day): `greedy` (1.03 withheld)."), "\(text)")
    }

    @Test func aDifferenceThatRoundsToNothingHasNoSign() {
        #expect(EstimateText.signedDuration(-0.3) == "0s")
        #expect(EstimateText.signedDuration(-0.6) == "-1s")
        #expect(EstimateText.signedDuration(-90) == "-1m30s")
        #expect(EstimateText.signedDuration(0.4) == "0s")
    }

    /// A share of views cannot pass 100 %, nor a staleness the run's length:
    /// an interval that would is cut there, as one below zero is cut at zero
    /// (home-screen's headlines printed "50.0% (0.0–177.1%)").
    @Test func anIntervalIsCutAtTheBoundsItsQuantityCannotPass() {
        let share = Estimate([0, 100])
        #expect(share.high! > 100)
        #expect(EstimateText.showPercent(share) == "50.0% (0.0–100.0%)")
        #expect(EstimateText.showPercent(Estimate([5, 6, 7])) == "6.0% ± 2.5")
        let staleness = Estimate([3_600, 86_000])
        #expect(EstimateText.showDuration(staleness, atMost: 86_400) == "12h26m40s (0s–1d)")
        #expect(EstimateText.showDuration(Estimate([60, 62, 64])) == "1m2s ± 5s")
    }

    /// A variant's `script` replaces every device's script, as a merge patch
    /// replaces an array, and `null` removes it: what the user does (a push
    /// on every goal) can belong to one policy alone. A wrong action in it
    /// is named with the variant.
    @Test func aVariantReplacesTheScriptOrRemovesIt() throws {
        let text = """
        { "name": "vs", "days": 2,
          "devices": [ { "id": "p", "apps": [ { "id": "a" } ],
            "widgets": [ { "id": "w", "app": "a", "provider": { "policy": "never" } } ],
            "script": [ { "at": "1h", "action": "push", "app": "a" } ] } ],
          "variants": [
            { "name": "goals", "script": [ { "at": ["2h", "1d3h"], "action": "push", "app": "a" }, { "daily": "09:00", "action": "truthChange", "widget": "w" } ] },
            { "name": "quiet", "script": null } ] }
        """
        let document = try ScenarioLoader.decodeDocument(text, file: "vs.json")
        #expect(document.base.devices[0].script.map(\.at) == [Seconds.hour])
        let goals = document.variants[0].setup.devices[0]
        #expect(goals.script.map(\.at) == [2 * Seconds.hour, Seconds.day + 3 * Seconds.hour])
        #expect(goals.repeatingScript.count == 1)
        #expect(document.variants[1].setup.devices[0].script.isEmpty)
        let wrong = text.replacingOccurrences(of: #"{ "name": "quiet", "script": null }"#,
                                              with: #"{ "name": "bad", "script": [ { "at": "1h", "action": "push", "app": "nope" } ] }"#)
        #expect(throws: ScenarioError.self) { try ScenarioLoader.decodeDocument(wrong, file: "vs.json") }
        do {
            _ = try ScenarioLoader.decodeDocument(wrong, file: "vs.json")
        } catch {
            #expect(error.description.hasPrefix("in variant 'bad': vs.json:7:"), "\(error)")
            #expect(error.description.contains("no app named \"nope\""), "\(error)")
        }
    }

    @Test func variantsPatchTheProviderTruthUserAndScheduler() throws {
        let document = try Self.document()
        #expect(document.all.map(\.name) == ["base", "same", "fast", "never", "greedy"])
        func settings(_ variant: Int) -> ConfiguredProvider.Settings? {
            if case .configured(let settings) = document.variants[variant].setup.devices[0].widgets[0].provider { return settings }
            return nil
        }
        #expect(settings(1)?.policy == .after(interval: 900))
        #expect(settings(2)?.policy == .never)
        #expect(document.variants[2].setup.devices[0].widgets[0].truth.reaction == .push)
        #expect(document.variants[2].setup.devices[0].widgets[0].truth.periodic?.period == 1_800)
        #expect(document.variants[3].setup.scheduler.dailyBudgetMax == 5)
        #expect(document.base.scheduler.dailyBudgetMax == 70)
    }

    @Test func anErrorInAVariantNamesTheVariant() {
        let broken = Self.scenario.replacingOccurrences(of: #""after": "15m""#, with: #""after": "soon""#)
        do {
            _ = try ScenarioLoader.decodeDocument(broken, file: "cmp.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("in variant 'fast': cmp.json:"))
            #expect(error.description.contains(#""soon" is not a duration"#))
        }
    }

    /// Common random numbers: replication r of every variant uses the same
    /// seed, so a variant identical to the base measures exactly the same.
    @Test func replicationsUseTheSameSeedsForEveryVariant() throws {
        let comparison = try Self.run(runs: 3)
        let rows = comparison.rows(for: .rollingWindow)
        #expect(rows[0].replications == rows[1].replications)
        #expect(rows[0].replications[0] != rows[0].replications[1])
        #expect(comparison.seeds[0] == 5)
        #expect(Comparison.seed(replication: 1, of: 5) != Comparison.seed(replication: 2, of: 5))
    }

    @Test func resultsDoNotDependOnTheNumberOfThreads() throws {
        let one = try Self.run(runs: 4, threads: 1)
        let two = try Self.run(runs: 4, threads: 2)
        #expect(ComparisonReport(one).files() == ComparisonReport(two).files())
    }

    @Test func variantsOverBudgetRankAfterThoseWithinIt() throws {
        let comparison = try Self.run(runs: 2)
        let ranking = comparison.ranking(for: .rollingWindow)
        let greedy = ranking.first { $0.variant == "greedy" }!
        #expect(!greedy.withinBudget)
        #expect(ranking.last?.variant == "greedy")
        #expect(comparison.best(for: .rollingWindow)?.withinBudget == true)
        let means = ranking.filter(\.withinBudget).map(\.meanStaleness.mean)
        #expect(means == means.sorted())
    }

    @Test func theBudgetModelSweepRunsEveryModel() throws {
        let comparison = try Self.run(runs: 2, models: [.rollingWindow, .unlimited])
        #expect(comparison.rows.count == 10)
        // With no limit, the greedy variant is no longer over budget.
        #expect(comparison.rows(for: .unlimited).allSatisfy { $0.withinBudget })
        let markdown = ComparisonReport(comparison).markdown()
        #expect(markdown.contains("## Does the ranking hold under other budget models?"))
        #expect(markdown.contains("| variant | rollingWindow | unlimited |"))
    }

    @Test func theReportStatesTheVerdictAndWritesItsFiles() throws {
        let files = ComparisonReport(try Self.run(runs: 3)).files()
        #expect(files.map(\.name) == ["comparison.csv", "comparison.md", "comparison.svg"])
        let csv = files[0].contents.split(separator: "\n")
        #expect(csv[0] == Substring(ComparisonReport.csvHeader.joined(separator: ",")))
        #expect(csv.count == 1 + 5)
        #expect(files[1].contents.contains("**Best on staleness within the budget (rollingWindow): `"))
        #expect(files[1].contents.contains("paired 95 % CI"))
    }
}

extension ComparisonTests {
    static let ownModelScenario = """
        {
          "name": "own", "days": 4, "seed": 5, "scheduler": { "budgetModel": "rollingWindow", "dailyBudget": { "min": 12, "max": 12 } },
          "devices": [ { "id": "phone",
            "pages": [ { "name": "home", "viewsPerDay": 30 } ],
            "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "30m", "entries": 1 },
                           "truth": { "changeEvery": "30m" } } ] } ],
          "variants": [
            { "name": "fast-unlimited", "description": "asks every 5 minutes, under no budget", "provider": { "after": "5m" }, "scheduler": { "budgetModel": "unlimited" } }
          ]
        }
        """

    /// A variant that sets its own budget model compares that model: it runs
    /// under it in every section of the budget-model sweep, is ranked beside
    /// the others there, and the report says so. (`compare` used to run it
    /// under each section's model, so `developer-mode`'s `production` was
    /// ranked under `unlimited`.)
    @Test func aVariantsOwnBudgetModelIsKeptInEverySection() throws {
        let document = try ScenarioLoader.decodeDocument(Self.ownModelScenario, file: "own.json")
        var options = Comparison.Options()
        options.runs = 2
        options.budgetModels = [.rollingWindow, .paced]
        let comparison = try Comparison.run(document, options: options)
        let own = comparison.rows.filter { $0.variant == "fast-unlimited" }
        #expect(own.map(\.budgetModel) == [.rollingWindow, .paced])
        #expect(own.allSatisfy { $0.ownBudgetModel == .unlimited })
        #expect(own.allSatisfy { $0.withheld.mean == 0 }, "no budget, nothing withheld")
        #expect(own[0].replications.map(\.budgetedPerWidgetDay) == own[1].replications.map(\.budgetedPerWidgetDay), "the same runs in both sections")
        #expect(own[0].budgeted.mean > 36, "far past the base's limit of 12: \(own[0].budgeted.mean)")
        #expect(comparison.rows.filter { $0.variant == "own" }.allSatisfy { $0.ownBudgetModel == nil })
        #expect(comparison.ranking(for: .rollingWindow).map(\.variant).contains("fast-unlimited"))
        let markdown = ComparisonReport(comparison).markdown()
        #expect(markdown.contains("**fast-unlimited** (under its own `unlimited`)"), "\(markdown)")
        #expect(markdown.contains("`fast-unlimited` sets its own budget model, `unlimited`: a variant compares what it sets"), "\(markdown)")
        // The CSV says which model each row's runs used, as the table does.
        let csv = ComparisonReport(comparison).csv().split(separator: "\n")
        #expect(csv[0].hasSuffix(",ran_under"))
        #expect(csv.filter { $0.hasPrefix("paced,fast-unlimited,") }.allSatisfy { $0.hasSuffix(",unlimited") })
        #expect(csv.filter { $0.hasPrefix("paced,own,") }.allSatisfy { $0.hasSuffix(",paced") })
    }

    /// `sensitivity` keeps a variant's own budget model too, and ranks it:
    /// it used to rank only the rows run under the base's model, so such a
    /// variant, however fresh, was never the best nor named.
    @Test func sensitivityRanksAVariantUnderItsOwnBudgetModel() throws {
        let document = try ScenarioLoader.decodeDocument(Self.ownModelScenario, file: "own.json")
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 0
        let sensitivity = try Sensitivity.run(document, unknowns: [], options: options)
        let rows = sensitivity.baseline.comparison.rows
        #expect(rows.first { $0.variant == "fast-unlimited" }?.ownBudgetModel == .unlimited)
        #expect(sensitivity.baseline.comparison.ranking(for: .rollingWindow).count == 2)
        #expect(sensitivity.recommended == "fast-unlimited", "\(String(describing: sensitivity.recommended))")
    }

    /// Within the budget means withholding at most one request per
    /// widget-day on average: a call made on a mean whose interval holds
    /// that tolerance may fall the other way with other replications, and the
    /// recommendation with it, so the verdict says so for the best variant
    /// and for a fresher one over the budget, and for no other.
    @Test func aBudgetCallWithinTheNoiseIsSaidWhereTheRecommendationRestsOnIt() {
        let run = { (withheld: Int, staleness: Int) in Self.replication(withheld: withheld, staleness: staleness) }
        let row = { (name: String, runs: [RunMetrics]) in Self.row(name, runs) }
        // Per widget-day: 0.2 and 1.2 withheld (mean 0.7, its interval holds 1), and so on.
        let edge = row("edge", [run(2, 60), run(12, 70)])
        let fresherOver = row("fresher-over", [run(6, 30), run(16, 40)])
        let staleOver = row("stale-over", [run(6, 300), run(16, 310)])
        let clear = row("clear", [run(0, 100), run(1, 110)])
        let verdict = { (rows: [Comparison.Row]) in Self.verdict(rows) }
        let atEdge = verdict([edge, fresherOver, staleOver, clear])
        #expect(atEdge.contains("**At the budget's edge:** `edge` withholds 0.7 "))
        #expect(atEdge.contains("requests per widget-day and counts as within the budget; `fresher-over` withholds 1.1 "))
        #expect(atEdge.contains("and counts as over the budget (the tolerance is 1), but each interval holds the tolerance"))
        #expect(!atEdge.contains("`stale-over` withholds"))
        #expect(!verdict([clear, staleOver]).contains("budget's edge"))
    }

    /// Two variants equal within the noise are told apart by cost only when
    /// the cost differs beyond the noise too, paired replication by
    /// replication as the staleness is: 18.1 against 18.2 budgeted reloads
    /// a day, each ± 1.3, names no cheaper choice.
    @Test func aCostGapWithinTheNoiseNamesNoCheaperChoice() {
        let run = { (budgeted: Int, staleness: Int) in Self.replication(budgeted: budgeted, staleness: staleness) }
        let row = { (name: String, runs: [RunMetrics]) in Self.row(name, runs) }
        let verdict = { (rows: [Comparison.Row]) in Self.verdict(rows) }
        let best = row("best", [run(170, 60), run(190, 70), run(180, 80)])
        let noisy = row("noisy", [run(190, 70), run(170, 60), run(190, 90)])
        let costly = row("costly", [run(270, 70), run(290, 60), run(280, 90)])
        #expect(verdict([best, noisy]).contains("Treated as equal, neither is cheaper beyond the noise: `best` makes 18.0 "))
        #expect(verdict([best, costly]).contains("Treated as equal, `best` is also the cheaper choice: 18.0 "))
    }

    /// Under each budget model of the sweep, the recommendation leads, leads
    /// within the noise, ties, is beaten, or stands on a budget call within
    /// the noise, judged as the verdict judges it under its own model.
    @Test func aRecommendationsStandingUnderAModelIsJudgedAsTheVerdictIs() {
        let run = { (withheld: Int, staleness: Int) in Self.replication(withheld: withheld, staleness: staleness) }
        let clearLead = Self.comparison([
            Self.row("best", [run(0, 60), run(0, 62), run(0, 61)]), Self.row("other", [run(0, 90), run(0, 91), run(0, 92)]),
        ])
        #expect(clearLead.standing(of: "best", under: .paced) == .leads)
        let narrowLead = Self.comparison([
            Self.row("best", [run(0, 60), run(0, 80), run(0, 70)]), Self.row("other", [run(0, 75), run(0, 65), run(0, 72)]),
        ])
        #expect(narrowLead.standing(of: "best", under: .paced) == .leadsWithinTheNoise(other: "other"))
        #expect(narrowLead.standing(of: "other", under: .paced) == .ties(first: "best"))
        #expect(clearLead.standing(of: "other", under: .paced) == .beaten(first: "best"))
        // Over the budget on its mean (1.2 a widget-day) with an interval that holds 1, and fresher than the first.
        let overAtEdge = Self.comparison([
            Self.row("best", [run(2, 60), run(22, 62), run(12, 61)]), Self.row("other", [run(0, 90), run(0, 91), run(0, 92)]),
        ])
        #expect(overAtEdge.standing(of: "best", under: .paced) == .atTheBudgetsEdge(variants: ["best"], first: "other"))
        // Over the budget beyond the noise: beaten, not at the edge.
        let clearlyOver = Self.comparison([
            Self.row("best", [run(40, 60), run(42, 62), run(41, 61)]), Self.row("other", [run(0, 90), run(0, 91), run(0, 92)]),
        ])
        #expect(clearlyOver.standing(of: "best", under: .paced) == .beaten(first: "other"))
        // First, while a fresher variant is over the budget by less than the noise.
        let fresherAtEdge = Self.comparison([
            Self.row("best", [run(0, 60), run(0, 62), run(0, 61)]), Self.row("fresher", [run(2, 30), run(22, 32), run(12, 31)]),
        ])
        #expect(fresherAtEdge.standing(of: "best", under: .paced) == .atTheBudgetsEdge(variants: ["fresher"], first: "best"))
        // Every replication withheld exactly the tolerance: no noise to fall the other way by.
        let exactlyAtTolerance = Self.comparison([
            Self.row("best", [run(10, 60), run(10, 62), run(10, 61)]), Self.row("other", [run(0, 90), run(0, 91), run(0, 92)]),
        ])
        #expect(exactlyAtTolerance.standing(of: "best", under: .paced) == .leads)
        // Two fresher variants over the budget by less than the noise: both named.
        let twoFresher = Self.comparison([
            Self.row("best", [run(0, 60), run(0, 62), run(0, 61)]), Self.row("fresher", [run(2, 30), run(22, 32), run(12, 31)]),
            Self.row("freshest", [run(2, 20), run(22, 22), run(12, 21)]),
        ])
        #expect(twoFresher.standing(of: "best", under: .paced) == .atTheBudgetsEdge(variants: ["freshest", "fresher"], first: "best"))
        // The first within the budget by less than the noise, the recommendation next:
        // counted over, the first would leave the recommendation first.
        let firstAtEdge = Self.comparison([
            Self.row("first", [run(0, 30), run(18, 32), run(9, 31)]), Self.row("next", [run(0, 60), run(0, 62), run(0, 61)]),
        ])
        #expect(firstAtEdge.standing(of: "next", under: .paced) == .atTheBudgetsEdge(variants: ["first"], first: "first"))
        // Within the noise of the first, but a variant ranked between is
        // fresher beyond the noise: beaten, not tied.
        let between = Self.comparison([
            Self.row("first", [run(0, 55), run(0, 75), run(0, 65)]), Self.row("middle", [run(0, 66), run(0, 67), run(0, 68)]),
            Self.row("last", [run(0, 75), run(0, 76), run(0, 77)]),
        ])
        #expect(between.standing(of: "last", under: .paced) == .beaten(first: "first"))
        // With one replication the noise is unknown: another first is no tie.
        let once = Self.comparison([Self.row("best", [run(0, 60)]), Self.row("other", [run(0, 61)])])
        #expect(once.standing(of: "other", under: .paced) == .beaten(first: "best"))
        #expect(once.standing(of: "best", under: .paced) == .leads)
        // Without a view nothing is ranked: no standing, as the verdict gives none.
        var unseen = Self.replication(staleness: 0)
        unseen.counts.views = 0
        unseen.counts.staleViews = 0
        let noViews = Self.comparison([Self.row("best", [unseen, unseen]), Self.row("other", [unseen, unseen])])
        #expect(noViews.standing(of: "best", under: .paced) == nil)
        #expect(ComparisonReport(noViews).sweepVerdict().isEmpty)
    }

    /// The sweep's paragraph does not call a first place within the noise a
    /// plain "holds", nor a ranking that rests on a budget call within the
    /// noise a loss: weather's `after-15m` withholds 1.2 ± 1.2 requests a
    /// day under tokenBucket, over the tolerance of 1 on its mean alone.
    @Test func theSweepSaysWhereTheRecommendationLeadsWithinTheNoiseOrAtTheBudgetsEdge() {
        let run = { (withheld: Int, staleness: Int) in Self.replication(withheld: withheld, staleness: staleness) }
        let text = ComparisonReport(Self.comparison([
            Self.row("best", [run(0, 60), run(0, 80), run(0, 70)]), Self.row("other", [run(0, 75), run(0, 65), run(0, 72)]),
        ], and: [
            Self.row("best", [run(2, 60), run(22, 62), run(12, 61)], under: .tokenBucket),
            Self.row("other", [run(0, 90), run(0, 91), run(0, 92)], under: .tokenBucket),
        ])).sweepVerdict()
        #expect(text.contains("The recommendation `best` ranks first, but by less than the noise, ahead of `other` under paced;"), "\(text)")
        #expect(text.contains("it is **at the budget's edge** under tokenBucket (it withholds 1.2 "), "\(text)")
        #expect(text.contains("and counts as over the budget, so `other` ranks first)"), "\(text)")
        #expect(!text.contains("**not**"), "\(text)")
        // First on a budget call within the noise, and by less than the noise: both said.
        let both = ComparisonReport(Self.comparison([
            Self.row("best", [run(0, 60), run(0, 80), run(0, 70)]), Self.row("other", [run(0, 75), run(0, 65), run(0, 72)]),
        ], and: [
            Self.row("best", [run(0, 60), run(10, 80), run(11, 70)], under: .rollingWindow),
            Self.row("other", [run(0, 75), run(0, 65), run(0, 72)], under: .rollingWindow),
        ])).sweepVerdict()
        #expect(both.contains("under rollingWindow (it withholds 0.7 ") && both.contains("counts as within the budget, and it leads `other` by less than the noise)"), "\(both)")
        let table = ComparisonReport(Self.comparison([Self.row("best", [run(2, 60), run(22, 62), run(12, 61)])])).sweepTable()
        #expect(table.contains("| 1*† (1m1s) |") && table.contains("† at the budget's edge under that model"), "\(table)")
    }

    /// Whatever the budget model: the variants no model tried beats beyond
    /// the noise, and the cheapest of them, which need not be the
    /// recommendation (weather's `after-30m`, beside `after-15m`).
    @Test func theChoiceNoBudgetModelBeatsIsNamedWithItsCost() {
        let run = { (withheld: Int, budgeted: Int, staleness: Int) in Self.replication(withheld: withheld, budgeted: budgeted, staleness: staleness) }
        // Under paced `fresh` leads `cheap` by less than the noise; under
        // tokenBucket `cheap` leads; `stale` is beaten beyond the noise under both.
        let paced = [
            Self.row("fresh", [run(0, 400, 60), run(0, 400, 80), run(0, 400, 70)]),
            Self.row("cheap", [run(0, 200, 75), run(0, 200, 65), run(0, 200, 72)]),
            Self.row("stale", [run(0, 100, 300), run(0, 100, 310), run(0, 100, 305)]),
        ]
        let bucket = [
            Self.row("fresh", [run(0, 400, 70), run(0, 400, 80), run(0, 400, 69)], under: .tokenBucket),
            Self.row("cheap", [run(0, 200, 72), run(0, 200, 66), run(0, 200, 70)], under: .tokenBucket),
            Self.row("stale", [run(0, 100, 300), run(0, 100, 310), run(0, 100, 305)], under: .tokenBucket),
        ]
        let text = ComparisonReport(Self.comparison(paced, and: bucket)).robustChoice()
        #expect(text.contains("no budget model tried beats `fresh` or `cheap` beyond the noise; of them, `cheap` spends less of the budget (`fresh` 40.0 "), "\(text)")
        // Costs level within the noise: no cheaper one is named.
        let level = paced.map { row -> Comparison.Row in
            var same = row
            same.replications = row.replications.enumerated().map { index, metrics in
                var metrics = metrics
                metrics.counts.budgetedReloads = 300 + (index == 1 ? 10 : 0) * (row.variant == "fresh" ? 1 : -1)
                return metrics
            }
            return same
        }
        let even = ComparisonReport(Self.comparison(level, and: bucket)).robustChoice()
        #expect(even.contains("and none of them spends less of the budget beyond the noise"), "\(even)")
        #expect(ComparisonReport(Self.comparison(paced)).robustChoice().isEmpty, "one model: no sweep to judge by")
    }

    /// A lead beyond the noise says what it costs against the runner-up,
    /// in budgeted reloads and server requests, so the staleness saved can
    /// be weighed against them.
    @Test func aLeadBeyondTheNoiseSaysWhatItCosts() {
        let run = { (budgeted: Int, staleness: Int) in Self.replication(budgeted: budgeted, staleness: staleness) }
        let costly = Self.verdict([Self.row("best", [run(400, 60), run(410, 62), run(405, 61)]), Self.row("other", [run(200, 90), run(210, 91), run(205, 92)])])
        #expect(costly.contains("**larger than the noise** between replications. For that lead, `best` makes 40.5 "), "\(costly)")
        #expect(costly.contains("budgeted reloads per widget-day against `other`'s 20.5 "), "\(costly)")
        let thrifty = Self.verdict([Self.row("best", [run(200, 60), run(210, 62), run(205, 61)]), Self.row("other", [run(400, 90), run(410, 91), run(405, 92)])])
        #expect(thrifty.contains("`best` is also cheaper: 20.5 "), "\(thrifty)")
    }

    /// A comparison of `rows` under `paced`, and of `others` under the models they name.
    static func comparison(_ rows: [Comparison.Row], and others: [Comparison.Row] = []) -> Comparison {
        let replications = rows.first?.replications.count ?? 1
        var models: [BudgetModel] = [.paced]
        for row in others where !models.contains(row.budgetModel) { models.append(row.budgetModel) }
        return Comparison(
            scenario: "s", description: "", days: 10, seeds: (0..<replications).map(UInt64.init), budgetModels: models,
            withheldTolerance: 1, rows: rows + others)
    }

    /// One replication of 10 widget-days whose 100 views were 10 % stale,
    /// with the given counts: for verdicts on numbers chosen by hand.
    static func replication(withheld: Int = 0, budgeted: Int = 0, staleness: Int) -> RunMetrics {
        var metrics = RunMetrics()
        metrics.widgetDays = 10
        metrics.counts.withheldRequests = withheld
        metrics.counts.budgetedReloads = budgeted
        metrics.counts.views = 100
        metrics.counts.staleViews = 10
        metrics.counts.stalenessTotal = staleness * 100
        return metrics
    }

    /// A variant's row of those replications, within the budget by the tolerance of 1.
    static func row(_ name: String, _ replications: [RunMetrics], under model: BudgetModel = .paced) -> Comparison.Row {
        Comparison.Row(
            variant: name, description: "", policy: "", budgetModel: model, replications: replications,
            withinBudget: Estimate(replications.map(\.withheldPerWidgetDay)).mean <= 1)
    }

    /// The verdict of a comparison of `rows` under `paced`.
    static func verdict(_ rows: [Comparison.Row]) -> String {
        let replications = rows.first?.replications.count ?? 1
        return ComparisonReport(Comparison(
            scenario: "s", description: "", days: 10, seeds: (0..<replications).map(UInt64.init), budgetModels: [.paced],
            withheldTolerance: 1, rows: rows)).verdict()
    }
}
