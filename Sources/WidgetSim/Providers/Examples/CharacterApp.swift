/// Apple's game app from "Inform WidgetKit When a Timeline Changes" (E2,
/// F16): when a notification says a teammate's healing potion changed a
/// character's health, it looks through the configured widgets for one that
/// shows that character, and reloads that kind only if there is one.
///
/// The app's code reads like the app's: `currentConfigurations()` is
/// `getCurrentConfigurations`, and the reload is `reloadTimelines(ofKind:)`.
public struct CharacterApp: ContainingApp, Sendable {
    /// The character whose health the notifications are about.
    public var character: String

    public init(character: String = "Power Panda") {
        self.character = character
    }

    public func handle(_ event: AppEvent, at now: SimTime, center: inout WidgetCenter) {
        switch event {
        case .becameActive:
            // The app shows the character itself, so the widget should too.
            center.reloadAllTimelines()
        case .mediaSessionTick:
            break
        case .contentChanged(let kind):
            if let widget = center.currentConfigurations().first(where: { $0.kind == kind && $0.configuration == character }) {
                center.reloadTimelines(ofKind: widget.kind)
            }
        }
    }
}
