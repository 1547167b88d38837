/// Why WidgetKit asked a provider for a timeline. The raw value is the
/// `trigger` column of `reloads.csv`.
public enum ReloadTrigger: String, CaseIterable, Sendable {
    /// The widget was added; its first timeline. Not budgeted (the system must
    /// render something; Apple gives no rule, so this is the model's choice).
    case initial
    /// The timeline's reload policy came due (F2). Budgeted.
    case policy
    /// The app called WidgetCenter from the background (F16). Budgeted.
    case widgetCenter = "widget_center"
    /// A widget push notification (F19). Budgeted per `PushBudget`.
    case push
    /// The app called WidgetCenter while in the foreground (F17). Free.
    case appForeground = "app_foreground"
    /// The app called WidgetCenter during an audio or navigation session (F17). Free.
    case mediaSession = "media_session"
    /// The user tapped an App Intent button or toggle in the widget (F17, F18). Free.
    case interaction
    /// A significant location change, applied when the widget is next viewed (F17). Free.
    case location
    /// A locale, accessibility, time or account change (F17). Free.
    case system
    /// The extension's background URL session delivered its events (F20). Budgeted.
    case backgroundSession = "background_session"
    /// WidgetKit asked again right after a call, as part of the same refresh
    /// (F18: `getTimeline` called 2–5 times per refresh). Free.
    case repeatCall = "repeat"

    /// The name used in reports.
    public var reportName: String { rawValue }
}

/// How widget push reloads (F19) are counted. Apple says they are budgeted but
/// not whether they share the timeline budget, so this is a knob.
public enum PushBudget: String, CaseIterable, Sendable {
    /// Push reloads count against the widget's timeline budget and pass the
    /// same gates as a policy reload (the default).
    case shared
    /// Push reloads are not limited: they run on delivery, like a free trigger.
    case free
    /// Push reloads have a daily budget of their own (`pushDailyBudget` in any
    /// trailing 24 h) and leave the timeline budget alone; a push beyond it
    /// is withheld until the push budget allows (F12, F19).
    case separate
}
