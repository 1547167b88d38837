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

extension TimelineProvider {
    /// WidgetKit's name for the context, so a ported signature keeps `in context: Context`.
    public typealias Context = TimelineProviderContext
}

/// An entry as the scheduler keeps it: only what rendering and staleness need.
public struct ScheduledEntry: Equatable, Sendable {
    public var date: SimTime
    /// When its data was fetched; nil for an entry that shows no data.
    public var dataFetchedAt: SimTime?
    public var isForecast: Bool

    public init(date: SimTime, dataFetchedAt: SimTime?, isForecast: Bool) {
        self.date = date
        self.dataFetchedAt = dataFetchedAt
        self.isForecast = isForecast
    }

    init<Entry: TimelineEntry>(_ entry: Entry) {
        self.init(date: entry.date, dataFetchedAt: entry.dataFetchedAt, isForecast: entry.isForecast)
    }
}
