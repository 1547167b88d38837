import Testing
@testable import WidgetSim

/// The budget: spacing, the 24-hour window, learning, withholding, per-instance
/// accounting, engagement and the alternative budget models.
@Suite("Budget rules")
struct BudgetRuleTests {
    /// A widget that asks to be reloaded every `interval` seconds, for ever.
    static func greedy(_ id: String = "greedy", every interval: Int = 5 * Seconds.minute, page: Int = 0) -> WidgetSetup {
        .configured(id, policy: .after(interval: interval), page: page)
    }

    /// F13: "WidgetKit imposes a minimum amount of time before it reloads a widget."
    @Test func budgetedReloadsAreAtLeastMinimumSpacingApart() {
        let run = Fixture(Self.greedy(every: 60)).run()
        // One character per minute: initial call, the policy reload at +1 min,
        // then one every five minutes however often the provider asks.
        #expect(diagram(run.calls(), step: 60, length: 17) == "IB....B....B....B")
        let times = run.budgeted().map(\.time)
        #expect(times.count == 50)  // the whole daily budget, every call spaced
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= 5 * Seconds.minute)
        }
    }

    /// F10: at most `limit` budgeted reloads in any trailing 24 hours; the next
    /// one runs the moment the oldest leaves the window.
    @Test func rollingWindowNeverExceedsTheLimitInAnyTrailingDay() {
        var fixture = Fixture(Self.greedy())
        fixture.days = 3
        let run = fixture.run()
        let budgeted = run.budgeted()
        for call in budgeted {
            let inWindow = budgeted.filter { $0.time > call.time - Seconds.day && $0.time <= call.time }.count
            #expect(call.budgetUsed24h == inWindow)
            #expect(inWindow <= call.budgetLimit!)
        }
        #expect(budgeted[0].budgetLimit == 50)
        #expect(budgeted[50].time == budgeted[0].time + Seconds.day)
        #expect(run.withheldRequests() > 0)
    }

    /// F11: during the learning period the widget may get more reloads than normal.
    @Test func learningPeriodMultipliesTheBudget() {
        var fixture = Fixture(Self.greedy())
        fixture.scheduler.learningDays = 1
        fixture.scheduler.learningMultiplier = 1.5
        fixture.days = 3
        let run = fixture.run()
        let budgeted = run.budgeted()
        #expect(budgeted.first!.budgetLimit == 75)
        #expect(budgeted.filter { $0.time < Seconds.day }.count == 75)
        #expect(budgeted.last!.budgetLimit == 50)
        let lateWindow = budgeted.filter { $0.time > 2 * Seconds.day }
        #expect(lateWindow.allSatisfy { $0.budgetUsed24h <= 50 })
    }

    /// F12: "Updates are withheld until new budget is available", then run once;
    /// requests made while waiting merge into that one reload.
    @Test func withheldRequestsWaitForBudgetAndThenRunOnce() {
        var fixture = Fixture(.configured("widget", policy: .never))
        fixture.scheduler.dailyBudgetMin = 2
        fixture.scheduler.dailyBudgetMax = 2
        fixture.scheduler.minimumDailyBudget = 1
        fixture.days = 2
        fixture.script = (1...5).map { ScriptedAction(at: $0 * Seconds.hour, .reloadAllTimelines(app: 0)) }
        let run = fixture.run()
        #expect(run.callTimes() == [0, Seconds.hour, 2 * Seconds.hour, Seconds.day + Seconds.hour])
        let last = run.calls().last!
        #expect(last.trigger == .widgetCenter)
        #expect(last.waited == Seconds.day + Seconds.hour - 3 * Seconds.hour)
        #expect(run.withheldRequests() == 3)
    }

    /// F7: "each widget instance has its own budget"; two copies, two budgets.
    @Test func eachInstanceHasItsOwnBudget() {
        var fixture = Fixture(widgets: [
            .configured("copy-1", kind: "weather", policy: .after(interval: 300)),
            .configured("copy-2", kind: "weather", policy: .after(interval: 300)),
        ])
        fixture.scheduler.dailyBudgetMin = 5
        fixture.scheduler.dailyBudgetMax = 5
        let run = fixture.run()
        #expect(run.budgeted(0).count == 5)
        #expect(run.budgeted(1).count == 5)
        #expect(run.budgeted(1).allSatisfy { $0.budgetUsed24h <= 5 })
    }

    /// F8, F9: a frequently viewed widget gets its full budget; one on a page the
    /// user rarely visits gets less, down to the floor.
    @Test func rarelyViewedWidgetsGetSmallerBudgets() {
        var fixture = Fixture(widgets: [
            .configured("front", policy: .never, page: 0),
            .configured("back", policy: .never, page: 1),
            .configured("hidden", policy: .never, page: 2),
        ])
        fixture.pages = [
            PageSetup(name: "front", viewsPerDay: 0), PageSetup(name: "back", viewsPerDay: 0),
            PageSetup(name: "hidden", viewsPerDay: 0),
        ]
        fixture.scheduler.frequentViewsPerDay = 20
        fixture.scheduler.minimumDailyBudget = 5
        fixture.days = 2
        fixture.script = (0..<25).map { ScriptedAction(at: Seconds.hour + $0 * 600, .view(page: 0)) }
            + (0..<4).map { ScriptedAction(at: Seconds.hour + $0 * 600, .view(page: 1)) }
        let run = fixture.run()
        let dayOne = run.dayStarts.filter { $0.day == 1 }
        #expect(dayOne.map(\.budgetLimit) == [50, 10, 5])
    }

    /// F9: a widget nobody has seen for a while does not reload until its page
    /// is viewed, and then reloads at that view.
    @Test func unseenWidgetWaitsForItsPageToBeViewed() {
        var fixture = Fixture(Self.greedy(every: Seconds.hour))
        fixture.scheduler.deferWhenUnseenFor = 2 * Seconds.hour
        fixture.script = [ScriptedAction(at: 5 * Seconds.hour, .view(page: 0))]
        let run = fixture.run()
        #expect(Array(run.callTimes().prefix(4)) == [0, Seconds.hour, 2 * Seconds.hour, 5 * Seconds.hour])
        #expect(run.calls()[3].waited == 2 * Seconds.hour)
    }

    /// F10 (token-bucket model): in any stretch of time, budgeted reloads never
    /// exceed the bucket's capacity plus what refilled meanwhile.
    @Test func tokenBucketNeverSpendsMoreThanCapacityPlusRefill() {
        var fixture = Fixture(Self.greedy())
        fixture.scheduler.budgetModel = .tokenBucket
        fixture.scheduler.tokenBucketBurst = 0.25
        fixture.days = 2
        let run = fixture.run()
        let times = run.budgeted().map(\.time)
        let capacity = (50 * 0.25).rounded()
        for i in times.indices {
            for j in i..<times.count {
                let allowed = capacity + 50 * Double(times[j] - times[i]) / Double(Seconds.day)
                #expect(Double(j - i + 1) <= allowed + 1e-6)
            }
        }
        // Steady state: one reload per refilled token, every 86 400 / 50 seconds.
        let steady = zip(times.suffix(20), times.suffix(19)).map { $1 - $0 }
        #expect(steady.allSatisfy { abs($0 - Seconds.day / 50) <= 2 })
    }

    /// F10 (midnight-reset model): at most `limit` budgeted reloads per local
    /// day, and a withheld reload runs at local midnight.
    @Test func midnightResetAllowsTheLimitPerLocalDay() {
        var fixture = Fixture(Self.greedy())
        fixture.scheduler.budgetModel = .midnightReset
        fixture.days = 3
        let run = fixture.run()
        let budgeted = run.budgeted()
        for day in 0..<3 {
            #expect(budgeted.filter { $0.time / Seconds.day == day }.count == 50)
        }
        #expect(budgeted[50].time == Seconds.day)
    }

    /// F24: with the unlimited model (Developer Mode) only spacing holds the
    /// widget back, and no limit is reported.
    @Test func unlimitedModelWithholdsNothing() {
        var fixture = Fixture(Self.greedy())
        fixture.scheduler.budgetModel = .unlimited
        let run = fixture.run()
        #expect(run.budgeted().count == Seconds.day / 300 - 1)
        #expect(run.withheldRequests() == 0)
        #expect(run.calls().allSatisfy { $0.budgetLimit == nil })
    }
}
