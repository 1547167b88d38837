import Testing
@testable import WidgetSim

/// Reload triggers: which are free, what WidgetCenter reaches, coalescing,
/// the provider time limit, and the policies' eligibility.
@Suite("Trigger rules")
struct TriggerRuleTests {
    /// A fixture whose single budget is spent by 10 minutes in, so that any
    /// later reload must be free to happen at all.
    static func exhaustedBudget(_ widgets: [WidgetSetup]) -> Fixture {
        var fixture = Fixture(widgets: widgets)
        fixture.scheduler.dailyBudgetMin = 1
        fixture.scheduler.dailyBudgetMax = 1
        fixture.scheduler.minimumDailyBudget = 1
        fixture.script = [ScriptedAction(at: 10 * Seconds.minute, .reloadAllTimelines(app: 0))]
        return fixture
    }

    /// F17: foreground app, media session, App Intent, significant location
    /// change and system changes reload without budget, even when it is spent.
    @Test func freeTriggersReloadWithoutBudget() {
        var truth = TruthSetup()
        truth.changesWithLocation = true
        var fixture = Self.exhaustedBudget([.configured("widget", policy: .never, truth: truth)])
        fixture.apps[0].foregroundReload = .all
        fixture.script += [
            ScriptedAction(at: 1 * Seconds.hour, .appSession(app: 0, length: 60)),
            ScriptedAction(at: 2 * Seconds.hour, .mediaSession(app: 0, length: 60)),
            ScriptedAction(at: 3 * Seconds.hour, .tap(widget: 0)),
            ScriptedAction(at: 4 * Seconds.hour, .systemChange),
            ScriptedAction(at: 5 * Seconds.hour, .locationChange),
            ScriptedAction(at: 6 * Seconds.hour, .view(page: 0)),
        ]
        let calls = fixture.run().calls()
        #expect(calls.map(\.trigger) == [.initial, .widgetCenter, .appForeground, .mediaSession, .interaction, .system, .location])
        #expect(calls.map(\.budgeted) == [false, true, false, false, false, false, false])
        // The location reload waits for the next view (F17), at 6 h, not 5 h.
        #expect(calls.last!.time == 6 * Seconds.hour)
    }

    /// F16: WidgetCenter calls from the app in the background are budgeted;
    /// F17: the same calls while it is in the foreground are not.
    @Test func widgetCenterIsBudgetedUnlessTheAppIsInTheForeground() {
        var fixture = Fixture(.configured("widget", policy: .never))
        fixture.apps[0].foregroundReload = .none
        fixture.script = [
            ScriptedAction(at: Seconds.hour, .appSession(app: 0, length: 10 * Seconds.minute)),
            ScriptedAction(at: Seconds.hour + 5 * Seconds.minute, .reloadAllTimelines(app: 0)),
            ScriptedAction(at: 2 * Seconds.hour, .reloadAllTimelines(app: 0)),
        ]
        let calls = fixture.run().calls()
        #expect(calls.map(\.time) == [0, Seconds.hour + 5 * Seconds.minute, 2 * Seconds.hour])
        #expect(calls.map(\.trigger) == [.initial, .appForeground, .widgetCenter])
        #expect(calls.map(\.budgeted) == [false, false, true])
    }

    /// F16: `reloadTimelines(ofKind:)` reloads every instance of that kind and
    /// nothing else; `reloadAllTimelines()` reloads every widget of the app.
    @Test func reloadTimelinesOfKindReachesOnlyThatKindAndReloadAllReachesTheWholeApp() {
        var fixture = Fixture(widgets: [
            .configured("a-1", kind: "a", policy: .never),
            .configured("a-2", kind: "a", policy: .never),
            .configured("b", kind: "b", policy: .never),
            .configured("other-app", kind: "a", policy: .never, app: 1),
        ])
        fixture.apps = [AppSetup(id: "game"), AppSetup(id: "other")]
        fixture.script = [
            ScriptedAction(at: Seconds.hour, .reloadTimelines(app: 0, kind: "a")),
            ScriptedAction(at: 2 * Seconds.hour, .reloadAllTimelines(app: 0)),
        ]
        let run = fixture.run()
        let atOne = run.reloads.filter { $0.time == Seconds.hour }.map(\.widget)
        let atTwo = run.reloads.filter { $0.time == 2 * Seconds.hour }.map(\.widget)
        #expect(atOne == [0, 1])
        #expect(atTwo == [0, 1, 2])
    }

    /// F16: the app sees its own configured widgets, kind, family and configuration.
    @Test func currentConfigurationsListTheAppsWidgets() {
        var fixture = Fixture(widgets: [
            .configured("mine", kind: "character", policy: .never),
            .configured("theirs", kind: "other", policy: .never, app: 1),
        ])
        fixture.widgets[0].configuration = "Power Panda"
        fixture.apps = [AppSetup(id: "game"), AppSetup(id: "other")]
        var device = DeviceSimulator(simulation: fixture.setup, deviceIndex: 0, observer: ReportCollector())
        device.run()
        #expect(device.widgetCenter(for: 0).currentConfigurations()
            == [WidgetInfo(kind: "character", family: .systemMedium, configuration: "Power Panda")])
    }

    /// F14: reloads that fall due close together on one device run together.
    @Test func reloadsDueWithinTheCoalescingWindowRunTogether() {
        func run(window: Int) -> [SimTime] {
            var fixture = Fixture(widgets: [
                .configured("first", policy: .after(interval: Seconds.hour)),
                .configured("second", policy: .after(interval: Seconds.hour + 60)),
            ])
            fixture.scheduler.schedulingDelay = .fixed(120)
            fixture.scheduler.coalescingWindow = window
            let reloads = fixture.run().reloads
            return [reloads.first { $0.widget == 0 && $0.budgeted }!.time, reloads.first { $0.widget == 1 && $0.budgeted }!.time]
        }
        #expect(run(window: 300) == [3_720, 3_720])
        #expect(run(window: 0) == [3_720, 3_780])
    }

    /// F22: a provider call that outlasts the time limit produces no timeline;
    /// the widget keeps its old one and retries under its old policy.
    @Test func providerCallOutlastingTheTimeLimitProducesNoTimeline() {
        var fixture = Fixture(.custom("slow") {
            SlowProvider(secondsOfWork: { now in now == Seconds.hour ? 45 : 5 })
        })
        fixture.script = [ScriptedAction(at: Seconds.hour + 100, .view(page: 0))]
        let run = fixture.run()
        let calls = Array(run.calls().prefix(3))
        #expect(calls.map(\.time) == [0, Seconds.hour, Seconds.hour + 5 * Seconds.minute])
        #expect(calls.map(\.result) == [.ok, .timedOut, .ok])
        #expect(calls[1].entryCount == 0 && calls[1].policy == nil)
        #expect(calls[1].completesAt == Seconds.hour + 30)
        // The view between the timeout and the retry still shows the first timeline.
        #expect(run.views.first?.shownEntryDate == 5)
    }

    /// F18: an App Intent reloads the tapped widget at once, and only that widget.
    @Test func tappingAnIntentButtonReloadsOnlyTheTappedWidgetAtOnce() {
        var fixture = Fixture(widgets: [.configured("todo", policy: .never), .configured("other", policy: .never)])
        fixture.scheduler.interactionReloadDelay = .uniform(min: 0, max: 1)
        fixture.script = [ScriptedAction(at: Seconds.hour, .tap(widget: 0))]
        let run = fixture.run()
        #expect(run.calls(1).count == 1)
        let tapped = run.calls(0).last!
        #expect(tapped.trigger == .interaction && !tapped.budgeted)
        #expect(tapped.time - Seconds.hour <= 1)
    }

    /// F3: `atEnd` with a single entry lets the system pick the reload time.
    @Test func singleEntryAtEndReloadsWhenTheSystemPicks() {
        var fixture = Fixture(.configured("screentime", policy: .atEnd))
        fixture.scheduler.singleEntryAtEndDelay = .uniform(min: 15 * Seconds.minute, max: Seconds.hour)
        let times = fixture.run().callTimes()
        #expect(times.count > 20)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect((15 * Seconds.minute...Seconds.hour).contains(later - earlier))
        }
    }

    /// F2: `atEnd` with several entries is eligible after the last entry's date.
    @Test func atEndIsEligibleAfterTheLastEntry() {
        let run = Fixture(.configured("calendar", policy: .atEnd, entries: 4, spacing: Seconds.hour)).run()
        #expect(Array(run.callTimes().prefix(4)) == [0, 3 * Seconds.hour, 6 * Seconds.hour, 9 * Seconds.hour])
        #expect(run.calls().first!.nextEligible == 3 * Seconds.hour)
    }

    /// F19: a widget push reloads the app's widgets; with the default `shared`
    /// budget it counts against the timeline budget, with `free` it does not.
    @Test func pushReloadsAreBudgetedAsConfigured() {
        func trigger(_ budget: PushBudget) -> ReloadRecord {
            var fixture = Fixture(.configured("news", policy: .never))
            fixture.scheduler.pushBudget = budget
            fixture.script = [ScriptedAction(at: Seconds.hour, .push(app: 0))]
            return fixture.run().calls().last!
        }
        #expect(trigger(.shared).trigger == .push && trigger(.shared).budgeted)
        #expect(trigger(.free).trigger == .push && !trigger(.free).budgeted)
    }

    /// F19: a push the script sends is delivered opportunistically, like one
    /// about a truth change: the reload starts `pushDeliveryDelay` after the
    /// send, not at it. (Scripted and fleet-moment pushes used to arrive in
    /// the second they were sent.)
    @Test func aScriptedPushArrivesAfterThePushDeliveryDelay() {
        var fixture = Fixture(.configured("news", policy: .never))
        fixture.scheduler.pushBudget = .free
        fixture.scheduler.pushDeliveryDelay = .fixed(300)
        fixture.script = [ScriptedAction(at: Seconds.hour, .push(app: 0))]
        let push = fixture.run().calls().last!
        #expect(push.trigger == .push)
        #expect(push.time == Seconds.hour + 300)
    }

    /// F20: when a background URL session started by the extension delivers its
    /// events, the widget asks for a new timeline (budgeted).
    @Test func backgroundSessionCompletionAsksForANewTimeline() {
        let run = Fixture(.configured("download", policy: .never) { settings in
            settings.backgroundSessionProbability = 1
            settings.backgroundSessionDuration = .fixed(600)
        }).run()
        let second = run.calls()[1]
        #expect(second.time == 600 && second.trigger == .backgroundSession && second.budgeted)
    }

    /// A request that arrives while a call is running is served by another
    /// call after it completes, not by the running one.
    @Test func requestDuringACallRunsAfterItCompletes() {
        var fixture = Fixture(.configured("widget", policy: .never, latency: 20))
        fixture.script = [ScriptedAction(at: 5, .reloadAllTimelines(app: 0))]
        let calls = fixture.run().calls()
        #expect(calls.map(\.time) == [0, 20])
        #expect(calls[1].trigger == .widgetCenter && calls[1].waited == 15)
    }
}

/// A provider whose work takes a time that depends on when it is asked.
struct SlowProvider: TimelineProvider {
    let secondsOfWork: @Sendable (SimTime) -> Int

    func placeholder(in context: TimelineProviderContext) -> PlainEntry { PlainEntry(date: context.now) }
    func snapshot(in context: TimelineProviderContext) -> PlainEntry { PlainEntry(date: context.now) }
    mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<PlainEntry> {
        context.work(seconds: secondsOfWork(context.now))
        return Timeline(entries: [PlainEntry(date: context.now)], policy: .after(context.reloadStartedAt + Seconds.hour))
    }
}

/// F22: the extension is halted at the time limit, so whatever a timed-out
/// call would have cached never happened.
@Suite("Provider time limit")
struct ProviderTimeLimitTests {
    @Test func aTimedOutCallLeavesNoTraceInTheProvidersCache() {
        // The first reload's fetch takes 45 s (past the 30 s limit); every
        // later fetch fails, so the provider can only show what it cached.
        var fixture = Fixture(.custom("cache") { CachingProvider() })
        fixture.script = [ScriptedAction(at: 2 * Seconds.hour + 60, .view(page: 0))]
        let run = fixture.run()
        #expect(run.calls().map(\.result).prefix(2) == [.ok, .timedOut])
        // The view shows data fetched by the initial call, never the halted one's.
        #expect(run.views.first?.dataAsOf == 1)
    }

    /// F22 for the built-in provider, whose fast path saves only its cache:
    /// a halted call leaves `lastGoodFetch` as it was; a call within the
    /// limit updates it.
    @Test func aTimedOutCallLeavesTheBuiltInProvidersCacheAsItWas() {
        func lastGoodFetch(afterACallOf latency: Int, timeLimit: Int) -> SimTime? {
            var settings = ConfiguredProvider.Settings()
            settings.network = NetworkModel(latency: .fixed(latency))
            var provider = ConfiguredProvider(settings: settings)
            let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 0)
            var context = TimelineProviderContext(
                family: .systemMedium, isPreview: false, configuration: nil, calendar: calendar, now: 100,
                network: settings.network, random: RandomStream(seed: 1),
                scheduleStorage: ContentScheduleStorage(ContentSchedule(periodic: nil, calendar: calendar)))
            var entries: [ScheduledEntry] = []
            _ = provider.timeline(in: &context, into: &entries, timeLimit: timeLimit)
            return provider.lastGoodFetch
        }
        #expect(lastGoodFetch(afterACallOf: 45, timeLimit: 30) == nil)
        #expect(lastGoodFetch(afterACallOf: 20, timeLimit: 30) == 120)
    }
}

/// Fetches once successfully at t = 0, once too slowly, then always fails,
/// answering from its cache as an app would.
struct CachingProvider: TimelineProvider {
    var cachedFetch: SimTime?
    var calls = 0

    func placeholder(in context: TimelineProviderContext) -> PlainEntry { PlainEntry(date: context.now) }
    func snapshot(in context: TimelineProviderContext) -> PlainEntry { PlainEntry(date: context.now) }
    mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<PlainEntry> {
        calls += 1
        switch calls {
        case 1: context.work(seconds: 1)
        case 2: context.work(seconds: 45)
        default:
            context.work(seconds: 1)
            return Timeline(entries: [PlainEntry(date: context.now, fetched: cachedFetch ?? 0)], policy: .after(context.now + Seconds.hour))
        }
        cachedFetch = context.now
        return Timeline(entries: [PlainEntry(date: context.now, fetched: context.now)], policy: .after(context.now + Seconds.hour))
    }

}
