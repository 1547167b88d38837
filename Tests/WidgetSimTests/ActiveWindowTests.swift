import Testing
@testable import WidgetSim

/// A truth's `activeHours` across midnight: a transit line that runs from
/// 05:30 to 00:30 opens on each of its days and closes the next day, as a
/// schedule rule's window across midnight does.
@Suite("Active hours across midnight")
struct ActiveWindowTests {
    static let calendar = PolicyScheduleTests.calendar
    static func clock(_ hour: Int, _ minute: Int = 0) -> Int { PolicyScheduleTests.clock(hour, minute) }
    static func at(day: Int, _ hour: Int, _ minute: Int = 0) -> SimTime { PolicyScheduleTests.at(day: day, hour, minute) }
    /// Weekdays from 05:30 to 00:30 the next morning.
    static let service = ActiveWindow(weekdays: PolicyScheduleTests.weekdays, fromSecond: clock(5, 30), toSecond: clock(0, 30))

    /// Friday's service runs into Saturday's first half hour; Monday's
    /// first half hour belongs to Sunday's, which does not run.
    @Test func aWindowThatClosesBeforeItOpensRunsIntoTheNextDay() {
        let window = Self.service
        #expect(window.crossesMidnight && window.length == 19 * Seconds.hour)
        #expect(!window.contains(Self.at(day: 0, 0, 15), calendar: Self.calendar))  // Monday 00:15: Sunday's, none
        #expect(!window.contains(Self.at(day: 0, 5, 29), calendar: Self.calendar))
        #expect(window.contains(Self.at(day: 0, 5, 30), calendar: Self.calendar))
        #expect(window.contains(Self.at(day: 0, 23, 59), calendar: Self.calendar))
        #expect(window.contains(Self.at(day: 1, 0, 29), calendar: Self.calendar))  // Tuesday 00:29: Monday's
        #expect(!window.contains(Self.at(day: 1, 0, 30), calendar: Self.calendar))
        #expect(window.contains(Self.at(day: 5, 0, 15), calendar: Self.calendar))  // Saturday 00:15: Friday's
        #expect(!window.contains(Self.at(day: 5, 6), calendar: Self.calendar))
        #expect(!window.contains(Self.at(day: 6, 0, 15), calendar: Self.calendar))  // Sunday 00:15: Saturday's, none
    }

    /// The closing of the window holding an instant is the next day's for
    /// the evening part, and the same day's for the morning part; the next
    /// opening after a close is the next day the window runs.
    @Test func closingAndNextOpeningAgreeWithContainsAcrossMidnight() {
        let window = Self.service
        #expect(window.closing(ofWindowContaining: Self.at(day: 0, 22), calendar: Self.calendar) == Self.at(day: 1, 0, 30))
        #expect(window.closing(ofWindowContaining: Self.at(day: 1, 0, 10), calendar: Self.calendar) == Self.at(day: 1, 0, 30))
        #expect(window.nextStart(atOrAfter: Self.at(day: 1, 0, 30), calendar: Self.calendar) == Self.at(day: 1, 5, 30))
        #expect(window.nextStart(atOrAfter: Self.at(day: 5, 0, 30), calendar: Self.calendar) == Self.at(day: 7, 5, 30))
        // Every second of a week: open exactly between an opening and its closing.
        for t in stride(from: 0, to: 7 * Seconds.day, by: 15 * Seconds.minute) where window.contains(t, calendar: Self.calendar) {
            let closing = window.closing(ofWindowContaining: t, calendar: Self.calendar)
            #expect(closing > t && closing - t <= window.length)
            #expect(!window.contains(closing, calendar: Self.calendar) || window.nextStart(atOrAfter: closing, calendar: Self.calendar) == closing)
        }
    }

    /// Changes every 30 minutes in a window from 22:00 to 02:00 run from the
    /// opening to the last instant before the next day's close, and the next
    /// after that is the next opening.
    @Test func changesInAWindowAcrossMidnightRunToTheNextDaysClose() {
        let night = ActiveWindow(weekdays: Weekday.allCases, fromSecond: Self.clock(22), toSecond: Self.clock(2))
        let changes = PeriodicChanges(period: 30 * Seconds.minute, window: night)
        #expect(changes.next(after: Self.at(day: 0, 12), calendar: Self.calendar) == Self.at(day: 0, 22))
        #expect(changes.next(after: Self.at(day: 0, 23, 59), calendar: Self.calendar) == Self.at(day: 1, 0))
        #expect(changes.next(after: Self.at(day: 1, 1), calendar: Self.calendar) == Self.at(day: 1, 1, 30))
        #expect(changes.next(after: Self.at(day: 1, 1, 30), calendar: Self.calendar) == Self.at(day: 1, 22))
        #expect(changes.last(atOrBefore: Self.at(day: 1, 1, 45), calendar: Self.calendar) == Self.at(day: 1, 1, 30))
        #expect(changes.last(atOrBefore: Self.at(day: 1, 12), calendar: Self.calendar) == Self.at(day: 1, 1, 30))
        #expect(changes.last(atOrBefore: Self.at(day: 1, 0, 10), calendar: Self.calendar) == Self.at(day: 1, 0))
        // `next` and `last` agree: the last at or before each next is
        // itself, and the last before it is the one before (at first,
        // Sunday night's last, at 01:30 on Monday).
        var t = Self.at(day: 0, 21)
        var previous = changes.last(atOrBefore: t, calendar: Self.calendar)
        #expect(previous == Self.at(day: 0, 1, 30))
        for _ in 0..<40 {
            let next = changes.next(after: t, calendar: Self.calendar)!
            #expect(changes.last(atOrBefore: next, calendar: Self.calendar) == next)
            #expect(changes.last(atOrBefore: next - 1, calendar: Self.calendar) == previous)
            previous = next
            t = next
        }
    }

    /// A scenario's `activeHours` may close before it opens; one that
    /// closes as it opens is empty and refused, and none opens at 24:00.
    @Test func activeHoursAcrossMidnightAreReadAndAnEmptyWindowIsRefused() throws {
        func truth(_ from: String, _ to: String) -> String {
            ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "atEnd"}, "truth": {"changeEvery": "1h", "activeHours": {"from": "\#(from)", "to": "\#(to)"}}"#)
        }
        let setup = try ScenarioLoader.decode(truth("05:30", "00:30"), file: "t.json")
        #expect(setup.devices[0].widgets[0].truth.periodic?.window == ActiveWindow(weekdays: Weekday.allCases, fromSecond: Self.clock(5, 30), toSecond: Self.clock(0, 30)))
        let empty = ScenarioLoadingTests.error(truth("07:00", "07:00"))
        #expect(empty?.description.contains("field 'devices[0].widgets[0].truth.activeHours.to': the window closes as it opens") == true, "\(String(describing: empty))")
        #expect(ScenarioLoadingTests.error(truth("24:00", "02:00")) != nil)
        #expect(ScenarioLoadingTests.error(truth("00:00", "24:00")) == nil)
    }

    /// E4 across midnight: a provider that skips closed hours, fetching in
    /// the window's last hour, asks once more at the close (the next day's
    /// 00:30), then not until the next opening at 05:30.
    @Test func skippingClosedHoursAsksAtTheCloseOfAWindowAcrossMidnight() {
        var truth = TruthSetup(periodic: PeriodicChanges(period: 15 * Seconds.minute, window: Self.service))
        truth.forecastHorizonMean = 0
        var fixture = Fixture(.configured("transit", policy: .after(interval: Seconds.hour), truth: truth) {
            $0.skipInactiveHours = true
        })
        fixture.days = 3
        let run = fixture.run()
        let calendar = fixture.setup.calendar
        let budgeted = run.budgeted()
        #expect(!budgeted.isEmpty)
        for call in budgeted where call.time >= Self.at(day: 0, 5, 30) {
            #expect(Self.service.contains(call.time, calendar: calendar) || calendar.secondOfDay(call.time) == Self.clock(0, 30),
                    "a call at \(call.time) outside service, not at its close")
        }
        let atClose = budgeted.first { $0.time >= Self.at(day: 1, 0, 30) && $0.time < Self.at(day: 1, 5, 30) }
        #expect(atClose?.time == Self.at(day: 1, 0, 30), "\(budgeted.map(\.time))")
        #expect(atClose?.nextEligible == Self.at(day: 1, 5, 30))
    }
}
