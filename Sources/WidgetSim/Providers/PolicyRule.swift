/// One rule of a configured provider's clock schedule: when it applies (a
/// weekly window of local time, the truth's state, or both) and what reload
/// policy the provider then returns.
///
/// Real providers answer differently at different times of day: `after(15 min)`
/// in the commute, `after(1 h)` in the day, `after(tomorrow 06:00)` at night
/// (F2: `after(date)` is a date the provider computes). A schedule is a list of
/// rules; the first whose conditions all hold at the call's local time decides,
/// and when none does the provider's own `policy` does.
///
/// Promised: `matches` depends only on the local weekday and second of day and
/// on whether the truth is inside its active hours, so a rule's coverage of the
/// week can be checked exactly (the scenario decoder refuses rules that an
/// earlier one hides). Not promised: anything about WidgetKit honouring the
/// answer; an `after` below the minimum spacing is returned as asked, and the
/// scheduler enforces the spacing as WidgetKit does (F13).
public struct PolicyRule: Equatable, Sendable {
    /// What the provider returns when the rule applies.
    public enum Answer: Equatable, Sendable {
        case atEnd
        /// `after(now + interval)`.
        case after(interval: Int)
        /// `after(the next instant strictly after now whose local time is this
        /// second of day)`: tomorrow's 06:00 when asked at 06:00 or later.
        case until(secondOfDay: Int)
        case never
    }

    /// The truth's state a rule may require, against its `activeHours`.
    public enum TruthState: String, CaseIterable, Equatable, Sendable {
        case active
        case inactive
    }

    /// A window of local time, as seconds after midnight. `to` before `from`
    /// crosses midnight (22:00 to 06:00); `from` equal to `to` is refused by
    /// the decoder as empty.
    public struct Window: Equatable, Sendable {
        public var from: Int
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// The weekdays the rule applies on, indexed by `Weekday.rawValue`. For a
    /// window that crosses midnight, the day it opens on.
    public var weekdays: [Bool]
    /// The window of local time, or nil for the whole day.
    public var window: Window?
    /// The truth's state the rule requires, or nil for any.
    public var truth: TruthState?
    public var answer: Answer

    public init(weekdays: [Weekday] = Weekday.allCases, window: Window? = nil, truth: TruthState? = nil, answer: Answer) {
        var open = Array(repeating: false, count: 7)
        for day in weekdays { open[day.rawValue] = true }
        self.weekdays = open
        self.window = window
        self.truth = truth
        self.answer = answer
    }

    /// True when the rule applies at local `weekday` and `secondOfDay`, the
    /// truth being active or not (`truthActive` is nil when the truth has no
    /// active hours: a rule that asks for a state then never applies).
    public func matches(weekday: Weekday, secondOfDay: Int, truthActive: Bool?) -> Bool {
        if let required = truth {
            guard let truthActive, truthActive == (required == .active) else { return false }
        }
        guard let window else { return weekdays[weekday.rawValue] }
        let (from, to) = (window.from, window.to)
        if from < to { return weekdays[weekday.rawValue] && secondOfDay >= from && secondOfDay < to }
        // Across midnight: the evening part belongs to today, the morning part
        // to the window that opened yesterday.
        let yesterday = (weekday.rawValue + 6) % 7
        return (weekdays[weekday.rawValue] && secondOfDay >= from) || (weekdays[yesterday] && secondOfDay < to)
    }

    /// The answer of the first rule of `schedule` that applies at `t`, or nil
    /// when none does (the provider's own policy then decides).
    public static func firstAnswer(of schedule: [PolicyRule], at t: SimTime, calendar: CivilCalendar, truthWindow: ActiveWindow?) -> Answer? {
        guard !schedule.isEmpty else { return nil }
        let weekday = calendar.weekday(t)
        let second = calendar.secondOfDay(t)
        let truthActive = truthWindow.map { $0.contains(t, calendar: calendar) }
        return schedule.first { $0.matches(weekday: weekday, secondOfDay: second, truthActive: truthActive) }?.answer
    }

    /// The next instant strictly after `t` whose local time is `secondOfDay`.
    public static func nextOccurrence(ofSecondOfDay secondOfDay: Int, after t: SimTime, calendar: CivilCalendar) -> SimTime {
        let today = calendar.dayIndex(t)
        let candidate = calendar.startOfDay(today) + secondOfDay
        return candidate > t ? candidate : calendar.startOfDay(today + 1) + secondOfDay
    }

    /// A local time and truth state: one sample of a stretch of the week.
    public struct Moment: Equatable, Sendable {
        public var weekday: Weekday
        public var secondOfDay: Int
        public var truthActive: Bool?
    }

    /// One moment per weekday and stretch between the clock boundaries of
    /// `schedule`'s windows and the truth's window. Every rule condition is
    /// constant over such a stretch, so these moments decide coverage exactly.
    public static func moments(of schedule: [PolicyRule], truthWindow: ActiveWindow?) -> [Moment] {
        var boundaries: [Int] = [0]
        for rule in schedule {
            if let window = rule.window { boundaries += [window.from, window.to] }
        }
        if let truthWindow { boundaries += [truthWindow.fromSecond, truthWindow.toSecond] }
        boundaries = Array(Set(boundaries.filter { $0 < Seconds.day })).sorted()
        return Weekday.allCases.flatMap { weekday in
            boundaries.map { second in
                let truthActive = truthWindow.map { $0.isOpen(weekday: weekday, secondOfDay: second) }
                return Moment(weekday: weekday, secondOfDay: second, truthActive: truthActive)
            }
        }
    }

    /// True when the rule applies at `moment`.
    public func matches(_ moment: Moment) -> Bool {
        matches(weekday: moment.weekday, secondOfDay: moment.secondOfDay, truthActive: moment.truthActive)
    }

    /// For each rule, whether it ever decides: some moment of the week where
    /// it applies and no earlier rule does. Exact (see `moments`).
    public static func reachable(_ schedule: [PolicyRule], truthWindow: ActiveWindow?) -> [Bool] {
        var decides = Array(repeating: false, count: schedule.count)
        for moment in moments(of: schedule, truthWindow: truthWindow) {
            if let first = schedule.firstIndex(where: { $0.matches(moment) }) { decides[first] = true }
        }
        return decides
    }
}

extension PolicyRule.Answer {
    /// The provider's own policy as a rule's answer: the schedule's fallback.
    init(_ policy: ConfiguredProvider.Policy) {
        switch policy {
        case .atEnd: self = .atEnd
        case .never: self = .never
        case .after(let interval): self = .after(interval: interval)
        }
    }
}
