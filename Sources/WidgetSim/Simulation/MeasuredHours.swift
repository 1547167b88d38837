/// The local hours whose views a comparison ranks on (a scenario's
/// `measureDuring`): a live score matters during matches, a commute widget
/// during the commute, and a mean over the whole day hides them among the
/// views when nothing changes. Empty, every view counts.
///
/// Only views are filtered: reloads, requests and the budget are counted
/// over the whole day, since WidgetKit spends the budget at every hour
/// (F2) and the server sees every request.
public struct MeasuredHours: Equatable, Sendable {
    /// Each window, one a day on its weekdays, in the device's local time;
    /// a view counts when any of them holds it.
    public var windows: [ActiveWindow]

    /// The most windows a scenario may list: a week of matches or shifts
    /// needs a few, and each view checks them all.
    public static let maximumWindows = 50

    public init(_ windows: [ActiveWindow] = []) {
        self.windows = windows
    }

    /// True when every view counts.
    public var isWholeDay: Bool { windows.isEmpty }

    /// True when a view at `t` on a device with `calendar` counts.
    public func contains(_ t: SimTime, calendar: CivilCalendar) -> Bool {
        guard !windows.isEmpty else { return true }
        let weekday = calendar.weekday(t)
        let second = calendar.secondOfDay(t)
        return windows.contains { $0.isOpen(weekday: weekday, secondOfDay: second) }
    }
}
