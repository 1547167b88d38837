/// Instants that repeat on the local clock: every `period` seconds from local
/// midnight (weather every hour), or, with a `window`, every `period` from
/// the window's opening until its close (a market's ticks), the next day's
/// for a window across midnight.
///
/// Promised: `last(atOrBefore:)` and `next(after:)` agree with each other and
/// use the device's local calendar. The series restarts at every local
/// midnight (or opening), so a period that does not divide a day still lines
/// up with the clock each day.
///
/// Not promised: instants further than 8 days from `t` (a window open less
/// than once a week finds none).
public struct PeriodicChanges: Equatable, Sendable {
    /// Seconds between instants, aligned to local midnight.
    public var period: Int {
        didSet { periodDivisor = Divisor(period) }
    }
    /// When set, instants fall only inside this weekly window (the first one at its opening).
    public var window: ActiveWindow?
    /// The period as a divisor: the time of day's place in the period is
    /// found without a division, on every view of a new entry (README, "Speed").
    private var periodDivisor: Divisor

    public init(period: Int, window: ActiveWindow? = nil) {
        self.period = period
        self.window = window
        periodDivisor = Divisor(period)
    }

    /// The last instant at or before `t` (searching back at most 8 days).
    public func last(atOrBefore t: SimTime, calendar: CivilCalendar) -> SimTime? {
        guard let window else {
            let dayStart = calendar.startOfDay(calendar.dayIndex(t))
            // (t - dayStart) / period * period, without the division.
            return t - periodDivisor.remainder(dividing: t - dayStart)
        }
        var day = calendar.dayIndex(t)
        for _ in 0..<9 {
            let dayStart = calendar.startOfDay(day)
            if window.weekdays[calendar.weekday(dayStart).rawValue] && window.length > 0 {
                let opening = dayStart + window.fromSecond
                let lastInDay = opening + (window.length - 1) / period * period
                if t >= opening { return opening + (min(t, lastInDay) - opening) / period * period }
            }
            day -= 1
        }
        return nil
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The first instant strictly after `t`.
    @inline(__always)
    public func next(after t: SimTime, calendar: CivilCalendar) -> SimTime? {
        guard let window else {
            let dayStart = calendar.startOfDay(calendar.dayIndex(t))
            // dayStart + ((t - dayStart) / period + 1) * period, without the division.
            let next = t - periodDivisor.remainder(dividing: t - dayStart) + period
            return min(next, dayStart + Seconds.day)
        }
        // A window across midnight that opened yesterday may still be open.
        var day = calendar.dayIndex(t) - (window.crossesMidnight ? 1 : 0)
        for _ in 0..<9 {
            let dayStart = calendar.startOfDay(day)
            if window.weekdays[calendar.weekday(dayStart).rawValue] && window.length > 0 {
                let opening = dayStart + window.fromSecond
                let closing = opening + window.length
                if t < opening { return opening }
                let next = opening + ((t - opening) / period + 1) * period
                if next < closing { return next }
            }
            day += 1
        }
        return nil
    }
}
