/// What a widget's data really is over time: the reference that staleness is
/// measured against.
///
/// The truth is a set of instants at which it changes:
/// - *periodic* changes on the local clock (weather every hour, a stock price
///   every minute while the market is open). Each sets the truth until the
///   next, and each can be forecast from up to its predictability horizon
///   ahead, drawn once per change from an exponential distribution (a
///   counter-based draw, so every policy sees the same horizons);
/// - *unpredictable* changes (news, a healing potion, a significant location
///   change for a location widget, a tap on an App Intent button) that no
///   entry fetched earlier can know. They are recorded as they happen, so
///   staleness is judged at view time, when every change up to then is known.
///
/// With `periodicDrawnLive` the periodic part is drawn by dynamic-date text
/// (`Text(.timer)`, `.relative`...), which WidgetKit updates without a reload
/// (F6), so periodic changes never make a view stale.
///
/// Not modelled: how large a change is. Any change makes earlier data stale.
public struct ContentTruth: Sendable {
    /// Predictable changes on the local clock.
    public struct Periodic: Equatable, Sendable {
        /// Seconds between changes, aligned to local midnight.
        public var period: Int
        /// When set, changes happen only inside this window (first one at its opening).
        public var window: ActiveWindow?

        public init(period: Int, window: ActiveWindow? = nil) {
            self.period = period
            self.window = window
        }
    }

    public var periodic: Periodic?
    public var periodicDrawnLive: Bool
    /// Mean predictability horizon of a periodic change, in seconds; 0 means
    /// periodic changes cannot be forecast at all.
    public var forecastHorizonMean: Double
    let forecastSeed: StreamSeed
    /// Instants of unpredictable changes so far, in time order.
    public private(set) var unpredictableChanges: [SimTime] = []
    let calendar: CivilCalendar

    public init(
        periodic: Periodic?,
        periodicDrawnLive: Bool = false,
        forecastHorizonMean: Double = 0,
        forecastSeed: StreamSeed,
        calendar: CivilCalendar
    ) {
        self.periodic = periodic
        self.periodicDrawnLive = periodicDrawnLive
        self.forecastHorizonMean = forecastHorizonMean
        self.forecastSeed = forecastSeed
        self.calendar = calendar
    }

    /// Records an unpredictable change at `t`.
    /// - Precondition: `t` is not earlier than the last recorded change.
    public mutating func recordUnpredictableChange(at t: SimTime) {
        precondition(unpredictableChanges.last.map { $0 <= t } ?? true, "truth changes arrive in time order")
        unpredictableChanges.append(t)
    }

    /// The first change strictly after `t`, or nil if there is none.
    public func firstChange(after t: SimTime) -> SimTime? {
        var earliest = ContentTruth.firstElement(of: unpredictableChanges, after: t)
        if !periodicDrawnLive, let next = nextPeriodicChange(after: t) {
            earliest = min(earliest ?? next, next)
        }
        return earliest
    }

    /// The first instant at which an entry's content differs from the truth,
    /// or nil if it never does.
    ///
    /// An entry that repeats data fetched at `fetchedAt` goes out of date at
    /// the first change after the fetch. A forecast predicts the truth at its
    /// own `date`, which the last periodic change at or before `date` set: the
    /// forecast is right if that change was within its predictability horizon
    /// at `fetchedAt` and no unpredictable change came in between. A right
    /// forecast goes out of date at the first change after `date`; a wrong one
    /// is out of date from the change it got wrong.
    /// - Precondition: every unpredictable change up to `date` has been recorded
    ///   (call it at view time, never at fetch time).
    public func firstMismatch(fetchedAt: SimTime, date: SimTime, isForecast: Bool) -> SimTime? {
        guard isForecast, date > fetchedAt else { return firstChange(after: fetchedAt) }
        if let change = ContentTruth.firstElement(of: unpredictableChanges, after: fetchedAt), change <= date {
            return change
        }
        if !periodicDrawnLive, let setting = lastPeriodicChange(atOrBefore: date), setting > fetchedAt,
           Double(setting - fetchedAt) > predictabilityHorizon(ofChangeAt: setting) {
            return setting
        }
        return firstChange(after: date)
    }

    /// The last periodic change at or before `t` (searching back at most 8 days).
    func lastPeriodicChange(atOrBefore t: SimTime) -> SimTime? {
        guard let periodic else { return nil }
        guard let window = periodic.window else {
            let dayStart = calendar.startOfDay(calendar.dayIndex(t))
            return dayStart + (t - dayStart) / periodic.period * periodic.period
        }
        var day = calendar.dayIndex(t)
        for _ in 0..<9 {
            let dayStart = calendar.startOfDay(day)
            if window.weekdays[calendar.weekday(dayStart).rawValue] && window.fromSecond < window.toSecond {
                let opening = dayStart + window.fromSecond
                let lastInDay = opening + (window.toSecond - window.fromSecond - 1) / periodic.period * periodic.period
                if t >= opening { return opening + (min(t, lastInDay) - opening) / periodic.period * periodic.period }
            }
            day -= 1
        }
        return nil
    }

    /// How far ahead the periodic change at `change` could be forecast.
    func predictabilityHorizon(ofChangeAt change: SimTime) -> Double {
        guard forecastHorizonMean > 0 else { return -1 }
        let u = forecastSeed.unit(at: UInt64(bitPattern: Int64(change)))
        return -forecastHorizonMean * DeterministicMath.log(1 - u)
    }

    /// The first periodic change strictly after `t`.
    public func nextPeriodicChange(after t: SimTime) -> SimTime? {
        guard let periodic else { return nil }
        let period = periodic.period
        guard let window = periodic.window else {
            let dayStart = calendar.startOfDay(calendar.dayIndex(t))
            let next = dayStart + ((t - dayStart) / period + 1) * period
            // Changes restart at every local midnight, so a period that does not
            // divide a day still lines up with the clock each day.
            return min(next, dayStart + Seconds.day)
        }
        // Windowed changes: the first at the opening, then every period until closing.
        var day = calendar.dayIndex(t)
        for _ in 0..<9 {
            let dayStart = calendar.startOfDay(day)
            if window.weekdays[calendar.weekday(dayStart).rawValue] && window.fromSecond < window.toSecond {
                let opening = dayStart + window.fromSecond
                let closing = dayStart + window.toSecond
                if t < opening { return opening }
                let next = opening + ((t - opening) / period + 1) * period
                if next < closing { return next }
            }
            day += 1
        }
        return nil
    }

    /// The last unpredictable change at or before `t`.
    public func lastUnpredictableChange(atOrBefore t: SimTime) -> SimTime? {
        let index = ContentTruth.firstIndex(in: unpredictableChanges, after: t)
        return index > 0 ? unpredictableChanges[index - 1] : nil
    }

    /// The first element of a sorted array strictly greater than `t`.
    static func firstElement(of sorted: [SimTime], after t: SimTime) -> SimTime? {
        let index = firstIndex(in: sorted, after: t)
        return index < sorted.count ? sorted[index] : nil
    }

    /// The index of the first element of a sorted array strictly greater than `t`.
    static func firstIndex(in sorted: [SimTime], after t: SimTime) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= t { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
