/// The counters every aggregate of a run keeps: reloads by kind, withheld
/// requests, and views with their staleness. Integers only, so adding two
/// counts is exact and order does not matter.
public struct EventCounts: Equatable, Sendable {
    public var budgetedReloads = 0
    public var freeReloads = 0
    public var withheldRequests = 0
    public var timeouts = 0
    /// Timelines not applied because they held too many entries (F23).
    public var rejectedTimelines = 0
    public var views = 0
    public var staleViews = 0
    /// Seconds of staleness summed over all views.
    public var stalenessTotal = 0

    public init() {}

    /// Provider calls: server requests when the provider fetches.
    public var requests: Int { budgetedReloads + freeReloads }

    public var stalePercent: Double { views == 0 ? 0 : 100 * Double(staleViews) / Double(views) }

    /// How long, on average, what a view showed had been out of date (a fresh
    /// view counts as 0): how often and how long in one number.
    public var meanStaleness: Double { views == 0 ? 0 : Double(stalenessTotal) / Double(views) }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    mutating func count(_ record: ReloadRecord) {
        if record.budgeted { budgetedReloads += 1 } else { freeReloads += 1 }
        if record.result == .timedOut { timeouts += 1 }
        if record.result == .tooManyEntries { rejectedTimelines += 1 }
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    mutating func count(_ record: ViewRecord) {
        views += 1
        if record.isStale { staleViews += 1 }
        stalenessTotal += record.staleness
    }

    mutating func count(_ record: WithheldRecord) {
        withheldRequests += record.requests
    }

    /// Adds `other`, or returns false (leaving this unchanged) when a counter would overflow.
    mutating func addChecked(_ other: EventCounts) -> Bool {
        var sum = self
        let pairs: [(WritableKeyPath<EventCounts, Int>, Int)] = [
            (\.budgetedReloads, other.budgetedReloads), (\.freeReloads, other.freeReloads),
            (\.withheldRequests, other.withheldRequests), (\.timeouts, other.timeouts),
            (\.rejectedTimelines, other.rejectedTimelines), (\.views, other.views),
            (\.staleViews, other.staleViews), (\.stalenessTotal, other.stalenessTotal),
        ]
        for (field, value) in pairs {
            let (result, overflow) = sum[keyPath: field].addingReportingOverflow(value)
            guard !overflow else { return false }
            sum[keyPath: field] = result
        }
        self = sum
        return true
    }

    mutating func add(_ other: EventCounts) {
        budgetedReloads += other.budgetedReloads
        freeReloads += other.freeReloads
        withheldRequests += other.withheldRequests
        timeouts += other.timeouts
        rejectedTimelines += other.rejectedTimelines
        views += other.views
        staleViews += other.staleViews
        stalenessTotal += other.stalenessTotal
    }
}
