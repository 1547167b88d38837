/// A bucket of tokens that refills continuously: the arithmetic shared by
/// the token-bucket model and the paced model's pacing.
///
/// Promised: the level at any instant is a pure function of the level after
/// the last draw and the time since, at the rate given when asked, capped at
/// the capacity given when asked; only a draw changes the state.
struct TokenBucket: Sendable {
    /// Tokens left after the last draw; NaN before the first (the bucket
    /// starts full). Not an optional, so that the bucket and a model's two
    /// settings fit in an existential's three inline words: a model is asked
    /// on almost every event, and a boxed one costs a heap access each time.
    private var levelAfterDraw = Double.nan
    private var drawnAt: SimTime = 0

    /// Rounding slack when comparing a refilled level with one token.
    static let tolerance = 1e-9

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The level at `t`, refilled at `perSecond` up to `capacity`.
    @inline(__always)
    func level(at t: SimTime, capacity: Double, perSecond: Double) -> Double {
        guard !levelAfterDraw.isNaN else { return capacity }
        return min(capacity, levelAfterDraw + Double(t - drawnAt) * perSecond)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The earliest instant at or after `t` at which a token is there.
    @inline(__always)
    func nextToken(at t: SimTime, capacity: Double, perSecond: Double) -> SimTime {
        let level = level(at: t, capacity: capacity, perSecond: perSecond)
        guard level < 1 - TokenBucket.tolerance else { return t }
        // The slack keeps a whole number of seconds whole despite rounding in the division.
        return t + Int(((1 - level) / perSecond - TokenBucket.tolerance * Double(Seconds.day)).rounded(.up))
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Takes one token at `t`.
    @inline(__always)
    mutating func draw(at t: SimTime, capacity: Double, perSecond: Double) {
        levelAfterDraw = max(0, level(at: t, capacity: capacity, perSecond: perSecond) - 1)
        drawnAt = t
    }
}
