/// Instants in time order, of which only those in the trailing `length`
/// seconds count: a widget's budgeted reloads in the last 24 hours (F10), or
/// the views of a page in the last 24 hours (F9).
///
/// Promised: `count(at:)` is the number of recorded instants in
/// `(t - length, t]`, for any `t` not earlier than the last recorded instant
/// (a clock that only moves forward asks no other). Earlier windows are not
/// answered: instants that can no longer count from the last one on are
/// dropped as new ones arrive. Queries change nothing; recording is
/// amortised O(1).
public struct TrailingWindow: Sendable {
    public let length: Int
    private var times: [SimTime] = []
    /// Instants before this index are at or before `last - length`: out of every window from now on.
    private var head = 0

    /// A window of `length` seconds with room for `capacity` instants before
    /// its storage grows (a page seen a hundred times a day holds about that many).
    public init(length: Int = Seconds.day, reservingCapacity capacity: Int = 0) {
        self.length = length
        times.reserveCapacity(capacity)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Records an instant.
    /// - Precondition: `t` is not earlier than the last recorded instant.
    @inline(__always)
    public mutating func record(_ t: SimTime) {
        if let last = times.last { precondition(last <= t, "TrailingWindow: time went backwards") }
        times.append(t)
        head = firstIndexInWindow(at: t)
        // Compact once the dropped prefix dominates, keeping the work amortised O(1).
        if head > 64 && head * 2 > times.count {
            times.removeFirst(head)
            head = 0
        }
    }

    /// The index of the oldest instant inside the window ending at `t`.
    /// Queries come at about the time of the last record, so the walk from
    /// `head` is a step or two. Read through the buffer: every view and
    /// reload walks it, and indexing the array checked bounds at each step.
    @inline(__always)
    private func firstIndexInWindow(at t: SimTime) -> Int {
        let cutoff = t - length
        return times.withUnsafeBufferPointer { times in
            TrailingWindow.skipExpired(from: head, to: times.count, in: times, cutoff: cutoff)
        }
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The first index in `start ..< end` (or `end`) whose instant is after
    /// `cutoff`, the instants being in time order. The first two steps are
    /// taken without a branch: a question mostly finds none or one instant
    /// newly out of the window, at random, and a loop's exit mispredicted
    /// on them (README, "Speed"). Past the last instant the step reads the
    /// last one again, and the bound masks it.
    @inline(__always)
    static func skipExpired(from start: Int, to end: Int, in times: UnsafeBufferPointer<SimTime>, cutoff: SimTime) -> Int {
        guard start < end else { return start }
        var index = start
        for _ in 0..<2 {
            let inside = index < end
            let expired = times[inside ? index : end &- 1] <= cutoff
            index &+= Int(unsafeBitCast(inside, to: UInt8.self) & unsafeBitCast(expired, to: UInt8.self))
        }
        while index < end && times[index] <= cutoff { index += 1 }
        return index
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The number of instants in `(t - length, t]`.
    @inline(__always)
    public func count(at t: SimTime) -> Int {
        // One pass over the buffer, not two: the instants at or before the
        // cutoff all lie before `end`, so the forward walk stops at `end` at the
        // latest (README, "Speed").
        let cutoff = t - length
        return times.withUnsafeBufferPointer { times in
            var end = times.count
            while end > head && times[end - 1] > t { end -= 1 }
            return end - TrailingWindow.skipExpired(from: head, to: end, in: times, cutoff: cutoff)
        }
    }

    /// The `index`-th oldest instant in the window ending at `t` (0 is the oldest).
    public func element(atOldest index: Int, at t: SimTime) -> SimTime {
        times[firstIndexInWindow(at: t) + index]
    }

    /// The most recent instant, if any.
    public var last: SimTime? { times.last }
}
