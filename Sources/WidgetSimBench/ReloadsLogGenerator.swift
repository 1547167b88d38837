import Foundation
import WidgetSim

/// Writes a valid reloads log (the columns of `reloads.csv`) of any length,
/// shaped like a real household's: 36 widgets on 5 devices in three time
/// zones, each reloading on its policy through the user's waking day, with
/// app launches and the odd system event between.
///
/// Promised: the log passes `widgetsim check --reloads <log>` under the
/// default rules (the paced model, 5-minute spacing, push shared), so the
/// audit reads every row. Budgeted reloads of a widget come between 07:00
/// and 23:00 local time, at least `pacingWindow / limit` seconds apart (one
/// token's refill), so no trailing 24 hours holds more than 16 hours of them
/// and no stretch outruns the pacing bucket; `budget_used_24h` counts them
/// exactly. The same `rows` and `seed` give the same bytes.
///
/// Not promised: the statistics of a simulated run (views, staleness); the
/// log exists to be audited.
struct ReloadsLogGenerator {
    struct Widget {
        var id: String
        var kind: String
        /// "after" (with its interval) or "atEnd" (with entry spacing).
        var policy: String
        var interval: Int
        var entries: Int
    }

    struct Device {
        var id: String
        var utcOffset: Int
        var widgets: [Widget]
    }

    static let household: [Device] = {
        func widget(_ id: String, _ app: String, _ policy: String, _ interval: Int, _ entries: Int) -> Widget {
            Widget(id: id, kind: "com.example.\(app).\(id)", policy: policy, interval: interval, entries: entries)
        }
        let phone = [
            widget("forecast", "weather", "after", 3_600, 6), widget("rain-now", "weather", "after", 900, 12),
            widget("up-next", "calendar", "atEnd", 1_800, 8), widget("watchlist", "stocks", "after", 900, 1),
            widget("headlines", "news", "after", 1_800, 5), widget("rings", "fitness", "atEnd", 3_600, 4),
            widget("battery", "batteries", "after", 1_200, 1), widget("commute", "maps", "after", 1_800, 3),
            widget("reminders", "todo", "atEnd", 3_600, 10),
        ]
        let tablet = [
            widget("forecast", "weather", "after", 3_600, 6), widget("month", "calendar", "atEnd", 3_600, 24),
            widget("headlines", "news", "after", 1_800, 5), widget("photos", "photos", "atEnd", 3_600, 6),
            widget("reading-list", "books", "after", 3_600, 1), widget("home", "home", "after", 900, 1),
            widget("screen-time", "screentime", "after", 3_600, 1),
        ]
        let partner = [
            widget("forecast", "weather", "after", 3_600, 6), widget("up-next", "calendar", "atEnd", 1_800, 8),
            widget("score", "sports", "after", 900, 1), widget("headlines", "news", "after", 1_800, 5),
            widget("rings", "fitness", "atEnd", 3_600, 4), widget("dragon", "game", "after", 1_200, 3),
            widget("shopping", "todo", "atEnd", 3_600, 10),
        ]
        let work = [
            widget("up-next", "calendar", "atEnd", 1_800, 8), widget("watchlist", "stocks", "after", 900, 1),
            widget("mail", "mail", "after", 1_800, 1), widget("forecast", "weather", "after", 3_600, 6),
            widget("world-clock", "clock", "atEnd", 3_600, 24), widget("tasks", "todo", "atEnd", 3_600, 10),
        ]
        let travel = [
            widget("forecast", "weather", "after", 3_600, 6), widget("flight", "travel", "after", 900, 4),
            widget("currency", "finance", "after", 1_800, 1), widget("up-next", "calendar", "atEnd", 1_800, 8),
            widget("translate", "translate", "never", 0, 1), widget("commute", "maps", "after", 1_800, 3),
            widget("battery", "batteries", "after", 1_200, 1),
        ]
        return [
            Device(id: "phone", utcOffset: 3_600, widgets: phone),
            Device(id: "ipad", utcOffset: 3_600, widgets: tablet),
            Device(id: "partner-phone", utcOffset: 3_600, widgets: partner),
            Device(id: "work-phone", utcOffset: -5 * 3_600, widgets: work),
            Device(id: "travel-phone", utcOffset: 9 * 3_600, widgets: travel),
        ]
    }()

    /// The rules the log is valid under: `check`'s defaults.
    let parameters = SchedulerParameters()
    var seed: UInt64 = 20_261_122

    /// Writes `rows` rows (after the header) to `path`; returns the file's size in bytes.
    func write(rows: Int, to path: String) throws(BenchError) -> Int {
        var sink = try FileSink(path: path)
        let scenario = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 3_600)
        var streams: [WidgetStream] = []
        for device in ReloadsLogGenerator.household {
            let calendar = scenario.withUTCOffset(device.utcOffset)
            for widget in device.widgets {
                streams.append(WidgetStream(
                    device: device.id, widget: widget, calendar: calendar, parameters: parameters,
                    random: RandomStream(seed: seed &+ UInt64(streams.count) &* 0x9E37_79B9_7F4A_7C15)))
            }
        }
        sink.append(ReportWriter.reloadsHeader.joined(separator: ",") + "\n")
        for _ in 0..<rows {
            // The widget whose next event is earliest; ties go to the first, so the log is in time order.
            var earliest = 0
            for index in streams.indices.dropFirst() where streams[index].nextTime < streams[earliest].nextTime {
                earliest = index
            }
            streams[earliest].emitNext(into: &sink)
        }
        sink.close()
        return sink.count
    }
}

/// One widget's rows, planned a local day at a time.
private struct WidgetStream {
    enum Trigger: String {
        case initial, policy, widgetCenter = "widget_center", appForeground = "app_foreground", system
        var budgeted: Bool { self == .policy || self == .widgetCenter }
    }

    let device: String
    let widget: ReloadsLogGenerator.Widget
    let calendar: CivilCalendar
    let parameters: SchedulerParameters
    var random: RandomStream

    /// Today's planned events, in time order, and the next one to write.
    var planned: [(time: Int, trigger: Trigger)] = []
    var nextIndex = 0
    /// The local day planned next.
    var nextDay: Int
    /// This widget's budget limit today (40–70, F8), drifting from day to day.
    var limit: Int
    /// Budgeted reload times in the trailing 24 hours (from `windowStart`).
    var budgetedTimes: [Int] = []
    var windowStart = 0
    var lastNextEligible = 0

    init(device: String, widget: ReloadsLogGenerator.Widget, calendar: CivilCalendar, parameters: SchedulerParameters, random: RandomStream) {
        self.device = device
        self.widget = widget
        self.calendar = calendar
        self.parameters = parameters
        self.random = random
        limit = self.random.nextInt(in: parameters.dailyBudgetMin...parameters.dailyBudgetMax)
        planned = [(0, .initial)]
        nextDay = calendar.dayIndex(0)
    }

    var nextTime: Int { planned[nextIndex].time }

    /// Plans the next local day: budgeted reloads through the waking day, app
    /// launches within it, and now and then a system event at any hour.
    mutating func planDay() {
        repeat {
            planned.removeAll(keepingCapacity: true)
            nextIndex = 0
            let midnight = calendar.startOfDay(nextDay)
            nextDay += 1
            limit = min(parameters.dailyBudgetMax, max(parameters.dailyBudgetMin, limit + random.nextInt(in: -4...4)))
            // One token of the pacing bucket refills in pacingWindow / limit: never closer than that.
            let pace = (parameters.pacingWindow + limit - 1) / limit + 1
            let wake = midnight + 7 * Seconds.hour + random.nextInt(in: 0...45 * Seconds.minute)
            let sleep = midnight + 23 * Seconds.hour - random.nextInt(in: 0...45 * Seconds.minute)
            var t = wake + random.nextInt(in: 0...10 * Seconds.minute)
            while t < sleep {
                // A widget whose timelines never expire reloads only when its app asks (F16).
                let asked = widget.policy == "never" || random.nextBool(probability: 0.08)
                planned.append((t, asked ? .widgetCenter : .policy))
                t += random.nextInt(in: pace...max(pace, 45 * Seconds.minute))
            }
            for _ in 0..<random.nextInt(in: 1...6) {
                planned.append((random.nextInt(in: wake...sleep), .appForeground))
            }
            if random.nextBool(probability: 0.3) {
                planned.append((midnight + random.nextInt(in: 0...(Seconds.day - 1)), .system))
            }
            // The first day starts at t = 0, with the initial reload.
            planned.removeAll { $0.time <= 0 }
            planned.sort { $0.time < $1.time || ($0.time == $1.time && $0.trigger.budgeted && !$1.trigger.budgeted) }
        } while planned.isEmpty
    }

    /// Appends the next row and moves on.
    mutating func emitNext(into sink: inout FileSink) {
        let (t, trigger) = planned[nextIndex]
        let budgeted = trigger.budgeted
        if budgeted { budgetedTimes.append(t) }
        while windowStart < budgetedTimes.count && budgetedTimes[windowStart] <= t - Seconds.day { windowStart += 1 }
        if windowStart > 4_096 {
            budgetedTimes.removeFirst(windowStart)
            windowStart = 0
        }
        let used = budgetedTimes.count - windowStart
        let waited = trigger == .policy ? max(0, t - lastNextEligible) : 0
        let timedOut = trigger != .initial && random.nextBool(probability: 0.01)
        var entries = 0
        var policy = ""
        var nextEligible = ""
        if !timedOut {
            entries = widget.entries
            switch widget.policy {
            case "after":
                policy = "after"
                lastNextEligible = t + widget.interval
                nextEligible = String(lastNextEligible)
            case "atEnd":
                policy = "atEnd"
                lastNextEligible = t + widget.entries * widget.interval
                nextEligible = String(lastNextEligible)
            default:
                policy = "never"
            }
        }
        let fields = [
            String(t), calendar.iso8601(t), device, widget.id, widget.kind, trigger.rawValue, budgeted ? "1" : "0",
            String(used), String(limit), String(waited), timedOut ? "timed_out" : "ok", String(entries), policy, nextEligible,
        ]
        sink.append(fields.joined(separator: ","))
        sink.append(0x0A)
        nextIndex += 1
        if nextIndex == planned.count { planDay() }
    }
}
