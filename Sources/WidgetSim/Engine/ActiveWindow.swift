/// A weekly window of local time, such as a stock market's opening hours,
/// or a transit line's service from 05:30 to 00:30.
///
/// Promised: `contains` and `nextStart` agree, and both use the device's
/// local calendar. A window whose `from` equals `to` is empty. One with
/// `to < from` crosses midnight: it opens at `from` on each of its weekdays
/// and closes at `to` the next day, as a schedule rule's window does.
public struct ActiveWindow: Equatable, Sendable {
    /// Which weekdays the window opens on, indexed by `Weekday.rawValue`.
    public var weekdays: [Bool]
    /// Opening and closing time as seconds after local midnight.
    public var fromSecond: Int
    public var toSecond: Int

    public init(weekdays: [Weekday], fromSecond: Int, toSecond: Int) {
        var open = Array(repeating: false, count: 7)
        for day in weekdays { open[day.rawValue] = true }
        self.weekdays = open
        self.fromSecond = fromSecond
        self.toSecond = toSecond
    }

    /// True when the window closes the day after it opens.
    public var crossesMidnight: Bool { toSecond < fromSecond }

    /// Seconds from an opening to its closing; 0 for an empty window.
    public var length: Int { crossesMidnight ? toSecond + Seconds.day - fromSecond : toSecond - fromSecond }

    /// True when the window is open at `secondOfDay` of `weekday`: in the
    /// part of a window that opened that day, or, across midnight, in the
    /// morning part of one that opened the day before.
    public func isOpen(weekday: Weekday, secondOfDay: Int) -> Bool {
        guard crossesMidnight else { return weekdays[weekday.rawValue] && secondOfDay >= fromSecond && secondOfDay < toSecond }
        let yesterday = (weekday.rawValue + 6) % 7
        return (weekdays[weekday.rawValue] && secondOfDay >= fromSecond) || (weekdays[yesterday] && secondOfDay < toSecond)
    }

    /// True when `t` is inside an open window.
    public func contains(_ t: SimTime, calendar: CivilCalendar) -> Bool {
        isOpen(weekday: calendar.weekday(t), secondOfDay: calendar.secondOfDay(t))
    }

    /// The closing time of the window that contains `t`.
    /// - Precondition: `contains(t, calendar:)`.
    public func closing(ofWindowContaining t: SimTime, calendar: CivilCalendar) -> SimTime {
        let dayStart = calendar.startOfDay(calendar.dayIndex(t))
        // The morning part of a window that opened yesterday closes today.
        if crossesMidnight && calendar.secondOfDay(t) < toSecond { return dayStart + toSecond }
        return dayStart + fromSecond + length
    }

    /// The first opening at or after `t`, or nil if the window never opens.
    public func nextStart(atOrAfter t: SimTime, calendar: CivilCalendar) -> SimTime? {
        guard length > 0, weekdays.contains(true) else { return nil }
        let today = calendar.dayIndex(t)
        for offset in 0...7 {
            let dayStart = calendar.startOfDay(today + offset)
            let opening = dayStart + fromSecond
            if opening >= t && weekdays[calendar.weekday(dayStart).rawValue] {
                return opening
            }
        }
        return nil
    }
}
