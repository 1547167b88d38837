/// Providers written in Swift that scenario files can name with
/// `"provider": {"swift": "<name>"}`.
public enum ProviderCatalog {
    public struct Entry: Sendable {
        public var name: String
        public var summary: String
        public var make: @Sendable () -> AnyTimelineProvider
    }

    public static let entries: [Entry] = [
        Entry(
            name: "characterDetail",
            summary: "Apple's character-health and dragon provider (E2, E3)",
            make: { AnyTimelineProvider(CharacterDetailProvider()) }),
    ]

    public static func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }
}
