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
/// "Speed"). Here each page's views are a ring of instants in one table,
/// and the views that have left the window are dropped whenever the page is
/// next viewed or asked about.
///
/// Not promised: value semantics (it is built on `StateTable`).
struct PageViewWindows {
    /// The window's length in seconds.
    let length: Int
    /// Every page's ring, one after the other.
    private var times: StateTable<SimTime>
    private var rings: StateTable<Ring>

    /// Where one page's views lie: the ring `times[base ..< base + capacity]`,
    /// the oldest view at `base + start`, then `count` in time order,
    /// wrapping around.
    struct Ring {
        var base: Int
        /// A power of two, or 0 for a page without widgets that no script
        /// has viewed yet (its first view gives it 8 places).
        var capacity: Int
        var start = 0
        var count = 0
    }

    /// Windows of `length` seconds, page `p` with room for `capacities[p]`
    /// views (rounded up to a power of two) before its ring grows: a page
    /// whose views are not simulated needs none.
    init(capacities: [Int], length: Int = Seconds.day) {
        self.length = length
        var total = 0
        rings = StateTable(count: capacities.count) { page in
            var rounded = capacities[page] > 0 ? 1 : 0
            while rounded < capacities[page] { rounded *= 2 }
            defer { total += rounded }
            return Ring(base: total, capacity: rounded)
        }
        times = StateTable(repeating: 0, count: total)
    }

    /// The room page `page` has before its ring grows.
    func capacity(of page: Int) -> Int { rings[page].capacity }

    /// Records a view of `page` at `t`, the current time.
    @inline(__always)
    mutating func record(page: Int, at t: SimTime) {
        var ring = dropExpired(page: page, at: t, branchFreeSteps: 2)
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(
            ring.count == 0 || times[ring.base + (ring.start + ring.count - 1) % ring.capacity] <= t,
            "PageViewWindows: time went backwards")
        #endif
        if ring.count == ring.capacity {
            rings[page] = ring
            grow(page)
            ring = rings[page]
        }
        times[ring.base &+ ((ring.start &+ ring.count) & (ring.capacity &- 1))] = t
        ring.count &+= 1
        rings[page] = ring
    }

    /// The views of `page` in `(t - length, t]`, at the current time `t`.
    @inline(__always)
    mutating func count(page: Int, at t: SimTime) -> Int {
        let ring = dropExpired(page: page, at: t, branchFreeSteps: 0)
        rings[page] = ring
        return ring.count
    }

    /// The page's ring without the views at or before `t - length`: they
    /// are out of every window from `t` on, as the clock never goes back.
    @inline(__always)
    private func dropExpired(page: Int, at t: SimTime, branchFreeSteps: Int) -> Ring {
        let cutoff = t - length
        var ring = rings[page]
        guard ring.capacity > 0 else { return ring }
        let mask = ring.capacity &- 1
        // The first `branchFreeSteps` views leave without a branch. A view
        // (two steps) mostly finds none or one to drop, at random, and a
        // loop's exit mispredicted on them; a decision (none) comes just
        // after a view has dropped them, and the steps cost more than they
        // saved (README, "Speed"). A slot past the views read while none
        // are left holds an old instant; the count masks it.
        for _ in 0..<branchFreeSteps {
            let leaves = Int(
                unsafeBitCast(ring.count > 0, to: UInt8.self) & unsafeBitCast(times[ring.base &+ ring.start] <= cutoff, to: UInt8.self))
            ring.start = (ring.start &+ leaves) & mask
            ring.count &-= leaves
        }
        while ring.count > 0 && times[ring.base &+ ring.start] <= cutoff {
            ring.start = (ring.start &+ 1) & mask
            ring.count &-= 1
        }
        return ring
    }

    /// Doubles `page`'s ring (or gives it its first 8 places): every page's
    /// views are moved into a new table, each to the front of its ring, in
    /// order. Rare: a ring starts with room for twice a day's views.
    @inline(never)
    private mutating func grow(_ page: Int) {
        let old = times
        let oldRings = rings
        var total = 0
        rings = StateTable(count: oldRings.count) { index in
            let capacity = index == page ? max(8, 2 * oldRings[index].capacity) : oldRings[index].capacity
            defer { total += capacity }
            return Ring(base: total, capacity: capacity, start: 0, count: oldRings[index].count)
        }
        times = StateTable(repeating: 0, count: total)
        for index in 0..<oldRings.count {
            let from = oldRings[index]
            for offset in 0..<from.count {
                times[rings[index].base + offset] = old[from.base + (from.start + offset) % from.capacity]
            }
        }
    }
}
