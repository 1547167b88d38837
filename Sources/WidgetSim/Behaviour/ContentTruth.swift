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
    /// What the widget's server can know: the scheduled changes and the
    /// unpredictable ones so far. Providers see it through their context.
    public var schedule: ContentSchedule { storage.schedule }
    /// The schedule, shared with provider contexts (copied before a write when shared).
    private(set) var storage: ContentScheduleStorage
    public var periodicDrawnLive: Bool
    /// Mean predictability horizon of a periodic change, in seconds; 0 means
    /// periodic changes cannot be forecast at all.
    public var forecastHorizonMean: Double
    /// The seeds of the changes' forecast horizons, one per change instant.
    let forecastSeeds: StreamSeed.Children

    public init(
        periodic: PeriodicChanges?,
        scheduledChanges: [SimTime] = [],
        periodicDrawnLive: Bool = false,
        forecastHorizonMean: Double = 0,
        forecastSeed: StreamSeed,
        calendar: CivilCalendar
    ) {
        self.storage = ContentScheduleStorage(ContentSchedule(periodic: periodic, oneOff: scheduledChanges, calendar: calendar))
        self.periodicDrawnLive = periodicDrawnLive
        self.forecastHorizonMean = forecastHorizonMean
        self.forecastSeeds = forecastSeed.children
    }

    public var periodic: PeriodicChanges? { schedule.periodic }

    /// Instants of unpredictable changes so far, in time order.
    public var unpredictableChanges: [SimTime] { schedule.events }

    /// How many unpredictable changes have been recorded so far.
    var unpredictableChangeCount: Int { storage.schedule.events.count }

    /// Records an unpredictable change at `t`.
    /// - Precondition: `t` is not earlier than the last recorded change.
    public mutating func recordUnpredictableChange(at t: SimTime) {
        if !isKnownUniquelyReferenced(&storage) { storage = ContentScheduleStorage(storage.schedule) }
        storage.schedule.recordEvent(at: t)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The first change strictly after `t`, or nil if there is none.
    @inline(__always)
    public func firstChange(after t: SimTime) -> SimTime? {
        var earliest = storage.schedule.firstEvent(after: t)
        let index = storage.schedule.oneOff.firstIndex(greaterThan: t)
        if index < storage.schedule.oneOff.count { earliest = min(earliest ?? storage.schedule.oneOff[index], storage.schedule.oneOff[index]) }
        // Dynamic-date text draws periodic changes live (F6); one-off changes it cannot know.
        if !periodicDrawnLive, let next = storage.schedule.periodic?.next(after: t, calendar: storage.schedule.calendar) {
            earliest = min(earliest ?? next, next)
        }
        return earliest
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
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
    @inline(__always)
    public func firstMismatch(fetchedAt: SimTime, date: SimTime, isForecast: Bool) -> SimTime? {
        guard isForecast, date > fetchedAt else { return firstChange(after: fetchedAt) }
        if let change = storage.schedule.firstEvent(after: fetchedAt), change <= date {
            return change
        }
        // One-off changes are known in advance, so only periodic ones can be missed.
        if !periodicDrawnLive, let setting = storage.schedule.lastScheduledChange(atOrBefore: date), setting > fetchedAt,
           !storage.schedule.isOneOff(setting), Double(setting - fetchedAt) > predictabilityHorizon(ofChangeAt: setting) {
            return setting
        }
        return firstChange(after: date)
    }

    /// How far ahead the periodic change at `change` could be forecast.
    func predictabilityHorizon(ofChangeAt change: SimTime) -> Double {
        guard forecastHorizonMean > 0 else { return -1 }
        let u = forecastSeeds.unit(at: UInt64(bitPattern: Int64(change)))
        return -forecastHorizonMean * DeterministicMath.log(1 - u)
    }
}
