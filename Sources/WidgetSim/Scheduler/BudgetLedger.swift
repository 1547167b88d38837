/// One widget instance's budget (F7: every instance has its own): its
/// budgeted reloads in the trailing 24 hours, which every model reports as
/// `budget_used_24h`, and its account under the scenario's budget model.
///
/// Promised: `charge` is only ever called when `availability` says the
/// budget allows a reload at that instant (checked under
/// `WIDGETSIM_INTERNAL_CHECKS`).
public struct BudgetLedger: Sendable {
    public private(set) var history = BudgetHistory()
    /// The account under the scenario's model; a placeholder, never asked,
    /// when the model is paced.
    private var account: any BudgetAccounting
    /// The account under the default model, when it is the scenario's, as a
    /// concrete type (`account` is then left unused): asked on every budgeted
    /// decision and charged on every budgeted reload, the existential went
    /// through its witness table and, to charge, its box's copy-on-write
    /// check, where a `PacedBudget` is inlined (README, "Speed"). Tested
    /// through the flag alone: reading an optional existential, even to
    /// compare it with nil, copies it.
    private var paced: PacedBudget
    private let isPaced: Bool

    public init(model: BudgetModel, parameters: SchedulerParameters) {
        paced = PacedBudget(parameters: parameters)
        // Told apart by type, not by making the account and casting it: the
        // cast searched the conformance tables, and a paced account (larger
        // than an existential's inline words) took a heap box it never used.
        isPaced = ObjectIdentifier(model.accounting) == ObjectIdentifier(PacedBudget.self)
        account = isPaced ? UnlimitedBudget(parameters: parameters) : model.accounting.init(parameters: parameters)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Budgeted reloads started in the trailing 24 hours at `t`.
    @inline(__always)
    public func usedInTrailingDay(at t: SimTime) -> Int {
        history.count(at: t)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// When one budgeted reload may run, at `t` or later, assuming no other
    /// budgeted reload in between and the same limit.
    @inline(__always)
    public func availability(at t: SimTime, limit: Int, calendar: CivilCalendar) -> BudgetAvailability {
        if isPaced {
            return paced.availability(at: t, limit: limit, history: history, calendar: calendar)
        }
        return account.availability(at: t, limit: limit, history: history, calendar: calendar)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Charges one budgeted reload at `t`.
    /// - Precondition: `availability(at: t, ...).time == t`.
    @inline(__always)
    public mutating func charge(at t: SimTime, limit: Int, calendar: CivilCalendar) {
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(availability(at: t, limit: limit, calendar: calendar).time == t,
                     "BudgetLedger: charged at \(t) while the budget was spent")
        #endif
        if isPaced {
            paced.charge(at: t, limit: limit, history: history, calendar: calendar)
        } else {
            account.charge(at: t, limit: limit, history: history, calendar: calendar)
        }
        history.record(t, limit: limit)
    }
}
