import WidgetSim
import WidgetSimCLI

// widgetsim, every command of it, with this package's provider added: a
// scenario names it with "provider": {"swift": "appleCharacterDetail"}.
// CharacterDetailProvider.swift is Apple's code from its TimelineProvider
// page, ported; the README ("Your providers in your own package") shows the diff.
WidgetSimCommandLine.main(providers: [
    SwiftCatalog.Provider(
        name: "appleCharacterDetail",
        summary: "Apple's CharacterDetailProvider from the TimelineProvider page, ported as it stands (E2)",
        make: { AnyTimelineProvider(CharacterDetailProvider()) }),
])
