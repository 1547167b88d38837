import Foundation
import Testing
@testable import WidgetSim

/// `widgetsim check`: every rule is enforced from the rows alone, and the
/// first violation is named with its file and line.
@Suite("Check")
struct CheckTests {
    /// A fresh two-day weather report, as files in memory.
    static func weatherReport() throws -> [String: String] {
        var setup = try ScenarioLoader.load(path: Paths.scenario("weather"))
        setup.days = 2
        let files = ReportWriter(setup: setup, collector: try Simulation.run(setup)).files()
        return Dictionary(uniqueKeysWithValues: files.map { ("r/" + $0.name, $0.contents) })
    }

    static func check(_ files: [String: String], rules: ReportRules? = nil) -> CheckViolation? {
        do {
            _ = try ReportChecker.checkDirectory("r", rules: rules, read: { files[$0] })
            return nil
        } catch {
            return error
        }
    }

    /// Rewrites the first row of `file` for which `matches` holds.
    static func tamper(_ files: [String: String], _ file: String, where matches: ([String]) -> Bool, _ edit: (inout [String]) -> Void) -> [String: String] {
        var lines = files["r/" + file]!.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = lines.indices.dropFirst().first { matches(lines[$0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)) }!
        var fields = lines[index].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        edit(&fields)
        lines[index] = fields.joined(separator: ",")
        var copy = files
        copy["r/" + file] = lines.joined(separator: "\n")
        return copy
    }

    @Test(arguments: GoldenReportTests.deviceScenarioNames)
    func everyCommittedReportPassesCheck(scenario: String) {
        let directory = Paths.packageRoot.appendingPathComponent("Reports/\(scenario)").path
        #expect(throws: Never.self) {
            try ReportChecker.checkDirectory(directory) { FileManager.default.contents(atPath: $0).map { String(decoding: $0, as: UTF8.self) } }
        }
    }

    @Test func anUntouchedReportPasses() throws {
        #expect(Self.check(try Self.weatherReport()) == nil)
    }

    /// F13.
    /// Each of a report's four files must be there: a report whose views or
    /// daily totals are gone did not pass the rules on them.
    @Test(arguments: ["reloads.csv", "views.csv", "daily.csv", "parameters.csv"])
    func aReportMissingOneOfItsFilesIsCaught(file: String) throws {
        var files = try Self.weatherReport()
        files["r/" + file] = nil
        let violation = try #require(Self.check(files))
        #expect(violation.kind == .missingFile && violation.file == "r/" + file, "\(violation)")
    }

    /// Rows out of time order are a file not in the report's format (65),
    /// not a broken rule (1), even where a row that comes too early breaks a
    /// rule before the row that shows the order is read: two budgeted reloads
    /// swapped, so the later one's budget_used_24h counts one the log has not
    /// reached yet.
    @Test func rowsOutOfTimeOrderAreBadDataThoughARowBreaksARuleFirst() throws {
        var files = try Self.weatherReport()
        var lines = files["r/reloads.csv"]!.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func fields(_ line: String) -> [String] { line.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let first = try #require(lines.indices.dropFirst().dropLast().first { index in
            let (this, next) = (fields(lines[index]), fields(lines[index + 1]))
            return this.count > 6 && next.count > 6 && this[6] == "1" && next[6] == "1" && Int(this[0])! < Int(next[0])!
        })
        lines.swapAt(first, first + 1)
        files["r/reloads.csv"] = lines.joined(separator: "\n")
        let violation = try #require(Self.check(files))
        #expect(violation.kind == .badData && violation.line == first + 2, "\(violation)")
        #expect(violation.message.hasPrefix("rows are not in time order"), "\(violation)")
        do {
            _ = try ReportChecker.checkReloadsLog(files["r/reloads.csv"]!, file: "r/reloads.csv", rules: ReportRules())
            Issue.record("a reloads log with rows out of time order passed")
        } catch {
            #expect(error.kind == .badData && error.message.hasPrefix("rows are not in time order"), "\(error)")
        }
    }

    @Test func budgetedReloadsCloserThanTheSpacingAreCaught() throws {
        let files = try Self.weatherReport()
        let violation = Self.check(files, rules: ReportRules(minimumSpacing: 7_200))
        #expect(violation?.message.contains("the minimum spacing is 7200 s (F13)") == true)
        #expect(violation?.file == "r/reloads.csv")
    }

    /// F8, F10: a paced report whose limits are cut to 2 breaks the pace at once.
    @Test func moreBudgetedReloadsThanThePacedLimitAllowsAreCaught() throws {
        var files = try Self.weatherReport()
        files["r/reloads.csv"] = files["r/reloads.csv"]!.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.count > 8 && fields[6] == "1" { fields[8] = "2" }
            return fields.joined(separator: ",")
        }.joined(separator: "\n")
        #expect(Self.check(files)?.message.contains("more than a pacing bucket of 2 plus what refilled meanwhile") == true)
    }

    /// F8, F10: under the paced model no trailing 24 hours holds more budgeted
    /// reloads than the largest limit in force plus the pacing burst.
    @Test func moreBudgetedReloadsThanThePacedCapAreCaught() throws {
        // A limit of 18 over the 18-hour pacing window allows one an hour; the cap is 18 + 2.
        let hourly = (1...21).map { $0 * 3_600 }
        #expect(throws: CheckViolation(file: "log.csv", line: 22, message: "widget iphone/w: 21 budgeted reloads in the 24 h up to 75600, over the largest limit in force during them plus the pacing burst, 20 (F8, F10)")) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(hourly, limit: 18), file: "log.csv", rules: ReportRules(budgetModel: .paced))
        }
    }

    /// F10: the rolling window's promise.
    @Test func moreBudgetedReloadsThanARollingWindowAllowsAreCaught() throws {
        let hourly = (1...4).map { $0 * 3_600 }
        #expect(throws: CheckViolation(file: "log.csv", line: 5, message: "widget iphone/w: 4 budgeted reloads in the 24 h up to 14400, over the limit of 3 (F10)")) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(hourly, limit: 3), file: "log.csv", rules: ReportRules(budgetModel: .rollingWindow))
        }
    }

    /// F8: the paced model's pace: no more than the burst plus what refilled.
    @Test func budgetedReloadsFasterThanThePaceAreCaught() throws {
        // A limit of 18 over an 18-hour pacing window refills a token an hour.
        let paced = (1...4).map { $0 * 3_600 }
        #expect(throws: Never.self) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(paced, limit: 18), file: "log.csv", rules: ReportRules(budgetModel: .paced))
        }
        let hurried = [3_600, 4_000, 4_400, 4_800]
        #expect(throws: CheckViolation(file: "log.csv", line: 4, message: "widget iphone/w: 3 budgeted reloads from 3600 to 4400, more than a pacing bucket of 2 plus what refilled meanwhile (2.22)")) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(hurried, limit: 18), file: "log.csv", rules: ReportRules(budgetModel: .paced))
        }
    }

    /// F17: free triggers use no budget.
    @Test func aFreeTriggerMarkedBudgetedIsCaught() throws {
        let files = Self.tamper(try Self.weatherReport(), "reloads.csv", where: { $0[5] == "initial" }) { $0[6] = "1" }
        #expect(Self.check(files)?.message.contains("a 'initial' reload is budgeted, but it is free (F17)") == true)
    }

    @Test func aWrongTrailingCountIsCaught() throws {
        let files = Self.tamper(try Self.weatherReport(), "reloads.csv", where: { $0[6] == "1" }) { $0[7] = "7" }
        let violation = Self.check(files)
        #expect(violation?.message.contains("budget_used_24h is 7 but the log has 1 budgeted reloads") == true)
        #expect(violation?.line == 3)
    }

    /// `seconds` and `time` are one instant: a row whose time is on another
    /// offset (the same clock reading, an hour off as an instant) is named,
    /// in either log.
    @Test func aTimeThatIsNotTheInstantOfItsSecondsIsCaught() throws {
        let report = try Self.weatherReport()
        func anotherOffset(_ fields: inout [String]) {
            let offset = fields[1].suffix(6)
            fields[1] = fields[1].dropLast(6) + (offset == "+03:00" ? "+04:00" : "+03:00")
        }
        let reloads = Self.check(Self.tamper(report, "reloads.csv", where: { $0[5] == "policy" }, anotherOffset))
        #expect(reloads?.kind == .badData && reloads?.file == "r/reloads.csv", "\(String(describing: reloads))")
        #expect(reloads?.message.contains("than line 2 does") == true, "\(String(describing: reloads))")
        let views = Self.check(Self.tamper(report, "views.csv", where: { _ in true }, anotherOffset))
        #expect(views?.kind == .badData && views?.file == "r/views.csv" && views?.line == 2, "\(String(describing: views))")
        #expect(views?.message.contains("than r/reloads.csv line 2 does") == true, "\(String(describing: views))")
    }

    /// The same instant on another device's clock (another offset) is the same instant.
    @Test func aTimeOnAnotherClockIsTheSameInstant() throws {
        let header = ReportWriter.reloadsHeader.joined(separator: ",")
        let log = """
            \(header)
            0,2026-05-04T09:00:00+02:00,iphone,w,k,initial,0,0,50,0,ok,1,after,900
            900,2026-05-04T03:15:00-04:00,ipad,w,k,initial,0,0,50,0,ok,1,after,1800
            1000,2026-05-04T07:16:40+00:00,ipad,w,k,initial,0,0,50,0,ok,1,after,1900

            """
        #expect(throws: Never.self) { try ReportChecker.checkReloadsLog(log, file: "log.csv", rules: ReportRules()) }
    }

    /// An offset no clock has (minutes past 59, beyond -12:00...+14:00) is
    /// not a time: it would only make the row's instant wrong.
    @Test(arguments: ["+01:75", "+15:00", "-13:00"])
    func aTimeWithAnImpossibleOffsetIsRefused(offset: String) throws {
        let header = ReportWriter.reloadsHeader.joined(separator: ",")
        let log = "\(header)\n0,2026-05-04T09:00:00\(offset),iphone,w,k,initial,0,0,50,0,ok,1,after,900\n"
        #expect(throws: CheckViolation(
            file: "log.csv", line: 2, kind: .badData,
            message: "time '2026-05-04T09:00:00\(offset)' is not ISO 8601 local time with its offset (-12:00 to +14:00), such as 2026-03-02T07:15:00+01:00")) {
            try ReportChecker.checkReloadsLog(log, file: "log.csv", rules: ReportRules())
        }
    }

    /// A report `simulate` wrote passes, whatever its shape: here a widget
    /// seen every 5 minutes on the first day and the fourth only, so its
    /// budgeted reloads come by the hundred and then not for two days (the
    /// paced audit once carried the first day's excess across the gap).
    @Test func aReportOfBusyDaysAndQuietOnesPasses() throws {
        let views = (0..<288).map { $0 * 300 } + (0..<288).map { 3 * Seconds.day + $0 * 300 }
        let scenario = """
            {"name": "busy-then-quiet", "seed": 1, "days": 4, "start": "2026-03-02T00:00", "utcOffset": "+01:00",
             "devices": [{"id": "d", "user": {"wake": "00:00", "sleep": "23:59"},
               "pages": [{"name": "home", "viewsPerDay": 0}], "apps": [{"id": "a", "sessionsPerDay": 0}],
               "widgets": [{"id": "w", "kind": "k", "app": "a", "page": "home",
                 "provider": {"entries": 1, "policy": "after", "after": "5m"}, "truth": {"changeEvery": "1h"}}],
               "script": [{"at": [\(views.map { "\"\($0)s\"" }.joined(separator: ","))], "action": "view", "page": "home"}]}]}
            """
        let setup = try ScenarioLoader.decode(scenario, file: "busy-then-quiet.json")
        let files = ReportWriter(setup: setup, collector: try Simulation.run(setup)).files()
        let report = Dictionary(uniqueKeysWithValues: files.map { ("r/" + $0.name, $0.contents) })
        #expect(report["r/reloads.csv"]!.split(separator: "\n").filter { $0.contains(",policy,1,") }.count > 100)
        #expect(Self.check(report) == nil, "\(String(describing: Self.check(report)))")
    }

    /// `parameters.csv` records the run's rules exactly, so `check` audits
    /// the rules the run had: a burst of more than 4 decimals as well as a
    /// plain one, which keeps its usual 4-decimal form.
    @Test func theRecordedRulesAreTheRunsOwnToTheLastDigit() throws {
        for (pacing, bucket) in [(2.0, 0.25), (2.00004999, 0.00104999), (1.0 / 3.0 + 1, 0.1)] {
            var parameters = SchedulerParameters()
            parameters.pacingBurst = pacing
            parameters.tokenBucketBurst = bucket
            let text = ReportRules(parameters).csv()
            let read = try ReportRules.parse(text, file: "parameters.csv")
            #expect(read.parameters.pacingBurst == pacing && read.parameters.tokenBucketBurst == bucket, "\(text)")
        }
        #expect(ReportRules(SchedulerParameters()).csv().contains("pacing_burst,2.0000\n"))
    }

    /// `parameters.csv` lists each rule once: a file that gives a rule twice
    /// does not say which one the run had, so it is refused, not read as
    /// its last row.
    @Test func eachRuleIsGivenOnceInParametersCSV() throws {
        let text = ReportRules().csv() + "minimum_spacing_seconds,60\n"
        #expect(throws: CheckViolation(
            file: "parameters.csv", line: ReportRules.rows.count + 2, kind: .badData,
            message: "parameter 'minimum_spacing_seconds' given twice (the first is line 3); allowed: each parameter once")) {
            try ReportRules.parse(text, file: "parameters.csv")
        }
    }

    /// A rule's number in `parameters.csv` is plain decimal digits, as the
    /// report writes it: a hexadecimal float, an exponent, a sign, "inf" or
    /// "nan" (all of which Swift's `Double(_:)` reads) is refused.
    @Test(arguments: ["0x10", "0x1p4", "1e1", "+2", "inf", "nan", "2.", ".5", " 2"])
    func aRuleIsAPlainDecimalNumber(written: String) throws {
        var rules = ReportRules()
        #expect(rules.set("pacing_burst", to: "2.5") == nil && rules.parameters.pacingBurst == 2.5)
        #expect(rules.set("pacing_burst", to: written) == "a decimal number from 1 to 100")
        #expect(rules.set("token_bucket_burst", to: written == "0x10" ? "0x0.4p0" : written) == "a decimal number from 0.001 to 1")
    }

    /// F22: a timed-out call produces no timeline.
    @Test func aTimedOutCallWithATimelineIsCaught() throws {
        let files = Self.tamper(try Self.weatherReport(), "reloads.csv", where: { $0[5] == "policy" }) { $0[10] = "timed_out" }
        #expect(Self.check(files)?.message.contains("it produces no timeline (F22)") == true)
    }

    @Test func dailyTotalsThatDoNotAddUpAreCaught() throws {
        let files = Self.tamper(try Self.weatherReport(), "daily.csv", where: { $0[0] == "1" }) { $0[9] = "999" }
        let violation = Self.check(files)
        #expect(violation?.file == "r/daily.csv")
        #expect(violation?.message.contains("views is 999 but the rows add up to") == true)
    }

    /// `daily.csv` has one row per widget and local day (README, "Reading
    /// the reports"): a repeated row would count its day twice for anything
    /// that sums the file, so it is refused as not in the report's format.
    @Test func eachWidgetDayHasOneDailyRow() throws {
        var files = try Self.weatherReport()
        let lines = files["r/daily.csv"]!.split(separator: "\n").map(String.init)
        files["r/daily.csv"] = (lines + [lines[1]]).joined(separator: "\n") + "\n"
        let first = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        #expect(Self.check(files) == CheckViolation(
            file: "r/daily.csv", line: lines.count + 1, kind: .badData,
            message: "a second row for day \(first[0]) of \(first[1])/\(first[2]) (the first is line 2); allowed: one row per widget and local day"))
    }

    /// Every column of the report's format is read and range-checked, those
    /// no rule compares too (README, "Limits": budget limits 1 to 1,000,000,
    /// counts at most 10^9): a value out of the format is bad data (65),
    /// never part of a report that passed.
    @Test(arguments: [
        ("daily.csv", 4, "banana", "budget_limit 'banana' is not a whole number from 1 to 1000000"),
        ("daily.csv", 7, "-99999999999999999999999", "withheld '-99999999999999999999999' is not a whole number from 0 to 1000000000"),
        ("daily.csv", 9, "1e2", "views '1e2' is not a whole number from 0 to 1000000000"),
        ("daily.csv", 11, "soon", "mean_staleness_seconds 'soon' is not empty or a number of seconds with one decimal from 0.0 to 10000000000.0"),
        ("views.csv", 4, "nope", "shown_entry_seconds 'nope' is not a whole number from -10000000000 to 10000000000"),
    ])
    func everyColumnIsReadAndRangeChecked(file: String, column: Int, value: String, message: String) throws {
        let report = try Self.weatherReport()
        let files = Self.tamper(report, file, where: { !$0[column].isEmpty }) { $0[column] = value }
        let violation = try #require(Self.check(files))
        #expect(violation.kind == .badData && violation.file == "r/" + file && violation.message == message, "\(violation)")
    }

    @Test func aViewOfAnEntryNoCallProducedIsCaught() throws {
        var files = try Self.weatherReport()
        files["r/reloads.csv"] = files["r/reloads.csv"]!.split(separator: "\n").prefix(1).joined(separator: "\n") + "\n"
        #expect(Self.check(files)?.message.contains("before any call of it returned a timeline") == true)
    }

    @Test func aFileWithOtherColumnsIsNamed() throws {
        var files = try Self.weatherReport()
        files["r/views.csv"] = "seconds,widget\n1,w\n"
        let violation = Self.check(files)
        #expect(violation == CheckViolation(file: "r/views.csv", line: 1, kind: .badData, message: "unexpected header; expected the columns seconds,time,device,widget,shown_entry_seconds,data_seconds,stale,staleness_seconds"))
    }

    /// A log recorded from a real device, in the same columns, under given rules.
    @Test func aDeviceLogIsCheckedUnderTheGivenRules() throws {
        let header = ReportWriter.reloadsHeader.joined(separator: ",")
        let log = """
            \(header)
            0,2026-05-04T09:00:00+02:00,iphone,w,k,initial,0,0,50,0,ok,1,after,900
            900,2026-05-04T09:15:00+02:00,iphone,w,k,policy,1,1,50,0,ok,1,after,1800
            1000,2026-05-04T09:16:40+02:00,iphone,w,k,policy,1,2,50,0,ok,1,after,1900

            """
        #expect(throws: Never.self) { try ReportChecker.checkReloadsLog(log, file: "log.csv", rules: ReportRules(minimumSpacing: 60)) }
        #expect(throws: CheckViolation(file: "log.csv", line: 4, message: "widget iphone/w: budgeted reload at 1000 is 100 s after the one at 900; the minimum spacing is 300 s (F13)")) {
            try ReportChecker.checkReloadsLog(log, file: "log.csv", rules: ReportRules())
        }
    }

    /// A device log of budgeted `policy` reloads at `times` (seconds since
    /// 2026-05-04T00:00+02:00) under `limit`, with correct trailing counts.
    static func budgetedLog(_ times: [Int], limit: Int) -> String {
        var lines = [ReportWriter.reloadsHeader.joined(separator: ",")]
        for (index, t) in times.enumerated() {
            let used = times[...index].filter { $0 > t - Seconds.day }.count
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
            let stamp = "2026-05-\(two(4 + t / Seconds.day))T\(two(t % Seconds.day / 3_600)):\(two(t % 3_600 / 60)):\(two(t % 60))+02:00"
            lines.append("\(t),\(stamp),iphone,w,k,policy,1,\(used),\(limit),0,ok,1,after,\(t + 3_600)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The midnight-reset model's promise: at most the limit since local
    /// midnight, however many ran the evening before.
    @Test func moreBudgetedReloadsSinceMidnightThanTheLimitAreCaught() throws {
        let evening = [20, 21, 22].map { $0 * 3_600 }
        let night = [24, 25, 26].map { $0 * 3_600 + 1_800 }
        let rules = ReportRules(budgetModel: .midnightReset)
        #expect(throws: Never.self) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(evening + night, limit: 3), file: "log.csv", rules: rules)
        }
        // The same six reloads break a rolling 24-hour window of 3 (F10).
        #expect(throws: CheckViolation(file: "log.csv", line: 5, message: "widget iphone/w: 4 budgeted reloads in the 24 h up to 88200, over the limit of 3 (F10)")) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(evening + night, limit: 3), file: "log.csv", rules: ReportRules(budgetModel: .rollingWindow))
        }
        let oneMore = evening + night + [27 * 3_600 + 1_800]
        #expect(throws: CheckViolation(file: "log.csv", line: 8, message: "widget iphone/w: 4 budgeted reloads since local midnight, over the limit of 3")) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(oneMore, limit: 3), file: "log.csv", rules: rules)
        }
    }

    /// The token bucket's promise: no 24 hours hold more than a full bucket
    /// plus a day's refill (limit 4, burst 0.25: 4 + 1 + 1 = 6).
    @Test func moreBudgetedReloadsThanAFullBucketAndADaysRefillAreCaught() throws {
        let rules = ReportRules(budgetModel: .tokenBucket)
        let hourly = (1...7).map { $0 * 3_600 }
        #expect(throws: Never.self) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(Array(hourly.prefix(6)), limit: 4), file: "log.csv", rules: rules)
        }
        #expect(throws: CheckViolation(file: "log.csv", line: 8, message: "widget iphone/w: 7 budgeted reloads in 24 h, more than a full bucket plus a day's refill (6)")) {
            try ReportChecker.checkReloadsLog(Self.budgetedLog(hourly, limit: 4), file: "log.csv", rules: rules)
        }
    }

    @Test func quotedCSVFieldsAreRead() throws {
        let table = try CSVTable("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n", header: ["a", "b"])
        #expect(table.rows.map(\.fields) == [["x, y", "say \"hi\""]])
    }
}
