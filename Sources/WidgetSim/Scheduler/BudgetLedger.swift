/// One widget instance's budget (F7: every instance has its own): its
/// budgeted reloads in the trailing 24 hours, which every model reports as
/// `budget_used_24h`, and its account under the scenario's budget model.
///
/// Promised: `charge` is only ever called when `earliestAvailability` says the
/// budget allows a reload at that instant (checked under
/// `WIDGETSIM_INTERNAL_CHECKS`).
public struct BudgetLedger: Sendable {
    public private(set) var history = TrailingWindow()
    private var account: any BudgetAccounting

    public init(model: BudgetModel, parameters: SchedulerParameters) {
        account = model.accounting.init(parameters: parameters)
    }

    /// Budgeted reloads started in the trailing 24 hours at `t`.
    public func usedInTrailingDay(at t: SimTime) -> Int {
        history.count(at: t)
    }

    /// The earliest instant not before `t` at which one budgeted reload may run,
    /// assuming no other budgeted reload in between and the same limit.
    public mutating func earliestAvailability(at t: SimTime, limit: Int, calendar: CivilCalendar) -> SimTime {
        account.earliestAvailability(at: t, limit: limit, history: history, calendar: calendar)
    }

    /// Charges one budgeted reload at `t`.
    /// - Precondition: `earliestAvailability(at: t, ...) == t`.
    public mutating func charge(at t: SimTime, limit: Int, calendar: CivilCalendar) {
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(earliestAvailability(at: t, limit: limit, calendar: calendar) == t,
                     "BudgetLedger: charged at \(t) while the budget was spent")
        #endif
        account.charge(at: t, limit: limit, history: history, calendar: calendar)
        history.record(t)
    }
}
