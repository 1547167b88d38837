import Testing
@testable import WidgetSim

/// Apple's worked examples (seeds/, WIDGETKIT.md E1–E4), reproduced as the
/// sequence of provider calls WidgetKit makes.
@Suite("Apple's examples")
struct AppleExampleTests {
    /// E1: the game-status provider returns one entry and `after(now + 15 min)`.
    @Test func gameStatusReloadsEveryFifteenMinutes() {
        let run = Fixture(.custom("game-status") { GameStatusProvider() }).run()
        #expect(diagram(run.calls(), step: 15 * Seconds.minute, length: 8) == "IBBBBBBB")
        #expect(run.calls().dropFirst().allSatisfy { $0.policy == .after($0.time + 15 * Seconds.minute) })
    }

    /// E2: health 25 % recovering 25 % an hour. The first timeline has four
    /// hourly entries and `atEnd`; at +3 h the provider returns one full-health
    /// entry and `never`; only the app's WidgetCenter call (the healing potion)
    /// brings a third call.
    @Test func characterHealthStopsAtFullHealthUntilTheAppReloads() {
        var fixture = Fixture(.custom("health", kind: "com.mygame.character-detail") {
            CharacterHealthProvider(healthAtStart: 0.25)
        })
        fixture.script = [ScriptedAction(at: 7 * Seconds.hour, .reloadTimelines(app: 0, kind: "com.mygame.character-detail"))]
        let calls = fixture.run().calls()
        #expect(calls.map(\.time) == [0, 3 * Seconds.hour, 7 * Seconds.hour])
        #expect(calls[0].entryCount == 4 && calls[0].policy == .atEnd && calls[0].nextEligible == 3 * Seconds.hour)
        #expect(calls[1].entryCount == 1 && calls[1].policy == .never && calls[1].nextEligible == nil)
        #expect(calls[2].trigger == .widgetCenter)
        #expect(diagram(calls, step: Seconds.hour, length: 8) == "I..B...B")
    }

    /// E3: a dragon attacks in 2 h, so the provider returns `after(now + 2 h)`;
    /// after the battle the timeline has two entries (now, +2 h) and `atEnd`.
    @Test func dragonBattleReloadsAtTheBattleThenAtFullHealth() {
        let calls = Fixture(.custom("dragon") { DragonProvider(battleAt: 2 * Seconds.hour) }).run().calls()
        #expect(calls.map(\.time) == [0, 2 * Seconds.hour, 4 * Seconds.hour])
        #expect(calls.map(\.policy) == [.after(2 * Seconds.hour), .atEnd, .never])
        #expect(calls[1].entryCount == 2)
    }

    /// E4: at Friday's close the stocks provider returns `after(Monday open)`:
    /// no reloads over the weekend.
    @Test func stocksDoNotReloadOverTheWeekend() {
        var truth = TruthSetup(periodic: PeriodicChanges(
            period: 60,
            window: ActiveWindow(
                weekdays: [.monday, .tuesday, .wednesday, .thursday, .friday],
                fromSecond: 9 * Seconds.hour + 30 * Seconds.minute, toSecond: 16 * Seconds.hour)))
        truth.forecastHorizonMean = 0
        var fixture = Fixture(.configured("stocks", policy: .after(interval: 15 * Seconds.minute), truth: truth) {
            $0.skipInactiveHours = true
        })
        fixture.days = 8  // Monday 2 March to Monday 9 March 2026
        let run = fixture.run()
        let calendar = fixture.setup.calendar
        let budgeted = run.budgeted()
        #expect(!budgeted.isEmpty)
        for call in budgeted {
            #expect(calendar.weekday(call.time) < .saturday)
            let second = calendar.secondOfDay(call.time)
            #expect(second >= 9 * Seconds.hour + 30 * Seconds.minute && second <= 16 * Seconds.hour)
        }
        let fridayClose = budgeted.last { calendar.weekday($0.time) == .friday }!
        let mondayOpen = 7 * Seconds.day + 9 * Seconds.hour + 30 * Seconds.minute
        #expect(fridayClose.nextEligible == mondayOpen)
        #expect(budgeted.first { $0.time > fridayClose.time }?.time == mondayOpen)
    }
}

/// E1, from Apple's "Creating a Widget Extension".
struct GameStatusProvider: TimelineProvider {
    struct Entry: TimelineEntry {
        var date: SimTime
        var gameStatus: String
    }

    func placeholder(in context: TimelineProviderContext) -> Entry { Entry(date: context.now, gameStatus: "—") }
    func snapshot(in context: TimelineProviderContext) -> Entry { Entry(date: context.now, gameStatus: "—") }
    mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<Entry> {
        let entry = Entry(date: context.now, gameStatus: "your turn")
        return Timeline(entries: [entry], policy: .after(context.now + 15 * Seconds.minute))
    }
}

/// E2, from Apple's "Keeping a Widget Up To Date": health recovers 25 % an hour.
struct CharacterHealthProvider: TimelineProvider {
    struct Entry: TimelineEntry {
        var date: SimTime
        var healthLevel: Double
    }

    let healthAtStart: Double

    func health(at t: SimTime) -> Double { min(1, healthAtStart + 0.25 * Double(t) / Double(Seconds.hour)) }
    func placeholder(in context: TimelineProviderContext) -> Entry { Entry(date: context.now, healthLevel: 1) }
    func snapshot(in context: TimelineProviderContext) -> Entry { Entry(date: context.now, healthLevel: health(at: context.now)) }

    mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<Entry> {
        var date = context.now
        var level = health(at: date)
        guard level < 1 else {
            return Timeline(entries: [Entry(date: date, healthLevel: 1)], policy: .never)
        }
        // Apple's sample loops `while healthLevel <= 1` with `min(1, ...)`, which
        // never ends as printed; its text describes entries up to and including
        // full health, which is what this does.
        var entries = [Entry(date: date, healthLevel: level)]
        while level < 1 {
            level = min(1, level + 0.25)
            date += Seconds.hour
            entries.append(Entry(date: date, healthLevel: level))
        }
        return Timeline(entries: entries, policy: .atEnd)
    }
}

/// E3: a battle at `battleAt` costs health that takes 2 hours to recover.
struct DragonProvider: TimelineProvider {
    struct Entry: TimelineEntry {
        var date: SimTime
    }

    let battleAt: SimTime

    func placeholder(in context: TimelineProviderContext) -> Entry { Entry(date: context.now) }
    func snapshot(in context: TimelineProviderContext) -> Entry { Entry(date: context.now) }
    mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<Entry> {
        let now = context.now
        if now < battleAt {
            return Timeline(entries: [Entry(date: now)], policy: .after(battleAt))
        }
        if now < battleAt + 2 * Seconds.hour {
            return Timeline(entries: [Entry(date: now), Entry(date: now + 2 * Seconds.hour)], policy: .atEnd)
        }
        return Timeline(entries: [Entry(date: now)], policy: .never)
    }
}
