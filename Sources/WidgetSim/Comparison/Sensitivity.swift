import Foundation

/// How much each unknown moves a comparison: a scenario's variants run over
/// the plausible range of every [gap] parameter (`SchedulerParameters.plausibleRanges`).
///
/// Two designs, on common random numbers (replication `r` of every point
/// and variant uses the same seed as `compare`'s replication `r`):
/// - one at a time: the scenario as written, then each unknown at its low
///   and high value (or each level), the others as written;
/// - a Morris screening design: `trajectories` random walks through a
///   4-level grid over all unknowns at once, one unknown changing per step,
///   which catches effects that only show together (elementary effects:
///   their mean absolute size μ* and spread σ).
///
/// At every point the variants are ranked as `compare` ranks them. The
/// recommendation (the best variant as written) holds at a point when it is
/// still best; it ties when another variant is better by less than the
/// paired 95 % interval; it flips when another is better beyond it, or when
/// the recommendation leaves the budget while another stays within it; it is
/// at the budget's edge when it leaves the budget on a mean whose interval
/// holds the tolerance and would rank first within it (as `compare`'s
/// `Comparison.standing(of:under:)` judges it); and it goes over the budget
/// with every other variant where none stays within it.
///
/// Promised: the results depend only on the scenario, the seeds, `runs` and
/// `trajectories`, never on the thread count. A variant keeps the scheduler
/// fields it sets itself (what it compares); a point that changes nothing a
/// run can feel (a token-bucket setting under the paced model, say) reuses
/// the run it equals.
public struct Sensitivity: Sendable {
    public struct Options: Sendable {
        /// Replications per point and variant.
        public var runs = 5
        /// Morris trajectories; 0 runs the one-at-a-time sweep only.
        public var trajectories = 8
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        /// As `Comparison.Options.withheldTolerance`.
        public var withheldTolerance = 1.0

        public init() {}
    }

    /// What happens to the recommendation at one point.
    public enum Verdict: Equatable, Sendable {
        /// Nothing to test: no variant is recommended as the scenario is
        /// written (none within the budget, or no widget viewed).
        case untested
        case holds
        /// Another variant is better, within the noise of the replications.
        case ties(with: String)
        /// Another variant is better beyond the noise (or the recommendation
        /// withholds more than the tolerance, beyond the noise).
        case flips(to: String)
        /// The recommendation withholds more than the tolerance on its mean,
        /// but the interval holds the tolerance, and counted within the
        /// budget it would rank first: `first` ranks first on a budget call
        /// within the noise, which other replications may make the other way.
        case atTheBudgetsEdge(first: String)
        /// The recommendation withholds more than the tolerance, and so does
        /// every other variant: nothing stays within the budget here (as
        /// `compare` says of a budget model where "no variant stays within budget").
        case overBudget

        public var label: String {
            switch self {
            case .untested: return ""
            case .holds: return "holds"
            case .ties(let other): return "ties with \(other)"
            case .flips(let other): return "flips to \(other)"
            case .atTheBudgetsEdge(let first): return "at the budget's edge (\(first) first)"
            case .overBudget: return "over budget, as every variant"
            }
        }
    }

    /// One point of a design: each unknown's position in its range (nil:
    /// as the scenario has it), and every variant's replications there.
    public struct Point: Sendable {
        public var positions: [Double?]
        /// The point's runs, ranked as `compare` ranks them (one budget model).
        public var comparison: Comparison
        public var verdict: Verdict
        /// The best variant within the budget here; nil when none is, or when
        /// no widget was viewed (zeros of staleness are not freshness).
        public var best: String?
        /// Which runs each variant's row comes from, by variant: two points
        /// with the same for a variant ran it under the same effective
        /// scheduler (`plan`), so nothing that differs between them could
        /// act on it there.
        var runs: [Int] = []

        /// The recommended variant's row here.
        public func row(_ variant: String) -> Comparison.Row? {
            comparison.rows.first { $0.variant == variant }
        }
    }

    public var scenario: String
    public var description: String
    public var days: Int
    public var seeds: [UInt64]
    public var trajectories: Int
    public var unknowns: [PlausibleRange]
    /// Each unknown's value in the scenario as written.
    public var asWritten: [String]
    /// True for an unknown that can change the runs of at least one of the
    /// scenario's variants (a push budget when only a variant pushes, say).
    public var relevant: [Bool]
    public var variants: [String]
    /// The best variant as written; nil when no variant stays within the
    /// budget, or no widget was viewed.
    public var recommended: String?
    public var baseline: Point
    /// For each unknown, the points at its `sweepPositions`.
    public var sweeps: [[Point]]
    /// Morris trajectories: `unknowns.count + 1` points each, and which
    /// unknown changed at each step after the first.
    public var walks: [[Point]]
    public var walkOrder: [[Int]]

    /// The Morris grid: 4 levels, steps of 2/3.
    public static let gridStep = 2.0 / 3.0

    /// Runs the sensitivity analysis of `document`'s variants;
    /// `progress(done, total)` is called after each run.
    public static func run(
        _ document: ScenarioDocument, unknowns: [PlausibleRange] = SchedulerParameters.plausibleRanges, options: Options,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunLimitExceeded) -> Sensitivity {
        let variants = document.all
        let seeds = (0..<max(1, options.runs)).map { Comparison.seed(replication: $0, of: document.base.seed) }
        let design = SensitivityDesign(unknowns: unknowns, trajectories: options.trajectories, seed: document.base.seed)
        // Per variant: a variant may push, or be notified, where the base is not.
        let relevance = variants.map { SchedulerRelevance($0.setup) }
        let (jobs, pointJobs) = plan(document, unknowns: unknowns, design: design, relevance: relevance)

        let setups = jobs.map(\.setup)
        let total = setups.count * seeds.count
        var report: (@Sendable (Int) -> Void)?
        if let progress { report = { done in progress(done, total) } }
        let outcomes: [Result<RunMetrics, RunLimitExceeded>] = ParallelMap.map(count: total, threads: options.threads, progress: report) { run in
            var setup = setups[run / seeds.count]
            setup.seed = seeds[run % seeds.count]
            do throws(RunLimitExceeded) {
                return .success(try RunMetrics.measure(setup))
            } catch {
                return .failure(error)
            }
        }
        var metrics: [RunMetrics] = []
        metrics.reserveCapacity(outcomes.count)
        for outcome in outcomes { metrics.append(try outcome.get()) }

        func comparison(at pointIndex: Int) -> Comparison {
            // The point's section is the base's model there; a variant that
            // sets its own model ran under it and is ranked in the section
            // all the same (before, it fell out of every ranking).
            let model = jobs[pointJobs[pointIndex][0]].setup.scheduler.budgetModel
            let rows = variants.enumerated().map { index, variant in
                let job = pointJobs[pointIndex][index]
                let replications = Array(metrics[job * seeds.count..<(job + 1) * seeds.count])
                let withheld = Estimate(replications.map(\.withheldPerWidgetDay)).mean
                let ran = jobs[job].setup.scheduler.budgetModel
                return Comparison.Row(
                    variant: variant.name, description: variant.description,
                    policy: variant.setup.devices.first?.widgets.first?.provider.policySummary ?? "",
                    budgetModel: model, replications: replications,
                    withinBudget: withheld <= options.withheldTolerance, ownBudgetModel: ran != model ? ran : nil)
            }
            var compared = Comparison(
                scenario: document.base.name, description: document.base.description, days: document.base.days, seeds: seeds,
                budgetModels: [model], withheldTolerance: options.withheldTolerance, rows: rows)
            compared.measuredHours = document.base.measuredHours
            return compared
        }

        let baselineComparison = comparison(at: 0)
        let recommended = best(in: baselineComparison)?.variant
        func point(_ index: Int) -> Point {
            let compared = comparison(at: index)
            let best = best(in: compared)
            return Point(
                positions: design.points[index], comparison: compared,
                verdict: verdict(of: recommended, in: compared, best: best), best: best?.variant, runs: pointJobs[index])
        }
        var next = 1
        func take(_ count: Int) -> [Point] {
            defer { next += count }
            return (next..<next + count).map(point)
        }
        let sweeps = unknowns.map { take($0.sweepPositions.count) }
        let walks = design.walkOrder.map { _ in take(unknowns.count + 1) }
        return Sensitivity(
            scenario: document.base.name, description: document.base.description, days: document.base.days, seeds: seeds,
            trajectories: options.trajectories, unknowns: unknowns, asWritten: unknowns.map { $0.current(document.base.scheduler) },
            relevant: unknowns.map { unknown in relevance.contains { $0.isRelevant(unknown) } }, variants: variants.map(\.name), recommended: recommended,
            baseline: point(0), sweeps: sweeps, walks: walks, walkOrder: design.walkOrder)
    }

    /// Every distinct (variant, effective scheduler) `design` needs, in
    /// design order, and each point's runs among them: a point that changes
    /// only what cannot move a variant's runs reuses the runs as written.
    static func plan(
        _ document: ScenarioDocument, unknowns: [PlausibleRange], design: SensitivityDesign, relevance: [SchedulerRelevance]
    ) -> (jobs: [(variant: Int, setup: SimulationSetup)], pointJobs: [[Int]]) {
        let variants = document.all
        var jobs: [(variant: Int, setup: SimulationSetup)] = []
        var keys: [[SchedulerParameters]] = Array(repeating: [], count: variants.count)
        var jobOfKey: [[Int]] = Array(repeating: [], count: variants.count)
        var pointJobs: [[Int]] = []
        for positions in design.points {
            var row: [Int] = []
            for (index, variant) in variants.enumerated() {
                var setup = variant.setup
                for (u, unknown) in zip(positions, unknowns) where !variant.schedulerFields.contains(unknown.name) {
                    if let u { unknown.set(&setup.scheduler, u) }
                }
                let key = relevance[index].effective(setup.scheduler)
                // Linear search over a few hundred keys at most; parameters are Equatable, not Hashable.
                if let known = keys[index].firstIndex(of: key) {
                    row.append(jobOfKey[index][known])
                } else {
                    keys[index].append(key)
                    jobOfKey[index].append(jobs.count)
                    row.append(jobs.count)
                    jobs.append((index, setup))
                }
            }
            pointJobs.append(row)
        }
        return (jobs, pointJobs)
    }

    /// The runs the analysis would make and the events they would simulate
    /// in all, estimated before it starts (`RunEstimate` of each run, once
    /// per replication): the whole work `RunLimits.maximumEventsPerAnalysis` bounds.
    public static func estimatedWork(
        _ document: ScenarioDocument, unknowns: [PlausibleRange] = SchedulerParameters.plausibleRanges, options: Options
    ) -> (runs: Int, events: Double) {
        let design = SensitivityDesign(unknowns: unknowns, trajectories: options.trajectories, seed: document.base.seed)
        let jobs = plan(document, unknowns: unknowns, design: design, relevance: document.all.map { SchedulerRelevance($0.setup) }).jobs
        let replications = max(1, options.runs)
        return (jobs.count * replications, jobs.reduce(0) { $0 + RunEstimate($1.setup).events } * Double(replications))
    }

    /// The best variant of a point's comparison, as `compare` names it: none
    /// when no widget was viewed there, since zeros of staleness are not
    /// freshness (the comparison report's "No verdict").
    static func best(in comparison: Comparison) -> Comparison.Row? {
        let model = comparison.budgetModels[0]
        return comparison.hasViews(for: model) ? comparison.best(for: model) : nil
    }

    /// The recommendation's fate at a point whose best variant is `best`.
    static func verdict(of recommended: String?, in comparison: Comparison, best: Comparison.Row?) -> Verdict {
        guard let recommended else { return .untested }
        let own = comparison.rows.first { $0.variant == recommended }
        guard let best else {
            // No best here: no widget was viewed (nothing to rank, so nothing
            // beats it), or no variant stays within the budget, this one included.
            return comparison.hasViews(for: comparison.budgetModels[0]) && own.map({ !$0.withinBudget }) == true ? .overBudget : .holds
        }
        guard best.variant != recommended else { return .holds }
        // Over the budget by less than the noise, and fresher than the first:
        // judged as compare's sweep judges a budget model.
        if case .atTheBudgetsEdge(let variants, let first?) = comparison.standing(of: recommended, under: comparison.budgetModels[0]),
           variants == [recommended] {
            return .atTheBudgetsEdge(first: first)
        }
        guard let own, own.withinBudget else {
            return .flips(to: best.variant)
        }
        return comparison.stalenessGap(from: best, to: own).excludesZero ? .flips(to: best.variant) : .ties(with: best.variant)
    }

    // MARK: What the points say

    /// The headline numbers a sensitivity report follows, of one variant at one point.
    public enum Headline: CaseIterable, Sendable {
        case budgetedReloads, stalePercent, meanStaleness, requests

        public var name: String {
            switch self {
            case .budgetedReloads: return "budgeted reloads/widget-day"
            case .stalePercent: return "stale views"
            case .meanStaleness: return "mean staleness"
            case .requests: return "server requests/widget-day"
            }
        }

        public func value(_ row: Comparison.Row) -> Double {
            switch self {
            case .budgetedReloads: return row.budgeted.mean
            case .stalePercent: return row.stalePercent.mean
            case .meanStaleness: return row.meanStaleness.mean
            case .requests: return row.calls.mean
            }
        }
    }

    /// Morris elementary effects of each unknown on `headline` of `variant`:
    /// μ* (mean absolute effect per full range) and σ (their spread), over
    /// the `steps` where the unknown could act on the variant, of `tried`.
    ///
    /// A step where it could not (a pacing setting moved while the walk's
    /// budget model is not paced, a push budget where nothing pushes) ran
    /// the variant as before, so its effect is 0 by construction, not by
    /// measurement: counting it would make an unknown that acts in only
    /// some of the walks' worlds look weaker than it is there, and one
    /// whose every step fell outside them look like it has no effect at
    /// all (μ* 0 with `steps` 0: not measured).
    public func elementaryEffects(on headline: Headline, of variant: String) -> [(muStar: Double, sigma: Double, steps: Int, tried: Int)] {
        let column = variants.firstIndex(of: variant)
        var effects: [[Double]] = Array(repeating: [], count: unknowns.count)
        var tried = Array(repeating: 0, count: unknowns.count)
        for (walk, order) in zip(walks, walkOrder) {
            for (step, unknown) in order.enumerated() {
                guard let before = walk[step].row(variant), let after = walk[step + 1].row(variant),
                      let from = walk[step].positions[unknown], let to = walk[step + 1].positions[unknown] else { continue }
                tried[unknown] += 1
                if let column, walk[step].runs.indices.contains(column), walk[step + 1].runs.indices.contains(column),
                   walk[step].runs[column] == walk[step + 1].runs[column] { continue }
                effects[unknown].append((headline.value(after) - headline.value(before)) / (to - from))
            }
        }
        return zip(effects, tried).map { values, tried in
            guard !values.isEmpty else { return (0, 0, 0, tried) }
            let n = Double(values.count)
            let mean = values.reduce(0, +) / n
            let muStar = values.reduce(0) { $0 + abs($1) } / n
            let variance = values.count > 1 ? values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1) : 0
            return (muStar, variance.squareRoot(), values.count, tried)
        }
    }

    /// Every Morris point, in order.
    public var walkPoints: [Point] { walks.flatMap { $0 } }

    // MARK: Where the recommendation is challenged

    /// A one-at-a-time point where the recommendation does not simply hold:
    /// one unknown at one end of its range (or one of its levels), the others
    /// as written, and another variant ties with it or beats it there, or
    /// every variant, it included, goes over the budget.
    public struct Challenge: Sendable {
        /// The unknown's index in `unknowns`.
        public var unknown: Int
        /// Its position in the range (0 low, 1 high).
        public var position: Double
        public var point: Point
        public var verdict: Verdict { point.verdict }
    }

    /// Every one-at-a-time point where the recommendation ties, flips or goes
    /// over the budget with every variant, in
    /// the order of `unknowns`, then along each range (low before high).
    /// Empty when it holds at every end, or when there is no recommendation.
    public var oneAtATimeChallenges: [Challenge] {
        var challenges: [Challenge] = []
        for (index, points) in sweeps.enumerated() {
            for (point, position) in zip(points, unknowns[index].sweepPositions) where point.verdict != .holds && point.verdict != .untested {
                challenges.append(Challenge(unknown: index, position: position, point: point))
            }
        }
        return challenges
    }
}

/// The points a sensitivity analysis runs, in order: the scenario as
/// written, each unknown's sweep, then the Morris trajectories.
struct SensitivityDesign {
    var points: [[Double?]] = []
    var walkOrder: [[Int]] = []

    init(unknowns: [PlausibleRange], trajectories: Int, seed: UInt64) {
        let count = unknowns.count
        points.append(Array(repeating: nil, count: count))
        for (index, unknown) in unknowns.enumerated() {
            for position in unknown.sweepPositions {
                var point = [Double?](repeating: nil, count: count)
                point[index] = position
                points.append(point)
            }
        }
        // Morris (1991): start from a random grid point whose every
        // coordinate can take one step up, then step each unknown once, in a
        // random order.
        var random = StreamSeed(seed).derived("sensitivity").derived("morris").stream()
        for _ in 0..<trajectories {
            var x = (0..<count).map { _ in random.nextInt(below: 2) == 0 ? 0.0 : 1.0 / 3.0 }
            var order = Array(0..<count)
            for index in stride(from: count - 1, to: 0, by: -1) {
                order.swapAt(index, random.nextInt(below: index + 1))
            }
            points.append(x.map { Optional($0) })
            for unknown in order {
                x[unknown] += Sensitivity.gridStep
                points.append(x.map { Optional($0) })
            }
            walkOrder.append(order)
        }
    }
}

/// Which scheduler parameters can change a scenario's runs, so equal runs
/// are not repeated. Each rule follows where the simulator reads the field.
struct SchedulerRelevance {
    /// Some notification is delivered (F19), `pushDeliveryDelay` after it is
    /// sent: one about a truth change, or a push the script sends.
    let hasNotifications: Bool
    /// Some widget push is delivered (a truth reaction or a script), so the push budget matters.
    let hasPushes: Bool
    /// Locale, accessibility or similar changes happen (F17), delayed by `systemReloadDelay`.
    let hasSystemChanges: Bool

    init(_ setup: SimulationSetup) {
        let devices = setup.devices + (setup.fleet.map { [$0.template] } ?? [])
        let widgets = devices.flatMap(\.widgets)
        // Every action a run can perform: fixed, daily, and a fleet's moments.
        let actions = devices.flatMap(\.script).map(\.action) + devices.flatMap(\.repeatingScript).map(\.action)
            + (setup.fleet?.moments.map(\.action) ?? [])
        let scriptPushes = actions.contains(where: \.isPush)
        hasNotifications = widgets.contains { $0.truth.reaction != .none } || scriptPushes
        hasPushes = widgets.contains { $0.truth.reaction == .push } || scriptPushes
        hasSystemChanges = devices.contains { $0.user.systemChangesPerDay > 0 }
            || actions.contains { if case .systemChange = $0 { return true } else { return false } }
    }

    /// `parameters` with every field this scenario's runs cannot feel set to its default.
    func effective(_ parameters: SchedulerParameters) -> SchedulerParameters {
        var p = parameters
        let defaults = SchedulerParameters()
        if p.budgetModel != .paced {
            p.pacingWindow = defaults.pacingWindow
            p.pacingBurst = defaults.pacingBurst
        }
        if p.budgetModel != .tokenBucket { p.tokenBucketBurst = defaults.tokenBucketBurst }
        // The daily limit is never computed under a model without one (`ReloadScheduler.dailyLimit`).
        if !p.budgetModel.imposesLimit {
            p.frequentViewsPerDay = defaults.frequentViewsPerDay
            p.minimumDailyBudget = defaults.minimumDailyBudget
            p.learningMultiplier = defaults.learningMultiplier
        }
        if !hasPushes {
            p.pushBudget = defaults.pushBudget
            p.pushDailyBudget = defaults.pushDailyBudget
        } else if p.pushBudget != .separate {
            p.pushDailyBudget = defaults.pushDailyBudget
        }
        if !hasNotifications { p.pushDeliveryDelay = defaults.pushDeliveryDelay }
        if !hasSystemChanges { p.systemReloadDelay = defaults.systemReloadDelay }
        return p
    }

    /// False for an unknown that no point can make this scenario feel.
    func isRelevant(_ unknown: PlausibleRange) -> Bool {
        switch unknown.name {
        case "pushBudget", "pushDailyBudget": return hasPushes
        case "pushDeliveryDelay": return hasNotifications
        case "systemReloadDelay": return hasSystemChanges
        default: return true
        }
    }
}
