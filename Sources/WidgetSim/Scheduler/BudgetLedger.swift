/// One widget instance's budget account (F7: every instance has its own).
///
/// Promised, for the rolling-window model: a budgeted reload is allowed at `t`
/// only if fewer than `limit(t)` budgeted reloads started in `(t - 24 h, t]`,
/// so the `budget_used_24h` column never exceeds `budget_limit`. The other
/// models keep their own promise (see `BudgetModel`); all of them record every
/// budgeted reload so the trailing-24-hour count can be reported.
struct BudgetLedger: Sendable {
    let model: BudgetModel
    let burstFraction: Double
    private(set) var trailingDay = TrailingWindow()
    private var tokens: Double = .nan
    private var tokensUpdatedAt: SimTime = 0
    private var dayCount = 0
    private var countedDay = Int.min

    init(model: BudgetModel, burstFraction: Double) {
        self.model = model
        self.burstFraction = burstFraction
    }

    /// Budgeted reloads started in the trailing 24 hours at `t`.
    mutating func usedInTrailingDay(at t: SimTime) -> Int {
        trailingDay.count(at: t)
    }

    /// The earliest instant not before `t` at which one budgeted reload may run,
    /// assuming no other budgeted reload in between and the same limit.
    mutating func earliestAvailability(at t: SimTime, limit: Int, calendar: CivilCalendar) -> SimTime {
        switch model {
        case .unlimited:
            return t
        case .rollingWindow:
            let used = trailingDay.count(at: t)
            guard used >= limit else { return t }
            // The reload may run once enough of the oldest ones leave the window.
            return trailingDay.element(atOldest: used - limit) + trailingDay.length
        case .midnightReset:
            let day = calendar.dayIndex(t)
            let used = day == countedDay ? dayCount : 0
            return used < limit ? t : calendar.startOfDay(day + 1)
        case .tokenBucket:
            refill(at: t, limit: limit)
            guard tokens < 1 - BudgetLedger.tokenTolerance else { return t }
            let perSecond = Double(limit) / Double(Seconds.day)
            return t + Int(((1 - tokens) / perSecond).rounded(.up))
        }
    }

    /// Charges one budgeted reload at `t`.
    /// - Precondition: `earliestAvailability(at: t, ...) == t`.
    mutating func charge(at t: SimTime, limit: Int, calendar: CivilCalendar) {
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(earliestAvailability(at: t, limit: limit, calendar: calendar) == t,
                     "BudgetLedger: charged at \(t) while the budget was spent")
        #endif
        trailingDay.record(t)
        switch model {
        case .unlimited, .rollingWindow:
            break
        case .midnightReset:
            let day = calendar.dayIndex(t)
            if day != countedDay {
                countedDay = day
                dayCount = 0
            }
            dayCount += 1
        case .tokenBucket:
            refill(at: t, limit: limit)
            tokens = max(0, tokens - 1)
        }
    }

    /// Token-bucket capacity for a daily `limit`: at least one token.
    func capacity(limit: Int) -> Double {
        max(1, (Double(limit) * burstFraction).rounded())
    }

    private mutating func refill(at t: SimTime, limit: Int) {
        let full = capacity(limit: limit)
        if tokens.isNaN {
            tokens = full
        } else {
            tokens = min(full, tokens + Double(t - tokensUpdatedAt) * Double(limit) / Double(Seconds.day))
        }
        tokensUpdatedAt = t
    }

    /// Rounding slack when comparing a refilled token count with one.
    static let tokenTolerance = 1e-9
}
