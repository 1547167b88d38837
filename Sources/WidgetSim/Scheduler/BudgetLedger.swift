/// One widget instance's budget (F7: every instance has its own): its
/// budgeted reloads in the trailing 24 hours, which every model reports as
/// `budget_used_24h`, and its account under the scenario's budget model.
///
/// Promised: `charge` is only ever called when `availability` says the
/// budget allows a reload at that instant (checked under
/// `WIDGETSIM_INTERNAL_CHECKS`).
public struct BudgetLedger: Sendable {
    public private(set) var history = BudgetHistory()
    private var account: any BudgetAccounting

    public init(model: BudgetModel, parameters: SchedulerParameters) {
        account = model.accounting.init(parameters: parameters)
    }

    /// Budgeted reloads started in the trailing 24 hours at `t`.
    public func usedInTrailingDay(at t: SimTime) -> Int {
        history.count(at: t)
    }

    /// When one budgeted reload may run, at `t` or later, assuming no other
    /// budgeted reload in between and the same limit.
    public func availability(at t: SimTime, limit: Int, calendar: CivilCalendar) -> BudgetAvailability {
        account.availability(at: t, limit: limit, history: history, calendar: calendar)
    }

    /// Charges one budgeted reload at `t`.
    /// - Precondition: `availability(at: t, ...).time == t`.
    public mutating func charge(at t: SimTime, limit: Int, calendar: CivilCalendar) {
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(availability(at: t, limit: limit, calendar: calendar).time == t,
                     "BudgetLedger: charged at \(t) while the budget was spent")
        #endif
        account.charge(at: t, limit: limit, history: history, calendar: calendar)
        history.record(t, limit: limit)
    }
}
