/// One widget's budgeted reloads as a log records them, read in time order,
/// for auditing a budget model's promise from the rows alone (`widgetsim check`).
///
/// Promised: every query is amortised O(1) or O(log n) in the reloads kept,
/// and only the trailing 24 hours are kept, so a log of any length is audited
/// in linear time and memory bounded by one day's reloads of one widget.
public struct BudgetAuditTrail: Sendable {
    /// Budgeted reload times kept, in order; those before `windowStart` are
    /// out of the window and dropped once they dominate.
    private var times: [SimTime] = []
    /// The limit in force at each kept budgeted reload.
    private var limits: [Int] = []
    /// The first of `times` inside the trailing 24 hours of the latest row.
    private var windowStart = 0
    /// Indices into `limits`, their limits strictly decreasing: the front is
    /// the largest limit in the window (a monotonic queue).
    private var largestLimits: [Int] = []
    private var largestLimitsHead = 0
    /// The latest row's time, and its local time of day.
    public private(set) var latest: SimTime = 0
    public private(set) var latestLocalSecondOfDay = 0
    /// The busiest stretch ending at the latest budgeted reload, as
    /// `recordStretch(rate:)` measures it.
    public private(set) var stretch = Stretch()

    /// The most recent budgeted reload and the one before it, kept apart
    /// from `times`, which forgets reloads that left the window: after a
    /// quiet day, the reload before the latest may be one it forgot.
    public private(set) var lastTime: SimTime?
    private var timeBeforeLast: SimTime?

    public init() {}

    /// Adds a budgeted reload at `t`, under `limit` (0 when the model has none).
    public mutating func append(_ t: SimTime, limit: Int) {
        timeBeforeLast = lastTime
        lastTime = t
        times.append(t)
        limits.append(limit)
        while largestLimits.count > largestLimitsHead && limits[largestLimits[largestLimits.count - 1]] <= limit {
            largestLimits.removeLast()
        }
        largestLimits.append(limits.count - 1)
    }

    /// Moves the window to a row at `t` (not earlier than the last), at local second-of-day `localSecondOfDay`.
    public mutating func advance(to t: SimTime, localSecondOfDay: Int) {
        latest = t
        latestLocalSecondOfDay = localSecondOfDay
        while windowStart < times.count && times[windowStart] <= t - Seconds.day { windowStart += 1 }
        while largestLimitsHead < largestLimits.count && largestLimits[largestLimitsHead] < windowStart { largestLimitsHead += 1 }
        // Forget what left the window once it is most of what is kept, keeping the work amortised O(1).
        if windowStart > 64 && windowStart * 2 > times.count {
            let dropped = windowStart
            times.removeFirst(dropped)
            limits.removeFirst(dropped)
            largestLimits = largestLimits[largestLimitsHead...].map { $0 - dropped }
            largestLimitsHead = 0
            windowStart = 0
        }
    }

    /// Budgeted reloads in `(latest - 1 day, latest]`.
    public var inWindow: Int { times.count - windowStart }

    /// The largest limit in force in the trailing 24 hours.
    public var largestLimitInWindow: Int? {
        largestLimitsHead < largestLimits.count ? limits[largestLimits[largestLimitsHead]] : nil
    }

    /// Budgeted reloads at or after `instant`, which is within the trailing 24 hours.
    public func countSince(_ instant: SimTime) -> Int {
        times.count - max(windowStart, times.firstIndex(greaterThan: instant - 1))
    }

    /// The stretch of budgeted reloads ending at the latest one whose count
    /// most exceeds what a bucket refilled at `rate` per second would have
    /// allowed: `excess` is that count minus the refill, and never below 1.
    public struct Stretch: Equatable, Sendable {
        public var start: SimTime = 0
        public var count = 0
        public var excess = 0.0
    }

    /// Extends `stretch` to the budgeted reload just appended, with the
    /// bucket refilled at `rate` since the one before. The busiest stretch
    /// ending now either is this reload alone or extends the previous busiest
    /// one, so one step per reload finds it.
    public mutating func recordStretch(rate: Double) {
        guard let now = lastTime else { return }
        let previous = timeBeforeLast ?? now
        let carried = stretch.count == 0 ? 0 : stretch.excess - Double(now - previous) * rate
        if carried > 0 {
            stretch.count += 1
            stretch.excess = carried + 1
        } else {
            stretch = Stretch(start: now, count: 1, excess: 1)
        }
    }
}
