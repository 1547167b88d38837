/// Something that happens to a widget's containing app on the simulated
/// device, which the app's code may answer by calling `WidgetCenter` (F16).
public enum AppEvent: Equatable, Sendable {
    /// The user brought the app to the foreground. WidgetCenter calls made
    /// now are free (F17) and reach the widgets after a short delay (F18).
    case becameActive
    /// An audio or navigation session started, or is still playing: calls
    /// are free while it lasts (F17). Sent at the start and then every
    /// `mediaReloadInterval`.
    case mediaSessionTick
    /// A notification told the app that the content behind widgets of this
    /// kind changed (E2: a teammate's healing potion). Calls made now are
    /// budgeted unless the app is in the foreground (F16, F17).
    case contentChanged(kind: String)
}

/// The containing app's code that talks to WidgetCenter: what it does when
/// it becomes active, plays media, or hears that its content changed.
///
/// The simulator hands it a `WidgetCenter` that sees the app's configured
/// widgets, then applies every request the app made, free or budgeted as
/// F16 and F17 say. A scenario names a Swift app with `"apps": [{"id": ...,
/// "swift": "<name>"}]`; without one, the app does what the scenario
/// configures (`foregroundReload`, and the widgets' `onRandomChange`).
///
/// Each simulated device gets its own instance, used on one thread.
public protocol ContainingApp {
    mutating func handle(_ event: AppEvent, at now: SimTime, center: inout WidgetCenter)
}
