/// Audits a report directory (or a reloads log recorded from a real device)
/// against the budget rules, and names the first violation.
///
/// Promised: every rule is checked from the rows alone (plus `parameters.csv`
/// or the given rules), never from the simulator's state, so a log written by
/// anything in the same columns can be checked the same way.
public enum ReportChecker {
    /// What a passing audit covered.
    public struct Summary: Equatable, Sendable {
        public var reloads = 0
        public var views = 0
        public var dailyRows = 0
        public var rules: ReportRules
    }

    static let freeTriggers = ["initial", "app_foreground", "media_session", "interaction", "location", "system", "repeat"]
    static let budgetedTriggers = ["policy", "widget_center", "background_session"]
    static let policies = ["atEnd", "after", "never"]

    /// The numbers a log may hold. Every number is range-checked where it is
    /// read, so no arithmetic on it can overflow: times are whole seconds
    /// from 0 to `maximumSeconds` (about 317 years), budget limits at most
    /// `maximumBudgetLimit`, counts at most `maximumCount`.
    public static let maximumSeconds = 10_000_000_000
    public static let maximumBudgetLimit = 1_000_000
    public static let maximumCount = 1_000_000_000
    /// The largest file `check` reads: a report of a year of 200 widgets fits.
    public static let maximumFileBytes = 1 << 30

    /// Audits `reloads.csv`, `views.csv`, `daily.csv` and `parameters.csv` in
    /// `directory`. `rules` override `parameters.csv` when given. `read`
    /// returns a file's text, or nil when the file is missing.
    public static func checkDirectory(_ directory: String, rules given: ReportRules? = nil, read: (String) -> String?) throws(CheckViolation) -> Summary {
        try checkDirectory(directory, rules: given, bytes: { (path: String) throws(CheckViolation) -> [UInt8]? in read(path).map { Array($0.utf8) } })
    }

    /// What a missing file of a report directory is told.
    static let missingFromReport = "a report directory has reloads.csv, views.csv, daily.csv and parameters.csv (to audit a reloads log alone, use --reloads <file>)"

    /// As `checkDirectory(_:rules:read:)`, with files read as UTF-8 bytes;
    /// `bytes` throws when a file is there but cannot be read.
    public static func checkDirectory(_ directory: String, rules given: ReportRules? = nil, bytes read: (String) throws(CheckViolation) -> [UInt8]?) throws(CheckViolation) -> Summary {
        func file(_ name: String) -> String { directory.hasSuffix("/") ? directory + name : directory + "/" + name }
        guard let reloadsText = try read(file("reloads.csv")) else {
            if try read(file("fleet.md")) != nil {
                throw CheckViolation(
                    file: directory, line: 0, kind: .missingFile,
                    message: "a fleet report keeps counters, not rows, so there is nothing to audit; check a report written by 'widgetsim simulate'")
            }
            throw CheckViolation(file: file("reloads.csv"), line: 0, kind: .missingFile, message: "missing: \(missingFromReport)")
        }
        var rules = given ?? ReportRules()
        if given == nil {
            guard let text = try read(file("parameters.csv")) else {
                throw CheckViolation(file: file("parameters.csv"), line: 0, kind: .missingFile, message: "missing: it says which budget rules the report ran under (or give them with --budget-model and --minimum-spacing)")
            }
            rules = try ReportRules.parse(String(decoding: text, as: UTF8.self), file: file("parameters.csv"))
        }
        var audit = try ReloadsAudit.inTimeOrder(reloadsText, file: file("reloads.csv"), rules: rules)
        var summary = Summary(reloads: audit.rowCount, rules: rules)
        // A report without its views or daily totals is not a report that
        // passed: "every rule holds" would speak for rules never checked.
        guard let viewsText = try read(file("views.csv")) else {
            throw CheckViolation(file: file("views.csv"), line: 0, kind: .missingFile, message: "missing: \(missingFromReport)")
        }
        summary.views = try audit.checkViews(viewsText, file: file("views.csv"))
        guard let dailyText = try read(file("daily.csv")) else {
            throw CheckViolation(file: file("daily.csv"), line: 0, kind: .missingFile, message: "missing: \(missingFromReport)")
        }
        summary.dailyRows = try audit.checkDaily(dailyText, file: file("daily.csv"))
        return summary
    }

    /// Audits a reloads log alone (from a real device, say) under `rules`.
    public static func checkReloadsLog(_ text: String, file: String, rules: ReportRules) throws(CheckViolation) -> Summary {
        try checkReloadsLog(Array(text.utf8), file: file, rules: rules)
    }

    /// As `checkReloadsLog(_:file:rules:)`, with the log as UTF-8 bytes.
    public static func checkReloadsLog(_ bytes: [UInt8], file: String, rules: ReportRules) throws(CheckViolation) -> Summary {
        let audit = try ReloadsAudit.inTimeOrder(bytes, file: file, rules: rules)
        return Summary(reloads: audit.rowCount, rules: rules)
    }
}

/// Local time as written in reports: `2026-03-02T07:15:00+01:00`.
struct LocalTimestamp {
    /// Local seconds since 1970-01-01T00:00 (local).
    var localSeconds: Int
    /// The offset from UTC, in seconds east.
    var utcOffsetSeconds: Int

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 25, let civil = CivilDateTime.leading(bytes), bytes[19] == 0x2B || bytes[19] == 0x2D, bytes[22] == 0x3A,
              let hours = CivilDateTime.decimal(bytes, 20..<22), let minutes = CivilDateTime.decimal(bytes, 23..<25), minutes < 60 else { return nil }
        localSeconds = civil.localSeconds
        utcOffsetSeconds = (bytes[19] == 0x2D ? -1 : 1) * (hours * Seconds.hour + minutes * Seconds.minute)
        guard CivilCalendar.utcOffsets.contains(utcOffsetSeconds) else { return nil }
    }

    /// What a time that does not parse is told.
    static let expected = "ISO 8601 local time with its offset (-12:00 to +14:00), such as 2026-03-02T07:15:00+01:00"

    /// The instant, as seconds since 1970-01-01T00:00Z.
    var utcSeconds: Int { localSeconds - utcOffsetSeconds }

    /// The local day index of this instant in a run whose t = 0 was `seconds` earlier.
    func dayIndex(secondsSinceStart seconds: Int) -> Int {
        CivilCalendar.floorDiv(localSeconds, Seconds.day) - CivilCalendar.floorDiv(localSeconds - seconds, Seconds.day)
    }
}

/// One pass over a reloads log, keeping what views and daily totals are checked against.
///
/// Promised: each file is read once, row by row; the work per row is
/// amortised O(1) (O(log n) for the midnight-reset count), and what is kept
/// grows with the widget-days, not the rows.
struct ReloadsAudit {
    /// What one widget's local day adds up to.
    struct DayTotals: Equatable {
        var budgeted = 0
        var free = 0
        var timedOut = 0
        var views = 0
        var staleViews = 0
        var staleness = 0
    }

    /// A local day of one widget (an index into `widgetNames`).
    struct DayKey: Hashable {
        var day: Int
        var widget: Int
    }

    /// A local day of one widget by its "device/widget" name, as `daily.csv` names it.
    struct NamedDay: Hashable {
        var day: Int
        var widget: String
    }

    let rules: ReportRules
    private(set) var rowCount = 0
    /// "device/widget" names in order of first appearance, and their indices (lookup only).
    var widgetNames: [String] = []
    var widgetIndex: [String: Int] = [:]
    /// Totals per widget-day (lookup only, never iterated for output).
    var totals: [DayKey: DayTotals] = [:]
    /// Each widget-day with a reload, in the order of the log, with the line of its first reload.
    var daysInLogOrder: [(key: DayKey, line: Int)] = []
    /// True once views.csv has been added to `totals`.
    var viewsCounted = false
    /// The first `ok` call of each widget, by index.
    var firstOK: [SimTime?] = []
    /// The instant of t = 0 that the first row's `seconds` and `time` imply,
    /// with where it was read: every other row must imply the same one.
    var start: (utcSeconds: Int, file: String, line: Int)?

    /// The most widgets one log may name: a report of the largest scenario
    /// (1,000 devices of 200 widgets) has 200,000. What is kept per widget
    /// would otherwise grow with a log of one widget per row.
    static let maximumWidgets = ScenarioDecoder.maximumDevices * ScenarioDecoder.maximumWidgetsPerDevice

    /// `seconds` counts from the run's start and `time` is the same instant
    /// on the device's clock (README, "Reports"), so every row of the
    /// report, whatever its device's offset, puts the start at one instant.
    /// A row whose two columns disagree cannot be audited: the daily totals
    /// are kept by `time`'s local day, the windows by `seconds`.
    mutating func checkSameInstant(seconds: Int, time stamp: LocalTimestamp, text: String, line: Int, file: String) throws(CheckViolation) {
        let implied = stamp.utcSeconds - seconds
        guard let start else {
            start = (implied, file, line)
            return
        }
        guard implied != start.utcSeconds else { return }
        let offBy = implied - start.utcSeconds
        throw CheckViolation(
            file: file, line: line, kind: .badData,
            message: "time '\(text)' and seconds \(seconds) put the run's start \(DurationText.format(Double(abs(offBy)))) \(offBy > 0 ? "later" : "earlier") than \(start.file == file ? "" : start.file + " ")line \(start.line) does: each row's time must be the start plus its seconds, so one of the two lines is wrong")
    }

    mutating func index(of widget: String, line: Int, file: String) throws(CheckViolation) -> Int {
        if let known = widgetIndex[widget] { return known }
        guard widgetNames.count < ReloadsAudit.maximumWidgets else {
            throw CheckViolation(
                file: file, line: line, kind: .badData,
                message: "more than \(ReloadsAudit.maximumWidgets) widgets in one log, the most check audits (a report of \(ScenarioDecoder.maximumDevices) devices of \(ScenarioDecoder.maximumWidgetsPerDevice) widgets)")
        }
        widgetIndex[widget] = widgetNames.count
        widgetNames.append(widget)
        firstOK.append(nil)
        return widgetNames.count - 1
    }

    /// The audit of `bytes`, where rows out of time order are bad data (65)
    /// wherever they are, never a broken rule (1). Read row by row, a row
    /// that comes before the rows it should follow breaks a rule first (its
    /// budget_used_24h counts reloads not read yet), so a broken rule is
    /// reported only once the whole log is seen to be in order; a log that
    /// passes is still read once.
    static func inTimeOrder(_ bytes: [UInt8], file: String, rules: ReportRules) throws(CheckViolation) -> ReloadsAudit {
        do throws(CheckViolation) {
            return try ReloadsAudit(bytes, file: file, rules: rules)
        } catch where error.kind == .brokenRule {
            try requireTimeOrder(bytes, file: file)
            throw error
        }
    }

    /// Reads a log for its order alone, and throws (bad data) at the first
    /// row whose `seconds` is before the one above it. A `seconds` that is
    /// not a number is passed over, and a record that does not read ends
    /// the reading: the audit names those.
    static func requireTimeOrder(_ bytes: [UInt8], file: String) throws(CheckViolation) {
        guard var reader = try? CSVReader.audited(bytes, file: file, header: ReportWriter.reloadsHeader) else { return }
        var previous = 0
        while let row = try? reader.next() {
            guard let seconds = try? row.fields.number(0, "seconds", 0...ReportChecker.maximumSeconds, line: row.line, file: file) else { continue }
            guard seconds >= previous else {
                throw CheckViolation(file: file, line: row.line, kind: .badData, message: "rows are not in time order: \(seconds) after \(previous)")
            }
            previous = seconds
        }
    }

    init(_ bytes: [UInt8], file: String, rules: ReportRules) throws(CheckViolation) {
        self.rules = rules
        var reader = try CSVReader.audited(bytes, file: file, header: ReportWriter.reloadsHeader)
        // One trail per widget, by index, each updated in place: copying a
        // trail out and back would make a long log quadratic.
        var trails: [BudgetAuditTrail] = []
        var pushTrails: [TrailingWindow] = []
        var previous = 0
        let reliable = rules.parameters.maximumReliableEntries
        while let row = try reader.audited(file: file) {
            func fail(_ message: String) -> CheckViolation { CheckViolation(file: file, line: row.line, message: message) }
            func malformed(_ message: String) -> CheckViolation { CheckViolation(file: file, line: row.line, kind: .badData, message: message) }
            let f = row.fields
            let seconds = try f.number(0, "seconds", 0...ReportChecker.maximumSeconds, line: row.line, file: file)
            guard seconds >= previous else { throw malformed("rows are not in time order: \(seconds) after \(previous)") }
            previous = seconds
            guard let stamp = LocalTimestamp(f[1]) else { throw malformed("time '\(f[1])' is not \(LocalTimestamp.expected)") }
            try checkSameInstant(seconds: seconds, time: stamp, text: f[1], line: row.line, file: file)
            let widgetName = f[2] + "/" + f[3]
            let widget = try index(of: widgetName, line: row.line, file: file)
            let trigger = f[5]
            guard ReportChecker.freeTriggers.contains(trigger) || ReportChecker.budgetedTriggers.contains(trigger) || trigger == "push" else {
                throw malformed("unknown trigger '\(trigger)'; allowed: \(ReloadTrigger.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard f[6] == "0" || f[6] == "1" else { throw malformed("budgeted is '\(f[6])'; allowed: 0, 1") }
            let budgeted = f[6] == "1"
            // F17: free triggers never count; the others always do (push per the push budget, F19).
            let mustBeBudgeted = ReportChecker.budgetedTriggers.contains(trigger) || (trigger == "push" && rules.pushBudget == .shared)
            if budgeted != mustBeBudgeted {
                throw fail("widget \(widgetName): a '\(trigger)' reload is \(budgeted ? "budgeted" : "free"), but \(mustBeBudgeted ? "it uses budget (F16, F19)" : "it is free (F17)")")
            }
            if widget == trails.count {
                trails.append(BudgetAuditTrail())
                pushTrails.append(TrailingWindow())
            }
            if trigger == "push" && rules.pushBudget == .separate {
                // F19: a push budget of its own, counted in any trailing 24 hours.
                pushTrails[widget].record(seconds)
                let pushes = pushTrails[widget].count(at: seconds)
                if pushes > rules.parameters.pushDailyBudget {
                    throw fail("widget \(widgetName): \(pushes) push reloads in the 24 h up to \(seconds), over the push budget of \(rules.parameters.pushDailyBudget) (F19)")
                }
            }
            let used = try f.number(7, "budget_used_24h", 0...ReportChecker.maximumCount, line: row.line, file: file)
            let limit = f[8].isEmpty ? nil : try f.number(8, "budget_limit", 1...ReportChecker.maximumBudgetLimit, line: row.line, file: file)
            if !rules.budgetModel.imposesLimit && limit != nil { throw fail("budget_limit is \(f[8]) under the unlimited model, where there is no limit") }
            if rules.budgetModel.imposesLimit && limit == nil && budgeted { throw fail("budget_limit is empty under the \(rules.budgetModel.rawValue) model") }
            let waited = try f.number(9, "waited_seconds", -ReportChecker.maximumSeconds...ReportChecker.maximumSeconds, line: row.line, file: file)
            // F4: only a budgeted reload may come early, and by no more than the window.
            if waited < 0 && (!budgeted || -waited > rules.parameters.earlyReloadWindow) {
                throw fail("widget \(widgetName): a '\(trigger)' reload ran \(-waited) s before it was eligible; the early window is \(rules.parameters.earlyReloadWindow) s for budgeted reloads (F2, F4)")
            }
            let result = f[10]
            guard ReloadResult(rawValue: result) != nil else {
                throw malformed("result '\(result)'; allowed: \(ReloadResult.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let entries = try f.number(11, "entries", 0...ReportChecker.maximumCount, line: row.line, file: file)
            let policy = f[12]
            let nextEligible = f[13]
            if !nextEligible.isEmpty {
                _ = try f.number(13, "next_eligible_seconds", -ReportChecker.maximumSeconds...ReportChecker.maximumSeconds, line: row.line, file: file)
            }
            if result == "timed_out" {
                // F22: a timed-out call produces no timeline.
                guard entries == 0, policy.isEmpty else { throw fail("a timed-out call has \(entries) entries and policy '\(policy)'; it produces no timeline (F22)") }
            } else if result == "too_many_entries" {
                // F23: the timeline is not applied, and only a long one is refused.
                guard entries > reliable, policy.isEmpty else {
                    throw fail("a 'too_many_entries' call has \(entries) entries and policy '\(policy)'; only timelines of more than \(reliable) entries are refused, and none is applied (F23)")
                }
            } else {
                guard entries <= reliable else {
                    throw fail("an 'ok' call applied \(entries) entries; timelines of more than \(reliable) entries are not shown (F23)")
                }
                guard ReportChecker.policies.contains(policy) else { throw malformed("policy '\(policy)'; allowed: atEnd, after, never") }
                if policy == "never" && !nextEligible.isEmpty { throw fail("policy never with next_eligible_seconds \(nextEligible); never is never eligible (F2)") }
                if policy != "never" && nextEligible.isEmpty { throw fail("policy \(policy) without next_eligible_seconds (F2)") }
            }

            if budgeted {
                // F13: budgeted reloads of one instance are spaced.
                if let last = trails[widget].lastTime, seconds - last < rules.minimumSpacing {
                    throw fail("widget \(widgetName): budgeted reload at \(seconds) is \(seconds - last) s after the one at \(last); the minimum spacing is \(rules.minimumSpacing) s (F13)")
                }
                trails[widget].append(seconds, limit: limit ?? 0)
            }
            trails[widget].advance(to: seconds, localSecondOfDay: CivilCalendar.floorMod(stamp.localSeconds, Seconds.day))
            let inWindow = trails[widget].inWindow
            guard used == inWindow else {
                throw fail("widget \(widgetName): budget_used_24h is \(used) but the log has \(inWindow) budgeted reloads in the 24 h up to \(seconds)")
            }
            if budgeted, let limit, let broken = rules.budgetModel.accounting.audit(&trails[widget], limit: limit, parameters: rules.parameters) {
                throw fail("widget \(widgetName): \(broken)")
            }
            if result == "ok" && firstOK[widget] == nil { firstOK[widget] = seconds }
            let key = DayKey(day: stamp.dayIndex(secondsSinceStart: seconds), widget: widget)
            if totals[key] == nil { daysInLogOrder.append((key, row.line)) }
            var dayTotals = totals[key] ?? DayTotals()
            if budgeted { dayTotals.budgeted += 1 } else { dayTotals.free += 1 }
            if result == "timed_out" { dayTotals.timedOut += 1 }
            totals[key] = dayTotals
            rowCount += 1
        }
    }

    /// Views agree with the reloads: a view shows an entry only once a call
    /// of its widget has returned a timeline. Not which entry: reloads.csv
    /// holds no entry dates to match `shown_entry_seconds` against.
    mutating func checkViews(_ bytes: [UInt8], file: String) throws(CheckViolation) -> Int {
        var reader = try CSVReader.audited(bytes, file: file, header: ReportWriter.viewsHeader)
        var previous = 0
        var count = 0
        while let row = try reader.audited(file: file) {
            func fail(_ message: String) -> CheckViolation { CheckViolation(file: file, line: row.line, message: message) }
            func malformed(_ message: String) -> CheckViolation { CheckViolation(file: file, line: row.line, kind: .badData, message: message) }
            let f = row.fields
            let seconds = try f.number(0, "seconds", 0...ReportChecker.maximumSeconds, line: row.line, file: file)
            guard seconds >= previous else { throw malformed("rows are not in time order: \(seconds) after \(previous)") }
            previous = seconds
            let widgetName = f[2] + "/" + f[3]
            let widget = try index(of: widgetName, line: row.line, file: file)
            let stale = try f.number(6, "stale", 0...1, line: row.line, file: file)
            let staleness = try f.number(7, "staleness_seconds", 0...ReportChecker.maximumSeconds, line: row.line, file: file)
            guard let stamp = LocalTimestamp(f[1]) else { throw malformed("time '\(f[1])' is not \(LocalTimestamp.expected)") }
            try checkSameInstant(seconds: seconds, time: stamp, text: f[1], line: row.line, file: file)
            let key = DayKey(day: stamp.dayIndex(secondsSinceStart: seconds), widget: widget)
            var dayTotals = totals[key] ?? DayTotals()
            dayTotals.views += 1
            dayTotals.staleViews += stale
            dayTotals.staleness += staleness
            totals[key] = dayTotals
            count += 1
            if f[4].isEmpty {
                guard f[5].isEmpty, stale == 1 else { throw fail("a placeholder view (no entry) has data or is not stale (F5)") }
                continue
            }
            // No rule compares the entry's date, but a value out of the format is bad data, not a view that passed.
            _ = try f.number(4, "shown_entry_seconds", -ReportChecker.maximumSeconds...ReportChecker.maximumSeconds, line: row.line, file: file)
            guard let first = firstOK[widget], first <= seconds else {
                throw fail("widget \(widgetName) shows an entry at \(seconds) before any call of it returned a timeline")
            }
            // An entry that shows no data (the provider never got any) is stale, like the placeholder.
            if f[5].isEmpty {
                guard stale == 1 else { throw fail("an entry with no data (empty data_seconds) is not stale") }
                continue
            }
            let data = try f.number(5, "data_seconds", -ReportChecker.maximumSeconds...ReportChecker.maximumSeconds, line: row.line, file: file)
            guard data <= seconds else { throw fail("data_seconds \(data) is later than the view at \(seconds)") }
            guard (stale == 0) == (staleness == 0) else { throw fail("stale is \(stale) but staleness_seconds is \(staleness)") }
        }
        viewsCounted = true
        return count
    }

    /// Daily totals are the sums of the rows of their local day.
    func checkDaily(_ bytes: [UInt8], file: String) throws(CheckViolation) -> Int {
        var reader = try CSVReader.audited(bytes, file: file, header: ReportWriter.dailyHeader)
        var reported = Set<DayKey>()
        // By name, not by index: a widget the logs never mention may be repeated too.
        var firstLineOfDay: [NamedDay: Int] = [:]
        var count = 0
        while let row = try reader.audited(file: file) {
            let f = row.fields
            count += 1
            let widgetName = f[1] + "/" + f[2]
            func differ(_ what: String, _ written: String, _ computed: Int) -> CheckViolation {
                CheckViolation(file: file, line: row.line, message: "day \(f[0]) of \(widgetName): \(what) is \(written) but the rows add up to \(computed)")
            }
            let day = try f.number(0, "day", 0...ReportChecker.maximumSeconds / Seconds.day, line: row.line, file: file)
            // A repeated row would count its day twice for anything that sums the file.
            let namedDay = NamedDay(day: day, widget: widgetName)
            if let first = firstLineOfDay[namedDay] {
                throw CheckViolation(
                    file: file, line: row.line, kind: .badData,
                    message: "a second row for day \(day) of \(widgetName) (the first is line \(first)); allowed: one row per widget and local day")
            }
            firstLineOfDay[namedDay] = row.line
            // Every column is read and range-checked, even those no rule
            // compares (budget_limit, withheld): a value out of the format is
            // bad data, not a report that passed.
            if !f[4].isEmpty { _ = try f.number(4, "budget_limit", 1...ReportChecker.maximumBudgetLimit, line: row.line, file: file) }
            func counted(_ column: Int, _ name: String) throws(CheckViolation) -> Int {
                try f.number(column, name, 0...ReportChecker.maximumCount, line: row.line, file: file)
            }
            let budgeted = try counted(5, "reloads_budgeted")
            let free = try counted(6, "reloads_free")
            _ = try counted(7, "withheld")
            let timedOut = try counted(8, "timed_out")
            let views = try counted(9, "views")
            let staleViews = try counted(10, "stale_views")
            if !f[11].isEmpty && !ReloadsAudit.isMeanSeconds(f[11]) {
                throw CheckViolation(
                    file: file, line: row.line, kind: .badData,
                    message: "mean_staleness_seconds '\(f[11])' is not empty or a number of seconds with one decimal from 0.0 to \(ReportChecker.maximumSeconds).0")
            }
            // A widget-day the logs never mention adds up to nothing.
            let key = widgetIndex[widgetName].map { DayKey(day: day, widget: $0) }
            if let key { reported.insert(key) }
            let counts = key.flatMap { totals[$0] } ?? DayTotals()
            if budgeted != counts.budgeted { throw differ("reloads_budgeted", f[5], counts.budgeted) }
            if free != counts.free { throw differ("reloads_free", f[6], counts.free) }
            if timedOut != counts.timedOut { throw differ("timed_out", f[8], counts.timedOut) }
            guard viewsCounted else { continue }
            if views != counts.views { throw differ("views", f[9], counts.views) }
            if staleViews != counts.staleViews { throw differ("stale_views", f[10], counts.staleViews) }
            let mean = counts.views == 0 ? "" : FixedDecimal.format(Double(counts.staleness) / Double(counts.views), decimals: 1)
            if f[11] != mean {
                throw CheckViolation(file: file, line: row.line, message: "day \(f[0]) of \(widgetName): mean_staleness_seconds is \(f[11]) but the rows add up to \(mean)")
            }
        }
        // Every day with activity has its row, found in the order of the logs.
        for (key, line) in daysInLogOrder where !reported.contains(key) {
            throw CheckViolation(file: file, line: 0, message: "no row for day \(key.day) of \(widgetNames[key.widget]), which has a reload (reloads.csv line \(line))")
        }
        return count
    }

    /// A mean as `daily.csv` writes it: whole seconds up to
    /// `ReportChecker.maximumSeconds`, a point and one decimal ("99.7").
    static func isMeanSeconds(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let whole = DecimalDigits.unsigned(parts[0]), DecimalDigits.unsigned(parts[1], width: 1) != nil else { return false }
        return whole < ReportChecker.maximumSeconds || text == "\(ReportChecker.maximumSeconds).0"
    }
}

extension [String] {
    /// Field `column` as a whole number in `range`, written as plain digits
    /// (a leading minus when the range allows negatives), or a bad-data
    /// violation naming the column and the allowed values.
    func number(_ column: Int, _ name: String, _ range: ClosedRange<Int>, line: Int, file: String) throws(CheckViolation) -> Int {
        guard let value = DecimalDigits.signed(self[column], in: range) else {
            throw CheckViolation(
                file: file, line: line, kind: .badData,
                message: "\(name) '\(self[column])' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
