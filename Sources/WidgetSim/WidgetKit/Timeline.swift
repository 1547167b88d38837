/// One state of a widget's content, shown from `date` on (F1).
///
/// Mirrors WidgetKit's `TimelineEntry`, plus two simulator-only fields that
/// let the simulator measure staleness against the widget's truth. Both have
/// defaults, so an entry type ported from an app needs only `date`.
public protocol TimelineEntry: Sendable {
    /// When WidgetKit starts showing this entry.
    var date: SimTime { get }
    /// When the data this entry shows was fetched; nil when it shows no
    /// data at all (an error or sign-in view, like the placeholder). Defaults
    /// to `date`.
    var dataFetchedAt: SimTime? { get }
    /// True when the entry predicts the truth at its own `date` (an hourly
    /// forecast, a health bar that refills on schedule) rather than repeating
    /// what was true at `dataFetchedAt`. Defaults to false.
    var isForecast: Bool { get }
}

extension TimelineEntry {
    public var dataFetchedAt: SimTime? { date }
    public var isForecast: Bool { false }
}

/// When WidgetKit may ask the provider for the next timeline (F2).
///
/// Each case gives *eligibility*, not an execution time: the reload happens at
/// or after it, subject to budget, spacing, coalescing and visibility (F4).
public enum TimelineReloadPolicy: Equatable, Sendable {
    /// Eligible after the last entry's date (the default). With a single entry
    /// the system picks the time itself (F3).
    case atEnd
    /// Eligible from this date on; the earliest time, not an exact one.
    case after(SimTime)
    /// Never requested automatically; only WidgetCenter and free triggers reload.
    case never

    /// The name used in reports and scenario files.
    public var name: String {
        switch self {
        case .atEnd: return "atEnd"
        case .after: return "after"
        case .never: return "never"
        }
    }
}

/// Entries plus a reload policy: what a provider returns (F1). Mirrors WidgetKit's `Timeline`.
public struct Timeline<EntryType: TimelineEntry>: Sendable {
    public var entries: [EntryType]
    public var policy: TimelineReloadPolicy

    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}
