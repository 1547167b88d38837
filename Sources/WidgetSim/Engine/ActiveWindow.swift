/// A weekly window of local time, such as a stock market's opening hours.
///
/// Promised: `contains` and `nextStart` agree, and both use the device's
/// local calendar. A window whose `from` equals `to` is empty; one with
/// `to < from` is not allowed (windows do not cross midnight).
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

    /// True when `t` is inside an open window.
    public func contains(_ t: SimTime, calendar: CivilCalendar) -> Bool {
        let second = calendar.secondOfDay(t)
        return weekdays[calendar.weekday(t).rawValue] && second >= fromSecond && second < toSecond
    }

    /// The closing time of the window that contains `t`.
    /// - Precondition: `contains(t, calendar:)`.
    public func closing(ofWindowContaining t: SimTime, calendar: CivilCalendar) -> SimTime {
        calendar.startOfDay(calendar.dayIndex(t)) + toSecond
    }

    /// The first opening at or after `t`, or nil if the window never opens.
    public func nextStart(atOrAfter t: SimTime, calendar: CivilCalendar) -> SimTime? {
        guard fromSecond < toSecond, weekdays.contains(true) else { return nil }
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
