/// The arrivals of a widget's bursts of changes or a page's bursts of looks
/// (`BurstWindow`): a stream of their own, and where each of the two
/// chains now running stands, in continuous time. A day's chain runs
/// through the openings of that local day, past midnight for a window that
/// crosses it, so the chains of two days may overlap (a window is at most
/// a day long): one cursor for each parity of the day.
///
/// Instants are whole seconds, but the chain runs in continuous time and
/// each arrival is placed at the second that holds it, so several may
/// share a second: rounding each gap to a second would add a fraction of a
/// second of exposure per arrival, and bias a dense window's count.
struct BurstArrivals {
    var random: RandomStream
    /// Where the chains of the even and the odd days stand (two stored
    /// values, not an array: nothing to allocate or retain).
    var evenCursor = 0.0
    var oddCursor = 0.0

    init(random: RandomStream) {
        self.random = random
    }

    /// The whole second of the next arrival of day `day`'s chain through
    /// `openings`, from where the chain stands (`start` begins it: the
    /// day's start, or the run's); nil when its openings end first.
    mutating func next(_ openings: [Opening], day: Int, start: SimTime? = nil) -> SimTime? {
        let even = day & 1 == 0
        if let start { if even { evenCursor = Double(start) } else { oddCursor = Double(start) } }
        guard let arrival = Self.nextArrival(openings, after: even ? evenCursor : oddCursor, random: &random) else { return nil }
        if even { evenCursor = arrival } else { oddCursor = arrival }
        return SimTime(arrival)
    }

    /// One opening of a window: its span and its rate, expected events a second.
    struct Opening {
        var from: SimTime
        var to: SimTime
        var rate: Double
    }

    /// The next arrival after `after` of a Poisson process whose rate is
    /// the sum of the rates of the openings that hold the instant: one
    /// exponential draw of hazard, spent along the instants where the total
    /// rate changes. Always before the end of the opening it falls in (its
    /// second is inside the window); nil when the openings end first.
    static func nextArrival(_ openings: [Opening], after: Double, random: inout RandomStream) -> Double? {
        guard !openings.isEmpty else { return nil }
        var hazard = random.nextExponential(mean: 1)
        let edges = openings.flatMap { [$0.from, $0.to] }.filter { Double($0) > after }.sorted()
        var cursor = after
        for edge in edges where Double(edge) > cursor {
            let rate = openings.reduce(0.0) { $0 + (Double($1.from) <= cursor && cursor < Double($1.to) ? $1.rate : 0) }
            let span = Double(edge) - cursor
            if rate > 0 && hazard < rate * span {
                // Rounding may reach the edge itself: keep it inside.
                return min(cursor + hazard / rate, Double(edge).nextDown)
            }
            hazard -= rate * span
            cursor = Double(edge)
        }
        return nil
    }
}
