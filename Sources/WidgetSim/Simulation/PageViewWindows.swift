/// Each page's views in the trailing day, for the one question the scheduler
/// asks of them (F9): how many views did the widget's page get in the
/// trailing 24 hours?
///
/// Promised: `count(page:at:)` is what a `TrailingWindow` of the same length
/// holding the page's recorded views answers, for a clock that only moves
/// forward (every view is recorded at the current time, and every question
/// is asked at the current time or later).
///
/// Why not a `TrailingWindow` per page: every view appended to an array
/// inside a table, and every question walked it, each asking the runtime
/// whether the array's buffer was shared and checking its bounds (README,
/// "Speed"). Here the pages' views lie in one table, a ring of `capacity`
/// instants each, and an instant is dropped as soon as it leaves the window.
///
/// Not promised: value semantics (it is built on `StateTable`).
struct PageViewWindows {
    /// The window's length in seconds.
    let length: Int
    /// Instants each page's ring holds before every ring grows: a power of two.
    private(set) var capacity: Int
    /// Page `p`'s ring is `times[p · capacity ..< (p + 1) · capacity]`.
    private var times: StateTable<SimTime>
    private var rings: StateTable<Ring>

    /// Where one page's views lie in its ring: the oldest at `start`, then
    /// `count` in time order, wrapping around.
    struct Ring {
        var start = 0
        var count = 0
        /// The latest view recorded.
        var last = SimTime.min
    }

    /// Windows of `length` seconds for `pageCount` pages, each with room for
    /// `capacity` views (rounded up to a power of two) before they grow.
    init(pageCount: Int, length: Int = Seconds.day, capacity: Int = 256) {
        self.length = length
        var rounded = 1
        while rounded < capacity { rounded *= 2 }
        self.capacity = rounded
        times = StateTable(repeating: 0, count: pageCount * rounded)
        rings = StateTable(repeating: Ring(), count: pageCount)
    }

    /// Records a view of `page` at `t`, the current time.
    @inline(__always)
    mutating func record(page: Int, at t: SimTime) {
        var ring = dropExpired(page: page, at: t)
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(t >= ring.last, "PageViewWindows: time went backwards")
        #endif
        if ring.count == capacity {
            grow()
            ring = rings[page]
        }
        times[page &* capacity &+ ((ring.start &+ ring.count) & (capacity &- 1))] = t
        ring.count &+= 1
        ring.last = t
        rings[page] = ring
    }

    /// The views of `page` in `(t - length, t]`, at the current time `t`.
    @inline(__always)
    mutating func count(page: Int, at t: SimTime) -> Int {
        let ring = dropExpired(page: page, at: t)
        rings[page] = ring
        return ring.count
    }

    /// The page's ring without the views at or before `t - length`: they
    /// are out of every window from `t` on, as the clock never goes back.
    @inline(__always)
    private func dropExpired(page: Int, at t: SimTime) -> Ring {
        let cutoff = t - length
        var ring = rings[page]
        let base = page &* capacity
        let mask = capacity &- 1
        while ring.count > 0 && times[base &+ ring.start] <= cutoff {
            ring.start = (ring.start &+ 1) & mask
            ring.count &-= 1
        }
        return ring
    }

    /// Doubles every page's ring, each page's views moved to the front of
    /// its new ring in order.
    @inline(never)
    private mutating func grow() {
        let grown = capacity * 2
        let old = times
        let oldMask = capacity - 1
        times = StateTable(repeating: 0, count: rings.count * grown)
        for page in 0..<rings.count {
            let ring = rings[page]
            for offset in 0..<ring.count {
                times[page * grown + offset] = old[page * capacity + ((ring.start + offset) & oldMask)]
            }
            rings[page].start = 0
        }
        capacity = grown
    }
}
