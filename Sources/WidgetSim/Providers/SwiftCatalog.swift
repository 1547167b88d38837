/// Swift code that scenario files can name: providers
/// (`"provider": {"swift": "<name>"}`) and containing apps
/// (`"apps": [{"id": ..., "swift": "<name>"}]`).
///
/// A catalog is a value passed to the scenario loader, never a global: the
/// built-in examples are `SwiftCatalog.builtIn`, and a package of your own
/// adds its providers and apps to a copy of it.
public struct SwiftCatalog: Sendable {
    /// A provider a scenario can name.
    public struct Provider: Sendable {
        public var name: String
        public var summary: String
        public var make: @Sendable () -> AnyTimelineProvider

        public init(name: String, summary: String, make: @escaping @Sendable () -> AnyTimelineProvider) {
            self.name = name
            self.summary = summary
            self.make = make
        }
    }

    /// A containing app a scenario can name.
    public struct App: Sendable {
        public var name: String
        public var summary: String
        public var make: @Sendable () -> any ContainingApp

        public init(name: String, summary: String, make: @escaping @Sendable () -> any ContainingApp) {
            self.name = name
            self.summary = summary
            self.make = make
        }
    }

    public var providers: [Provider]
    public var apps: [App]

    public init(providers: [Provider] = [], apps: [App] = []) {
        self.providers = providers
        self.apps = apps
    }

    /// The examples that ship with the library: Apple's character-detail
    /// widget in its two shapes (E2, E3) and its app.
    public static let builtIn = SwiftCatalog(
        providers: [
            Provider(
                name: "characterDetail", summary: "Apple's character-health provider: an entry an hour until full health (E2)",
                make: { AnyTimelineProvider(CharacterDetailProvider()) }),
            Provider(
                name: "dragonBattle",
                summary: "Apple's dragon example: after(battle), then an entry now and one at full health two hours later (E3), then never (E2)",
                make: { AnyTimelineProvider(CharacterDetailProvider(healthAfterBattle: 0.5, recoveryPerHour: 0.25, style: .nowAndFull)) }),
        ],
        apps: [
            App(
                name: "characterApp",
                summary: "Apple's game app: reloads the character's widget when a healing potion arrives (E2, F16)",
                make: { CharacterApp() }),
        ])

    public func provider(named name: String) -> Provider? {
        providers.first { $0.name == name }
    }

    public func app(named name: String) -> App? {
        apps.first { $0.name == name }
    }
}
