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
    public let reloadStartedAt: SimTime
    /// The provider's current time: `reloadStartedAt` plus the time spent so far.
    public private(set) var now: SimTime

    var network: NetworkModel
    var random: RandomStream
    let truth: ContentTruth
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
        truth: ContentTruth
    ) {
        self.family = family
        self.isPreview = isPreview
        self.configuration = configuration
        self.calendar = calendar
        self.reloadStartedAt = now
        self.now = now
        self.network = network
        self.random = random
        self.truth = truth
    }

    /// Sends one request to the widget's server and waits for the answer,
    /// advancing `now` by the drawn latency.
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
        truth.periodic?.window
    }

    /// The interval of the truth's periodic changes, if any.
    public var truthChangePeriod: Int? {
        truth.periodic?.period
    }

    /// The last scheduled (periodic) change of the truth at or before `t`: the
    /// schedule is public, like a game's dragon attacks or a market's ticks.
    public func lastScheduledChange(atOrBefore t: SimTime) -> SimTime? {
        truth.lastPeriodicChange(atOrBefore: t)
    }

    /// The next scheduled (periodic) change of the truth after `t`.
    public func nextScheduledChange(after t: SimTime) -> SimTime? {
        truth.nextPeriodicChange(after: t)
    }

    /// The last unforeseeable event (a healing potion, breaking news) at or
    /// before `t` that the server knows of now. Events after `now` are hidden.
    public func lastEvent(atOrBefore t: SimTime) -> SimTime? {
        truth.lastUnpredictableChange(atOrBefore: min(t, now))
    }

    /// Starts a background URL session whose events arrive after a draw from
    /// `completion` (F20); when they do, the widget asks for a new timeline.
    public mutating func startBackgroundSession(completingAfter completion: DurationDistribution) {
        backgroundSessionCompletesAt = now + completion.draw(using: &random)
    }
}

/// Supplies a widget's entries. Shaped like WidgetKit's `TimelineProvider`, so
/// a provider's logic ports from an app by replacing `Date()` with `context.now`
/// and network calls with `context.fetch()`.
///
/// `timeline(in:)` is `mutating` so a provider can keep what an app would keep
/// in its app-group container (a cache of the last good response).
public protocol TimelineProvider {
    associatedtype Entry: TimelineEntry

    /// A generic entry for first display, before any timeline (F5). Not a reload.
    func placeholder(in context: TimelineProviderContext) -> Entry

    /// A quick entry for the widget gallery (`context.isPreview`, F5). Not a reload.
    func snapshot(in context: TimelineProviderContext) -> Entry

    /// The entries to show and when to ask again (F1, F2).
    mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<Entry>
}

/// An entry as the scheduler keeps it: only what rendering and staleness need.
public struct ScheduledEntry: Equatable, Sendable {
    public var date: SimTime
    public var dataFetchedAt: SimTime
    public var isForecast: Bool

    public init(date: SimTime, dataFetchedAt: SimTime, isForecast: Bool) {
        self.date = date
        self.dataFetchedAt = dataFetchedAt
        self.isForecast = isForecast
    }

    init<Entry: TimelineEntry>(_ entry: Entry) {
        self.init(date: entry.date, dataFetchedAt: entry.dataFetchedAt, isForecast: entry.isForecast)
    }
}

/// A type-erased provider, so one device can hold providers of different entry types.
///
/// Each instance owns its provider's state; it is used by one simulated device
/// on one thread and is deliberately not `Sendable`. Build one per device run
/// from a `@Sendable` factory.
public struct AnyTimelineProvider {
    private let box: _AnyProviderBox

    public init<Provider: TimelineProvider>(_ provider: Provider) {
        if let configured = provider as? ConfiguredProvider {
            box = _ConfiguredProviderBox(configured)
        } else {
            box = _ProviderBox(provider)
        }
    }

    func placeholder(in context: TimelineProviderContext) -> ScheduledEntry {
        box.placeholder(in: context)
    }

    func snapshot(in context: TimelineProviderContext) -> ScheduledEntry {
        box.snapshot(in: context)
    }

    /// Runs the provider, writing its entries (sorted by date) into `entries`.
    /// A call that takes longer than `timeLimit` seconds was halted (F22): its
    /// effects on the provider's own state (a cache, say) are undone, because
    /// the extension never got to make them.
    func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy {
        box.timeline(in: &context, into: &entries, timeLimit: timeLimit)
    }
}

class _AnyProviderBox {
    func placeholder(in context: TimelineProviderContext) -> ScheduledEntry { fatalError("abstract") }
    func snapshot(in context: TimelineProviderContext) -> ScheduledEntry { fatalError("abstract") }
    func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy {
        fatalError("abstract")
    }
}

class _ProviderBox<Provider: TimelineProvider>: _AnyProviderBox {
    // One device's thread uses a box, and no method re-enters another, so
    // two accesses never overlap: the runtime's exclusivity check (a lookup
    // on every provider call) can go.
    @exclusivity(unchecked) var provider: Provider

    init(_ provider: Provider) { self.provider = provider }

    override func placeholder(in context: TimelineProviderContext) -> ScheduledEntry {
        ScheduledEntry(provider.placeholder(in: context))
    }

    override func snapshot(in context: TimelineProviderContext) -> ScheduledEntry {
        ScheduledEntry(provider.snapshot(in: context))
    }

    override func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy {
        let saved = provider
        let timeline = provider.timeline(in: &context)
        if context.now - context.reloadStartedAt > timeLimit { provider = saved }
        entries.removeAll(keepingCapacity: true)
        for entry in timeline.entries { entries.append(ScheduledEntry(entry)) }
        // WidgetKit shows entries by date whatever order they came in.
        // Equal dates keep the provider's order (sorting by index too makes
        // that explicit rather than relying on sort stability).
        if !entries.isSorted(by: { $0.date <= $1.date }) {
            entries = entries.enumerated()
                .sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
                .map(\.element)
        }
        return timeline.policy
    }
}

/// The built-in provider's box: it writes entries straight into the widget's
/// buffer, so a steady-state reload allocates and copies nothing.
final class _ConfiguredProviderBox: _ProviderBox<ConfiguredProvider> {
    override func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy {
        provider.timeline(in: &context, into: &entries, timeLimit: timeLimit)
    }
}

extension Array {
    func isSorted(by areInOrder: (Element, Element) -> Bool) -> Bool {
        var index = startIndex
        while index + 1 < endIndex {
            if !areInOrder(self[index], self[index + 1]) { return false }
            index += 1
        }
        return true
    }
}
