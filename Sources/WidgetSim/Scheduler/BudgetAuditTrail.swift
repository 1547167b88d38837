/// One widget's budgeted reloads as a log records them, read in time order,
/// for auditing a budget model's promise from the rows alone (`widgetsim check`).
///
/// Promised: the trailing-24-hour window only moves forward, so a log is
/// audited in linear time.
public struct BudgetAuditTrail: Sendable {
    /// Budgeted reload times so far, in order.
    public private(set) var times: [SimTime] = []
    /// The limit in force at each budgeted reload.
    public private(set) var limits: [Int] = []
    /// The first of `times` inside the trailing 24 hours of the latest row.
    private var windowStart = 0
    /// The latest row's time, and its local time of day.
    public private(set) var latest: SimTime = 0
    public private(set) var latestLocalSecondOfDay = 0

    public init() {}

    /// Adds a budgeted reload at `t`, under `limit` (0 when the model has none).
    public mutating func append(_ t: SimTime, limit: Int) {
        times.append(t)
        limits.append(limit)
    }

    /// Moves the window to a row at `t` (not earlier than the last), at local second-of-day `localSecondOfDay`.
    public mutating func advance(to t: SimTime, localSecondOfDay: Int) {
        latest = t
        latestLocalSecondOfDay = localSecondOfDay
        while windowStart < times.count && times[windowStart] <= t - Seconds.day { windowStart += 1 }
    }

    /// Budgeted reloads in `(latest - 1 day, latest]`.
    public var inWindow: Int { times.count - windowStart }

    /// The budgeted reloads in the trailing 24 hours, oldest first.
    public var timesInWindow: ArraySlice<SimTime> { times[windowStart...] }

    /// The largest limit in force in the trailing 24 hours.
    public var largestLimitInWindow: Int? { limits[windowStart...].max() }

    /// Budgeted reloads at or after `instant`, counted from the newest.
    public func countSince(_ instant: SimTime) -> Int {
        var count = 0
        for time in times.reversed() {
            guard time >= instant else { break }
            count += 1
        }
        return count
    }
}
