import Foundation

/// Runs a scenario's base and variants on the same seeds (common random
/// numbers) under one or more budget models, and ranks them.
///
/// Promised: replication `r` of every variant and every budget model uses the
/// same seed (the scenario's seed for `r = 0`), so the same user sees the same
/// truth and differences come from the policies. Results do not depend on the
/// number of threads.
public struct Comparison: Sendable {
    public struct Options: Sendable {
        /// Replications per variant and budget model.
        public var runs = 1
        /// Budget models to run, the first being the one recommendations are
        /// made under. Empty means the scenario's own model only.
        public var budgetModels: [BudgetModel] = []
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        /// A variant is within the budget when it withholds at most this many
        /// requests per widget-day on average.
        public var withheldTolerance = 1.0

        public init() {}
    }

    /// One variant under one budget model, over all replications.
    public struct Row: Sendable {
        public var variant: String
        public var description: String
        public var policy: String
        /// The budget model of the row's section: the one the scenario's
        /// variants ran under, and the one it is ranked with.
        public var budgetModel: BudgetModel
        public var replications: [RunMetrics]
        public var withinBudget: Bool
        /// Each widget's provider policy in this variant, in setup order.
        public var widgetPolicies: [String] = []
        /// The budget model the variant sets itself (`"scheduler":
        /// {"budgetModel": ...}`) and ran under in place of `budgetModel`, when
        /// it differs: a variant compares what it sets, so no section replaces it.
        public var ownBudgetModel: BudgetModel? = nil

        public var budgeted: Estimate { estimate(\.budgetedPerWidgetDay) }
        public var free: Estimate { estimate(\.freePerWidgetDay) }
        public var withheld: Estimate { estimate(\.withheldPerWidgetDay) }
        public var timeouts: Estimate { estimate(\.timeoutsPerWidgetDay) }
        public var stalePercent: Estimate { stalenessEstimate(\.stalePercent) }
        public var meanStaleness: Estimate { stalenessEstimate(\.meanStaleness) }
        public var stalenessP50: Estimate { stalenessEstimate { Double($0.stalenessP50) } }
        public var stalenessP95: Estimate { stalenessEstimate { Double($0.stalenessP95) } }
        public var stalenessMax: Estimate { stalenessEstimate { Double($0.stalenessMax) } }
        public var calls: Estimate { estimate(\.callsPerWidgetDay) }

        func estimate(_ value: (RunMetrics) -> Double) -> Estimate {
            Estimate(replications.map(value))
        }

        /// True when some replication saw a view (during the measured hours,
        /// if the scenario has them): without one the variant has no
        /// staleness, and it is not ranked on it.
        public var wasViewed: Bool { replications.contains { $0.counts.views > 0 } }

        /// The replications that saw a view, which staleness is measured on:
        /// one with none (a narrow measured window on a quiet day) has no
        /// staleness, not a fresh one of 0s.
        public var viewedReplications: Int { viewed.count }

        var viewed: [RunMetrics] { replications.filter { $0.counts.views > 0 } }

        /// Within the budget and viewed: a candidate for first place.
        public var isRanked: Bool { withinBudget && wasViewed }

        /// Over the replications that saw a view (all of them, zeros, when
        /// none did: the row is then not ranked).
        func stalenessEstimate(_ value: (RunMetrics) -> Double) -> Estimate {
            let viewed = viewed
            return Estimate((viewed.isEmpty ? replications : viewed).map(value))
        }

        /// True when the 95 % interval of the requests withheld per
        /// widget-day holds `tolerance`: the row is judged within or over the
        /// budget on its mean alone, and other replications may judge it the
        /// other way (`compare` and `sensitivity` have replications of their own).
        public func isAtTheBudgetsEdge(tolerance: Double) -> Bool {
            // An interval of no width (every replication withheld the same)
            // has no noise to fall the other way by.
            guard let low = withheld.low, let high = withheld.high, low < high else { return false }
            return low <= tolerance && tolerance <= high
        }

        /// True when the recommendation `best` rests on this row's budget
        /// call and that call is within the noise: the row is the best
        /// itself, or a fresher one over the budget, at the budget's edge.
        public func isAtTheBudgetsEdge(under best: Row, tolerance: Double) -> Bool {
            (variant == best.variant || (!withinBudget && wasViewed && meanStaleness.mean < best.meanStaleness.mean))
                && isAtTheBudgetsEdge(tolerance: tolerance)
        }
    }

    public var scenario: String
    public var description: String
    public var days: Int
    public var seeds: [UInt64]
    public var budgetModels: [BudgetModel]
    public var withheldTolerance: Double
    /// Every row, grouped by budget model (in `budgetModels` order), then variant order.
    public var rows: [Row]
    /// The widgets the rows measure, in setup order (the same in every
    /// variant: a variant patches widgets, it never adds or removes one).
    public var widgets: [WidgetReference] = []
    /// The widget the rows are restricted to (`restricted(to:)`), or nil when they pool every widget.
    public var widget: WidgetReference?
    /// The hours whose views the rows' staleness counts (the scenario's
    /// `measureDuring`); reloads and requests count every hour.
    public var measuredHours = MeasuredHours()

    /// One widget of the scenario: its device and its own id.
    public struct WidgetReference: Equatable, Sendable {
        public var device: String
        public var id: String
        /// `device/id` when the scenario has several devices, else the widget's id alone.
        public var label: String
    }

    /// The seed of replication `r`: the scenario's own for the first, derived ones after.
    public static func seed(replication r: Int, of seed: UInt64) -> UInt64 {
        r == 0 ? seed : StreamSeed(seed).derived("replication").derived(UInt64(r)).value
    }

    /// The runs `run` would make and the events they would simulate in all,
    /// estimated before it starts (`RunEstimate` of each variant under each
    /// section's budget model, as `run` runs it, once per replication): the
    /// whole work `RunLimits.maximumEventsPerAnalysis` bounds, with the sweep
    /// `compare` cites. A model moves the estimate: `unlimited` caps calls
    /// by the spacing alone.
    public static func estimatedWork(_ document: ScenarioDocument, options: Options) -> (runs: Int, events: Double) {
        let variants = document.all
        let models = options.budgetModels.isEmpty ? [document.base.scheduler.budgetModel] : options.budgetModels
        let replications = max(1, options.runs)
        var perReplication = 0.0
        for model in models {
            for variant in variants {
                var setup = variant.setup
                if !variant.setsBudgetModel { setup.scheduler.budgetModel = model }
                perReplication += RunEstimate(setup).events
            }
        }
        return (models.count * variants.count * replications, perReplication * Double(replications))
    }

    /// Runs the comparison; `progress(done, total)` is called after each run.
    /// Throws when a run passes `RunLimits` (the first such run in job order).
    public static func run(
        _ document: ScenarioDocument, options: Options, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunLimitExceeded) -> Comparison {
        let variants = document.all
        let models = options.budgetModels.isEmpty ? [document.base.scheduler.budgetModel] : options.budgetModels
        let seeds = (0..<max(1, options.runs)).map { seed(replication: $0, of: document.base.seed) }
        let total = models.count * variants.count * seeds.count
        var report: (@Sendable (Int) -> Void)?
        if let progress { report = { done in progress(done, total) } }
        let outcomes: [Result<RunMetrics, RunLimitExceeded>] = ParallelMap.map(count: total, threads: options.threads, progress: report) { job in
            let r = job % seeds.count
            let v = job / seeds.count % variants.count
            let m = job / seeds.count / variants.count
            var setup = variants[v].setup
            setup.seed = seeds[r]
            // A variant that sets its budget model compares that model (the
            // production rules against Developer Mode, say): it keeps it in
            // every section, as `sensitivity` keeps what a variant sets.
            if !variants[v].setsBudgetModel { setup.scheduler.budgetModel = models[m] }
            do throws(RunLimitExceeded) {
                return .success(try RunMetrics.measure(setup))
            } catch {
                return .failure(error)
            }
        }
        var metrics: [RunMetrics] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let measured): metrics.append(measured)
            case .failure(let error): throw error
            }
        }
        var rows: [Row] = []
        for (m, model) in models.enumerated() {
            for (v, variant) in variants.enumerated() {
                let start = (m * variants.count + v) * seeds.count
                let replications = Array(metrics[start..<start + seeds.count])
                let withheld = Estimate(replications.map { $0.withheldPerWidgetDay }).mean
                let own = variant.setsBudgetModel && variant.setup.scheduler.budgetModel != model ? variant.setup.scheduler.budgetModel : nil
                rows.append(Row(
                    variant: variant.name, description: variant.description,
                    policy: variant.setup.devices.first?.widgets.first?.provider.policySummary ?? "",
                    budgetModel: model, replications: replications, withinBudget: withheld <= options.withheldTolerance,
                    widgetPolicies: variant.setup.devices.flatMap { $0.widgets.map(\.provider.policySummary) }, ownBudgetModel: own))
            }
        }
        var comparison = Comparison(
            scenario: document.base.name, description: document.base.description, days: document.base.days,
            seeds: seeds, budgetModels: models, withheldTolerance: options.withheldTolerance, rows: rows,
            widgets: widgets(of: document.base))
        comparison.measuredHours = document.base.measuredHours
        return comparison
    }

    /// The widgets of `setup`, in setup order, as a comparison names them.
    public static func widgets(of setup: SimulationSetup) -> [WidgetReference] {
        let devices = setup.devices
        return devices.flatMap { device in
            device.widgets.map { widget in
                WidgetReference(device: device.id, id: widget.id, label: devices.count == 1 ? widget.id : "\(device.id)/\(widget.id)")
            }
        }
    }

    /// The widget `name` names among `widgets`: its label (`id`, or
    /// `device/id` with several devices), its `device/id` whatever the
    /// number of devices, or its bare id when only one device has a widget
    /// of that id.
    public static func widget(named name: String, among widgets: [WidgetReference]) -> WidgetReference? {
        if let exact = widgets.first(where: { $0.label == name || "\($0.device)/\($0.id)" == name }) { return exact }
        let sameID = widgets.filter { $0.id == name }
        return sameID.count == 1 ? sameID[0] : nil
    }

    /// The widget `name` names in this comparison (see `widget(named:among:)`).
    public func widget(named name: String) -> WidgetReference? {
        Comparison.widget(named: name, among: widgets)
    }

    /// The same comparison on one widget's numbers alone: every row keeps
    /// that widget's metrics per replication (its views, staleness, reloads,
    /// withheld requests and provider calls), and *within budget* is judged
    /// on its withheld requests alone. Ranking, verdict and sweep then read
    /// as they do for the pooled rows.
    public func restricted(to widget: WidgetReference) -> Comparison {
        guard let index = widgets.firstIndex(of: widget) else { return self }
        var narrowed = self
        narrowed.widget = widget
        narrowed.rows = rows.map { row in
            var mine = row
            mine.replications = row.replications.map { $0.widgets[index] }
            mine.withinBudget = mine.withheld.mean <= withheldTolerance
            // The policy summary names the first widget's provider; name this one's.
            mine.policy = row.widgetPolicies.indices.contains(index) ? row.widgetPolicies[index] : row.policy
            return mine
        }
        return narrowed
    }

    /// The rows of one budget model, in variant order.
    public func rows(for model: BudgetModel) -> [Row] {
        rows.filter { $0.budgetModel == model }
    }

    /// Variants ranked for `model`: those within the budget first, by mean
    /// staleness, then stale-view percentage, then fewest provider calls.
    public func ranking(for model: BudgetModel) -> [Row] {
        rows(for: model).enumerated().sorted { a, b in
            let left = a.element
            let right = b.element
            if left.withinBudget != right.withinBudget { return left.withinBudget }
            // A variant never viewed has no staleness to rank on.
            if left.wasViewed != right.wasViewed { return left.wasViewed }
            let keys = [
                (left.meanStaleness.mean, right.meanStaleness.mean), (left.stalePercent.mean, right.stalePercent.mean),
                (left.calls.mean, right.calls.mean),
            ]
            for (x, y) in keys where x != y { return x < y }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The best variant within the budget for `model`, if any stays within it.
    /// True when some replication of some variant under `model` saw a view:
    /// without one there is no staleness to rank on.
    public func hasViews(for model: BudgetModel) -> Bool {
        rows(for: model).contains { row in row.replications.contains { $0.counts.views > 0 } }
    }

    public func best(for model: BudgetModel) -> Row? {
        ranking(for: model).first { $0.isRanked }
    }

    /// How a recommendation fares under one budget model, judged as the
    /// verdict judges it under its own: on the ranking, on the noise of the
    /// staleness gap to the variant beside it, and on the noise of the
    /// budget calls the ranking rests on.
    public enum Standing: Equatable, Sendable {
        /// First within the budget, fresher than every other variant within
        /// it by more than the noise.
        case leads
        /// First within the budget, but `other`, the best ranked of the
        /// variants within the noise of it (most often the runner-up), is.
        case leadsWithinTheNoise(other: String)
        /// `first` ranks first, and the recommendation is within the budget
        /// and within the noise of it and of every variant ranked between.
        case ties(first: String)
        /// Whether the recommendation ranks first rests on a budget call
        /// within the noise: each of `variants` (the recommendation, a
        /// fresher variant over the budget, or the variant ranked first
        /// ahead of it) withholds a mean on one side of the tolerance with
        /// an interval that holds it, so other replications may count it the
        /// other way, and the ranking with it. `first` is the variant ranked
        /// first, if any stays within the budget.
        case atTheBudgetsEdge(variants: [String], first: String?)
        /// `first` is fresher beyond the noise (or ranks first, with one
        /// replication, whose noise is unknown), or the recommendation is
        /// over the budget beyond the noise; `first` is nil when no variant
        /// stays within the budget.
        case beaten(first: String?)
    }

    /// How `recommended` fares under `model` (`Standing`); nil when no
    /// variant of that name ran under it, or it or every variant was never
    /// viewed (no staleness to rank on, as the verdict's "No verdict").
    public func standing(of recommended: String, under model: BudgetModel) -> Standing? {
        let ranking = ranking(for: model)
        guard hasViews(for: model), let own = ranking.first(where: { $0.variant == recommended }), own.wasViewed else { return nil }
        let first = ranking.first { $0.isRanked }
        let tolerance = withheldTolerance
        guard own.withinBudget else {
            // Counted within the budget, would it rank first? Only then does
            // the budget call within the noise decide the ranking.
            let fresherThanFirst = first.map { own.meanStaleness.mean < $0.meanStaleness.mean } ?? true
            return own.isAtTheBudgetsEdge(tolerance: tolerance) && fresherThanFirst
                ? .atTheBudgetsEdge(variants: [own.variant], first: first?.variant) : .beaten(first: first?.variant)
        }
        guard let first, first.variant == recommended else {
            // Within the budget, and another ranks first.
            guard let first else { return .beaten(first: nil) }
            // The first within the budget by less than the noise, with the
            // recommendation next: counted over, the recommendation would be first.
            if first.isAtTheBudgetsEdge(tolerance: tolerance),
               ranking.first(where: { $0.isRanked && $0.variant != first.variant })?.variant == recommended {
                return .atTheBudgetsEdge(variants: [first.variant], first: first.variant)
            }
            // With one replication the noise is unknown: another first is not a
            // tie. Nor is it when any variant ranked ahead within the budget,
            // not only the first, is fresher beyond the noise.
            let ahead = ranking.prefix { $0.variant != recommended }.filter(\.isRanked)
            let beatenByOne = ahead.contains { stalenessGap(from: $0, to: own).excludesZero }
            return seeds.count < 2 || beatenByOne ? .beaten(first: first.variant) : .ties(first: first.variant)
        }
        // First: on budget calls within the noise (its own, or fresher
        // variants' over the budget), as the verdict's "At the budget's edge".
        let edge = ranking.filter { $0.isAtTheBudgetsEdge(under: own, tolerance: tolerance) }
        if !edge.isEmpty {
            return .atTheBudgetsEdge(variants: edge.map(\.variant), first: own.variant)
        }
        if let other = firstWithinTheNoise(of: recommended, under: model) {
            return .leadsWithinTheNoise(other: other)
        }
        return .leads
    }

    /// The best ranked variant within the budget under `model` that
    /// `recommended`, ranked first, leads by less than the noise: most often
    /// the runner-up, but a staler variant whose replications spread wider
    /// may be within the noise when the runner-up is not (news: `never-push`
    /// is beyond the noise at 10 replications, `after-15m`, ranked third,
    /// is not). Nil when it leads every one beyond the noise, when it does
    /// not rank first, and with one replication, whose noise is unknown.
    public func firstWithinTheNoise(of recommended: String, under model: BudgetModel) -> String? {
        let ranking = ranking(for: model)
        guard seeds.count > 1, let own = ranking.first(where: { $0.isRanked }), own.variant == recommended else { return nil }
        let twins = exactlyAsFresh(as: own, under: model).map(\.variant)
        return ranking.first {
            $0.isRanked && $0.variant != recommended && !twins.contains($0.variant) && !stalenessGap(from: own, to: $0).excludesZero
        }?.variant
    }

    /// The variants ranked within the budget whose every replication saw the
    /// same views with the same staleness as `row`'s: under these settings
    /// the model makes no difference between them (a WidgetKit push and an
    /// app's reload on a notification, under the shared push budget), so
    /// more runs never separate them, and they are named as one rather than
    /// as a runner-up "within the noise". Empty with one replication, where
    /// equal values may be chance.
    public func exactlyAsFresh(as row: Row, under model: BudgetModel) -> [Row] {
        guard seeds.count > 1, row.wasViewed else { return [] }
        return ranking(for: model).filter { other in
            other.isRanked && other.variant != row.variant
                && zip(other.replications, row.replications).allSatisfy {
                    $0.counts.views == $1.counts.views && $0.counts.stalenessTotal == $1.counts.stalenessTotal && $0.counts.staleViews == $1.counts.staleViews
                }
        }
    }

    /// How much longer `other`'s mean staleness is than `best`'s, in seconds,
    /// replication by replication (paired, because both ran on the same seeds).
    /// Its interval holds together with those of the other variants' gaps
    /// (`Estimate.comparisons`: `variantCount − 1`): the variant ranked
    /// ahead was picked from them as the freshest, and with more than three
    /// variants a lone 95 % interval would call its lead beyond the noise
    /// more often than one time in twenty.
    public func stalenessGap(from best: Row, to other: Row) -> Estimate {
        // On the replications where both saw a view (the same ones, but for
        // a variant that changes the user): one without has no staleness.
        let pairs = zip(other.replications, best.replications)
        let viewed = pairs.filter { $0.counts.views > 0 && $1.counts.views > 0 }
        return Estimate((viewed.isEmpty ? Array(pairs) : viewed).map { $0.meanStaleness - $1.meanStaleness }, comparisons: variantCount - 1)
    }

    /// The variants ranked against one another, in each budget model's section.
    public var variantCount: Int {
        budgetModels.first.map { rows(for: $0).count } ?? rows.count
    }
}
