/// What a widget's server knows about when the widget's content changes: the
/// changes it can see coming (a market's ticks, a game's dragon attacks) and
/// the unforeseeable events that have already happened (breaking news, a
/// healing potion). A provider reads it through its context, as an app would
/// ask its server.
///
/// Promised: a provider sees only events at or before its own clock; what
/// happens later is hidden, as it is from a real server.
public struct ContentSchedule: Sendable {
    /// Predictable changes on the local clock, if the content has any.
    public var periodic: PeriodicChanges?
    /// Predictable one-off changes (a battle, a kick-off), in time order.
    public var oneOff: [SimTime]
    /// Unforeseeable changes so far, in time order.
    public internal(set) var events: [SimTime] = []
    /// The device's local calendar, on which periodic changes fall.
    public let calendar: CivilCalendar

    public init(periodic: PeriodicChanges?, oneOff: [SimTime] = [], calendar: CivilCalendar) {
        self.periodic = periodic
        self.oneOff = oneOff
        self.calendar = calendar
    }

    /// The last scheduled change (periodic or one-off) at or before `t`.
    public func lastScheduledChange(atOrBefore t: SimTime) -> SimTime? {
        let periodicChange = periodic?.last(atOrBefore: t, calendar: calendar)
        let index = oneOff.firstIndex(greaterThan: t)
        guard index > 0 else { return periodicChange }
        return max(periodicChange ?? oneOff[index - 1], oneOff[index - 1])
    }

    /// The first scheduled change (periodic or one-off) strictly after `t`.
    public func nextScheduledChange(after t: SimTime) -> SimTime? {
        let periodicChange = periodic?.next(after: t, calendar: calendar)
        let index = oneOff.firstIndex(greaterThan: t)
        guard index < oneOff.count else { return periodicChange }
        return min(periodicChange ?? oneOff[index], oneOff[index])
    }

    /// True when a one-off change falls at `t`.
    public func isOneOff(_ t: SimTime) -> Bool {
        let index = oneOff.firstIndex(greaterThan: t)
        return index > 0 && oneOff[index - 1] == t
    }

    /// The last unforeseeable event at or before `t`.
    public func lastEvent(atOrBefore t: SimTime) -> SimTime? {
        let index = events.firstIndex(greaterThan: t)
        return index > 0 ? events[index - 1] : nil
    }

    /// The first unforeseeable event strictly after `t`.
    public func firstEvent(after t: SimTime) -> SimTime? {
        let index = events.firstIndex(greaterThan: t)
        return index < events.count ? events[index] : nil
    }

    /// Records an unforeseeable event at `t`.
    /// - Precondition: `t` is not earlier than the last recorded event.
    mutating func recordEvent(at t: SimTime) {
        precondition(events.last.map { $0 <= t } ?? true, "content events arrive in time order")
        events.append(t)
    }
}
