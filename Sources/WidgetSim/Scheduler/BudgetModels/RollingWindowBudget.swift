/// At most `limit` budgeted reloads in any trailing 24 hours: the plainest
/// reading of "the budget covers a 24-hour window" (F10). A withheld reload
/// runs the moment the oldest one leaves the window (F12).
///
/// Promised: the `budget_used_24h` column never exceeds `budget_limit`.
/// Not promised: any pacing. A widget that asks often spends the whole limit
/// in bursts, then waits for the window to move: the shape F8 contradicts,
/// kept to show how much the answer depends on pacing.
public struct RollingWindowBudget: BudgetAccounting {
    public static let name = "rollingWindow"
    public static let rule = "at most `limit` budgeted calls in any trailing 24 h; a withheld call runs the moment the oldest leaves the window (F10, F12)"

    public init(parameters: SchedulerParameters) {}

    public func availability(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) -> BudgetAvailability {
        RollingWindowBudget.availability(at: t, limit: limit, history: history)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The rolling window's rule, shared with the paced model.
    @inline(__always)
    static func availability(at t: SimTime, limit: Int, history: BudgetHistory) -> BudgetAvailability {
        let used = history.count(at: t)
        guard used >= limit else { return .now(t) }
        return BudgetAvailability(time: history.element(atOldest: used - limit, at: t) + history.length, spent: true)
    }

    public func charge(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) {}

    public static func audit(_ trail: inout BudgetAuditTrail, limit: Int, parameters: SchedulerParameters) -> String? {
        guard trail.inWindow > limit else { return nil }
        return "\(trail.inWindow) budgeted reloads in the 24 h up to \(trail.latest), over the limit of \(limit) (F10)"
    }
}
