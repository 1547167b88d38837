import Foundation
import Testing
@testable import WidgetSim

/// `widgetsim sensitivity`: every unknown has a plausible range, the
/// analysis is deterministic whatever the threads, and a point is judged as
/// `compare` judges.
@Suite("Sensitivity")
struct SensitivityTests {
    /// Weather's one-at-a-time sweep with 2 replications: a real analysis
    /// whose report a test edits.
    static func weatherOneAtATime() throws -> Sensitivity {
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 0
        return try Sensitivity.run(try weather(), options: options)
    }

    static func weather(days: Int = 2) throws -> ScenarioDocument {
        var document = try ScenarioLoader.loadDocument(path: Paths.scenario("weather"))
        document.base.days = days
        for index in document.variants.indices { document.variants[index].setup.days = days }
        return document
    }

    /// Polling every hour against never reloading at all: nothing pushes,
    /// in the base or in the variant, and polling stays within the budget
    /// and a day fresher whatever the unknowns.
    static let pollOrNever = """
        {
          "name": "poll-or-never", "days": 2, "seed": 3, "baseName": "poll",
          "devices": [ { "id": "phone", "pages": [ { "name": "home", "viewsPerDay": 60 } ],
            "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "1h", "entries": 1 },
                           "truth": { "changeEvery": "30m" } } ] } ],
          "variants": [ { "name": "never", "provider": { "policy": "never", "after": null } } ]
        }
        """

    /// The terminal's summary drops markdown's marks but keeps μ*, a name
    /// (it said "see μ under All unknowns at once", found by a newcomer).
    @Test func theTerminalSummaryKeepsTheStarOfMuStar() {
        #expect(SensitivityReport.plainText("**The order** can differ: see μ* under *All unknowns at once*, `x`.")
            == "The order can differ: see μ* under All unknowns at once, x.")
        #expect(SensitivityReport.plainText("μ*") == "μ*" && SensitivityReport.plainText("**a**") == "a")
    }

    @Test func everyGapParameterHasAPlausibleRangeAndNothingElseDoes() {
        let gaps = SchedulerParameters.catalogue.filter(\.isGap).map(\.name)
        #expect(SchedulerParameters.plausibleRanges.map(\.name) == gaps)
    }

    @Test func eachRangeSetsItsParameterAtBothEnds() {
        for unknown in SchedulerParameters.plausibleRanges {
            var low = SchedulerParameters()
            var high = SchedulerParameters()
            unknown.set(&low, 0)
            unknown.set(&high, 1)
            #expect(low != high, "\(unknown.name)")
            #expect(unknown.current(low) == unknown.describe(0) && unknown.current(high) == unknown.describe(1), "\(unknown.name)")
        }
    }

    @Test func theResultDoesNotDependOnTheThreads() throws {
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 1
        options.threads = 1
        let one = SensitivityReport(try Sensitivity.run(try Self.weather(), options: options)).files()
        options.threads = 3
        let three = SensitivityReport(try Sensitivity.run(try Self.weather(), options: options)).files()
        #expect(one == three)
    }

    /// With one replication there is no noise to tie within: the report
    /// says the noise is unknown instead of claiming ties "within the noise",
    /// and opens with the ranking as written that it tests.
    @Test func withOneReplicationTheReportSaysTheNoiseIsUnknown() throws {
        var options = Sensitivity.Options()
        options.runs = 1
        options.trajectories = 1
        let report = SensitivityReport(try Sensitivity.run(try Self.weather(), options: options)).markdown()
        #expect(!report.contains("within the noise of 1 replication"))
        #expect(!report.contains("beyond the noise"))
        #expect(report.contains("As written, with 1 replication a variant, the variants rank `"))
        if report.contains(" it ties at ") { #expect(report.contains("with one replication, whose noise is unknown")) }
        #expect(report.contains("(with one replication, whose noise is unknown)"), "the Morris walk's ties")
    }

    /// An unknown whose values tried moved no variant's numbers is marked
    /// "no effect here" and not counted among those that changed the runs,
    /// though the scenario lets it act (a token bucket's burst under
    /// `paced`): weather counted 17 of 17, four of which moved nothing
    /// (found by a newcomer).
    @Test func anUnknownThatMovedNothingIsMarkedAndNotCounted() throws {
        let sensitivity = try Self.weatherOneAtATime()
        let index = try #require(sensitivity.unknowns.firstIndex { $0.name == "tokenBucketBurst" })
        #expect(sensitivity.relevant[index])
        let report = SensitivityReport(sensitivity)
        #expect(!report.effective[index])
        let markdown = report.markdown()
        #expect(markdown.contains("| tokenBucketBurst (no effect here) |"), "\(markdown)")
        #expect(!markdown.contains("| deferWhenUnseenFor (no effect here) |"))
        let changed = report.effective.filter { $0 }.count
        #expect(changed < sensitivity.unknowns.count)
        if markdown.contains("of which") { #expect(markdown.contains("\(changed) of which changed this scenario's runs")) }
    }

    /// A Morris step that moves an unknown where it cannot act on the
    /// variant (a pacing setting under another budget model) ran it as
    /// before: its zero is by construction, so μ* and σ leave it out, and
    /// an unknown none of whose steps could act is not measured, rather
    /// than measured at 0.
    @Test func aMorrisStepWhereTheUnknownCannotActIsNotCounted() throws {
        var options = Sensitivity.Options()
        options.runs = 1
        options.trajectories = 4
        let sensitivity = try Sensitivity.run(try Self.weather(days: 1), options: options)
        let recommended = try #require(sensitivity.recommended)
        let column = try #require(sensitivity.variants.firstIndex(of: recommended))
        let effects = sensitivity.elementaryEffects(on: .meanStaleness, of: recommended)
        for (index, unknown) in sensitivity.unknowns.enumerated() {
            // The steps that moved this unknown, and those whose runs differ.
            var tried = 0
            var acting = 0
            for (walk, order) in zip(sensitivity.walks, sensitivity.walkOrder) {
                let step = try #require(order.firstIndex(of: index))
                tried += 1
                if walk[step].runs[column] != walk[step + 1].runs[column] { acting += 1 }
            }
            #expect(effects[index].tried == tried && effects[index].steps == acting, "\(unknown.name)")
        }
        // Where nothing pushes, a push budget's steps never act: not measured.
        let pushBudget = try #require(sensitivity.unknowns.firstIndex { $0.name == "pushDailyBudget" })
        #expect(effects[pushBudget].steps == 0 && effects[pushBudget].tried == 4)
        let markdown = SensitivityReport(sensitivity).markdown()
        #expect(markdown.contains("| pushDailyBudget | 0 of 4 | – | – | – | – | – |"), "\(markdown)")
    }

    /// A point where the recommendation leaves the budget on a mean whose
    /// interval holds the tolerance, and would rank first counted within,
    /// is at the budget's edge, not a flip beyond the noise: judged as
    /// compare's budget-model sweep judges a model (the two reports called
    /// the same tokenBucket runs a loss and an open question).
    @Test func aFlipOnABudgetCallWithinTheNoiseIsAtTheBudgetsEdge() {
        let run = { (withheld: Int, staleness: Int) in ComparisonTests.replication(withheld: withheld, staleness: staleness) }
        let atEdge = ComparisonTests.comparison([
            ComparisonTests.row("best", [run(2, 60), run(22, 62), run(12, 61)]), ComparisonTests.row("other", [run(0, 90), run(0, 91), run(0, 92)]),
        ])
        let verdict = Sensitivity.verdict(of: "best", in: atEdge, best: atEdge.best(for: .paced))
        #expect(verdict == .atTheBudgetsEdge(first: "other"))
        #expect(verdict.label == "at the budget's edge (other first)")
        let clearlyOver = ComparisonTests.comparison([
            ComparisonTests.row("best", [run(40, 60), run(42, 62), run(41, 61)]), ComparisonTests.row("other", [run(0, 90), run(0, 91), run(0, 92)]),
        ])
        #expect(Sensitivity.verdict(of: "best", in: clearlyOver, best: clearlyOver.best(for: .paced)) == .flips(to: "other"))
    }

    /// A point where the same runs come out is judged as the scenario as written.
    @Test func anUnknownThatCannotChangeTheRunsMovesNothing() throws {
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 0
        let sensitivity = try Sensitivity.run(try Self.weather(), options: options)
        let index = try #require(sensitivity.unknowns.firstIndex { $0.name == "tokenBucketBurst" })
        for point in sensitivity.sweeps[index] {
            #expect(point.comparison.rows.map(\.meanStaleness) == sensitivity.baseline.comparison.rows.map(\.meanStaleness))
        }
    }

    /// Under a model without a limit (F24) no daily limit is computed, so
    /// what shapes the limit cannot change a run, and the sweep reuses the
    /// run as written instead of repeating it.
    @Test func underAModelWithoutALimitWhatShapesTheLimitChangesNothing() throws {
        var setup = try ScenarioLoader.decodeDocument(Self.pollOrNever, file: "poll-or-never.json").base
        setup.scheduler.budgetModel = .unlimited
        let relevance = SchedulerRelevance(setup)
        let asWritten = try RunMetrics.measure(setup)
        for name in ["frequentViewsPerDay", "minimumDailyBudget", "learningMultiplier"] {
            let unknown = try #require(SchedulerParameters.plausibleRanges.first { $0.name == name })
            for end in [0.0, 1.0] {
                var moved = setup
                unknown.set(&moved.scheduler, end)
                #expect(relevance.effective(moved.scheduler) == relevance.effective(setup.scheduler), "\(name)")
                #expect(try RunMetrics.measure(moved) == asWritten, "\(name) at \(end)")
            }
        }
        // Under a model with a limit they do count.
        var limited = setup.scheduler
        limited.budgetModel = .paced
        var lower = limited
        lower.minimumDailyBudget = 2
        #expect(relevance.effective(lower) != relevance.effective(limited))
    }

    /// No widget pushes in any variant, so no push budget can change a run (F19).
    @Test func aPushBudgetCannotMatterWhereNothingPushes() throws {
        let document = try ScenarioLoader.decodeDocument(Self.pollOrNever, file: "poll-or-never.json")
        var options = Sensitivity.Options()
        options.runs = 1
        options.trajectories = 0
        let sensitivity = try Sensitivity.run(document, options: options)
        for name in ["pushBudget", "pushDailyBudget", "pushDeliveryDelay"] {
            #expect(!sensitivity.relevant[sensitivity.unknowns.firstIndex { $0.name == name }!], "\(name)")
        }
    }

    /// A push the script sends, daily or once, is delivered after
    /// `pushDeliveryDelay` (F19) and counts against the push budget, so both
    /// can change the runs; a daily push used to be missed (only fixed `at`
    /// actions were looked at), and the delivery delay was judged by truth
    /// changes alone.
    @Test func aPushTheScriptSendsMakesTheDeliveryDelayAndThePushBudgetCount() throws {
        let daily = try ScenarioLoader.decodeDocument("""
            {
              "name": "briefing", "days": 2, "seed": 3,
              "devices": [ { "id": "phone", "apps": [ { "id": "news" } ], "pages": [ { "name": "home", "viewsPerDay": 300 } ],
                "widgets": [ { "id": "w", "app": "news", "provider": { "policy": "never" }, "truth": { "changeEvery": "1h" } } ],
                "script": [ { "daily": "07:30", "action": "push", "app": "news" } ] } ]
            }
            """, file: "briefing.json").base
        let relevance = SchedulerRelevance(daily)
        for name in ["pushBudget", "pushDeliveryDelay"] {
            let unknown = try #require(SchedulerParameters.plausibleRanges.first { $0.name == name })
            #expect(relevance.isRelevant(unknown), "\(name)")
        }
        var slow = daily
        slow.scheduler.pushDeliveryDelay = .fixed(600)
        #expect(relevance.effective(slow.scheduler) != relevance.effective(daily.scheduler))
        #expect(try RunMetrics.measure(slow) != RunMetrics.measure(daily), "the delay moves the runs it is judged to move")
    }

    /// News asks whether to poll or push; only its variants push, and the
    /// push budget still moves them (F19: push reloads have a budget).
    @Test func anUnknownOnlyAVariantCanFeelStillCounts() throws {
        var document = try ScenarioLoader.loadDocument(path: Paths.scenario("news"))
        document.base.days = 2
        for index in document.variants.indices { document.variants[index].setup.days = 2 }
        var options = Sensitivity.Options()
        options.runs = 1
        options.trajectories = 0
        let sensitivity = try Sensitivity.run(document, options: options)
        let index = try #require(sensitivity.unknowns.firstIndex { $0.name == "pushBudget" })
        #expect(sensitivity.relevant[index])
        let asWritten = try #require(sensitivity.baseline.row("never-push"))
        let free = try #require(sensitivity.sweeps[index][1].row("never-push"))
        #expect(sensitivity.unknowns[index].describe(sensitivity.unknowns[index].sweepPositions[1]) == "free")
        #expect(free.replications != asWritten.replications)
    }

    @Test func aVariantKeepsTheSchedulerFieldsItSets() throws {
        let document = try ScenarioLoader.loadDocument(path: Paths.scenario("home-screen"))
        let variant = try #require(document.variants.first { $0.name == "no-coalescing" })
        #expect(variant.schedulerFields == ["coalescingWindow"])
    }

    /// A widget nobody views has no staleness, only zeros: `compare` names no
    /// variant best ("No verdict"), and neither does `sensitivity`, at any point.
    @Test func noVariantIsBestWhereNoWidgetIsViewed() throws {
        let unseen = Self.pollOrNever.replacingOccurrences(of: "\"viewsPerDay\": 60", with: "\"viewsPerDay\": 0")
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 1
        let sensitivity = try Sensitivity.run(try ScenarioLoader.decodeDocument(unseen, file: "unseen.json"), options: options)
        #expect(sensitivity.recommended == nil)
        let points = [sensitivity.baseline] + sensitivity.sweeps.flatMap { $0 } + sensitivity.walks.flatMap { $0 }
        #expect(points.allSatisfy { $0.best == nil && $0.verdict == .untested })
        let report = SensitivityReport(sensitivity).markdown()
        #expect(report.contains("No widget was viewed in the runs as the scenario is written, so there is no staleness to rank the variants on"))
        #expect(!report.contains("stays the best choice"))
    }

    /// The work an analysis is judged by before it starts is the work it
    /// does: as many runs as it makes (the limit on their events in all,
    /// `RunLimits.maximumEventsPerAnalysis`, is only as good as this count).
    @Test func anAnalysisIsJudgedByTheRunsItMakes() throws {
        let document = try Self.weather()
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 1
        let counted = RunCounter()
        _ = try Sensitivity.run(document, options: options) { _, total in counted.record(total) }
        #expect(Sensitivity.estimatedWork(document, options: options).runs == counted.total)
        var comparing = Comparison.Options()
        comparing.runs = 2
        comparing.budgetModels = [.paced, .unlimited]
        let compared = RunCounter()
        _ = try Comparison.run(document, options: comparing) { _, total in compared.record(total) }
        #expect(Comparison.estimatedWork(document, options: comparing).runs == compared.total)
        let swept = RunCounter()
        _ = try Sensitivity.citedByComparison(document, options: comparing) { _, total in swept.record(total) }
        #expect(Sensitivity.estimatedWorkCitedByComparison(document, options: comparing).runs == swept.total)
        #expect(Sensitivity.estimatedWork(document, options: options).events > 0)
    }

    /// Each section of a comparison is estimated under its own budget model,
    /// as it runs: under `unlimited` a widget asking every minute is capped by
    /// the spacing alone, and makes far more calls than under `paced`.
    @Test func aComparisonIsEstimatedUnderEachSectionsBudgetModel() throws {
        var document = try Self.weather()
        document.base.devices[0].widgets[0].provider = .configured(Self.everyMinute)
        for index in document.variants.indices { document.variants[index].setup.devices[0].widgets[0].provider = .configured(Self.everyMinute) }
        func events(_ models: [BudgetModel]) -> Double {
            var options = Comparison.Options()
            options.runs = 1
            options.budgetModels = models
            return Comparison.estimatedWork(document, options: options).events
        }
        #expect(events([.unlimited]) > 2 * events([.paced]))
        #expect(abs(events([.paced, .unlimited]) - (events([.paced]) + events([.unlimited]))) < 1e-6 * events([.unlimited]))
    }

    static var everyMinute: ConfiguredProvider.Settings {
        var settings = ConfiguredProvider.Settings()
        settings.policy = .after(interval: 60)
        return settings
    }

    /// A variant over the budget as written may be fresher at every point:
    /// where it beats the recommendation, what changed is that it came within
    /// the budget, and the sentence says so before the gap.
    @Test func aChallengerOverTheBudgetAsWrittenIsSaidToComeWithinIt() throws {
        var sensitivity = try Self.weatherOneAtATime()
        let recommended = try #require(sensitivity.recommended)
        let point = try #require(sensitivity.sweeps.first?.first)
        let challenger = try #require(point.comparison.rows.first { $0.variant != recommended && $0.withinBudget }).variant
        #expect(SensitivityReport(sensitivity).gapText(point, from: challenger, to: recommended).hasPrefix("is fresher by "))
        let index = try #require(sensitivity.baseline.comparison.rows.firstIndex { $0.variant == challenger })
        sensitivity.baseline.comparison.rows[index].withinBudget = false
        #expect(SensitivityReport(sensitivity).gapText(point, from: challenger, to: recommended)
            .hasPrefix("comes within the budget here and is fresher by "))
    }

    /// The ranking as written marks a budget call made within the noise that
    /// the recommendation rests on, as `compare`'s verdict names it: the
    /// tested variant's, and a fresher one's over the budget. `compare`, with
    /// replications of its own, may make it the other way.
    @Test func aBudgetCallWithinTheNoiseIsMarkedInTheRankingAsWritten() throws {
        let sensitivity = try Self.weatherOneAtATime()
        let recommended = try #require(sensitivity.recommended)
        /// The ranking line with `variant` withholding 0 and 2 requests per
        /// widget-day (a mean of 1, the tolerance, inside a wide interval).
        func ranking(_ variant: String, within: Bool, fresher: Bool) -> String {
            var edited = sensitivity
            let index = edited.baseline.comparison.rows.firstIndex { $0.variant == variant }!
            var row = edited.baseline.comparison.rows[index]
            for replication in row.replications.indices {
                row.replications[replication].counts.withheldRequests = replication == 0 ? 0 : Int(2 * row.replications[replication].widgetDays)
                if fresher { row.replications[replication].counts.stalenessTotal = 0 }
            }
            row.withinBudget = within
            edited.baseline.comparison.rows[index] = row
            return SensitivityReport(edited).markdown().split(separator: "\n").first { $0.hasPrefix("As written") }.map(String.init) ?? ""
        }
        #expect(ranking(recommended, within: true, fresher: false).contains("`\(recommended)` (within the budget by less than the noise)"))
        let other = try #require(sensitivity.variants.first { $0 != recommended })
        #expect(ranking(other, within: false, fresher: true).contains("`\(other)` (over the budget by less than the noise)"))
        #expect(ranking(other, within: false, fresher: false).contains("`\(other)` (over the budget),") || ranking(other, within: false, fresher: false).contains("`\(other)` (over the budget);"))
    }

    /// Where no variant stays within the budget, none is best and none beats
    /// the recommendation, but it does not hold either: it goes over the
    /// budget there, and both reports say so, as `compare` says of such a
    /// budget model.
    @Test func whereNoVariantStaysWithinTheBudgetTheRecommendationDoesNotHold() throws {
        var sensitivity = try Self.weatherOneAtATime()
        let recommended = try #require(sensitivity.recommended)
        var point = try #require(sensitivity.sweeps.first?.first)
        for index in point.comparison.rows.indices { point.comparison.rows[index].withinBudget = false }
        #expect(Sensitivity.best(in: point.comparison) == nil)
        #expect(Sensitivity.verdict(of: recommended, in: point.comparison, best: nil) == .overBudget)
        point.verdict = .overBudget
        sensitivity.sweeps[0][0] = point
        let unknown = sensitivity.unknowns[0].name
        #expect(SensitivityReport(sensitivity).markdown().contains("It goes over the budget, as every variant does, at `\(unknown)` at "))
        #expect(ComparisonReport.sensitivitySentence(sensitivity).contains("**goes over the budget**, as every variant does, when `\(unknown)` is "))
    }

    /// With no recommendation there is nothing to hold: every row's verdict
    /// is empty, not "holds".
    @Test func withoutARecommendationNoPointHasAVerdict() throws {
        let overBudget = """
            {
              "name": "over", "days": 2,
              "scheduler": { "budgetModel": "rollingWindow", "dailyBudget": { "min": 2, "max": 2 } },
              "devices": [ { "id": "phone",
                "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "5m" }, "truth": { "changeEvery": "1h" } } ] } ],
              "variants": [ { "name": "v", "provider": { "after": "10m" } } ]
            }
            """
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 1
        let sensitivity = try Sensitivity.run(try ScenarioLoader.decodeDocument(overBudget, file: "over.json"), options: options)
        #expect(sensitivity.recommended == nil)
        // The verdict is the last column but one, read from the end: a
        // distribution's value may hold a quoted comma.
        #expect(SensitivityReport.csvHeader.suffix(2) == ["verdict", "positions"])
        let rows = SensitivityReport(sensitivity).csv().split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).dropLast().last?.isEmpty == true })
    }
}

/// The total a progress callback reports (the same on every call).
private final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = 0

    func record(_ total: Int) {
        lock.lock()
        seen = total
        lock.unlock()
    }

    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
