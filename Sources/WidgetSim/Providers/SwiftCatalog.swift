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

    /// This catalog with `providers` and `apps` added after its own.
    ///
    /// Throws when a name is empty or already taken, because a scenario's
    /// `"swift": "<name>"` must name exactly one thing; a package cannot
    /// quietly replace a built-in example.
    public func adding(providers: [Provider] = [], apps: [App] = []) throws(SwiftCatalogError) -> SwiftCatalog {
        var catalog = self
        for provider in providers {
            guard !provider.name.isEmpty else { throw .emptyName(kind: .provider) }
            guard catalog.provider(named: provider.name) == nil else { throw .nameTaken(kind: .provider, name: provider.name) }
            catalog.providers.append(provider)
        }
        for app in apps {
            guard !app.name.isEmpty else { throw .emptyName(kind: .app) }
            guard catalog.app(named: app.name) == nil else { throw .nameTaken(kind: .app, name: app.name) }
            catalog.apps.append(app)
        }
        return catalog
    }

    public func provider(named name: String) -> Provider? {
        providers.first { $0.name == name }
    }

    public func app(named name: String) -> App? {
        apps.first { $0.name == name }
    }
}

/// Why Swift code could not join a catalog.
public enum SwiftCatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the name was for.
    public enum Kind: String, Sendable {
        case provider, app
    }

    case emptyName(kind: Kind)
    case nameTaken(kind: Kind, name: String)

    public var description: String {
        switch self {
        case .emptyName(let kind):
            return "a Swift \(kind.rawValue) needs a name: scenarios name it with \"swift\": \"<name>\""
        case .nameTaken(let kind, let name):
            return "two Swift \(kind.rawValue)s are named \"\(name)\"; a scenario's \"swift\": \"\(name)\" must name one, so give yours another name"
        }
    }
}
