/// What a device log shows about WidgetKit's scheduling, computed the same
/// way for a real phone's log and a simulated one, so the two can be
/// compared (`calibrate`) and audited (`check --device-log`).
///
/// Reading the log:
/// - Lines are taken in file order. A line more than `clockJumpTolerance`
///   earlier than the one before means the clock was set back: the log is
///   split there, and no gap is measured across it (a smaller step back is
///   read as the same instant). A silence longer than `offGap` is taken as
///   the phone off: no gap is measured across it and its time is not counted
///   as observed.
/// - Times are instants (UTC): a time-zone change moves only the offset.
/// - A widget's first call is taken as its being added (free, F11), and
///   counted as neither the app's nor WidgetKit's own.
/// - A `timeline` call of a widget within `appWindow` after its app called
///   WidgetCenter for it (`reloadTimelines` of its kind, or
///   `reloadAllTimelines`) is the app's (F16, F17), and so is one within
///   `appWindow` after an App Intent ran from a button on that widget
///   (`intent`: a free reload, F17, F18); every other call is WidgetKit's
///   own: budgeted, or a free trigger the app cannot see (location,
///   locale, F17). Only WidgetKit's own calls show the budget. Only the
///   WidgetCenter calls' delays are `appDelays`: an intent's reload follows
///   its own delay.
public struct DeviceLogAnalysis: Sendable {
    public struct Options: Sendable {
        /// The longest delay from an app's WidgetCenter call, or a widget's
        /// App Intent, to the reload it asked for.
        public var appWindow = 2 * Seconds.minute
        /// A silence longer than this is the phone off.
        public var offGap = 16 * Seconds.hour
        /// A step back in time up to this is read as the same instant.
        public var clockJumpTolerance = Seconds.minute

        public init() {}
    }

    /// One widget (kind, family, configuration) and what the log shows of it.
    public struct Widget: Sendable {
        public var key: String
        public var app: String
        /// Instants of WidgetKit's own calls, per log segment.
        public var scheduledCalls: [[Int]] = []
        /// Lines of those calls, parallel to `scheduledCalls`.
        public var scheduledLines: [[Int]] = []
        public var appCalls = 0
        /// Seconds from the due instant (`reload_after` of the call before) to
        /// each of WidgetKit's own calls that came at or after it.
        public var lateness: [Int] = []
        /// Seconds from an app's WidgetCenter call to the reload it caused.
        public var appDelays: [Int] = []
        public var firstCall: Int?
        /// Seconds from each call to the `reload_after` it returned: the
        /// wait the widget's policy asks for (F2), whoever made the call.
        public var askedWaits: [Int] = []
        /// Calls by the policy they returned, in `TimelinePolicyName.allCases` order.
        public var callsByPolicy = [Int](repeating: 0, count: DeviceLog.TimelinePolicyName.allCases.count)

        public var scheduledCount: Int { scheduledCalls.reduce(0) { $0 + $1.count } }

        /// Every call of the widget in the log: the first (its adding, which
        /// is neither the app's nor WidgetKit's own), the app's and WidgetKit's.
        public var callCount: Int { (firstCall == nil ? 0 : 1) + appCalls + scheduledCount }

        /// Gaps between consecutive scheduled calls within a segment, with the later call's line.
        public var gaps: [(seconds: Int, line: Int)] {
            var result: [(Int, Int)] = []
            for (calls, lines) in zip(scheduledCalls, scheduledLines) where calls.count >= 2 {
                for index in 1..<calls.count { result.append((calls[index] - calls[index - 1], lines[index])) }
            }
            return result
        }

        /// The most scheduled calls in any 24 hours: a sliding window over
        /// wall-clock instants between clock jumps. Across a silence the
        /// window runs on (calls 17 hours apart are within a day), but not
        /// across a clock set back: there the two sides' instants overlap on
        /// the wall clock, and a window over both counted calls of two days.
        public internal(set) var mostIn24Hours = 0

        /// Sets `mostIn24Hours`, the log's segments given.
        mutating func countMostIn24Hours(segments: [Segment]) {
            var most = 0
            var run: [Int] = []
            func slide() {
                var start = 0
                for end in run.indices {
                    while run[end] - run[start] >= Seconds.day { start += 1 }
                    most = max(most, end - start + 1)
                }
                run.removeAll(keepingCapacity: true)
            }
            for (index, calls) in scheduledCalls.enumerated() {
                if index < segments.count && segments[index].followsClockJump { slide() }
                run += calls
            }
            slide()
            mostIn24Hours = most
        }
    }

    /// A stretch of the log with no clock jump and no silence longer than `offGap`.
    public struct Segment: Sendable {
        public var start: Int
        public var end: Int
        /// True when the clock was set back just before it (not a silence).
        public var followsClockJump = false
    }

    public var widgets: [Widget]
    public var segments: [Segment]
    public var clockJumps: Int
    public var offGaps: Int
    public var offsetChanges: Int
    public var lineCount: Int
    public var firstTime: Int?
    /// How many `intent` lines the log has: none in a log from an app that
    /// does not record its App Intents (or from before the format had them).
    public var intentLines: Int

    /// Seconds the log observed: the segments' spans.
    public var observedSeconds: Int { segments.reduce(0) { $0 + ($1.end - $1.start) } }
    /// Where the silences longer than `offGap` lie, in seconds of the log's
    /// own time from its first line (observed and silent time, not counting
    /// a clock set back): the stretches a simulated log of the same phone
    /// must lose too, or it would hold more calls than the real one.
    public var silences: [Range<Int>]
    /// Seconds of those silences.
    public var silentSeconds: Int { silences.reduce(0) { $0 + $1.count } }

    public init(_ log: DeviceLog, options: Options = Options()) {
        var widgetIndex: [String: Int] = [:]
        var widgets: [Widget] = []
        var segments: [Segment] = []
        var clockJumps = 0, offGaps = 0, offsetChanges = 0, intentLines = 0
        var silences: [Range<Int>] = []
        // The log's own time since its first line: a clock set back adds nothing.
        var elapsed = 0
        // Per widget: the due instant the last call set, and the segment it is in.
        var dueAt: [Int?] = []
        // Per widget: the WidgetCenter call its last app reload answered.
        var consumed: [Int?] = []
        // Per app: the last instant it called WidgetCenter for each kind ("" for all).
        var lastCenterCall: [String: [String: Int]] = [:]
        // Per widget key: the last App Intent run from its buttons, and per
        // widget, the intent its last reload answered (one intent, one reload).
        var lastIntent: [String: Int] = [:]
        var consumedIntent: [Int?] = []
        var previous: Int?
        var previousOffset: Int?
        for line in log.lines {
            var time = line.time.epochSeconds
            if let last = previous {
                if time < last - options.clockJumpTolerance {
                    clockJumps += 1
                    segments.append(Segment(start: time, end: time, followsClockJump: true))
                    lastCenterCall = [:]
                    lastIntent = [:]
                    for index in dueAt.indices { dueAt[index] = nil }
                } else if time > last + options.offGap {
                    offGaps += 1
                    silences.append(elapsed..<(elapsed + time - last))
                    elapsed += time - last
                    segments.append(Segment(start: time, end: time))
                    for index in dueAt.indices { dueAt[index] = nil }
                } else {
                    time = max(time, last)
                    elapsed += time - last
                    segments[segments.count - 1].end = time
                }
            } else {
                segments.append(Segment(start: time, end: time))
            }
            if let previousOffset, previousOffset != line.time.utcOffsetSeconds { offsetChanges += 1 }
            previousOffset = line.time.utcOffsetSeconds
            previous = time
            switch line.event {
            case .foreground:
                break
            case .reloadTimelines:
                lastCenterCall[line.app, default: [:]][line.kind] = time
            case .reloadAllTimelines:
                lastCenterCall[line.app, default: [:]][""] = time
            case .intent:
                intentLines += 1
                lastIntent[line.widgetKey] = time
            case .timeline:
                let key = line.widgetKey
                let index: Int
                if let known = widgetIndex[key] {
                    index = known
                } else {
                    index = widgets.count
                    widgetIndex[key] = index
                    widgets.append(Widget(key: key, app: line.app))
                    dueAt.append(nil)
                    consumed.append(nil)
                    consumedIntent.append(nil)
                }
                if let policy = line.policy {
                    widgets[index].callsByPolicy[DeviceLog.TimelinePolicyName.allCases.firstIndex(of: policy)!] += 1
                }
                if let reloadAfter = line.reloadAfter {
                    widgets[index].askedWaits.append(reloadAfter.epochSeconds - line.time.epochSeconds)
                }
                // A widget's first call is when it was added: neither the app's nor the budget's.
                if widgets[index].firstCall == nil {
                    widgets[index].firstCall = time
                    dueAt[index] = line.reloadAfter?.epochSeconds
                    continue
                }
                let calls = lastCenterCall[line.app] ?? [:]
                // One WidgetCenter call reloads each of its widgets once.
                let asked = [calls[line.kind], calls[""]].compactMap { $0 }
                    .filter { time - $0 <= options.appWindow && $0 > (consumed[index] ?? Int.min) }.max()
                let tapped = lastIntent[key].flatMap { time - $0 <= options.appWindow && $0 > (consumedIntent[index] ?? Int.min) ? $0 : nil }
                if let asked {
                    widgets[index].appCalls += 1
                    widgets[index].appDelays.append(time - asked)
                    consumed[index] = asked
                } else if let tapped {
                    widgets[index].appCalls += 1
                    consumedIntent[index] = tapped
                } else {
                    while widgets[index].scheduledCalls.count < segments.count {
                        widgets[index].scheduledCalls.append([])
                        widgets[index].scheduledLines.append([])
                    }
                    widgets[index].scheduledCalls[segments.count - 1].append(time)
                    widgets[index].scheduledLines[segments.count - 1].append(line.line)
                    if let due = dueAt[index], time >= due { widgets[index].lateness.append(time - due) }
                }
                dueAt[index] = line.reloadAfter?.epochSeconds
            }
        }
        for index in widgets.indices { widgets[index].countMostIn24Hours(segments: segments) }
        // Widgets are listed by key, so no hash order reaches a report.
        self.widgets = widgets.sorted { $0.key < $1.key }
        self.segments = segments
        self.clockJumps = clockJumps
        self.offGaps = offGaps
        self.silences = silences
        self.offsetChanges = offsetChanges
        lineCount = log.lines.count
        firstTime = log.lines.first?.time.epochSeconds
        self.intentLines = intentLines
    }
}
