/// How a provider call ended.
public enum ReloadResult: String, CaseIterable, Sendable {
    case ok
    /// The call outlasted the time limit and produced no timeline (F22).
    case timedOut = "timed_out"
    /// The timeline held more than `maximumReliableEntries` entries; WidgetKit
    /// does not show it and the widget keeps its old one (F23).
    case tooManyEntries = "too_many_entries"
}

/// One provider timeline call, known in full when it starts (the provider's
/// work is simulated at once; its result takes effect at `completesAt`).
public struct ReloadRecord: Equatable, Sendable {
    public var time: SimTime
    public var device: Int
    public var widget: Int
    public var trigger: ReloadTrigger
    public var budgeted: Bool
    /// This widget's budgeted calls in the trailing 24 h, this one included.
    public var budgetUsed24h: Int
    /// The widget's daily limit at this moment; nil under the unlimited model.
    public var budgetLimit: Int?
    /// Seconds from when the request became eligible to this call.
    public var waited: Int
    public var result: ReloadResult
    public var entryCount: Int
    /// The returned policy; nil when no timeline was applied (a timeout, or too many entries).
    public var policy: TimelineReloadPolicy?
    /// When the widget is next eligible for a policy reload; nil for `never`.
    public var nextEligible: SimTime?
    public var completesAt: SimTime
}

/// One look at one widget.
public struct ViewRecord: Equatable, Sendable {
    public var time: SimTime
    public var device: Int
    public var widget: Int
    /// The date of the entry on screen; nil for the placeholder.
    public var shownEntryDate: SimTime?
    /// The instant whose truth the shown entry was built to show: when its data
    /// was fetched, or its own date for a forecast. Nil for the placeholder.
    public var dataAsOf: SimTime?
    /// Seconds since the truth first moved past what is shown (the first
    /// change the shown content does not reflect); 0 when fresh.
    public var staleness: Int
    public var isStale: Bool
}

/// Budgeted reload requests that found the budget spent and had to wait (F12).
public struct WithheldRecord: Equatable, Sendable {
    public var time: SimTime
    public var device: Int
    public var widget: Int
    public var trigger: ReloadTrigger
    /// How many requests (merged into one pending reload) were held back.
    public var requests: Int
}

/// A local day begins for a widget.
public struct DayStartRecord: Equatable, Sendable {
    public var time: SimTime
    public var day: Int
    public var device: Int
    public var widget: Int
    /// The widget's daily limit at the day's start; nil under the unlimited model.
    public var budgetLimit: Int?
}

/// What a containing app did that its own code can see and log: it came to
/// the foreground, or it called WidgetCenter (F16, F17). The app logs every
/// call it makes, including those WidgetKit then ignores (F18).
public struct AppActivityRecord: Equatable, Sendable {
    public enum Activity: Equatable, Sendable {
        case foreground
        case reloadTimelines(kind: String)
        case reloadAllTimelines
        /// An App Intent ran from a button on widget `widget` (an index in
        /// `DeviceSetup.widgets`); WidgetKit reloads that widget, free (F17, F18).
        case intent(widget: Int)
    }

    public var time: SimTime
    public var device: Int
    /// Index of the app in `DeviceSetup.apps`.
    public var app: Int
    public var activity: Activity
}

/// A widget's content changed in a way its timeline could not foresee.
public struct ContentChangeRecord: Equatable, Sendable {
    public var time: SimTime
    public var device: Int
    public var widget: Int
}

/// Receives what happens during a run, in time order per device.
///
/// Report writers keep rows; fleet aggregators keep only counts. The
/// simulator is generic over its observer so either costs nothing extra.
public protocol SimulationObserver {
    mutating func reloadStarted(_ record: ReloadRecord)
    mutating func widgetViewed(_ record: ViewRecord)
    mutating func reloadWithheld(_ record: WithheldRecord)
    mutating func dayStarted(_ record: DayStartRecord)
    /// The app came to the foreground or called WidgetCenter; only device
    /// logs want this, so it has a default that does nothing.
    mutating func appActed(_ record: AppActivityRecord)
    /// The content changed unforeseeably; the per-event reports want it for
    /// the time to fresh, so it too has a default that does nothing.
    mutating func contentChanged(_ record: ContentChangeRecord)
    /// Bytes of rows kept so far, which `RunLimits.memoryBytes` bounds.
    var keptBytes: Int { get }
}

extension SimulationObserver {
    /// An observer that keeps counters only keeps no rows.
    public var keptBytes: Int { 0 }

    public mutating func appActed(_ record: AppActivityRecord) {}
    public mutating func contentChanged(_ record: ContentChangeRecord) {}
}
