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
        let files = ReportWriter(setup: setup, collector: Simulation.run(setup)).files()
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

    @Test(arguments: GoldenReportTests.scenarioNames.filter { $0 != "fleet-weather" })
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
    @Test func budgetedReloadsCloserThanTheSpacingAreCaught() throws {
        let files = try Self.weatherReport()
        let violation = Self.check(files, rules: ReportRules(minimumSpacing: 7_200))
        #expect(violation?.message.contains("the minimum spacing is 7200 s (F13)") == true)
        #expect(violation?.file == "r/reloads.csv")
    }

    /// F10: the rolling window's promise.
    @Test func moreBudgetedReloadsThanTheLimitAreCaught() throws {
        let files = Self.tamper(try Self.weatherReport(), "reloads.csv", where: { $0[6] == "1" && $0[7] == "3" }) { $0[8] = "2" }
        #expect(Self.check(files)?.message.contains("3 budgeted reloads in the 24 h up to") == true)
        #expect(Self.check(files)?.message.contains("over the limit of 2 (F10)") == true)
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

    @Test func aViewOfAnEntryNoCallProducedIsCaught() throws {
        var files = try Self.weatherReport()
        files["r/reloads.csv"] = files["r/reloads.csv"]!.split(separator: "\n").prefix(1).joined(separator: "\n") + "\n"
        #expect(Self.check(files)?.message.contains("before any call of it returned a timeline") == true)
    }

    @Test func aFileWithOtherColumnsIsNamed() throws {
        var files = try Self.weatherReport()
        files["r/views.csv"] = "seconds,widget\n1,w\n"
        let violation = Self.check(files)
        #expect(violation == CheckViolation(file: "r/views.csv", line: 1, message: "unexpected header; expected the columns seconds,time,device,widget,shown_entry_seconds,data_seconds,stale,staleness_seconds"))
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

    @Test func quotedCSVFieldsAreRead() throws {
        let table = try CSVTable("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n", file: "q.csv", header: ["a", "b"])
        #expect(table.rows.map(\.fields) == [["x, y", "say \"hi\""]])
    }
}
