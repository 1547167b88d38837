import Testing
@testable import WidgetSim

/// A world with a daily rhythm: random truth changes that follow an hourly
/// shape, and scripted actions that repeat on the local clock or come from a
/// fixture list.
@Suite("Daily rhythm")
struct DailyRhythmTests {
    /// A device with one widget whose truth changes `perDay` times a day.
    static func fixture(perDay: Double, byHour: [Double]?, days: Int = 4) -> Fixture {
        var truth = TruthSetup()
        truth.randomChangesPerDay = perDay
        truth.randomChangesByHour = byHour
        var fixture = Fixture(.configured("news", policy: .never, truth: truth))
        fixture.days = days
        return fixture
    }

    /// Waking at 24:00 is waking at midnight, as at 00:00: with a sleep of
    /// 00:00 the user is awake all day, as with 00:00 and 00:00, not never
    /// (a sleep before the wake is the next day's, and 24:00 to the next
    /// midnight left no waking time).
    @Test func wakingAt2400IsWakingAtMidnight() throws {
        func user(wake: String, sleep: String) throws -> UserProfile {
            let text = """
            { "name": "u", "days": 1, "devices": [ { "id": "p", "user": { "wake": "\(wake)", "sleep": "\(sleep)", "dayJitter": "0s" },
              "widgets": [ { "id": "w", "provider": { "policy": "never" } } ] } ] }
            """
            return try ScenarioLoader.decodeDocument(text, file: "u.json").base.devices[0].user
        }
        for (wake, sleep) in [("24:00", "00:00"), ("00:00", "00:00"), ("24:00", "24:00")] {
            let profile = try user(wake: wake, sleep: sleep)
            #expect(profile.sleepSecond - profile.wakeSecond == Seconds.day, "\(wake)–\(sleep)")
        }
    }

    /// A user awake about a whole day, jittered later still, is awake at
    /// most until the day after next begins: the simulator keeps two days'
    /// plans, and a third day's plan that ran on beside them counted its
    /// views again (found by a red-team review: 11,903 views in 60 days of
    /// 100 a day).
    @Test func aDayEndsByTheStartOfTheDayAfterNext() throws {
        let setup = try ScenarioLoader.decode("""
            { "name": "awake", "days": 60, "devices": [ { "id": "p",
              "user": { "wake": "23:00", "sleep": "22:59", "dayJitter": "6h", "hourlyActivity": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1] },
              "pages": [ { "name": "home", "viewsPerDay": 100 } ],
              "widgets": [ { "id": "w", "provider": { "policy": "never" } } ] } ] }
            """, file: "awake.json")
        let device = setup.devices[0]
        let calendar = setup.calendar(of: device)
        var random = StreamSeed(9).stream()
        var reachedTheLimit = false
        for day in 0..<200 {
            let plan = DayPlan.draw(day: day, profile: device.user, calendar: calendar, random: &random)
            #expect(plan.sleep <= calendar.startOfDay(day + 2))
            reachedTheLimit = reachedTheLimit || plan.sleep == calendar.startOfDay(day + 2)
        }
        #expect(reachedTheLimit)
        // 6,000 views expected (Poisson: a standard deviation of 77).
        let views = try Simulation.run(setup).views.count
        #expect(abs(views - 6_000) < 400, "\(views) views")
    }

    /// A phone seen 300 times a day, and opened 20 times, over four weeks
    /// from Monday 2 March 2026, with `weekdayActivity` as given.
    static func week(_ weekdayActivity: String) throws -> SimulationSetup {
        try ScenarioLoader.decode("""
            { "name": "week", "days": 28, "start": "2026-03-02T00:00", "devices": [ { "id": "p",
              "user": { "weekdayActivity": \(weekdayActivity) },
              "pages": [ { "name": "home", "viewsPerDay": 300 } ],
              "apps": [ { "id": "a", "sessionsPerDay": 20, "foregroundReload": "all" } ],
              "widgets": [ { "id": "w", "app": "a", "provider": { "policy": "never" } } ] } ] }
            """, file: "week.json")
    }

    /// A weekday's activity multiplies that day's views and sessions: none
    /// at a weekend of 0, twice the views on a Monday of 2, and a week left
    /// as it was where every day is 1, the default.
    @Test func aWeekdaysActivityMultipliesThatDaysViewsAndSessions() throws {
        let setup = try Self.week(#"{ "mon": 2, "sat": 0, "sun": 0 }"#)
        let calendar = setup.calendar(of: setup.devices[0])
        let run = try Simulation.run(setup)
        var viewsByWeekday = [Int](repeating: 0, count: 7)
        for view in run.views { viewsByWeekday[calendar.weekday(view.time).rawValue] += 1 }
        #expect(viewsByWeekday[5] == 0 && viewsByWeekday[6] == 0, "\(viewsByWeekday)")
        // Four Mondays of 600 expected against four Tuesdays of 300 (Poisson:
        // standard deviations of 49 and 35).
        #expect(abs(viewsByWeekday[0] - 2_400) < 250 && abs(viewsByWeekday[1] - 1_200) < 180, "\(viewsByWeekday)")
        let sessionCalls = run.reloads.filter { $0.trigger == .appForeground }
        #expect(!sessionCalls.isEmpty)
        #expect(sessionCalls.allSatisfy { calendar.weekday($0.time) < .saturday }, "a session's reload at the weekend")
        // All 1 is the default: the same run, draw for draw.
        let ordinary = try Simulation.run(try Self.week(#"{ "tue": 1 }"#))
        let plain = try Simulation.run(try Self.week("{}"))
        #expect(ordinary.views == plain.views && ordinary.reloads == plain.reloads)
    }

    /// The run's estimate bounds the weekday activity over the run's days:
    /// at least the sum of the days' activities from any weekday on, and no
    /// more than the week's mean for whole weeks plus the busiest day's
    /// excess for a part week (the busiest day alone, for every day, made a
    /// week of one busy Monday count seven: found by a red-team pass).
    @Test func theRunEstimateBoundsTheWeekdayActivityOverTheRunsDays() throws {
        for shape in [[10.0, 1, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0, 2], [1, 1, 1, 1, 1, 0.5, 0.5], [1, 1, 1, 1, 1, 1, 1]] {
            var user = UserProfile()
            user.weekdayActivity = shape
            for days in [1, 2, 3, 6, 7, 8, 13, 14, 28, 366] {
                let bound = user.activityBound(days: days)
                for start in 0..<7 {
                    let sum = (0..<days).reduce(0.0) { $0 + shape[(start + $1) % 7] }
                    #expect(bound * Double(days) >= sum - 1e-9, "\(shape), \(days) days from weekday \(start)")
                }
                let mean = shape.reduce(0, +) / 7
                #expect(bound <= shape.max()! && (days % 7 != 0 || abs(bound - mean) < 1e-12), "\(shape), \(days) days: \(bound)")
            }
        }
        // A 28-day run with a Monday of 10 counts about (10 + 5) / 7 of a day's
        // views a day, not 10; an ordinary week changes nothing.
        let plain = RunEstimate(try Self.week("{}"))
        let busy = RunEstimate(try Self.week(#"{ "mon": 10, "sun": 0 }"#))
        #expect(busy.events > 1.8 * plain.events && busy.events < 2.5 * plain.events, "\(busy.events) against \(plain.events)")
        #expect(RunEstimate(try Self.week(#"{ "sun": 1 }"#)).events == plain.events)
    }

    /// `weekdayActivity` names days as schedules do; an unknown name, a value
    /// past 10 or a week of zeros is refused naming the field.
    @Test func weekdayActivityIsReadByDayNameAndAnImpossibleWeekIsRefused() throws {
        #expect(try Self.week(#"{ "sat": 0.5, "sun": 0.25 }"#).devices[0].user.weekdayActivity == [1, 1, 1, 1, 1, 0.5, 0.25])
        func error(_ text: String) -> String {
            do { _ = try Self.week(text); return "" } catch { return "\(error)" }
        }
        #expect(error(#"{ "saturday": 0.5 }"#).contains("unknown field 'devices[0].user.weekdayActivity.saturday' (did you mean 'sat'?); allowed fields here: mon, tue, wed, thu, fri, sat, sun"), "\(error(#"{ "saturday": 0.5 }"#))")
        #expect(error(#"{ "mon": 11 }"#).contains("field 'devices[0].user.weekdayActivity.mon': 11 is out of range"), "\(error(#"{ "mon": 11 }"#))")
        let zeros = #"{ "mon": 0, "tue": 0, "wed": 0, "thu": 0, "fri": 0, "sat": 0, "sun": 0 }"#
        #expect(error(zeros).contains("field 'devices[0].user.weekdayActivity': every day is 0"), "\(error(zeros))")
    }

    /// A long session that ends after the day after next has begun ends its
    /// day's chain of sessions: that day's plan is no longer kept, and
    /// drawing the next session from its slot, which holds the later day's
    /// plan, ran a second chain beside that day's own (found in review: 31
    /// three-hour sessions begun in one day, where chains of them allow 8 a
    /// day, or 16 with two days' plans overlapping).
    @Test func aSessionChainEndsWithItsDaysPlan() throws {
        struct Sessions: SimulationObserver {
            var starts: [SimTime] = []
            mutating func reloadStarted(_ record: ReloadRecord) {}
            mutating func widgetViewed(_ record: ViewRecord) {}
            mutating func reloadWithheld(_ record: WithheldRecord) {}
            mutating func dayStarted(_ record: DayStartRecord) {}
            mutating func appActed(_ record: AppActivityRecord) {
                if record.activity == .foreground { starts.append(record.time) }
            }
        }
        let setup = try ScenarioLoader.decode("""
            { "name": "long", "days": 300, "devices": [ { "id": "p",
              "user": { "wake": "23:00", "sleep": "22:59", "dayJitter": "6h" },
              "apps": [ { "id": "a", "sessionsPerDay": 24, "sessionLength": "3h" } ],
              "widgets": [ { "id": "w", "app": "a", "tapsPerView": 0, "provider": { "policy": "never" } } ] } ] }
            """, file: "long.json")
        let calendar = setup.calendar(of: setup.devices[0])
        let starts = try Simulation.run(setup, observer: Sessions()).starts
        var perDay: [Int: Int] = [:]
        for start in starts { perDay[calendar.dayIndex(start), default: 0] += 1 }
        #expect(starts.count > 1_000)
        #expect(perDay.values.max()! <= 16, "\(perDay.values.max()!) sessions begun in one day")
    }

    /// A fleet's wake range may cross midnight ("23:00" to "01:00"): a wake
    /// drawn past 24:00 is a time of the next day, and with a sleep of 00:00
    /// the user still wakes for a day, never for no time at all.
    @Test func aFleetWakeDrawnPastMidnightLeavesWakingTime() throws {
        let text = """
        { "name": "f", "fleet": { "devices": 200, "wake": { "from": "23:00", "to": "01:00" }, "sleep": { "from": "00:00", "to": "00:00" },
            "device": { "widgets": [ { "id": "w", "provider": { "policy": "never" } } ] } } }
        """
        let fleet = try #require(try ScenarioLoader.decodeDocument(text, file: "f.json").base.fleet)
        let users = (0..<200).map { fleet.device($0, master: StreamSeed(1)).user }
        #expect(users.contains { $0.wakeSecond < Seconds.hour }, "some wake is drawn past midnight")
        #expect(users.allSatisfy { $0.wakeSecond < Seconds.day && $0.sleepSecond > $0.wakeSecond && $0.sleepSecond - $0.wakeSecond <= Seconds.day })
    }

    /// Changes never fall in an hour whose weight is 0.
    @Test func randomChangesStayOutOfHoursWeightedZero() {
        var shape = Array(repeating: 0.0, count: 24)
        shape[9] = 1
        shape[18] = 1
        let changes = Self.fixture(perDay: 48, byHour: shape).run().contentChanges
        #expect(changes.count > 100)
        #expect(changes.allSatisfy { [9, 18].contains(($0.time % Seconds.day) / Seconds.hour) })
    }

    /// A shape moves changes between hours but keeps the day's expected total.
    @Test func anHourlyShapeKeepsTheDailyTotal() {
        let shape = (0..<24).map { $0 < 6 ? 0.1 : 1.5 }
        let shaped = Self.fixture(perDay: 50, byHour: shape, days: 20).run().contentChanges.count
        // 1,000 expected; a Poisson count's standard deviation is about 32.
        #expect(abs(shaped - 1_000) < 150)
    }

    /// "daily" happens at the local time of day on the device's own clock.
    @Test func aDailyActionFollowsTheDevicesLocalClock() {
        let action = RepeatingAction(secondOfDay: 7 * Seconds.hour + 30 * Seconds.minute, .systemChange)
        let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 2 * Seconds.hour)
        let instants = action.instants(before: 3 * Seconds.day, calendar: calendar).map(\.at)
        // Local 07:30 at +02:00 is 05:30 UTC, and t = 0 is local midnight.
        #expect(instants == [0, 1, 2].map { $0 * Seconds.day + 7 * Seconds.hour + 30 * Seconds.minute })
    }

    /// "days" keeps a repeating action to its weekdays.
    @Test func aWeekdayActionSkipsTheWeekend() {
        let weekdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
        let action = RepeatingAction(secondOfDay: 18 * Seconds.hour, weekdays: weekdays, .systemChange)
        let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 0)  // a Monday
        let days = action.instants(before: 14 * Seconds.day, calendar: calendar).map { $0.at / Seconds.day }
        #expect(days == [0, 1, 2, 3, 4, 7, 8, 9, 10, 11])
    }

    /// A repeating action in a scenario file runs like a scripted one: a
    /// system change reloads the widget, free (F17).
    @Test func aRepeatingScriptEntryRunsEachDay() throws {
        let text = """
            { "name": "rhythm", "days": 3, "scheduler": { "systemReloadDelay": { "distribution": "fixed", "value": "0s" } },
              "devices": [ { "id": "phone", "user": { "systemChangesPerDay": 0 },
                "widgets": [ { "id": "w", "provider": { "policy": "never" } } ],
                "script": [ { "daily": "07:30", "action": "systemChange" } ] } ] }
            """
        let run = try Simulation.run(try ScenarioLoader.decode(text, file: "rhythm.json"))
        let system = run.reloads.filter { $0.trigger == .system }.map(\.time)
        #expect(system == [0, 1, 2].map { $0 * Seconds.day + 7 * Seconds.hour + 30 * Seconds.minute })
    }

    /// A "daily" time is a local time "HH:MM" or "HH:MM:SS" before midnight,
    /// and every message about it states that one range: the time it
    /// refuses and the malformed one are told the same allowed values, and
    /// a time with seconds runs at that second.
    @Test func aDailyTimeIsOneTruthfulRangeInEveryMessage() throws {
        func decode(_ daily: String) throws(ScenarioError) -> SimulationSetup {
            try ScenarioLoader.decode("""
                { "name": "daily", "days": 3,
                  "devices": [ { "id": "phone", "widgets": [ { "id": "w", "provider": { "policy": "never" } } ],
                    "script": [ { "daily": "\(daily)", "action": "systemChange" } ] } ] }
                """, file: "daily.json")
        }
        func allowed(_ daily: String) -> String? {
            do {
                _ = try decode(daily)
                return nil
            } catch {
                guard case .invalidValue(_, "devices[0].script[0].daily", _, _, _, let allowed) = error else { return "\(error)" }
                return allowed
            }
        }
        let range = "a local time \"HH:MM[:SS]\" from \"00:00\" to \"23:59:59\""
        #expect(allowed("7:00") == range)
        #expect(allowed("24:00") == range)
        #expect(allowed("23:60") == range)
        let withSeconds = try decode("07:00:30").devices[0].repeatingScript
        #expect(withSeconds.map(\.secondOfDay) == [7 * Seconds.hour + 30])
    }

    /// "at" with a list is a fixture list: one action per instant, durations
    /// and local dates alike.
    @Test func aFixtureListGivesOneActionPerInstant() throws {
        let text = """
            { "name": "fixtures", "days": 3, "start": "2026-03-02T00:00",
              "devices": [ { "id": "phone", "widgets": [ { "id": "w", "provider": { "policy": "never" } } ],
                "script": [ { "at": ["2h", "2026-03-03T19:45"], "action": "truthChange", "widget": "w" } ] } ] }
            """
        let script = try ScenarioLoader.decode(text, file: "fixtures.json").devices[0].script
        #expect(script.map(\.at) == [2 * Seconds.hour, Seconds.day + 19 * Seconds.hour + 45 * Seconds.minute])
        #expect(script.allSatisfy { $0.action == .truthChange(widget: 0) })
    }
}
