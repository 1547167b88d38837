/// The summary numbers of a device log that calibration matches between a
/// real phone and the simulator, each chosen to move with one unknown, and
/// one that moves with none: the wait the widget's policy asks for, which
/// checks that the scenario's widget is the log's.
public enum LogStatistic: String, CaseIterable, Sendable {
    /// WidgetKit's own calls per widget and observed day, after the learning
    /// days (F8, F11): the daily limit, when the budget binds.
    case callsPerDay = "calls_per_day"
    /// The median gap between a widget's consecutive own calls: the pace
    /// (F8, F10), when the budget binds.
    case medianGap = "median_gap_s"
    /// A low gap between a widget's consecutive own calls: the spacing
    /// (F13), when the policy asks for more than the spacing allows. It is
    /// the 1st percentile of the gaps, and at least the third smallest
    /// (`lowGapRank`), not the smallest: a free reload that the phone cannot
    /// tell from WidgetKit's own (a locale or location change, F17) makes up
    /// to two gaps shorter than the spacing, and the smallest gap of a log
    /// with one is the free reload's, not the spacing's. About one 14-day
    /// simulated log in four holds such a reload, and with the smallest gap
    /// every spacing was consistent with a log whose spacing was 20 minutes.
    case lowGap = "low_gap_s"
    /// The median lateness of an own call after its due instant: the
    /// scheduling delay (F4, F14), when neither budget nor spacing binds.
    case medianLateness = "median_lateness_s"
    /// The median delay from the app's WidgetCenter call to the reload: the
    /// foreground reload delay (F17, F18).
    case appReloadDelay = "app_reload_delay_s"
    /// The median wait a call asks for, from the call to its `reload_after`
    /// (F2): the widget's policy, which no unknown moves. A scenario whose
    /// widget asks for another wait than the log's fits the unknowns to the
    /// wrong widget.
    case medianAskedWait = "median_asked_wait_s"

    public var label: String {
        switch self {
        case .callsPerDay: return "WidgetKit's own calls per widget-day after learning"
        case .medianGap: return "median gap between own calls"
        case .lowGap: return "low gap between own calls (1st percentile, at least the 3rd smallest)"
        case .medianLateness: return "median lateness after reload_after"
        case .appReloadDelay: return "median delay from a WidgetCenter call to its reload"
        case .medianAskedWait: return "median wait a call asks for (its reload_after)"
        }
    }

    public var isDuration: Bool { self != .callsPerDay }

    /// True for the lateness, negative when WidgetKit runs a reload early,
    /// within its early window (F4), and the asked wait, negative for an
    /// `after` date already past (F2): counts, gaps and delays are never
    /// below zero.
    public var canBeNegative: Bool { self == .medianLateness || self == .medianAskedWait }

    /// True for a gap between WidgetKit's own calls, which the pace or the
    /// spacing can set almost exactly in simulated logs (see
    /// `Calibration.gapTolerance`).
    public var isGap: Bool { self == .medianGap || self == .lowGap }
}

extension DeviceLogAnalysis {
    /// The value of `statistic` for this log, or nil when the log has none
    /// (no gaps, no app reloads, no day after learning...).
    /// `learningSeconds`: how long after a widget's first call the learning
    /// period lasts (F11), left out of the daily count.
    public func value(of statistic: LogStatistic, learningSeconds: Int) -> Double? {
        switch statistic {
        case .callsPerDay:
            var calls = 0, seconds = 0
            for widget in widgets {
                guard let first = widget.firstCall else { continue }
                let learnedAt = first + learningSeconds
                calls += widget.scheduledCalls.joined().filter { $0 >= learnedAt }.count
                seconds += segments.reduce(0) { $0 + max(0, $1.end - max($1.start, learnedAt)) }
            }
            // Less than a day after learning says nothing about a daily limit.
            guard seconds >= Seconds.day else { return nil }
            return Double(calls) * Double(Seconds.day) / Double(seconds)
        case .medianGap:
            return Self.median(widgets.flatMap { $0.gaps.map(\.seconds) })
        case .lowGap:
            let gaps = sortedGaps
            return Self.lowGapRank(count: gaps.count).map { Double(gaps[$0 - 1]) }
        case .medianLateness:
            return Self.median(widgets.flatMap(\.lateness))
        case .appReloadDelay:
            return Self.median(widgets.flatMap(\.appDelays))
        case .medianAskedWait:
            return Self.median(widgets.flatMap(\.askedWaits))
        }
    }

    /// The rank, from 1, of the low gap among `count` sorted gaps: the 1st
    /// percentile's nearest rank, at least 3 (two stray gaps of a free
    /// reload left out). Nil for fewer than 3 gaps, which have no low gap:
    /// the third smallest of three is the largest (a quiet night's).
    static func lowGapRank(count: Int) -> Int? {
        count < 3 ? nil : max(3, (count + 99) / 100)
    }

    static func median(_ values: [Int]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Every gap between own calls, sorted, for the goodness-of-fit table.
    public var sortedGaps: [Int] { widgets.flatMap { $0.gaps.map(\.seconds) }.sorted() }
}
