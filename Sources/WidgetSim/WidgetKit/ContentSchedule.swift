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

/// A content schedule held by reference. A widget's truth keeps its schedule
/// here and lends it to every provider call's context, so making a context
/// copies no arrays; the truth copies the storage before writing to it when
/// it is shared (copy on write), so the truth keeps value semantics.
///
/// `@unchecked Sendable`: the one writer, `ContentTruth`, writes only to
/// storage no one else refers to.
final class ContentScheduleStorage: @unchecked Sendable {
    // Read on every view and every provider call; the copy-on-write writer
    // never overlaps a reader, so the runtime's exclusivity check can go.
    @exclusivity(unchecked) var schedule: ContentSchedule

    init(_ schedule: ContentSchedule) {
        self.schedule = schedule
    }

    /// Held by a kept context between calls once it has let go of a truth's
    /// schedule; never read, since every call lends the context its truth's.
    static let released = ContentScheduleStorage(ContentSchedule(periodic: nil, calendar: CivilCalendar(startEpochSeconds: 0, utcOffsetSeconds: 0)))
}
