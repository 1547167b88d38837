/// The size and placement of a widget (F26). Mirrors WidgetKit's `WidgetFamily`.
///
/// The family does not change the reload budget in this model (Apple gives no
/// such rule); it is reported, passed to providers, and validated against the
/// device (`systemExtraLarge` exists on iPad only).
public enum WidgetFamily: String, CaseIterable, Sendable {
    case systemSmall, systemMedium, systemLarge, systemExtraLarge
    case accessoryCircular, accessoryRectangular, accessoryInline

    /// True for the Lock Screen's accessory families.
    public var isAccessory: Bool {
        switch self {
        case .accessoryCircular, .accessoryRectangular, .accessoryInline: return true
        default: return false
        }
    }
}
