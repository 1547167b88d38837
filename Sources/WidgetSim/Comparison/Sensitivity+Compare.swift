/// The sensitivity sweep `compare` cites in its verdict.
extension Sensitivity {
    /// The unknowns `compare` sweeps: every plausible range but the budget
    /// model, which `compare` already runs every variant under (its budget-model sweep).
    public static let unknownsCompareSweeps = SchedulerParameters.plausibleRanges.filter { $0.name != "budgetModel" }

    /// The one-at-a-time sweep behind `compare`'s verdict: every variant
    /// under the budget model `compare` recommends under, each of
    /// `unknownsCompareSweeps` at the low and the high end of its range (or
    /// at each level), with `compare`'s replications, seeds, threads and tolerance.
    ///
    /// Promised: the sweep's point as written is `compare`'s ranking under
    /// `options.budgetModels[0]` (the same runs), so its `recommended` is
    /// `compare`'s best variant; like `compare`, it runs every variant
    /// under that model, except one that sets its own budget model, which
    /// keeps it (and is ranked all the same). Nil when
    /// the scenario declares no variants (there is no ranking to test).
    /// Not promised: anything about interactions (no Morris walks run; that
    /// is `widgetsim sensitivity`'s job).
    public static func citedByComparison(
        _ document: ScenarioDocument, options: Comparison.Options, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunLimitExceeded) -> Sensitivity? {
        guard let (underModel, sweep) = comparisonSweep(document, options: options) else { return nil }
        return try run(underModel, unknowns: unknownsCompareSweeps, options: sweep, progress: progress)
    }

    /// The runs and events `citedByComparison` would make, estimated before
    /// it starts (none without variants), as `estimatedWork`.
    public static func estimatedWorkCitedByComparison(_ document: ScenarioDocument, options: Comparison.Options) -> (runs: Int, events: Double) {
        guard let (underModel, sweep) = comparisonSweep(document, options: options) else { return (0, 0) }
        return estimatedWork(underModel, unknowns: unknownsCompareSweeps, options: sweep)
    }

    /// The scenario under the model `compare` recommends under, and the
    /// sweep's options; nil without variants.
    private static func comparisonSweep(_ document: ScenarioDocument, options: Comparison.Options) -> (ScenarioDocument, Options)? {
        guard !document.variants.isEmpty else { return nil }
        let model = options.budgetModels.first ?? document.base.scheduler.budgetModel
        var underModel = document
        underModel.base.scheduler.budgetModel = model
        for index in underModel.variants.indices where !underModel.variants[index].setsBudgetModel {
            underModel.variants[index].setup.scheduler.budgetModel = model
        }
        var sweep = Options()
        sweep.runs = options.runs
        sweep.trajectories = 0
        sweep.threads = options.threads
        sweep.withheldTolerance = options.withheldTolerance
        return (underModel, sweep)
    }
}
