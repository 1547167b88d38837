import Foundation

/// What a run will cost, estimated from the scenario before it starts: the
/// events its devices will handle and the rows and bytes it will keep. A
/// run past `RunLimits` is refused with the numbers and the field that
/// drives them, instead of running for hours or exhausting memory.
///
/// Promised: the estimate never reads a random stream and costs microseconds
/// per widget. It is an upper estimate built from rates (views, sessions,
/// truth changes, reload requests and the budget's cap on calls), so a run
/// seldom exceeds it; when one does, `RunLimits` stops the run itself with
/// an error (see `RunLimitExceeded`).
public struct RunEstimate: Equatable, Sendable {
    /// What one source adds, per device and day, and where the scenario sets it.
    public struct Source: Equatable, Sendable {
        /// The scenario field that sets the rate, such as
        /// `devices[0].widgets[2].truth.randomChangesPerDay`.
        public var field: String
        public var eventsPerDay: Double
        public var rowsPerDay: Double
    }

    /// Devices and days, for messages.
    public var devices = 0
    public var days = 0
    /// Sources of the heaviest device, largest first.
    public var sources: [Source] = []
    /// Events the heaviest device handles over the run.
    public var eventsPerDevice: Double = 0
    /// Events all devices handle over the run.
    public var events: Double = 0
    /// Rows all devices produce over the run (reloads, views, withheld requests, days).
    public var rows: Double = 0
    /// Views of widgets over the run, which `compare` keeps per run in flight.
    public var views: Double = 0
    /// Scripted actions the device with the most holds over the run (see
    /// `RunLimits.maximumScriptedActionsPerDevice`): exact for a listed
    /// device, the most any fleet device may get (every moment hitting it).
    public var scriptedActionsPerDevice: Double = 0
    /// Where those actions come from, for messages: the fields and the days
    /// simulated ("devices[0].script over 366 days").
    public var scriptSource = ""

    /// Peak bytes a kept row costs in `simulate`: the record, its copies while
    /// rows are sorted, its CSV line and its mark in the SVG timeline.
    /// Measured: 930 bytes a row at the peak of a run of 1.3 million rows.
    public static let bytesPerRow = 1_000.0
    /// Bytes `compare` keeps per view (its staleness, for percentiles), per run in flight.
    public static let bytesPerComparedView = 8.0
    /// Peak bytes one entry of a timeline a widget's provider returns costs
    /// while its device runs: the installed timeline and the one being built
    /// are two buffers that keep their capacity, each up to twice the entries.
    /// An upper bound: 390 KB were measured for a widget returning 10,000
    /// entries, which this counts as 960 KB; but under `ulimit -v` a run of
    /// such widgets needed that margin not to fail to allocate.
    public static let bytesPerTimelineEntry = Double(4 * MemoryLayout<ScheduledEntry>.stride)
    /// Work of building one timeline entry, in events, rounded up: a device
    /// whose `after(1s)` widget returned 10,000 entries a call built 1.7
    /// billion entries in 5.4 s, about 1/50 of an event's time each, so a
    /// long timeline costs more than the call's own events.
    public static let eventsPerTimelineEntry = 1.0 / 32

    /// Bytes the heaviest device's timelines hold while it runs (a run keeps
    /// one device in flight per thread). Providers written in Swift are not
    /// counted: their timelines are their own code's.
    public var timelineBytesPerDevice: Double = 0
    /// The field of the longest timeline on that device, for messages.
    public var timelineSource = ""

    /// The estimate for `setup`: every listed device, or a fleet's template
    /// (the same for each device, scaled by the number of devices).
    public init(_ setup: SimulationSetup) {
        let days = Double(setup.days)
        self.days = setup.days
        self.devices = setup.population.count
        switch setup.population {
        case .devices(let devices):
            var heaviest = -1.0
            for (index, device) in devices.enumerated() {
                let sources = RunEstimate.sources(device, path: "devices[\(index)]", scheduler: setup.scheduler, days: setup.days)
                let perDay = sources.reduce(0) { $0 + $1.eventsPerDay }
                events += perDay * days
                rows += sources.reduce(0) { $0 + $1.rowsPerDay } * days
                views += RunEstimate.viewRowsPerDay(device, days: setup.days) * days
                noteTimelines(of: device, path: "devices[\(index)]")
                let actions = RunEstimate.scriptedActions(device, before: setup.endTime, calendar: setup.calendar(of: device))
                if actions > scriptedActionsPerDevice {
                    scriptedActionsPerDevice = actions
                    scriptSource = "devices[\(index)].script over \(DisplayText.counted(setup.days, "day"))"
                }
                if perDay > heaviest {
                    heaviest = perDay
                    self.sources = sources
                    eventsPerDevice = perDay * days
                }
            }
        case .fleet(let fleet):
            let total = days + Double(fleet.warmUpDays)
            // Each device's views and sessions are the template's times a
            // draw from the fleet's scales, so the estimate takes the
            // template's rates times the scales' means: a fleet whose views
            // are scaled a million times is refused, not started for days.
            let views = fleet.variation.viewsScale.mean
            let sessions = fleet.variation.sessionsScale.mean
            func scaled(views: Double, sessions: Double) -> [Source] {
                var device = fleet.template
                for page in device.pages.indices { device.pages[page].viewsPerDay *= views }
                for app in device.apps.indices { device.apps[app].sessionsPerDay *= sessions }
                return RunEstimate.sources(device, path: "fleet.device", scheduler: setup.scheduler, days: setup.days)
            }
            sources = scaled(views: views, sessions: sessions)
            // A field moved by a scale (the views or sessions themselves, and
            // the calls and requests they bring) names the scale, which a
            // refusal then names too.
            if views != 1 || sessions != 1 {
                // By field, for look-ups only (a device of 200 widgets has a
                // thousand sources): no order of these reaches a message.
                func byField(_ sources: [Source]) -> [String: Double] {
                    Dictionary(sources.map { ($0.field, $0.eventsPerDay) }, uniquingKeysWith: +)
                }
                let plain = byField(scaled(views: 1, sessions: 1))
                let byViews = views != 1 ? byField(scaled(views: views, sessions: 1)) : plain
                let bySessions = sessions != 1 ? byField(scaled(views: 1, sessions: sessions)) : plain
                func moved(_ scaled: [String: Double], _ field: String) -> Bool { scaled[field] != plain[field] }
                for index in sources.indices {
                    let field = sources[index].field
                    var scales: [String] = []
                    if views != 1 && moved(byViews, field) { scales.append("fleet.viewsScale (mean \(FixedDecimal.format(views, decimals: 2)))") }
                    if sessions != 1 && moved(bySessions, field) { scales.append("fleet.sessionsScale (mean \(FixedDecimal.format(sessions, decimals: 2)))") }
                    if !scales.isEmpty { sources[index].field += " × " + scales.joined(separator: " × ") }
                }
            }
            // Every template widget, as if one device got them all.
            noteTimelines(of: fleet.template, path: "fleet.device")
            // Counted over the run as simulated (with its warm-up), on each
            // device's own clock: in each time zone a device can draw (a weight
            // of 0 is never drawn). Every moment that can hit a device may hit this one.
            let simulated = setup.warmedUp
            let moments = (simulated.fleet?.moments ?? []).filter { $0.share > 0 && $0.at < simulated.endTime }.count
            if moments > 0 {
                // Each as if it reloaded every widget: its action (a push is
                // sent and delivered) and a request and a call for each.
                let repeats = Double(setup.scheduler.extraTimelineCalls.upperBound)
                let perMoment = fleet.template.widgets.reduce(2.0) { total, widget in
                    total + 1 + RunEstimate.eventsPerCall(widget.provider) * (1 + repeats)
                }
                sources.append(Source(field: "fleet.moments (\(moments))", eventsPerDay: Double(moments) * perMoment / total, rowsPerDay: 0))
            }
            eventsPerDevice = sources.reduce(0) { $0 + $1.eventsPerDay } * total
            events = eventsPerDevice * Double(fleet.deviceCount)
            rows = 0
            let drawn = fleet.variation.utcOffsets.filter { $0.weight > 0 }.map(\.seconds)
            let calendars = drawn.isEmpty ? [simulated.calendar(of: fleet.template)] : drawn.map { simulated.calendar.withUTCOffset($0) }
            let script = calendars.map { RunEstimate.scriptedActions(fleet.template, before: simulated.endTime, calendar: $0) }.max() ?? 0
            scriptedActionsPerDevice = script + Double(moments)
            scriptSource = "fleet.device.script" + (moments > 0 ? " and fleet.moments (\(moments))" : "") + " over \(DisplayText.counted(setup.days, "day"))"
                + (fleet.warmUpDays > 0 ? " and fleet.warmUpDays (\(fleet.warmUpDays))" : "")
        }
        sources.sort { $0.eventsPerDay > $1.eventsPerDay }
    }

    /// Keeps `device`'s timeline bytes if it holds the most so far.
    private mutating func noteTimelines(of device: DeviceSetup, path: String) {
        var bytes = 0.0
        var longest = (entries: 0, field: "")
        for (index, widget) in device.widgets.enumerated() {
            guard case .configured(let settings) = widget.provider else { continue }
            let entries = RunEstimate.timelineEntries(settings)
            bytes += Double(entries) * RunEstimate.bytesPerTimelineEntry
            if entries > longest.entries {
                longest = (entries, "\(path).widgets[\(index)].provider.\(settings.entryOffsets == nil ? "entries" : "entryOffsets")")
            }
        }
        if bytes > timelineBytesPerDevice {
            timelineBytesPerDevice = bytes
            timelineSource = longest.field
        }
    }

    /// The entries each call of a configured provider returns.
    static func timelineEntries(_ settings: ConfiguredProvider.Settings) -> Int {
        settings.entryOffsets?.count ?? settings.entryCount
    }

    /// Bytes `simulate` keeps: its rows, and the device in flight's timelines.
    public var simulateBytes: Double { rows * RunEstimate.bytesPerRow + timelineBytesPerDevice }

    /// The field that adds most events (or rows) on the heaviest device, with
    /// its share, for messages. The same field of several widgets counts as
    /// one (`widgets[*]`), so a rate set on 200 widgets is named as such.
    public func heaviestSource(byRows: Bool = false) -> String {
        let value = { (source: Source) in byRows ? source.rowsPerDay : source.eventsPerDay }
        var groups: [(field: String, members: [String], total: Double)] = []
        for source in sources {
            let generic = RunEstimate.generic(source.field)
            if let index = groups.firstIndex(where: { $0.field == generic }) {
                groups[index].members.append(source.field)
                groups[index].total += value(source)
            } else {
                groups.append((generic, [source.field], value(source)))
            }
        }
        guard let first = groups.max(by: { $0.total < $1.total }) else { return "days" }
        let total = groups.reduce(0) { $0 + $1.total }
        let share = total > 0 ? Int((100 * first.total / total).rounded()) : 0
        let name = first.members.count == 1 ? first.members[0] : "\(first.field) (\(first.members.count) widgets)"
        return "\(name), \(share)% of the \(byRows ? "rows" : "events")"
    }

    /// `devices[0].widgets[12].truth` as `devices[0].widgets[*].truth`.
    static func generic(_ field: String) -> String {
        guard let range = field.range(of: ".widgets[") else { return field }
        guard let close = field[range.upperBound...].firstIndex(of: "]") else { return field }
        return field[..<range.upperBound] + "*" + field[close...]
    }

    /// Bytes `compare` keeps with `threads` runs in flight: each run's views,
    /// and the timelines of the device it is running.
    public func compareBytes(threads: Int) -> Double {
        (views * RunEstimate.bytesPerComparedView + timelineBytesPerDevice) * Double(max(1, threads))
    }

    /// Bytes `threads` devices in flight hold in their timelines: all a fleet
    /// or a calibration keeps per device (a fleet's counters are `FleetMemory`'s).
    public func timelineBytes(threads: Int) -> Double {
        timelineBytesPerDevice * Double(max(1, threads))
    }

    /// The actions `device`'s script holds in `0..<end` on `calendar`: the
    /// fixed ones, and each repeating one once on each chosen day, counted
    /// as the simulator expands them. Repeating actions of one time and
    /// weekdays count the same, so each such kind is counted once.
    static func scriptedActions(_ device: DeviceSetup, before end: SimTime, calendar: CivilCalendar) -> Double {
        var countOfKind: [Int: Int] = [:]
        // A fixed action at or after the end is never planned.
        var total = device.script.reduce(0) { $0 + ($1.at < end ? 1 : 0) }
        for action in device.repeatingScript {
            let weekdayBits = action.weekdays.enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) }
            let kind = action.secondOfDay << 7 | weekdayBits
            if countOfKind[kind] == nil { countOfKind[kind] = action.count(before: end, calendar: calendar) }
            total += countOfKind[kind]!
        }
        return Double(total)
    }

    // MARK: Rates

    /// Widget views a day: each page view shows every widget on the page.
    static func viewRowsPerDay(_ device: DeviceSetup, days: Int) -> Double {
        device.widgets.reduce(0) { $0 + device.pages[$1.page].viewsPerDay } * device.user.activityBound(days: days)
            + device.widgets.reduce(0) { $0 + BurstWindow.perDay(device.pages[$1.page].viewsDuring) }
    }

    /// Each source of events and rows on one device, per day.
    static func sources(_ device: DeviceSetup, path: String, scheduler: SchedulerParameters, days: Int) -> [Source] {
        var sources: [Source] = []
        // Found through an index, not a search: a device of 200 widgets has
        // a thousand sources, and `validate` spent most of its time searching.
        var indexOfField: [String: Int] = [:]
        func add(_ field: String, events: Double, rows: Double = 0) {
            guard events > 0 || rows > 0 else { return }
            if let index = indexOfField[field] {
                sources[index].eventsPerDay += events
                sources[index].rowsPerDay += rows
            } else {
                indexOfField[field] = sources.count
                sources.append(Source(field: field, eventsPerDay: events, rowsPerDay: rows))
            }
        }
        let widgetCount = Double(device.widgets.count)
        let user = device.user
        // A user's rates at the weekday activity's bound over the run.
        let activity = user.activityBound(days: days)
        // The day's start, for the device and for each widget's day row.
        add("days", events: 1, rows: widgetCount)
        for (index, page) in device.pages.enumerated() {
            let onPage = Double(device.widgets.filter { $0.page == index }.count)
            add("\(path).pages[\(index)].viewsPerDay", events: page.viewsPerDay * activity, rows: page.viewsPerDay * activity * onPage)
            if !page.viewsDuring.isEmpty {
                let bursts = BurstWindow.perDay(page.viewsDuring)
                add("\(path).pages[\(index)].viewsDuring", events: bursts, rows: bursts * onPage)
            }
        }
        // Free reload requests each widget receives a day (F17), by widget.
        var freeRequests = [Double](repeating: 0, count: device.widgets.count)
        // Budgeted requests (WidgetCenter, F16) each widget receives a day.
        var budgetedRequests = [Double](repeating: 0, count: device.widgets.count)
        for (index, app) in device.apps.enumerated() {
            let sessions = app.sessionsPerDay * activity, mediaSessions = app.mediaSessionsPerDay * activity
            let ticks = app.mediaReloadInterval > 0
                ? mediaSessions * app.mediaSessionLength.mean / Double(app.mediaReloadInterval) : 0
            add("\(path).apps[\(index)].sessionsPerDay", events: 2 * sessions)
            add("\(path).apps[\(index)].mediaSessionsPerDay", events: 2 * mediaSessions + ticks)
            for widget in device.widgets.indices where device.widgets[widget].app == index {
                freeRequests[widget] += sessions + ticks
            }
        }
        let locationChanges = user.locationChangesPerDay * activity
        add("\(path).user.locationChangesPerDay", events: locationChanges)
        add("\(path).user.systemChangesPerDay", events: user.systemChangesPerDay)
        for widget in device.widgets.indices {
            freeRequests[widget] += locationChanges + user.systemChangesPerDay
        }
        for (index, widget) in device.widgets.enumerated() {
            let field = "\(path).widgets[\(index)]"
            let views = device.pages[widget.page].viewsPerDay * activity + BurstWindow.perDay(device.pages[widget.page].viewsDuring)
            freeRequests[index] += views * widget.tapsPerView
            let truth = widget.truth
            if let periodic = truth.periodic {
                add("\(field).truth.changeEvery", events: Double(Seconds.day) / Double(max(1, periodic.period)))
            }
            add("\(field).truth.scheduledChanges", events: Double(truth.scheduledChanges.count) / Double(max(1, days)))
            let random = truth.randomChangesPerDay
            let bursts = truth.windowChangesPerDay
            // A change, its notification, and a request to each widget it
            // reloads (F16, F19), each of which may be withheld (one row).
            var reached: [Int] = []
            switch truth.reaction {
            case .none:
                break
            case .push, .reloadKind:
                reached = device.widgets.indices.filter { device.widgets[$0].kind == widget.kind && device.widgets[$0].app == widget.app }
            case .reloadAll:
                reached = device.widgets.indices.filter { device.widgets[$0].app == widget.app }
            }
            for other in reached { budgetedRequests[other] += random + bursts }
            let fanOut = Double(reached.count)
            add("\(field).truth.randomChangesPerDay",
                events: random * (reached.isEmpty ? 1 : 2 + 2 * fanOut), rows: random * fanOut)
            if bursts > 0 {
                // Each change is also a row of its own (a content change kept
                // for the time to fresh), which matters at a burst's rates.
                add("\(field).truth.randomChangesDuring",
                    events: bursts * (reached.isEmpty ? 1 : 2 + 2 * fanOut), rows: bursts * (1 + fanOut))
            }
        }
        for action in device.script {
            switch action.action {
            case .reloadTimelines(let app, _), .reloadAllTimelines(let app), .push(let app):
                for widget in device.widgets.indices where device.widgets[widget].app == app {
                    budgetedRequests[widget] += 1 / Double(max(1, days))
                }
            default:
                break
            }
        }
        // A repeating action happens on as many days a week as it has
        // weekdays; a push is two events, sent and delivered (F19).
        let repeatsPerDay = device.repeatingScript.reduce(0.0) { total, repeating in
            total + Double(repeating.weekdays.filter { $0 }.count) / 7 * (repeating.action.isPush ? 2 : 1)
        }
        let events = device.script.reduce(0) { $0 + ($1.action.isPush ? 2 : 1) }
        add("\(path).script", events: Double(events) / Double(max(1, days)) + repeatsPerDay)
        for (index, widget) in device.widgets.enumerated() {
            let field = "\(path).widgets[\(index)]"
            // Calls: every free request, and budgeted ones up to what the budget
            // (or, without one, the spacing and the policy) lets through.
            let policyCalls = Double(Seconds.day) / Double(policyInterval(widget.provider))
            let budgetedCap = budgetedCallsCap(scheduler, provider: widget.provider)
            let budgeted = min(budgetedCap, policyCalls + budgetedRequests[index])
            let repeats = Double(scheduler.extraTimelineCalls.upperBound)
            let firstCalls = (freeRequests[index] + budgeted) * (1 + repeats)
            let calls = firstCalls + failureRetries(calls: firstCalls, provider: widget.provider)
            add("\(field).provider", events: calls * eventsPerCall(widget.provider), rows: calls)
            add("\(field).requests", events: freeRequests[index])
        }
        return sources
    }

    /// A call's events: its due event, start and completion (and one row);
    /// and the entries it builds, which a long timeline makes the larger part.
    static func eventsPerCall(_ provider: ProviderSetup) -> Double {
        guard case .configured(let settings) = provider else { return 3 }
        return 3 + Double(timelineEntries(settings)) * eventsPerTimelineEntry
    }

    /// The fewest seconds between a configured provider's policy reloads; 1
    /// for a Swift provider (its policy is its own code).
    ///
    /// The shortest of the policy's and every schedule rule's, as if the
    /// shortest applied all day (failed fetches' retries are counted apart,
    /// `failureRetries`).
    static func policyInterval(_ provider: ProviderSetup) -> Int {
        guard case .configured(let settings) = provider else { return 1 }
        var shortest = answerInterval(PolicyRule.Answer(settings.policy), settings)
        for rule in settings.schedule { shortest = min(shortest, answerInterval(rule.answer, settings)) }
        return shortest
    }

    /// The calls a day that retry failed fetches, given the day's other
    /// `calls`: a failed fetch asks again after `retryAfterFailure` whatever
    /// started it, and so does a failed retry, a chain of f / (1 − f) calls
    /// on average at a failure rate f; at most one call a `retryAfterFailure`.
    static func failureRetries(calls: Double, provider: ProviderSetup) -> Double {
        guard case .configured(let settings) = provider else { return 0 }
        let failures = settings.network.failureRate
        guard failures > 0 else { return 0 }
        let most = Double(Seconds.day) / Double(max(1, settings.retryAfterFailure))
        return failures >= 1 ? most : min(most, calls * failures / (1 - failures))
    }

    /// The seconds until the reload `answer` asks for, at the fewest.
    static func answerInterval(_ answer: PolicyRule.Answer, _ settings: ConfiguredProvider.Settings) -> Int {
        switch answer {
        case .never: return Int.max / 2
        case .after(let interval): return max(1, interval)
        // Once a day at a clock time (the next day's when asked at it).
        case .until: return Seconds.day
        case .atEnd:
            let last = settings.entryOffsets?.last ?? (settings.entryCount - 1) * settings.entrySpacing
            return max(1, min(last, max(1, settings.retryAfterFailure)))
        }
    }

    /// The most budgeted calls a widget can make a day: the budget at its
    /// learning peak, or without a budget one per spacing (one a second at 0).
    static func budgetedCallsCap(_ scheduler: SchedulerParameters, provider: ProviderSetup) -> Double {
        let spacingCap = Double(Seconds.day) / Double(max(1, scheduler.minimumSpacing))
        guard scheduler.budgetModel.imposesLimit else { return spacingCap }
        let peak = Double(scheduler.dailyBudgetMax) * scheduler.learningMultiplier + scheduler.pacingBurst + 1
        return min(spacingCap, peak) + (scheduler.pushBudget == .separate ? Double(scheduler.pushDailyBudget) : 0)
    }
}
