/// Instants in time order, of which only those in the trailing `length` seconds count.
///
/// Promised: `count(at:)` is the number of recorded instants in `(t - length, t]`
/// for any `t` not earlier than the last recorded instant. Recording is
/// amortised O(1); old instants are dropped lazily.
struct TrailingWindow: Sendable {
    let length: Int
    private var times: [SimTime] = []
    private var head = 0

    init(length: Int = Seconds.day) {
        self.length = length
    }

    /// Records an instant.
    /// - Precondition: `t` is not earlier than the last recorded instant.
    mutating func record(_ t: SimTime) {
        precondition(times.last.map { $0 <= t } ?? true, "TrailingWindow: time went backwards")
        times.append(t)
    }

    /// Drops instants that no longer count at `t`.
    mutating func evict(before t: SimTime) {
        while head < times.count && times[head] <= t - length { head += 1 }
        // Compact once the dropped prefix dominates, keeping the work amortised O(1).
        if head > 64 && head * 2 > times.count {
            times.removeFirst(head)
            head = 0
        }
    }

    /// The number of instants in `(t - length, t]`.
    mutating func count(at t: SimTime) -> Int {
        evict(before: t)
        var end = times.count
        while end > head && times[end - 1] > t { end -= 1 }
        return end - head
    }

    /// The `index`-th oldest instant still in the window (0 is the oldest).
    func element(atOldest index: Int) -> SimTime { times[head + index] }

    /// The most recent instant, if any.
    var last: SimTime? { times.count > head ? times.last : nil }
}
