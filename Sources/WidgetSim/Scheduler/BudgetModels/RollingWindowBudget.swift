/// At most `limit` budgeted reloads in any trailing 24 hours: the plainest
/// reading of "the budget covers a 24-hour window" (F10). A withheld reload
/// runs the moment the oldest one leaves the window (F12).
///
/// Promised: the `budget_used_24h` column never exceeds `budget_limit`.
public struct RollingWindowBudget: BudgetAccounting {
    public static let name = "rollingWindow"
    public static let rule = "at most `limit` budgeted calls in any trailing 24 h; a withheld call runs the moment the oldest leaves the window (F10, F12)"

    public init(parameters: SchedulerParameters) {}

    public func earliestAvailability(at t: SimTime, limit: Int, history: TrailingWindow, calendar: CivilCalendar) -> SimTime {
        let used = history.count(at: t)
        guard used >= limit else { return t }
        return history.element(atOldest: used - limit, at: t) + history.length
    }

    public func charge(at t: SimTime, limit: Int, history: TrailingWindow, calendar: CivilCalendar) {}

    public static func audit(_ trail: BudgetAuditTrail, limit: Int, parameters: SchedulerParameters) -> String? {
        guard trail.inWindow > limit else { return nil }
        return "\(trail.inWindow) budgeted reloads in the 24 h up to \(trail.latest), over the limit of \(limit) (F10)"
    }
}
