/// The rolling 24-hour window (F10), spent at a steady pace over the user's
/// active day (F8): a reload takes a token from a small bucket of
/// `pacingBurst` tokens that refills at `limit` per `pacingWindow`, and no
/// more reloads run in any trailing 24 hours than the largest limit in force
/// during them plus that burst (with the defaults, 70 + 2 = 72: the Apple
/// engineer's "72 refreshes per day", F8).
///
/// Why: Apple says a frequently viewed widget gets 40–70 reloads a day,
/// "roughly every 15–60 minutes" (F8), and an Apple engineer put it as
/// "about one every twenty minutes"; the budget "updates throughout the
/// day" (F10). A plain rolling window lets a widget that asks often spend the
/// whole limit in bursts five minutes apart and then wait for hours; pacing
/// spreads the same limit over the day. With the defaults (a limit of 40–70
/// over an 18-hour active day) reloads come every 15–27 minutes.
///
/// When the limit shrinks (the learning period ends, F11, or the widget is
/// viewed less, F9), the pace slows at once, but the reloads already granted
/// in the last 24 hours are not held against the smaller limit: the window
/// counts against the largest limit granted within it. Otherwise the first
/// day after learning would start with hours of nothing, a cliff no one has
/// reported.
///
/// Promised: no trailing 24 hours holds more budgeted reloads than the
/// largest limit in force during them plus `pacingBurst`, and no stretch of
/// time more than `pacingBurst` plus what the bucket refilled meanwhile. A
/// reload that waits only for the pace is not withheld: the budget is not
/// spent, its turn has not come.
public struct PacedBudget: BudgetAccounting {
    public static let name = "paced"
    public static let rule = "at most `limit` budgeted calls in any trailing 24 h, spent at a steady pace: each call takes a token from a bucket of `pacingBurst` tokens refilled at `limit` per `pacingWindow` (F8, F10)"

    /// The settings. The burst is kept as a `Float`, as it always was, so
    /// that the pace is computed from the same value.
    let burstTokens: Float
    let windowSeconds: Int32
    /// The burst's whole tokens, which the 24-hour cap adds: converted once,
    /// not with a checked conversion on every budgeted decision (README,
    /// "Speed"). The ledger holds this model as its concrete type, so the
    /// account no longer needs to fit an existential's inline words.
    let burstWholeTokens: Int
    private var bucket = TokenBucket()

    public init(parameters: SchedulerParameters) {
        burstTokens = Float(max(1, parameters.pacingBurst))
        windowSeconds = Int32(max(1, parameters.pacingWindow))
        burstWholeTokens = Int(Double(burstTokens))
    }

    var burst: Double { Double(burstTokens) }

    func perSecond(limit: Int) -> Double { Double(limit) / Double(windowSeconds) }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The 24-hour cap at `t`: the largest of `limit` and the limits granted
    /// in `(t - 1 day, t]`, plus the bucket's burst.
    @inline(__always)
    func cap(at t: SimTime, limit: Int, history: BudgetHistory) -> Int {
        max(limit, history.largestLimit(at: t) ?? limit) + burstWholeTokens
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    public func availability(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) -> BudgetAvailability {
        let rolling = RollingWindowBudget.availability(at: t, limit: cap(at: t, limit: limit, history: history), history: history)
        guard !rolling.spent else { return rolling }
        return BudgetAvailability(time: bucket.nextToken(at: t, capacity: burst, perSecond: perSecond(limit: limit)), spent: false)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    public mutating func charge(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) {
        bucket.draw(at: t, capacity: burst, perSecond: perSecond(limit: limit))
    }

    public static func audit(_ trail: inout BudgetAuditTrail, limit: Int, parameters: SchedulerParameters) -> String? {
        let largest = trail.largestLimitInWindow ?? limit
        let cap = largest + Int(max(1, parameters.pacingBurst))
        if trail.inWindow > cap {
            return "\(trail.inWindow) budgeted reloads in the 24 h up to \(trail.latest), over the largest limit in force during them plus the pacing burst, \(cap) (F8, F10)"
        }
        // The pace at the largest limit in force bounds every stretch that ends now.
        let rate = Double(largest) / Double(max(1, parameters.pacingWindow))
        let burst = max(1, parameters.pacingBurst)
        trail.recordStretch(rate: rate)
        let stretch = trail.stretch
        if stretch.excess > burst + 1e-6 {
            let bound = Double(stretch.count) - stretch.excess + burst
            return "\(stretch.count) budgeted reloads from \(stretch.start) to \(trail.latest), more than a pacing bucket of \(DurationText.plain(burst)) plus what refilled meanwhile (\(FixedDecimal.format(bound, decimals: 2)))"
        }
        return nil
    }
}
