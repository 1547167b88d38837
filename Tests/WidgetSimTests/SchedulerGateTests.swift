import Testing
@testable import WidgetSim

/// The scheduler's four gates, asked directly: each row is one rule, the
/// situation it applies to, and the decision WidgetKit's rules call for.
///
/// Every row starts from the same situation at t = 10 h: a widget with a
/// daily limit of 50 whose request has been eligible since 9 h, last reloaded
/// at 8 h, seen a minute ago, on a device with no reload batch planned.
/// Scheduling delays are fixed at 90 s, so each decision follows from the rule.
@Suite("Scheduler gates")
struct SchedulerGateTests {
    static let now = 10 * Seconds.hour

    struct Situation: CustomTestStringConvertible, Sendable {
        var rule: String
        var eligibleAt = 9 * Seconds.hour
        var lastBudgetedStart: SimTime? = 8 * Seconds.hour
        var lastSeen = 10 * Seconds.hour - 60
        /// Budgeted reloads already charged, as offsets before `now`.
        var earlierReloads: [Int] = []
        var openBatches: [SimTime] = []
        var batchDue = false
        var expected: ReloadDecision

        var testDescription: String { rule }
    }

    static let minute = Seconds.minute
    static let rules: [Situation] = [
        Situation(
            rule: "gate 1: not before its eligible time (F2)",
            eligibleAt: now + 10 * minute, expected: .waitUntil(now + 10 * minute)),
        Situation(
            rule: "gate 1: not within minimumSpacing of the last budgeted reload (F13)",
            lastBudgetedStart: now - 2 * minute, expected: .waitUntil(now + 3 * minute)),
        Situation(
            rule: "gate 2: unseen for longer than deferWhenUnseenFor, it waits for a view (F9)",
            lastSeen: now - 3 * Seconds.hour, expected: .waitForView),
        Situation(
            rule: "gate 3: with 50 reloads in the trailing 24 h it is withheld until the oldest leaves (F10, F12)",
            lastBudgetedStart: now - 10 * minute,
            earlierReloads: (0..<50).map { 23 * Seconds.hour - $0 * 20 * minute },
            expected: .withheldUntil(now + Seconds.hour)),
        Situation(
            rule: "gate 4: it joins a batch planned within coalescingWindow (F14)",
            openBatches: [now + 4 * minute], expected: .joinBatch(now + 4 * minute)),
        Situation(
            rule: "gate 4: a batch further ahead than coalescingWindow is not joined",
            openBatches: [now + 6 * minute], expected: .openBatch(now + 90)),
        Situation(
            rule: "gate 4: otherwise it opens a batch after the scheduling delay (F4)",
            expected: .openBatch(now + 90)),
        Situation(
            rule: "a due batch runs when spacing and budget still allow it",
            batchDue: true, expected: .runNow(limit: 50)),
        Situation(
            rule: "a due batch whose budget is spent meanwhile is withheld (F12)",
            lastBudgetedStart: now - 10 * minute,
            earlierReloads: (0..<50).map { 23 * Seconds.hour - $0 * 20 * minute },
            batchDue: true, expected: .withheldUntil(now + Seconds.hour)),
        Situation(
            rule: "a due batch still waits for the spacing (F13)",
            lastBudgetedStart: now - 2 * minute, batchDue: true, expected: .waitUntil(now + 3 * minute)),
    ]

    static var parameters: SchedulerParameters {
        var parameters = SchedulerParameters.exact
        parameters.deferWhenUnseenFor = 2 * Seconds.hour
        parameters.coalescingWindow = 5 * minute
        parameters.schedulingDelay = .fixed(90)
        return parameters
    }

    static func decide(_ situation: Situation, parameters: SchedulerParameters = SchedulerGateTests.parameters) -> ReloadDecision {
        let scheduler = ReloadScheduler(parameters: parameters)
        let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 0)
        var widget = WidgetSchedule(
            baseDailyBudget: 50, addedAt: -30 * Seconds.day,
            ledger: BudgetLedger(model: parameters.budgetModel, parameters: parameters), schedulingRandom: RandomStream(seed: 1))
        for offset in situation.earlierReloads.sorted(by: >) {
            widget.ledger.charge(at: now - offset, limit: 50, calendar: calendar)
        }
        widget.lastBudgetedStart = situation.lastBudgetedStart
        widget.pending = PendingReload(trigger: .policy, eligibleAt: situation.eligibleAt)
        return scheduler.decide(
            &widget, at: now, lastSeen: situation.lastSeen, pageViews: .views(40, before: now), openBatches: situation.openBatches,
            batchDue: situation.batchDue, calendar: calendar)
    }

    @Test(arguments: SchedulerGateTests.rules)
    func eachGateDecidesByItsRule(_ situation: Situation) {
        #expect(Self.decide(situation) == situation.expected)
    }

    /// F4: a scheduling delay drawn longer than `maximumSchedulingDelay` is cut there.
    @Test func theSchedulingDelayIsCutAtItsMaximum() {
        var parameters = Self.parameters
        parameters.schedulingDelay = .fixed(5 * Seconds.hour)
        let decision = Self.decide(Situation(rule: "", expected: .waitForView), parameters: parameters)
        #expect(decision == .openBatch(Self.now + parameters.maximumSchedulingDelay))
    }

    /// F8, F9, F11: the daily limit follows engagement, its floor, and learning.
    @Test func theDailyLimitFollowsEngagementItsFloorAndLearning() {
        var parameters = Self.parameters
        parameters.frequentViewsPerDay = 20
        parameters.minimumDailyBudget = 5
        parameters.learningDays = 3
        parameters.learningMultiplier = 1.5
        let scheduler = ReloadScheduler(parameters: parameters)
        let settled = WidgetSchedule(
            baseDailyBudget: 60, addedAt: -10 * Seconds.day,
            ledger: BudgetLedger(model: .rollingWindow, parameters: parameters), schedulingRandom: RandomStream(seed: 1))
        #expect(scheduler.dailyLimit(of: settled, at: 0, pageViews: .views(40, before: 0)) == 60)
        #expect(scheduler.dailyLimit(of: settled, at: 0, pageViews: .views(10, before: 0)) == 30)
        #expect(scheduler.dailyLimit(of: settled, at: 0, pageViews: .views(0, before: 0)) == 5)
        let learning = WidgetSchedule(
            baseDailyBudget: 60, addedAt: -Seconds.day,
            ledger: BudgetLedger(model: .rollingWindow, parameters: parameters), schedulingRandom: RandomStream(seed: 1))
        #expect(scheduler.dailyLimit(of: learning, at: 0, pageViews: .views(40, before: 0)) == 90)
        var unlimited = parameters
        unlimited.budgetModel = .unlimited
        #expect(ReloadScheduler(parameters: unlimited).dailyLimit(of: settled, at: 0, pageViews: .views(40, before: 0)) == nil)
    }

    /// F4, F8: under the paced model the scheduling delay runs from
    /// eligibility while the request waits for its turn: the batch opens at
    /// the later of the two, and waiting for a turn is not a withholding.
    @Test func underPacingTheBatchOpensAtTheLaterOfTheTurnAndTheDelay() {
        var parameters = Self.parameters
        parameters.budgetModel = .paced
        parameters.pacingWindow = 18 * Seconds.hour
        parameters.pacingBurst = 1
        let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 0)
        func decision(delay: Int) -> ReloadDecision {
            parameters.schedulingDelay = .fixed(delay)
            var widget = WidgetSchedule(
                baseDailyBudget: 50, addedAt: -30 * Seconds.day,
                ledger: BudgetLedger(model: .paced, parameters: parameters), schedulingRandom: RandomStream(seed: 1))
            // One reload 10 minutes ago: at 50 a day over 18 hours the next turn is 1,296 s after it.
            widget.ledger.charge(at: Self.now - 600, limit: 50, calendar: calendar)
            widget.lastBudgetedStart = Self.now - 600
            widget.pending = PendingReload(trigger: .policy, eligibleAt: Self.now - 60)
            return ReloadScheduler(parameters: parameters).decide(
                &widget, at: Self.now, lastSeen: Self.now, pageViews: .views(40, before: Self.now), openBatches: [], calendar: calendar)
        }
        #expect(decision(delay: 90) == .openBatch(Self.now + 696))
        #expect(decision(delay: 1_800) == .openBatch(Self.now + 1_800))
    }
}

extension TrailingWindow {
    /// A window holding `count` views in the 24 hours before `t`.
    static func views(_ count: Int, before t: SimTime) -> TrailingWindow {
        var window = TrailingWindow()
        for index in 0..<count { window.record(t - Seconds.day + 1 + index * (Seconds.day - 1) / max(1, count)) }
        return window
    }
}

extension SchedulerGateTests {
    /// A budget model is asked on almost every event: the built-in ones the
    /// ledger holds as an existential fit in its three inline words, so
    /// asking them touches no heap box. The default, paced, is held as its
    /// concrete type (`BudgetLedger`), so its size does not matter here.
    @Test func theBuiltInBudgetAccountsFitInlineInAnExistential() {
        #expect(MemoryLayout<TokenBucketBudget>.size <= 24)
        #expect(MemoryLayout<MidnightResetBudget>.size <= 24)
    }
}
