/// The budget rules a reloads log is checked against: written beside every
/// report as `parameters.csv`, or given on the command line for a log
/// recorded from a real device.
public struct ReportRules: Equatable, Sendable {
    public var budgetModel: BudgetModel
    public var minimumSpacing: Int
    public var tokenBucketBurst: Double
    public var pushBudget: PushBudget

    public init(budgetModel: BudgetModel = .rollingWindow, minimumSpacing: Int = 300, tokenBucketBurst: Double = 0.25, pushBudget: PushBudget = .shared) {
        self.budgetModel = budgetModel
        self.minimumSpacing = minimumSpacing
        self.tokenBucketBurst = tokenBucketBurst
        self.pushBudget = pushBudget
    }

    public init(_ parameters: SchedulerParameters) {
        self.init(
            budgetModel: parameters.budgetModel, minimumSpacing: parameters.minimumSpacing,
            tokenBucketBurst: parameters.tokenBucketBurst, pushBudget: parameters.pushBudget)
    }

    /// The scheduler parameters these rules fix (the others keep their defaults).
    public var schedulerParameters: SchedulerParameters {
        var parameters = SchedulerParameters()
        parameters.budgetModel = budgetModel
        parameters.minimumSpacing = minimumSpacing
        parameters.tokenBucketBurst = tokenBucketBurst
        parameters.pushBudget = pushBudget
        return parameters
    }

    static let header = ["parameter", "value"]

    /// `parameters.csv`: one rule per row.
    public func csv() -> String {
        var csv = CSVText(header: ReportRules.header)
        csv.append(["budget_model", budgetModel.rawValue])
        csv.append(["minimum_spacing_seconds", String(minimumSpacing)])
        csv.append(["token_bucket_burst", FixedDecimal.format(tokenBucketBurst, decimals: 4)])
        csv.append(["push_budget", pushBudget.rawValue])
        return csv.text
    }
}
