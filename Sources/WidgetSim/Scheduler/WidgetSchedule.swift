/// A budgeted reload that has been asked for and not yet run (F12).
///
/// Requests for one widget merge into one pending reload: it keeps the
/// earliest eligibility and that request's trigger, and counts how many
/// requests it stands for.
public struct PendingReload: Equatable, Sendable {
    public var trigger: ReloadTrigger
    public var eligibleAt: SimTime
    public var requests: Int
    /// True once the observer has been told that this reload is withheld.
    public var withheldReported: Bool

    public init(trigger: ReloadTrigger, eligibleAt: SimTime, requests: Int = 1, withheldReported: Bool = false) {
        self.trigger = trigger
        self.eligibleAt = eligibleAt
        self.requests = requests
        self.withheldReported = withheldReported
    }

    /// Merges another request into this one (F12).
    public mutating func merge(trigger: ReloadTrigger, eligibleAt: SimTime) {
        requests += 1
        if eligibleAt < self.eligibleAt {
            self.eligibleAt = eligibleAt
            self.trigger = trigger
        }
    }
}

/// What the scheduler knows of one widget instance: its budget, its last
/// budgeted reload and its pending request (F7: every instance has its own).
public struct WidgetSchedule: Sendable {
    /// This instance's base daily budget, drawn once (F7, F8).
    public let baseDailyBudget: Int
    /// When the user added the widget; the learning period runs from here (F11).
    public let addedAt: SimTime
    public var ledger: BudgetLedger
    public var lastBudgetedStart: SimTime?
    public var pending: PendingReload?
    /// Draws of the system's own choices about this widget: when it reloads
    /// a single-entry `atEnd` timeline (F3).
    public var schedulingRandom: RandomStream

    public init(baseDailyBudget: Int, addedAt: SimTime, ledger: BudgetLedger, schedulingRandom: RandomStream) {
        self.baseDailyBudget = baseDailyBudget
        self.addedAt = addedAt
        self.ledger = ledger
        self.schedulingRandom = schedulingRandom
    }
}

/// What the scheduler decided about a pending budgeted reload. The simulator
/// acts on it; it decides nothing itself.
public enum ReloadDecision: Equatable, Sendable {
    /// Gate 1: not eligible yet (F2), or too soon after the last budgeted
    /// reload (F13): ask again at this instant.
    case waitUntil(SimTime)
    /// Gate 2: the widget has not been seen for `deferWhenUnseenFor`; ask
    /// again when its page is next viewed (F9).
    case waitForView
    /// Gate 3: the budget is spent; withheld until this instant (F12).
    case withheldUntil(SimTime)
    /// Gate 4: join the reload batch already planned at this instant (F14).
    case joinBatch(SimTime)
    /// Gate 4: open a new batch at this instant, after a scheduling delay (F4).
    case openBatch(SimTime)
    /// The batch the reload joined is due and every gate still allows it:
    /// run it now, under this daily limit (nil: the model has none).
    case runNow(limit: Int?)
}
