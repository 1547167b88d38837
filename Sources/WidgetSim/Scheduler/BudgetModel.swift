/// How a widget's daily budget is accounted.
///
/// Apple publishes no algorithm, only that the budget covers a 24-hour window
/// that follows the user's day and "updates throughout the day" (F10), so a
/// scenario picks one of several plausible models and a result can be checked
/// under each. A model is one `BudgetAccounting` type in its own file under
/// `Scheduler/BudgetModels/`; this value names it in scenario files and reports.
///
/// Promised: two models are equal when their names are; `allCases` lists the
/// built-in models in a fixed order (the order of the comparison's sweep).
public struct BudgetModel: RawRepresentable, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The name used in scenario files, reports and on the command line.
    public let rawValue: String
    /// The type that keeps one widget instance's account under this model.
    public let accounting: any BudgetAccounting.Type

    public init(_ accounting: any BudgetAccounting.Type) {
        self.rawValue = accounting.name
        self.accounting = accounting
    }

    /// The built-in model of this name, if there is one.
    public init?(rawValue: String) {
        guard let model = BudgetModel.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = model
    }

    /// The rolling window, spent at a steady pace over the user's active day (F8, F10).
    public static let paced = BudgetModel(PacedBudget.self)
    /// At most `limit` budgeted reloads in any trailing 24 hours (F10).
    public static let rollingWindow = BudgetModel(RollingWindowBudget.self)
    /// A bucket of `limit × tokenBucketBurst` tokens refilled at `limit` a day (F10).
    public static let tokenBucket = BudgetModel(TokenBucketBudget.self)
    /// At most `limit` budgeted reloads per local calendar day.
    public static let midnightReset = BudgetModel(MidnightResetBudget.self)
    /// No limit, as in Xcode debugging or WidgetKit Developer Mode (F24).
    public static let unlimited = BudgetModel(UnlimitedBudget.self)

    /// The built-in models, in the order comparisons sweep them.
    public static let allCases: [BudgetModel] = [.paced, .rollingWindow, .tokenBucket, .midnightReset, .unlimited]

    /// False for a model that imposes no limit (no `budget_limit` is reported).
    public var imposesLimit: Bool { accounting.imposesLimit }

    public var description: String { rawValue }

    public static func == (lhs: BudgetModel, rhs: BudgetModel) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// One widget instance's budget account under one model (F7: every instance
/// has its own).
///
/// A conforming type holds only what its model needs beyond the instance's
/// budgeted reloads in the trailing 24 hours, which the ledger keeps for
/// every model (`history`). To add a model, write a type in its own file and
/// list it in `BudgetModel.allCases`; the simulator needs no change.
public protocol BudgetAccounting: Sendable {
    /// The model's name in scenario files and reports.
    static var name: String { get }
    /// One line for help texts and reports: the rule, with the fact it reads.
    static var rule: String { get }
    /// False for a model without a limit.
    static var imposesLimit: Bool { get }

    init(parameters: SchedulerParameters)

    /// When one budgeted reload may run, at `t` or later, judged against
    /// `limit` and the budgeted reloads so far (`history`), assuming no other
    /// budgeted reload in between and the same limit. Asking changes nothing.
    func availability(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) -> BudgetAvailability

    /// Records one budgeted reload at `t`. `history` does not hold it yet.
    mutating func charge(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar)

    /// The model's promise, as `widgetsim check` audits it from a log: the
    /// budgeted reload just added to `trail` must keep it. Returns what it
    /// breaks, in words, or nil.
    static func audit(_ trail: inout BudgetAuditTrail, limit: Int, parameters: SchedulerParameters) -> String?
}

extension BudgetAccounting {
    public static var imposesLimit: Bool { true }
}

/// When a budgeted reload may run, and why it must wait if it must.
public struct BudgetAvailability: Equatable, Sendable {
    /// The earliest instant the budget allows.
    public var time: SimTime
    /// True when the budget is spent: the reload is withheld until `time`
    /// (F12). False when the model only paces reloads, or `time` is now.
    public var spent: Bool

    public init(time: SimTime, spent: Bool) {
        self.time = time
        self.spent = spent
    }

    /// A reload may run at `t`.
    public static func now(_ t: SimTime) -> BudgetAvailability { BudgetAvailability(time: t, spent: false) }
}
