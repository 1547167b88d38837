import Testing
@testable import WidgetSim

/// The containing app's code: what it does with WidgetCenter when it becomes
/// active or hears that its content changed, and how the simulator applies
/// those calls (F16, F17).
@Suite("Containing app")
struct ContainingAppTests {
    /// A character widget (E2) whose app is Apple's game app in Swift.
    static func game(configuration: String) -> Fixture {
        var truth = TruthSetup()
        truth.reaction = .reloadKind
        var widget = WidgetSetup.configured("character", kind: "com.mygame.character-detail", policy: .never, truth: truth)
        widget.configuration = configuration
        var fixture = Fixture(widget)
        fixture.apps[0].swift = SwiftApp("characterApp") { CharacterApp(character: "Power Panda") }
        return fixture
    }

    /// F16, E2: a notification about a healing potion wakes the app, which
    /// finds the configured widget showing that character and reloads its
    /// kind; from the background, the reload is budgeted.
    @Test func aSwiftAppsWidgetCenterCallsAreAppliedAndBudgetedInTheBackground() {
        var fixture = Self.game(configuration: "Power Panda")
        fixture.script = [ScriptedAction(at: Seconds.hour, .truthChange(widget: 0))]
        let calls = fixture.run().calls()
        #expect(calls.map(\.trigger) == [.initial, .widgetCenter])
        #expect(calls.map(\.time) == [0, Seconds.hour])
        #expect(calls.map(\.budgeted) == [false, true])
    }

    /// F16: `currentConfigurations()` lets the app reload only when a
    /// matching widget exists; no widget shows the character, so nothing reloads.
    @Test func aSwiftAppReloadsOnlyWhenAMatchingWidgetIsConfigured() {
        var fixture = Self.game(configuration: "Sneaky Sloth")
        fixture.script = [ScriptedAction(at: Seconds.hour, .truthChange(widget: 0))]
        #expect(fixture.run().calls().map(\.trigger) == [.initial])
    }

    /// F17: the app's calls while it is in the foreground are free, whichever
    /// event prompted them.
    @Test func aSwiftAppsCallsAreFreeWhileItIsInTheForeground() {
        var fixture = Self.game(configuration: "Power Panda")
        fixture.script = [
            ScriptedAction(at: Seconds.hour, .appSession(app: 0, length: 10 * Seconds.minute)),
            ScriptedAction(at: Seconds.hour + 5 * Seconds.minute, .truthChange(widget: 0)),
        ]
        let calls = fixture.run().calls()
        #expect(calls.map(\.trigger) == [.initial, .appForeground, .appForeground])
        #expect(calls.map(\.budgeted) == [false, false, false])
    }

    /// The built-in app does what the scenario configures, through the same
    /// WidgetCenter: `reloadAll` on a content change reaches every widget of the app.
    @Test func theConfiguredAppReloadsWhatTheScenarioSays() {
        var truth = TruthSetup()
        truth.reaction = .reloadAll
        var fixture = Fixture(widgets: [
            .configured("news", policy: .never, truth: truth),
            .configured("weather", policy: .never),
        ])
        fixture.script = [ScriptedAction(at: Seconds.hour, .truthChange(widget: 0))]
        let run = fixture.run()
        #expect(run.callTimes(0) == [0, Seconds.hour])
        #expect(run.callTimes(1) == [0, Seconds.hour])
    }
}
