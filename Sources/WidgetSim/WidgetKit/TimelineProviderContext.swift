/// What WidgetKit tells a provider when it asks for entries, plus the simulated
/// world the provider may use: a clock, a network and a source of randomness.
///
/// Mirrors WidgetKit's `TimelineProviderContext` (`family`, `isPreview`). The
/// simulated clock starts at the moment WidgetKit asked (`reloadStartedAt`) and
/// moves only when the provider spends time: `fetch()` advances it by the
/// request's latency, `work(seconds:)` by computation. How far it moved is the
/// call's duration; a call that outlasts the time limit (F22) produces no timeline.
public struct TimelineProviderContext: Sendable {
    /// The widget's family.
    public let family: WidgetFamily
    /// True only for the widget gallery's preview (F5); never during a reload.
    public let isPreview: Bool
    /// The user's configuration of this instance, if any (F26).
    public let configuration: String?
    /// The device's local calendar.
    public let calendar: CivilCalendar
    /// When WidgetKit asked for the timeline.
    public private(set) var reloadStartedAt: SimTime
    /// The provider's current time: `reloadStartedAt` plus the time spent so far.
    public private(set) var now: SimTime

    var network: NetworkModel
    var random: RandomStream
    /// What the widget's server knows of the content's changes, lent by the
    /// widget's truth rather than copied into every call's context.
    private(set) var scheduleStorage: ContentScheduleStorage
    /// Set when the provider started a background URL session (F20).
    public private(set) var backgroundSessionCompletesAt: SimTime?

    init(
        family: WidgetFamily,
        isPreview: Bool,
        configuration: String?,
        calendar: CivilCalendar,
        now: SimTime,
        network: NetworkModel,
        random: RandomStream,
        scheduleStorage: ContentScheduleStorage
    ) {
        self.family = family
        self.isPreview = isPreview
        self.configuration = configuration
        self.calendar = calendar
        self.reloadStartedAt = now
        self.now = now
        self.network = network
        self.random = random
        self.scheduleStorage = scheduleStorage
    }

    /// Readies a context kept from one call to the next for the call WidgetKit
    /// starts at `now`, lending it the truth's schedule as it is now. Kept,
    /// the context is not built and torn down on every call, with a retain
    /// and a release of each thing it refers to (README, "Speed").
    @inline(__always)
    mutating func beginCall(at now: SimTime, schedule: ContentScheduleStorage) {
        reloadStartedAt = now
        self.now = now
        backgroundSessionCompletesAt = nil
        if scheduleStorage !== schedule { scheduleStorage = schedule }
    }

    /// Lets go of the truth's schedule, so that the truth, about to change,
    /// finds its storage unshared and writes in place instead of copying it
    /// (the next call lends the context the schedule again).
    mutating func releaseSchedule() {
        scheduleStorage = ContentScheduleStorage.released
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Sends one request to the widget's server and waits for the answer,
    /// advancing `now` by the drawn latency.
    @inline(__always)
    public mutating func fetch() -> FetchResult {
        now += network.latencySampler.draw(using: &random)
        // Draw the failure even when the rate is 0, so that changing the rate
        // does not shift any later draw of this stream.
        let failed = random.nextBool(probability: network.failureRate)
        return failed ? .failure : .success(dataAsOf: now)
    }

    /// Spends `seconds` of computation.
    public mutating func work(seconds: Int) {
        precondition(seconds >= 0, "work(seconds:) needs a non-negative duration")
        now += seconds
    }

    /// A uniform double in [0, 1) from this widget's provider stream, for
    /// providers that randomise (jitter on `after`, F25).
    public mutating func randomUnit() -> Double {
        random.nextUnit()
    }

    /// The weekly window outside which the truth does not change (a market's
    /// hours), if the widget's truth has one. Lets a provider skip closed hours (E4).
    public var truthActiveWindow: ActiveWindow? {
        scheduleStorage.schedule.periodic?.window
    }

    /// The interval of the truth's periodic changes, if any.
    public var truthChangePeriod: Int? {
        scheduleStorage.schedule.periodic?.period
    }

    /// The last scheduled (periodic) change of the truth at or before `t`: the
    /// schedule is public, like a game's dragon attacks or a market's ticks.
    public func lastScheduledChange(atOrBefore t: SimTime) -> SimTime? {
        scheduleStorage.schedule.lastScheduledChange(atOrBefore: t)
    }

    /// The next scheduled (periodic) change of the truth after `t`.
    public func nextScheduledChange(after t: SimTime) -> SimTime? {
        scheduleStorage.schedule.nextScheduledChange(after: t)
    }

    /// The last unforeseeable event (a healing potion, breaking news) at or
    /// before `t` that the server knows of now. Events after `now` are hidden.
    public func lastEvent(atOrBefore t: SimTime) -> SimTime? {
        scheduleStorage.schedule.lastEvent(atOrBefore: min(t, now))
    }

    /// Starts a background URL session whose events arrive after a draw from
    /// `completion` (F20); when they do, the widget asks for a new timeline.
    public mutating func startBackgroundSession(completingAfter completion: DurationDistribution) {
        backgroundSessionCompletesAt = now + completion.draw(using: &random)
    }
}
