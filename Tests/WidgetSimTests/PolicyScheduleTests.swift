import Testing
@testable import WidgetSim

/// A configured provider's `schedule`: policy rules by weekday, time of day
/// and the truth's state, as real providers answer differently at different
/// times (F2: `after(date)` is whatever date the provider computes).
@Suite("Policies that follow the clock")
struct PolicyScheduleTests {
    /// Monday 2 March 2026, local time = UTC.
    static let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 0)
    static let weekdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
    /// A market's hours: weekdays 09:30 to 16:00 (E4).
    static let market = ActiveWindow(weekdays: weekdays, fromSecond: clock(9, 30), toSecond: clock(16))

    static func clock(_ hour: Int, _ minute: Int = 0) -> Int { hour * Seconds.hour + minute * Seconds.minute }
    /// Local time on day `day` of the run (0 = Monday).
    static func at(day: Int, _ hour: Int, _ minute: Int = 0) -> SimTime { day * Seconds.day + clock(hour, minute) }

    static func answer(_ schedule: [PolicyRule], at t: SimTime, truth: ActiveWindow? = nil) -> PolicyRule.Answer? {
        PolicyRule.firstAnswer(of: schedule, at: t, calendar: calendar, truthWindow: truth)
    }

    @Test func theFirstMatchingRuleWins() {
        let schedule = [
            PolicyRule(weekdays: Self.weekdays, window: .init(from: Self.clock(7), to: Self.clock(9, 30)), answer: .after(interval: 15 * Seconds.minute)),
            PolicyRule(window: .init(from: Self.clock(6), to: Self.clock(22)), answer: .after(interval: Seconds.hour)),
        ]
        #expect(Self.answer(schedule, at: Self.at(day: 0, 8)) == .after(interval: 15 * Seconds.minute))
        #expect(Self.answer(schedule, at: Self.at(day: 0, 9, 30)) == .after(interval: Seconds.hour))
        #expect(Self.answer(schedule, at: Self.at(day: 5, 8)) == .after(interval: Seconds.hour))  // Saturday: no commute
    }

    @Test func whenNoRuleAppliesTheProvidersOwnPolicyDecides() {
        let schedule = [PolicyRule(window: .init(from: Self.clock(6), to: Self.clock(22)), answer: .after(interval: Seconds.hour))]
        #expect(Self.answer(schedule, at: Self.at(day: 0, 23)) == nil)
        #expect(Self.answer([], at: Self.at(day: 0, 12)) == nil)
    }

    /// "fri 22:00–06:00" is Friday night: it runs into Saturday morning, and
    /// Friday's own early morning belongs to Thursday's window.
    @Test func aWindowAcrossMidnightBelongsToTheDayItOpens() {
        let night = PolicyRule(weekdays: [.friday], window: .init(from: Self.clock(22), to: Self.clock(6)), answer: .never)
        let friday = 4, saturday = 5
        #expect(Self.answer([night], at: Self.at(day: friday, 23)) == .never)
        #expect(Self.answer([night], at: Self.at(day: saturday, 5, 59)) == .never)
        #expect(Self.answer([night], at: Self.at(day: saturday, 6)) == nil)
        #expect(Self.answer([night], at: Self.at(day: friday, 5)) == nil)
        #expect(Self.answer([night], at: Self.at(day: friday, 21, 59)) == nil)
    }

    /// `until` is after(the next occurrence of a local time), strictly after
    /// the call: asked at 06:00 it means tomorrow's 06:00.
    @Test func untilPicksTheNextOccurrenceIncludingAcrossADay() {
        func next(_ t: SimTime) -> SimTime { PolicyRule.nextOccurrence(ofSecondOfDay: Self.clock(6), after: t, calendar: Self.calendar) }
        #expect(next(Self.at(day: 0, 5)) == Self.at(day: 0, 6))
        #expect(next(Self.at(day: 0, 6)) == Self.at(day: 1, 6))
        #expect(next(Self.at(day: 0, 23)) == Self.at(day: 1, 6))
        #expect(next(Self.at(day: 6, 23, 59)) == Self.at(day: 7, 6))  // Sunday night to Monday
    }

    /// E4's closed market as a rule: it applies outside the truth's active
    /// hours, and never when the truth has none.
    @Test func anInactiveTruthRuleAppliesOutsideTheTruthsActiveHours() {
        let closed = PolicyRule(truth: .inactive, answer: .until(secondOfDay: Self.clock(9, 30)))
        #expect(Self.answer([closed], at: Self.at(day: 0, 10), truth: Self.market) == nil)
        #expect(Self.answer([closed], at: Self.at(day: 0, 16), truth: Self.market) == .until(secondOfDay: Self.clock(9, 30)))
        #expect(Self.answer([closed], at: Self.at(day: 5, 12), truth: Self.market) == .until(secondOfDay: Self.clock(9, 30)))
        #expect(Self.answer([closed], at: Self.at(day: 5, 12), truth: nil) == nil)
    }

    /// The provider returns the rule's policy: at Friday's close, after(the
    /// next 09:30), which is Saturday's; with skipInactiveHours off the
    /// author's date stands (the rule names it).
    @Test func theProviderReturnsTheFirstMatchingRulesPolicy() {
        var settings = ConfiguredProvider.Settings()
        settings.policy = .after(interval: 5 * Seconds.minute)
        settings.schedule = [PolicyRule(truth: .inactive, answer: .until(secondOfDay: Self.clock(9, 30)))]
        settings.network = NetworkModel(latency: .fixed(0))
        func policy(at t: SimTime) -> TimelineReloadPolicy {
            var provider = ConfiguredProvider(settings: settings)
            var context = TimelineProviderContext(
                family: .systemSmall, isPreview: false, configuration: nil, calendar: Self.calendar, now: t,
                network: settings.network, random: RandomStream(seed: 1),
                scheduleStorage: ContentScheduleStorage(ContentSchedule(periodic: PeriodicChanges(period: 60, window: Self.market), calendar: Self.calendar)))
            var entries: [ScheduledEntry] = []
            return provider.timeline(in: &context, into: &entries)
        }
        #expect(policy(at: Self.at(day: 4, 16)) == .after(Self.at(day: 5, 9, 30)))
        #expect(policy(at: Self.at(day: 4, 12)) == .after(Self.at(day: 4, 12, 5)))
    }

    static func scenario(schedule: String, truth: String = "") -> String {
        """
        {
          "name": "test",
          "devices": [ { "id": "phone", "widgets": [ {
            "id": "w", "provider": { "policy": "after", "after": "1h", "schedule": \(schedule) }\(truth)
          } ] } ]
        }
        """
    }

    static func error(_ text: String) -> String? {
        do {
            _ = try ScenarioLoader.decode(text, file: "test.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aScheduleDecodesIntoRulesInOrder() throws {
        let text = Self.scenario(schedule: """
            [ { "days": ["mon", "tue", "wed", "thu", "fri"], "from": "07:00", "to": "09:30", "policy": "after", "after": "3m" },
              { "whenTruth": "inactive", "policy": "until", "until": "06:00" } ]
            """, truth: #", "truth": { "changeEvery": "1m", "activeHours": { "from": "06:00", "to": "23:00" } }"#)
        let setup = try ScenarioLoader.decode(text, file: "test.json")
        guard case .configured(let settings) = setup.devices[0].widgets[0].provider else { Issue.record("not configured"); return }
        // F13: below the minimum spacing is allowed; the scheduler enforces it.
        #expect(settings.schedule == [
            PolicyRule(weekdays: Self.weekdays, window: .init(from: Self.clock(7), to: Self.clock(9, 30)), answer: .after(interval: 3 * Seconds.minute)),
            PolicyRule(truth: .inactive, answer: .until(secondOfDay: Self.clock(6))),
        ])
        #expect(settings.policy == .after(interval: Seconds.hour))
    }

    /// A rule that earlier rules hide together (neither alone) is refused,
    /// naming both; so is one whose conditions never meet.
    @Test func badSchedulesAreRefusedWithExactMessages() {
        let hidden = Self.scenario(schedule: """
            [ { "from": "06:00", "to": "12:00", "policy": "never" },
              { "from": "12:00", "to": "06:00", "policy": "atEnd" },
              { "days": ["sun"], "from": "10:00", "to": "14:00", "policy": "after", "after": "5m" } ]
            """)
        #expect(Self.error(hidden) == "test.json:6:3: field 'devices[0].widgets[0].provider.schedule[2]': this rule never applies: "
            + "devices[0].widgets[0].provider.schedule[0] and devices[0].widgets[0].provider.schedule[1] always apply first; "
            + "allowed: rules that each apply at some time no earlier rule covers (put the narrower rule first)")
        let never = Self.scenario(schedule: #"[ { "days": ["sat"], "whenTruth": "active", "policy": "never" } ]"#,
                                  truth: #", "truth": { "changeEvery": "1m", "activeHours": { "days": ["mon"], "from": "09:00", "to": "17:00" } }"#)
        #expect(Self.error(never) == "test.json:4:78: field 'devices[0].widgets[0].provider.schedule[0]': this rule never applies: "
            + "no time of the week meets all its conditions; "
            + "allowed: rules that each apply at some time no earlier rule covers (put the narrower rule first)")
    }
}
