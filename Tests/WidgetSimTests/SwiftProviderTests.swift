import Testing
@testable import WidgetSim

/// The worked example of a provider written in Swift: Apple's
/// character-detail provider (E2, E3), as the `game` scenario runs it.
@Suite("Swift provider example")
struct SwiftProviderTests {
    /// A character attacked every 8 hours (from midnight), no potions.
    static func run(script: [ScriptedAction] = [], potionsReloadKind: Bool = false) -> [ReloadRecord] {
        var truth = TruthSetup(periodic: PeriodicChanges(period: 8 * Seconds.hour))
        truth.forecastHorizonMean = 1e9
        if potionsReloadKind { truth.reaction = .reloadKind }
        var fixture = Fixture(WidgetSetup(
            id: "character", kind: "com.mygame.character-detail",
            provider: .custom(SwiftProvider("characterDetail", network: NetworkModel(latency: .fixed(0))) {
                AnyTimelineProvider(CharacterDetailProvider())
            }),
            truth: truth))
        fixture.script = script
        return fixture.run().calls()
    }

    /// E2: after a battle, hourly entries 25 %, 50 %, 75 %, 100 % and `atEnd`;
    /// E3: at full health with the dragon due, `after(battle)`.
    @Test func theCharacterRecoversHourlyThenWaitsForTheNextBattle() {
        let calls = Self.run()
        #expect(Array(calls.prefix(3).map(\.time)) == [0, 3 * Seconds.hour, 8 * Seconds.hour])
        #expect(calls[0].entryCount == 4 && calls[0].policy == .atEnd && calls[0].nextEligible == 3 * Seconds.hour)
        #expect(calls[1].entryCount == 1 && calls[1].policy == .after(8 * Seconds.hour))
        #expect(calls[2].entryCount == 4 && calls[2].policy == .atEnd)
    }

    /// A healing potion restores health at once; the app's
    /// `reloadTimelines(ofKind:)` brings a timeline showing it.
    @Test func aHealingPotionRestoresHealthAndTheAppReloadsTheKind() {
        let calls = Self.run(script: [ScriptedAction(at: Seconds.hour, .truthChange(widget: 0))], potionsReloadKind: true)
        let potion = calls.first { $0.time == Seconds.hour }!
        #expect(potion.trigger == .widgetCenter)
        #expect(potion.entryCount == 1 && potion.policy == .after(8 * Seconds.hour))
    }

    @Test func theGameScenarioUsesTheSwiftProvider() throws {
        let setup = try ScenarioLoader.load(path: Paths.scenario("game"))
        guard case .custom(let provider) = setup.devices[0].widgets[0].provider else {
            Issue.record("expected a Swift provider")
            return
        }
        #expect(provider.name == "characterDetail")
    }

    @Test func anUnknownSwiftProviderListsTheKnownOnes() {
        let text = #"{"name": "x", "devices": [{"id": "d", "widgets": [{"id": "w", "provider": {"swift": "characterDetial"}}]}]}"#
        #expect(throws: ScenarioError.self) { try ScenarioLoader.decode(text, file: "x.json") }
        do {
            _ = try ScenarioLoader.decode(text, file: "x.json")
        } catch {
            #expect(error.description.contains(#"no Swift provider named "characterDetial" (did you mean "characterDetail"?)"#))
        }
    }

    /// E3 then E2: before a scheduled one-off battle the dragon provider asks
    /// for `after(battle)`; after it, one entry now and one at full health two
    /// hours later, `atEnd`; at full health with no battle ahead, `never`.
    @Test func theDragonProviderWaitsForTheBattleThenShowsTwoEntriesThenNever() {
        var truth = TruthSetup()
        truth.scheduledChanges = [2 * Seconds.hour]
        let make = SwiftCatalog.builtIn.provider(named: "dragonBattle")!.make
        let widget = WidgetSetup(
            id: "character", kind: "com.mygame.character-detail",
            provider: .custom(SwiftProvider("dragonBattle", network: NetworkModel(latency: .fixed(0)), make: make)), truth: truth)
        let calls = Fixture(widget).run().calls()
        #expect(calls.map(\.time) == [0, 2 * Seconds.hour, 4 * Seconds.hour])
        #expect(calls.map(\.policy) == [.after(2 * Seconds.hour), .atEnd, .never])
        #expect(calls.map(\.entryCount) == [1, 2, 1])
    }

    /// The scenario library shows E2's `never` and E3's two-entry timeline in
    /// a committed report, not only in tests.
    @Test func theDragonScenariosCommittedReportShowsNeverAndTheTwoEntryTimeline() throws {
        let reloads = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Reports/dragon/reloads.csv"), encoding: .utf8)
        let rows = reloads.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.contains { $0[11] == "2" && $0[12] == "atEnd" })
        #expect(rows.contains { $0[12] == "never" })
    }
}
