import Testing
@testable import WidgetSim

/// Rules that rest on what developers saw on their devices, and on Apple's
/// less-read pages: coalescing by due instant (F14), early reloads (F4),
/// ignored and repeated calls (F18), location after a view (F21), a push
/// budget of its own (F19), long timelines (F23) and widgets with no data.
@Suite("Field reports")
struct FieldReportTests {
    /// F14: widgets that fall due in the same second run in the same batch,
    /// however long the scheduling delay drawn for that instant.
    @Test func widgetsDueInTheSameSecondRunInTheSameBatch() {
        var fixture = Fixture(widgets: [
            .configured("weather", policy: .after(interval: Seconds.hour)),
            .configured("news", policy: .after(interval: Seconds.hour)),
            .configured("stocks", policy: .after(interval: Seconds.hour)),
        ])
        fixture.scheduler.schedulingDelay = .logNormal(median: 120, p95: 1_800)
        fixture.days = 3
        let run = fixture.run()
        let first = run.budgeted(0).map(\.time)
        #expect(first.count > 20)
        #expect(run.budgeted(1).map(\.time) == first)
        #expect(run.budgeted(2).map(\.time) == first)
        // The delays are real: most batches run minutes after the hour.
        #expect(first.filter { $0 % Seconds.hour != 0 }.count > first.count / 2)
    }

    /// F4: with `earlyReloadWindow`, a reload due within it runs early, with
    /// a batch that runs now; without it, eligibility is the earliest (F2).
    @Test func aReloadDueSoonMayJoinABatchThatRunsNow() {
        func secondWidgetsFirstReload(early: Int) -> ReloadRecord {
            var fixture = Fixture(widgets: [
                .configured("first", policy: .after(interval: Seconds.hour)),
                .configured("second", policy: .after(interval: Seconds.hour + 5 * Seconds.minute)),
            ])
            fixture.scheduler.earlyReloadWindow = early
            return fixture.run().budgeted(1).first!
        }
        let onTime = secondWidgetsFirstReload(early: 0)
        #expect(onTime.time == Seconds.hour + 5 * Seconds.minute)
        let early = secondWidgetsFirstReload(early: 10 * Seconds.minute)
        #expect(early.time == Seconds.hour)
        #expect(early.waited == -5 * Seconds.minute)
    }

    /// F18: reload calls are ignored for about 30 s after the app is opened
    /// from a tap on its widget, so the app's usual foreground reload is lost.
    @Test func reloadCallsRightAfterAWidgetLaunchAreIgnored() {
        func foregroundReloads(ignoredFor seconds: Int) -> Int {
            var widget = WidgetSetup.configured("w", policy: .never)
            widget.launchesAppPerView = 1
            var fixture = Fixture(widget)
            fixture.apps[0].foregroundReload = .all
            fixture.scheduler.reloadsIgnoredAfterWidgetLaunch = seconds
            fixture.script = [ScriptedAction(at: Seconds.hour, .view(page: 0))]
            return fixture.run().calls().filter { $0.trigger == .appForeground }.count
        }
        #expect(foregroundReloads(ignoredFor: 30) == 0)
        #expect(foregroundReloads(ignoredFor: 0) == 1)
    }

    /// F18: WidgetKit may call `getTimeline` several times in one refresh;
    /// the extra calls are free and each asks the server again.
    @Test func widgetKitMayCallGetTimelineSeveralTimesPerRefresh() {
        var fixture = Fixture(.configured("w", policy: .after(interval: Seconds.hour)))
        fixture.scheduler.extraTimelineCalls = 2...2
        let calls = fixture.run().calls().prefix(6)
        #expect(calls.map(\.trigger) == [.initial, .repeatCall, .repeatCall, .policy, .repeatCall, .repeatCall])
        #expect(calls.map(\.budgeted) == [false, false, false, true, false, false])
    }

    /// F21: a widget seen within the last 15 minutes gets the new location at
    /// once; one seen longer ago waits for its next view (F17).
    @Test func aLocationChangeSoonAfterAViewReloadsAtOnce() {
        var truth = TruthSetup()
        truth.changesWithLocation = true
        var fixture = Fixture(.configured("here", policy: .never, truth: truth))
        fixture.script = [
            ScriptedAction(at: Seconds.hour, .view(page: 0)),
            ScriptedAction(at: Seconds.hour + 10 * Seconds.minute, .locationChange),
            ScriptedAction(at: 2 * Seconds.hour, .locationChange),
            ScriptedAction(at: 3 * Seconds.hour, .view(page: 0)),
        ]
        let locations = fixture.run().calls().filter { $0.trigger == .location }.map(\.time)
        #expect(locations == [Seconds.hour + 10 * Seconds.minute, 3 * Seconds.hour])
    }

    /// F19: under a push budget of its own, pushes beyond `pushDailyBudget`
    /// in 24 hours are withheld until one leaves the window, and pushes never
    /// touch the timeline budget.
    @Test func aSeparatePushBudgetWithholdsPushesAndSparesTheTimelineBudget() {
        var fixture = Fixture(.configured("w", policy: .never))
        fixture.scheduler.pushBudget = .separate
        fixture.scheduler.pushDailyBudget = 2
        fixture.days = 2
        fixture.script = [1, 2, 3].map { ScriptedAction(at: $0 * Seconds.hour, .push(app: 0)) }
        let run = fixture.run()
        let pushes = run.calls().filter { $0.trigger == .push }
        #expect(pushes.map(\.time) == [Seconds.hour, 2 * Seconds.hour, Seconds.day + Seconds.hour])
        #expect(pushes.allSatisfy { !$0.budgeted && $0.budgetUsed24h == 0 })
        #expect(run.withheldRequests() == 1)
    }

    /// F23: a timeline of more than `maximumReliableEntries` entries is not
    /// shown: the call is reported, the budget is spent, the widget keeps
    /// showing its old entries and stays eligible under its old policy.
    @Test func aTimelineOfMoreThanTheReliableEntriesIsNotShown() {
        var fixture = Fixture(.custom("long") {
            FunctionProvider { now in
                let count = now == 0 ? 1 : 401
                return Timeline(entries: (0..<count).map { PlainEntry(date: now + $0 * 60) }, policy: .after(now + Seconds.hour))
            }
        })
        fixture.script = [ScriptedAction(at: Seconds.hour + 60, .view(page: 0))]
        let run = fixture.run()
        let calls = Array(run.calls().prefix(3))
        #expect(calls.map(\.result) == [.ok, .tooManyEntries, .tooManyEntries])
        #expect(calls[1].entryCount == 401 && calls[1].policy == nil && calls[1].budgeted)
        #expect(calls[1].nextEligible == Seconds.hour)
        #expect(run.views.first!.shownEntryDate == 0)
    }

    /// A widget whose provider never got data shows no data: its views are
    /// stale from the moment it was added, like the placeholder (F5).
    @Test func aWidgetThatNeverGotDataIsStaleFromWhenItWasAdded() {
        var widget = WidgetSetup.configured("offline", policy: .after(interval: Seconds.hour)) { settings in
            settings.network.failureRate = 1
        }
        widget.addedAt = 30 * Seconds.minute
        var fixture = Fixture(widget)
        fixture.script = [ScriptedAction(at: Seconds.hour, .view(page: 0))]
        let view = fixture.run().views.first!
        #expect(view.shownEntryDate != nil)  // an entry, not the placeholder
        #expect(view.dataAsOf == nil)
        #expect(view.isStale && view.staleness == 30 * Seconds.minute)
    }
}
