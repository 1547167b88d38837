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

    /// Audits `reloads.csv`, `views.csv`, `daily.csv` and `parameters.csv` in
    /// `directory`. `rules` override `parameters.csv` when given.
    public static func checkDirectory(_ directory: String, rules given: ReportRules? = nil, read: (String) -> String?) throws(CheckViolation) -> Summary {
        func file(_ name: String) -> String { directory.hasSuffix("/") ? directory + name : directory + "/" + name }
        guard let reloadsText = read(file("reloads.csv")) else {
            if read(file("fleet.md")) != nil {
                throw CheckViolation(
                    file: directory, line: 0, kind: .missingFile,
                    message: "a fleet report keeps counters, not rows, so there is nothing to audit; check a report written by 'widgetsim simulate'")
            }
            throw CheckViolation(file: file("reloads.csv"), line: 0, kind: .missingFile, message: "missing: a report directory has reloads.csv, views.csv, daily.csv and parameters.csv")
        }
        var rules = given ?? ReportRules()
        if given == nil {
            guard let text = read(file("parameters.csv")) else {
                throw CheckViolation(file: file("parameters.csv"), line: 0, kind: .missingFile, message: "missing: it says which budget rules the report ran under (or give them with --budget-model and --minimum-spacing)")
            }
            rules = try ReportRules.parse(text, file: file("parameters.csv"))
        }
        var audit = try ReloadsAudit(reloadsText, file: file("reloads.csv"), rules: rules)
        var summary = Summary(reloads: audit.rows.count, rules: rules)
        if let viewsText = read(file("views.csv")) {
            summary.views = try audit.checkViews(viewsText, file: file("views.csv"))
        }
        if let dailyText = read(file("daily.csv")) {
            summary.dailyRows = try audit.checkDaily(dailyText, file: file("daily.csv"))
        }
        return summary
    }

    /// Audits a reloads log alone (from a real device, say) under `rules`.
    public static func checkReloadsLog(_ text: String, file: String, rules: ReportRules) throws(CheckViolation) -> Summary {
        let audit = try ReloadsAudit(text, file: file, rules: rules)
        return Summary(reloads: audit.rows.count, rules: rules)
    }
}

/// Local time as written in reports: `2026-03-02T07:15:00+01:00`.
struct LocalTimestamp {
    /// Local seconds since 1970-01-01T00:00 (local).
    var localSeconds: Int

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 25, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A,
              bytes[19] == 0x2B || bytes[19] == 0x2D, bytes[22] == 0x3A else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= 0x30 && bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), number(20..<22) != nil, number(23..<25) != nil,
              CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second).isValid else { return nil }
        localSeconds = CivilCalendar.daysFromCivil(year: year, month: month, day: day) * Seconds.day
            + hour * Seconds.hour + minute * Seconds.minute + second
    }

    /// The local day index of this instant in a run whose t = 0 was `seconds` earlier.
    func dayIndex(secondsSinceStart seconds: Int) -> Int {
        CivilCalendar.floorDiv(localSeconds, Seconds.day) - CivilCalendar.floorDiv(localSeconds - seconds, Seconds.day)
    }
}

/// One pass over a reloads log, keeping what views and daily totals are checked against.
struct ReloadsAudit {
    struct Row {
        var line: Int
        var seconds: Int
        var day: Int
        var widget: String
        var budgeted: Bool
        var ok: Bool
    }

    /// What one widget's local day adds up to.
    struct DayTotals: Equatable {
        var budgeted = 0
        var free = 0
        var timedOut = 0
        var views = 0
        var staleViews = 0
        var staleness = 0
    }

    let rules: ReportRules
    var rows: [Row] = []
    /// Totals per "day device/widget" (lookup only, never iterated for output).
    var totals: [String: DayTotals] = [:]
    /// True once views.csv has been added to `totals`.
    var viewsCounted = false
    /// The first `ok` call of each widget (lookup only, never iterated).
    var firstOK: [String: Int] = [:]

    init(_ text: String, file: String, rules: ReportRules) throws(CheckViolation) {
        self.rules = rules
        let table = try CSVTable.audited(text, file: file, header: ReportWriter.reloadsHeader)
        // One trail per widget, found through an index so each row updates it
        // in place: copying a trail out and back would make a long log quadratic.
        var trails: [BudgetAuditTrail] = []
        var pushTrails: [TrailingWindow] = []
        var trailOfWidget: [String: Int] = [:]
        var previous = Int.min
        for row in table.rows {
            func fail(_ message: String) -> CheckViolation { CheckViolation(file: file, line: row.line, message: message) }
            func malformed(_ message: String) -> CheckViolation { CheckViolation(file: file, line: row.line, kind: .badData, message: message) }
            let f = row.fields
            guard let seconds = Int(f[0]), seconds >= 0 else { throw malformed("seconds '\(f[0])' is not a whole number ≥ 0") }
            guard seconds >= previous else { throw malformed("rows are not in time order: \(seconds) after \(previous)") }
            previous = seconds
            guard let stamp = LocalTimestamp(f[1]) else { throw malformed("time '\(f[1])' is not ISO 8601 local time such as 2026-03-02T07:15:00+01:00") }
            let widget = f[2] + "/" + f[3]
            let trigger = f[5]
            guard ReportChecker.freeTriggers.contains(trigger) || ReportChecker.budgetedTriggers.contains(trigger) || trigger == "push" else {
                throw malformed("unknown trigger '\(trigger)'; allowed: \(ReloadTrigger.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard f[6] == "0" || f[6] == "1" else { throw malformed("budgeted is '\(f[6])'; allowed: 0, 1") }
            let budgeted = f[6] == "1"
            // F17: free triggers never count; the others always do (push per the push budget, F19).
            let mustBeBudgeted = ReportChecker.budgetedTriggers.contains(trigger) || (trigger == "push" && rules.pushBudget == .shared)
            if budgeted != mustBeBudgeted {
                throw fail("widget \(widget): a '\(trigger)' reload is \(budgeted ? "budgeted" : "free"), but \(mustBeBudgeted ? "it uses budget (F16, F19)" : "it is free (F17)")")
            }
            let trail: Int
            if let known = trailOfWidget[widget] {
                trail = known
            } else {
                trail = trails.count
                trailOfWidget[widget] = trail
                trails.append(BudgetAuditTrail())
                pushTrails.append(TrailingWindow())
            }
            if trigger == "push" && rules.pushBudget == .separate {
                // F19: a push budget of its own, counted in any trailing 24 hours.
                pushTrails[trail].record(seconds)
                let pushes = pushTrails[trail].count(at: seconds)
                if pushes > rules.parameters.pushDailyBudget {
                    throw fail("widget \(widget): \(pushes) push reloads in the 24 h up to \(seconds), over the push budget of \(rules.parameters.pushDailyBudget) (F19)")
                }
            }
            guard let used = Int(f[7]), used >= 0 else { throw malformed("budget_used_24h '\(f[7])' is not a whole number ≥ 0") }
            let limit = f[8].isEmpty ? nil : Int(f[8])
            if !f[8].isEmpty && (limit == nil || limit! < 1) { throw malformed("budget_limit '\(f[8])' is not a whole number ≥ 1") }
            if !rules.budgetModel.imposesLimit && limit != nil { throw fail("budget_limit is \(f[8]) under the unlimited model, where there is no limit") }
            if rules.budgetModel.imposesLimit && limit == nil && budgeted { throw fail("budget_limit is empty under the \(rules.budgetModel.rawValue) model") }
            guard let waited = Int(f[9]) else { throw malformed("waited_seconds '\(f[9])' is not a whole number") }
            // F4: only a budgeted reload may come early, and by no more than the window.
            if waited < 0 && (!budgeted || -waited > rules.parameters.earlyReloadWindow) {
                throw fail("widget \(widget): a '\(trigger)' reload ran \(-waited) s before it was eligible; the early window is \(rules.parameters.earlyReloadWindow) s for budgeted reloads (F2, F4)")
            }
            let result = f[10]
            guard ReloadResult(rawValue: result) != nil else {
                throw malformed("result '\(result)'; allowed: \(ReloadResult.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let entries = Int(f[11]), entries >= 0 else { throw malformed("entries '\(f[11])' is not a whole number ≥ 0") }
            let policy = f[12]
            let nextEligible = f[13]
            if !nextEligible.isEmpty && Int(nextEligible) == nil { throw malformed("next_eligible_seconds '\(nextEligible)' is not a whole number") }
            let reliable = rules.parameters.maximumReliableEntries
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
                if let last = trails[trail].times.last, seconds - last < rules.minimumSpacing {
                    throw fail("widget \(widget): budgeted reload at \(seconds) is \(seconds - last) s after the one at \(last); the minimum spacing is \(rules.minimumSpacing) s (F13)")
                }
                trails[trail].append(seconds, limit: limit ?? 0)
            }
            trails[trail].advance(to: seconds, localSecondOfDay: CivilCalendar.floorMod(stamp.localSeconds, Seconds.day))
            let inWindow = trails[trail].inWindow
            guard used == inWindow else {
                throw fail("widget \(widget): budget_used_24h is \(used) but the log has \(inWindow) budgeted reloads in the 24 h up to \(seconds)")
            }
            if budgeted, let limit, let broken = rules.budgetModel.accounting.audit(trails[trail], limit: limit, parameters: rules.parameters) {
                throw fail("widget \(widget): \(broken)")
            }
            if result == "ok" && firstOK[widget] == nil { firstOK[widget] = seconds }
            let day = stamp.dayIndex(secondsSinceStart: seconds)
            rows.append(Row(line: row.line, seconds: seconds, day: day, widget: widget, budgeted: budgeted, ok: result == "ok"))
            var dayTotals = totals["\(day) \(widget)"] ?? DayTotals()
            if budgeted { dayTotals.budgeted += 1 } else { dayTotals.free += 1 }
            if result == "timed_out" { dayTotals.timedOut += 1 }
            totals["\(day) \(widget)"] = dayTotals
        }
    }

    /// Views agree with the reloads: each shows a timeline some call produced.
    mutating func checkViews(_ text: String, file: String) throws(CheckViolation) -> Int {
        let table = try CSVTable.audited(text, file: file, header: ReportWriter.viewsHeader)
        var previous = Int.min
        for row in table.rows {
            func fail(_ message: String) -> CheckViolation { CheckViolation(file: file, line: row.line, message: message) }
            func malformed(_ message: String) -> CheckViolation { CheckViolation(file: file, line: row.line, kind: .badData, message: message) }
            let f = row.fields
            guard let seconds = Int(f[0]), seconds >= previous else { throw malformed("seconds '\(f[0])' is not a whole number in time order") }
            previous = seconds
            let widget = f[2] + "/" + f[3]
            guard let stale = Int(f[6]), stale == 0 || stale == 1, let staleness = Int(f[7]), staleness >= 0 else {
                throw malformed("stale must be 0 or 1 and staleness_seconds a whole number ≥ 0")
            }
            guard let stamp = LocalTimestamp(f[1]) else { throw malformed("time '\(f[1])' is not ISO 8601 local time") }
            let key = "\(stamp.dayIndex(secondsSinceStart: seconds)) \(widget)"
            var dayTotals = totals[key] ?? DayTotals()
            dayTotals.views += 1
            dayTotals.staleViews += stale
            dayTotals.staleness += staleness
            totals[key] = dayTotals
            if f[4].isEmpty {
                guard f[5].isEmpty, stale == 1 else { throw fail("a placeholder view (no entry) has data or is not stale (F5)") }
                continue
            }
            guard let first = firstOK[widget], first <= seconds else {
                throw fail("widget \(widget) shows an entry at \(seconds) before any call of it returned a timeline")
            }
            // An entry that shows no data (the provider never got any) is stale, like the placeholder.
            if f[5].isEmpty {
                guard stale == 1 else { throw fail("an entry with no data (empty data_seconds) is not stale") }
                continue
            }
            guard let data = Int(f[5]), data <= seconds else { throw fail("data_seconds '\(f[5])' is not a whole number, or later than the view") }
            guard (stale == 0) == (staleness == 0) else { throw fail("stale is \(stale) but staleness_seconds is \(staleness)") }
        }
        viewsCounted = true
        return table.rows.count
    }

    /// Daily totals are the sums of the rows of their local day.
    func checkDaily(_ text: String, file: String) throws(CheckViolation) -> Int {
        let table = try CSVTable.audited(text, file: file, header: ReportWriter.dailyHeader)
        var reported: [String: Int] = [:]
        for row in table.rows {
            let f = row.fields
            let key = "\(f[0]) \(f[1])/\(f[2])"
            reported[key] = row.line
            let counts = totals[key] ?? DayTotals()
            func differ(_ what: String, _ written: String, _ computed: String) -> CheckViolation {
                CheckViolation(file: file, line: row.line, message: "day \(f[0]) of \(f[1])/\(f[2]): \(what) is \(written) but the rows add up to \(computed)")
            }
            if Int(f[5]) != counts.budgeted { throw differ("reloads_budgeted", f[5], String(counts.budgeted)) }
            if Int(f[6]) != counts.free { throw differ("reloads_free", f[6], String(counts.free)) }
            if Int(f[8]) != counts.timedOut { throw differ("timed_out", f[8], String(counts.timedOut)) }
            guard viewsCounted else { continue }
            if Int(f[9]) != counts.views { throw differ("views", f[9], String(counts.views)) }
            if Int(f[10]) != counts.staleViews { throw differ("stale_views", f[10], String(counts.staleViews)) }
            let mean = counts.views == 0 ? "" : FixedDecimal.format(Double(counts.staleness) / Double(counts.views), decimals: 1)
            if f[11] != mean { throw differ("mean_staleness_seconds", f[11], mean) }
        }
        // Every day with activity has its row, found in the order of the logs.
        for row in rows where reported["\(row.day) \(row.widget)"] == nil {
            throw CheckViolation(file: file, line: 0, message: "no row for day \(row.day) of \(row.widget), which has a reload (reloads.csv line \(row.line))")
        }
        return table.rows.count
    }
}
