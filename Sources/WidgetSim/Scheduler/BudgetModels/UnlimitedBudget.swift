/// No limit, as in Xcode debugging or with WidgetKit Developer Mode on (F24).
/// Spacing still applies; set `minimumSpacing` to 0 to model the debugger too (F13).
public struct UnlimitedBudget: BudgetAccounting {
    public static let name = "unlimited"
    public static let rule = "no limit, as in Xcode debugging and Developer Mode (F24); spacing still applies (set `minimumSpacing` to 0 to model the debugger too, F13)"
    public static let imposesLimit = false

    public init(parameters: SchedulerParameters) {}

    public func availability(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) -> BudgetAvailability { .now(t) }

    public func charge(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) {}

    public static func audit(_ trail: inout BudgetAuditTrail, limit: Int, parameters: SchedulerParameters) -> String? { nil }
}
