import Testing
@testable import WidgetSim

/// The paced budget (F8, F10) and learning (F11): the shape of a day as
/// Apple describes it, "40 to 70 refreshes ... roughly every 15 to 60 minutes".
@Suite("Pacing and learning")
struct PacingTests {
    /// A phone whose user is awake 07:00–23:00 and looks at the home page 40
    /// times a day, with one widget that asks for `after(1 min)`, under the
    /// default production rules.
    static func greedy(seed: UInt64, days: Int = 10) -> SimulationSetup {
        var user = UserProfile()
        user.locationChangesPerDay = 0
        user.systemChangesPerDay = 0
        let widget = WidgetSetup.configured("greedy", policy: .after(interval: Seconds.minute), latency: 1)
        return SimulationSetup(
            name: "greedy", seed: seed, days: days, utcOffsetSeconds: 0, scheduler: SchedulerParameters(),
            devices: [DeviceSetup(
                id: "phone", user: user, pages: [PageSetup(name: "home", viewsPerDay: 40)], apps: [AppSetup(id: "app")],
                widgets: [widget])])
    }

    /// Waking hours of the default user, as seconds after local midnight.
    static let awake = 7 * Seconds.hour..<23 * Seconds.hour

    /// F8: a frequently viewed widget that asks far too often gets its 40–70
    /// (at most 72) reloads a day after learning, about every 15–60 minutes,
    /// and is never held back for hours while its user is awake.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aFrequentlyViewedGreedyWidgetGetsItsBudgetPacedOverTheDay(seed: UInt64) throws {
        let setup = Self.greedy(seed: seed)
        let run = try Simulation.run(setup)
        let learningEnds = Int(setup.scheduler.learningDays) * Seconds.day
        let budgeted = run.budgeted().filter { $0.time >= learningEnds }
        let perDay = Dictionary(grouping: budgeted, by: { $0.time / Seconds.day }).values.map(\.count)
        let mean = Double(budgeted.count) / Double(setup.days - Int(setup.scheduler.learningDays))
        #expect((40...72).contains(Int(mean.rounded())), "mean \(mean) a day")
        #expect(perDay.allSatisfy { $0 <= 72 })

        let times = budgeted.map(\.time)
        let awakeGaps = zip(times, times.dropFirst()).filter { earlier, later in
            earlier / Seconds.day == later / Seconds.day && Self.awake.contains(earlier % Seconds.day)
                && Self.awake.contains(later % Seconds.day)
        }.map { $1 - $0 }.sorted()
        let median = awakeGaps[awakeGaps.count / 2]
        #expect((15 * Seconds.minute...60 * Seconds.minute).contains(median), "median gap \(median) s")

        // A hold runs from a request being withheld to the widget's next budgeted reload.
        for withheld in run.withheld where withheld.time >= learningEnds && Self.awake.contains(withheld.time % Seconds.day) {
            let next = budgeted.first { $0.time >= withheld.time }?.time ?? setup.endTime
            #expect(next - withheld.time <= 2 * Seconds.hour, "held from \(withheld.time) to \(next)")
        }
    }

    /// F8: a paced reload waits for its turn (the daily limit over
    /// `pacingWindow`) without being withheld: the budget is not spent.
    @Test func pacedReloadsWaitForTheirTurnWithoutBeingWithheld() {
        var fixture = Fixture(BudgetRuleTests.greedy(every: 60))
        fixture.scheduler.budgetModel = .paced
        fixture.scheduler.pacingWindow = 18 * Seconds.hour
        fixture.scheduler.pacingBurst = 1
        let run = fixture.run()
        // A limit of 50 over 18 hours: one reload every 1,296 s, not every 300,
        // until the 24-hour cap (50 + the burst of 1) is reached.
        let times = run.budgeted().map(\.time).prefix(51)
        let gaps = Set(zip(times, times.dropFirst()).map { $1 - $0 })
        #expect(gaps == [1_296])
        #expect(!run.withheld.contains { $0.time <= times.last! })
    }

    /// F10, F11: when the limit shrinks (the learning period ends), the pace
    /// slows at once but the reloads already granted in the last 24 hours do
    /// not freeze the widget until they age out.
    @Test func aShrinkingLimitSlowsAPacedWidgetWithoutFreezingIt() throws {
        var setup = Self.greedy(seed: 1, days: 3)
        setup.scheduler.learningDays = 2
        let run = try Simulation.run(setup)
        let learning = run.budgeted().filter { $0.time >= Seconds.day && $0.time < 2 * Seconds.day }.count
        let firstDayAfter = run.budgeted().filter { $0.time >= 2 * Seconds.day }
        let firstView = run.views.first { $0.time >= 2 * Seconds.day }!.time
        // The first morning after learning starts at its first views, not hours later...
        #expect(firstDayAfter.first!.time - firstView < Seconds.hour)
        #expect(!run.withheld.contains { $0.time >= 2 * Seconds.day && $0.time < 2 * Seconds.day + 12 * Seconds.hour })
        // ...and the day is paced at the smaller limit.
        #expect(firstDayAfter.count < learning)
        #expect(Double(firstDayAfter.count) >= 0.8 * Double(firstDayAfter.last!.budgetLimit!))
    }

    /// F10, for contrast: the plain rolling window spends a greedy widget's
    /// limit in bursts at the minimum spacing, then holds it for hours.
    @Test func theRollingWindowSpendsAGreedyWidgetsLimitInBursts() throws {
        var setup = Self.greedy(seed: 1, days: 6)
        setup.scheduler.budgetModel = .rollingWindow
        let run = try Simulation.run(setup)
        let times = run.budgeted().map(\.time).filter { $0 >= 4 * Seconds.day }
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
        #expect(gaps[gaps.count / 2] < 15 * Seconds.minute)
        #expect(gaps.last! > 2 * Seconds.hour)
    }

    /// F11: engagement applies during learning too: a widget whose page is
    /// seen 4 times a day does not get the full budget × 1.5 while learning.
    @Test func learningMultipliesTheEngagedLimitNotTheFullBudget() {
        var fixture = Fixture(.configured("w", policy: .never))
        fixture.scheduler.frequentViewsPerDay = 20
        fixture.scheduler.learningDays = 3
        fixture.scheduler.learningMultiplier = 1.5
        fixture.days = 2
        fixture.script = (0..<4).map { ScriptedAction(at: Seconds.hour + $0 * 3 * Seconds.hour, .view(page: 0)) }
        let dayTwo = fixture.run().dayStarts.first { $0.day == 1 }!
        // 50 × 4 / 20 = 10, × 1.5 while learning: 15, not 75.
        #expect(dayTwo.budgetLimit == 15)
    }
}
