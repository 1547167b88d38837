/// One widget instance's budgeted reloads in the trailing 24 hours, with the
/// daily limit granted at each: what every budget model reads, and what the
/// `budget_used_24h` column reports.
///
/// Promised: queries change nothing; `largestLimit(at:)` is the largest limit
/// granted in `(t - 1 day, t]`, in O(1) amortised time, for any `t` not
/// earlier than the last recorded reload (as for `TrailingWindow`).
public struct BudgetHistory: Sendable {
    /// The reloads themselves.
    public private(set) var reloads = TrailingWindow(reservingCapacity: 128)
    /// Grants that no later grant matched or exceeded, oldest first: their
    /// limits fall from front to back, so the first one still in the window
    /// is the largest (a monotonic queue).
    private var grants: [(time: SimTime, limit: Int)] = []
    private var firstGrant = 0

    public init() {}

    /// The window's length: 24 hours.
    public var length: Int { reloads.length }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Budgeted reloads in `(t - 1 day, t]`.
    @inline(__always)
    public func count(at t: SimTime) -> Int { reloads.count(at: t) }

    /// The `index`-th oldest budgeted reload in the window ending at `t`.
    public func element(atOldest index: Int, at t: SimTime) -> SimTime { reloads.element(atOldest: index, at: t) }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The largest limit granted in `(t - 1 day, t]`, or nil if none was.
    @inline(__always)
    public func largestLimit(at t: SimTime) -> Int? {
        let cutoff = t - reloads.length
        return grants.withUnsafeBufferPointer { grants in
            var index = firstGrant
            while index < grants.count && grants[index].time <= cutoff { index += 1 }
            return index < grants.count ? grants[index].limit : nil
        }
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Records a budgeted reload at `t`, granted under `limit`.
    /// - Precondition: `t` is not earlier than the last recorded reload.
    @inline(__always)
    public mutating func record(_ t: SimTime, limit: Int) {
        reloads.record(t)
        while firstGrant < grants.count && grants[firstGrant].time <= t - reloads.length { firstGrant += 1 }
        // A grant no larger than this one can never be the largest again. It
        // is overwritten in place: the limit is usually the same as the last
        // one, which this then replaces without shrinking and growing the array.
        var end = grants.count
        while end > firstGrant && grants[end - 1].limit <= limit { end -= 1 }
        if end < grants.count {
            grants[end] = (t, limit)
            if end + 1 < grants.count { grants.removeLast(grants.count - end - 1) }
        } else {
            grants.append((t, limit))
        }
        if firstGrant > 64 && firstGrant * 2 > grants.count {
            grants.removeFirst(firstGrant)
            firstGrant = 0
        }
    }
}
