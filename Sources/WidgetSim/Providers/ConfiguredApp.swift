/// What an app does with WidgetCenter when it comes to the foreground.
public enum ForegroundReload: Equatable, Sendable {
    case none
    /// `reloadAllTimelines()`.
    case all
    /// `reloadTimelines(ofKind:)`.
    case kind(String)
}

/// The built-in containing app that scenario files configure. It is an
/// ordinary `ContainingApp`: a Swift app written against the same API
/// behaves the same way.
///
/// - When it becomes active, it makes its `foregroundReload` call.
/// - During an audio or navigation session, it reloads all its widgets at
///   every tick (F17).
/// - When told that a kind's content changed, it calls
///   `reloadTimelines(ofKind:)`, or `reloadAllTimelines()` for the kinds in
///   `reloadAllOnChangeOf` (the widgets' `onRandomChange` says which).
public struct ConfiguredApp: ContainingApp, Sendable {
    public var foregroundReload: ForegroundReload
    /// Kinds whose change notifications make the app reload all its widgets.
    public var reloadAllOnChangeOf: [String]

    public init(foregroundReload: ForegroundReload, reloadAllOnChangeOf: [String] = []) {
        self.foregroundReload = foregroundReload
        self.reloadAllOnChangeOf = reloadAllOnChangeOf
    }

    public func handle(_ event: AppEvent, at now: SimTime, center: inout WidgetCenter) {
        switch event {
        case .becameActive:
            switch foregroundReload {
            case .none: break
            case .all: center.reloadAllTimelines()
            case .kind(let kind): center.reloadTimelines(ofKind: kind)
            }
        case .mediaSessionTick:
            center.reloadAllTimelines()
        case .contentChanged(let kind):
            if reloadAllOnChangeOf.contains(kind) {
                center.reloadAllTimelines()
            } else {
                center.reloadTimelines(ofKind: kind)
            }
        }
    }
}
