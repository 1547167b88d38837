/// What WidgetCenter knows about one configured widget (F16). Mirrors `WidgetInfo`.
public struct WidgetInfo: Equatable, Sendable {
    public var kind: String
    public var family: WidgetFamily
    /// The user's configuration of this instance (an intent parameter), if any.
    public var configuration: String?

    public init(kind: String, family: WidgetFamily, configuration: String?) {
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }
}

/// The app's handle on its widgets (F16). Mirrors WidgetKit's `WidgetCenter`.
///
/// App code running inside the simulation (a `ContainingApp`, or a scripted
/// action) calls it; the simulator then applies the collected requests in
/// call order, budgeted unless the app is in the foreground or has an audio
/// or navigation session (F16, F17).
public struct WidgetCenter: Sendable {
    /// A reload request from the app.
    public enum Request: Equatable, Sendable {
        /// Every instance of one kind.
        case reloadTimelines(ofKind: String)
        /// Every widget of the app.
        case reloadAllTimelines
    }

    private let configurations: [WidgetInfo]
    /// The requests made so far, in call order.
    public private(set) var requests: [Request] = []

    /// A center that sees `configurations` (in the device's widget order).
    public init(configurations: [WidgetInfo]) {
        self.configurations = configurations
    }

    /// A handle that records its requests in `storage`, emptied first and
    /// its capacity kept: the simulator lends one buffer to every app event,
    /// where a new handle allocated a new one each time (README, "Speed").
    init(configurations: [WidgetInfo], requestStorage storage: inout [Request]) {
        self.configurations = configurations
        storage.removeAll(keepingCapacity: true)
        swap(&requests, &storage)
    }

    /// Gives the requests' buffer back for the next handle, leaving this one without requests.
    mutating func returnRequestStorage(to storage: inout [Request]) {
        swap(&requests, &storage)
    }

    /// Reloads the timelines of every instance of `kind`.
    public mutating func reloadTimelines(ofKind kind: String) {
        requests.append(.reloadTimelines(ofKind: kind))
    }

    /// Reloads the timelines of every widget of the app.
    public mutating func reloadAllTimelines() {
        requests.append(.reloadAllTimelines)
    }

    /// The widgets the user has configured, so the app can reload only when a
    /// matching widget exists. Mirrors `getCurrentConfigurations`.
    public func currentConfigurations() -> [WidgetInfo] {
        configurations
    }
}
