/// A bucket of `round(limit × tokenBucketBurst)` tokens (at least one),
/// refilled continuously at `limit` tokens a day; each budgeted reload takes
/// one. A reading of a budget that "updates throughout the day" (F10).
///
/// Promised: in any stretch of time, budgeted reloads never exceed the
/// bucket's capacity plus what refilled meanwhile.
public struct TokenBucketBudget: BudgetAccounting {
    public static let name = "tokenBucket"
    public static let rule = "a bucket of `round(limit × tokenBucketBurst)` tokens, refilled continuously at `limit` a day; one token per call (F10)"

    let burstFraction: Double
    private var bucket = TokenBucket()

    public init(parameters: SchedulerParameters) {
        burstFraction = parameters.tokenBucketBurst
    }

    /// The bucket's capacity for a daily `limit`: at least one token.
    func capacity(limit: Int) -> Double {
        max(1, (Double(limit) * burstFraction).rounded())
    }

    public func availability(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) -> BudgetAvailability {
        let next = bucket.nextToken(at: t, capacity: capacity(limit: limit), perSecond: Double(limit) / Double(Seconds.day))
        return BudgetAvailability(time: next, spent: next > t)
    }

    public mutating func charge(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) {
        bucket.draw(at: t, capacity: capacity(limit: limit), perSecond: Double(limit) / Double(Seconds.day))
    }

    public static func audit(_ trail: inout BudgetAuditTrail, limit: Int, parameters: SchedulerParameters) -> String? {
        // A full bucket plus a day's refill bounds any 24 hours, at the
        // largest limit in force during them.
        let windowLimit = trail.largestLimitInWindow ?? limit
        let bound = windowLimit + Int((Double(windowLimit) * parameters.tokenBucketBurst).rounded(.up)) + 1
        guard trail.inWindow > bound else { return nil }
        return "\(trail.inWindow) budgeted reloads in 24 h, more than a full bucket plus a day's refill (\(bound))"
    }
}
