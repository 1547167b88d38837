import Foundation
import Testing
@testable import WidgetSim

/// Scenario files: defaults, and errors that name the file, field, position
/// and allowed values.
@Suite("Scenario loading")
struct ScenarioLoadingTests {
    /// A minimal valid scenario with `widget` spliced in as the widget's fields.
    static func scenario(widget: String = #""provider": {"policy": "atEnd"}"#, top: String = "") -> String {
        """
        {
          "name": "test",\(top)
          "devices": [
            {
              "id": "phone",
              "widgets": [
                { "id": "w", \(widget) }
              ]
            }
          ]
        }
        """
    }

    /// A name becomes a directory (`Reports/<name>`): dots alone would name
    /// the current directory or its parent (merge once wrote into "..").
    @Test func aNameOfDotsAloneIsRefused() throws {
        for name in [".", "..", "..."] {
            let text = Self.scenario().replacingOccurrences(of: #""name": "test""#, with: #""name": "\#(name)""#)
            #expect(throws: ScenarioError.self, "\(name)") { try ScenarioLoader.decode(text, file: "t.json") }
        }
        let dotted = Self.scenario().replacingOccurrences(of: #""name": "test""#, with: #""name": "v1.2""#)
        #expect(try ScenarioLoader.decode(dotted, file: "t.json").name == "v1.2")
    }

    /// A schedule window from 00:00 to 24:00 is the whole day, as no window is,
    /// not an empty one (it opens and closes at midnight).
    @Test func aScheduleWindowFromMidnightToMidnightIsTheWholeDay() throws {
        let text = Self.scenario(widget: #""provider": {"policy": "atEnd", "schedule": [ { "days": ["sat", "sun"], "from": "00:00", "to": "24:00", "policy": "never" } ]}"#)
        let setup = try ScenarioLoader.decode(text, file: "t.json")
        guard case .configured(let settings) = setup.devices[0].widgets[0].provider else {
            Issue.record("not a configured provider")
            return
        }
        #expect(settings.schedule.count == 1 && settings.schedule[0].window == nil)
    }

    /// A whole number may be written as JSON allows: 7.0 and 7e0 are 7.
    @Test func aWholeNumberWithAFractionOrExponentIsWhole() throws {
        for (literal, days) in [("7.0", 7), ("1e2", 100), ("7", 7)] {
            let text = Self.scenario(top: #" "days": \#(literal),"#)
            #expect(try ScenarioLoader.decode(text, file: "t.json").days == days, "\(literal)")
        }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.decode(Self.scenario(top: #" "days": 7.5,"#), file: "t.json") }
    }

    /// A seed is a whole number as `days` is: written with an exponent or a
    /// fraction, it is the number its digits denote, exactly, up to
    /// 2^64 - 1 (a double would round anything above 2^53 to another seed).
    @Test func aSeedWithAnExponentIsTheWholeNumberItsDigitsDenote() throws {
        for (literal, seed) in [("1e19", 10_000_000_000_000_000_000 as UInt64), ("9007199254740993.0", 9_007_199_254_740_993),
                                ("1.8446744073709551615e19", UInt64.max), ("20260302", 20_260_302), ("0.0", 0)] {
            let text = Self.scenario(top: #" "seed": \#(literal),"#)
            #expect(try ScenarioLoader.decode(text, file: "t.json").seed == seed, "\(literal)")
        }
        for literal in ["1.8446744073709551616e19", "1e20", "1.5", "-1e0", "9007199254740993.5"] {
            #expect(throws: ScenarioError.self, "\(literal)") { try ScenarioLoader.decode(Self.scenario(top: #" "seed": \#(literal),"#), file: "t.json") }
        }
    }

    /// A configuration is a field of the device log, which holds at most
    /// 1,024 bytes a field: a longer one would write a log the tool refuses.
    @Test func aConfigurationLongerThanADeviceLogFieldIsRefused() throws {
        let fits = String(repeating: "c", count: DeviceLog.maximumFieldBytes)
        #expect(try ScenarioLoader.decode(Self.scenario(widget: #""configuration": "\#(fits)", "provider": {"policy": "atEnd"}"#), file: "t.json")
            .devices[0].widgets[0].configuration == fits)
        #expect(throws: ScenarioError.self) {
            try ScenarioLoader.decode(Self.scenario(widget: #""configuration": "\#(fits)c", "provider": {"policy": "atEnd"}"#), file: "t.json")
        }
    }

    /// A script instant reads the same alone as in a list: a duration since
    /// the start, or a local date and time.
    @Test func aScriptInstantAloneReadsAsInAList() throws {
        func instants(_ at: String) throws -> [SimTime] {
            let text = Self.scenario().replacingOccurrences(
                of: #""id": "phone","#, with: #""id": "phone", "script": [ { "at": \#(at), "action": "systemChange" } ],"#)
            return try ScenarioLoader.decode(text, file: "t.json").devices[0].script.map(\.at)
        }
        #expect(try instants(#""2026-03-02T10:00""#) == [10 * Seconds.hour])
        #expect(try instants(#"["2026-03-02T10:00"]"#) == [10 * Seconds.hour])
        #expect(try instants(#""10h""#) == [10 * Seconds.hour])
        // A negative duration is a duration, and an instant outside the run says where the run is.
        #expect(throws: ScenarioError.self) { try instants(#""-1h""#) }
        #expect((try? instants(#""-1h""#)) == nil)
        do {
            _ = try instants(#""2026-03-20T10:00""#)
            Issue.record("an instant after the run was accepted")
        } catch {
            #expect("\(error)".contains("is outside the run"))
            #expect("\(error)".contains("from 2026-03-02T00:00"))
        }
    }

    static func error(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.decode(text, file: "test.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func theWeatherScenarioLoadsWithItsSettings() throws {
        let setup = try ScenarioLoader.load(path: Paths.scenario("weather"))
        #expect(setup.name == "weather" && setup.days == 7)
        #expect(setup.utcOffsetSeconds == 3_600)
        let widget = setup.devices[0].widgets[0]
        #expect(widget.family == .systemMedium)
        guard case .configured(let settings) = widget.provider else { Issue.record("not configured"); return }
        #expect(settings.policy == .after(interval: Seconds.hour))
        #expect(settings.entryCount == 6 && settings.forecasts)
    }

    @Test func omittedFieldsTakeTheDocumentedDefaults() throws {
        let setup = try ScenarioLoader.decode(Self.scenario(), file: "test.json")
        #expect(setup.seed == 1 && setup.days == 7)
        #expect(setup.scheduler == SchedulerParameters())
        #expect(setup.devices[0].pages == [PageSetup(name: "home", viewsPerDay: 40)])
        #expect(setup.devices[0].widgets[0].kind == "w")
    }

    @Test func durationsAcceptUnitsAndSeconds() throws {
        let setup = try ScenarioLoader.decode(
            Self.scenario(widget: #""provider": {"policy": "after", "after": "1h30m", "entrySpacing": 900}"#), file: "t.json")
        guard case .configured(let settings) = setup.devices[0].widgets[0].provider else { return }
        #expect(settings.policy == .after(interval: 5_400))
        #expect(settings.entrySpacing == 900)
    }

    /// Each unit at most once, largest first: "1h1h" and "30m1h" read as
    /// slips, not as 2h and 1h30m (found by a red-team pass), and are
    /// refused saying so, where text that is no duration at all is "not a
    /// duration". Hours past a day, minutes past an hour and so on stay allowed.
    @Test func aDurationGivesEachUnitOnceLargestFirst() throws {
        #expect(DurationText.parse("1h30m") == 5_400)
        #expect(DurationText.parse("2d20h10m5s") == Double(2 * Seconds.day + 20 * Seconds.hour + 10 * Seconds.minute + 5))
        #expect(DurationText.parse("1d25h") == Double(Seconds.day + 25 * Seconds.hour))
        #expect(DurationText.parse("90m") == 5_400)
        #expect(DurationText.parse("1h1h") == nil)
        #expect(DurationText.parse("30m1h") == nil)
        #expect(DurationText.parse("5s1m") == nil)
        for text in ["1h1h", "30m1h", "10s2m"] {
            let error = Self.error(Self.scenario(widget: #""provider": {"policy": "after", "after": "\#(text)"}"#))
            #expect(error?.description.contains("field 'devices[0].widgets[0].provider.after': \"\(text)\" gives its units out of order; allowed: each unit once, the largest first") == true, "\(String(describing: error))")
        }
        #expect(DurationText.hasUnitsOutOfOrder("1h30m") == false)
        #expect(DurationText.hasUnitsOutOfOrder("h1") == false && DurationText.hasUnitsOutOfOrder("5m5") == false)
        let none = Self.error(Self.scenario(widget: #""provider": {"policy": "after", "after": "m5"}"#))
        #expect(none?.description.contains("\"m5\" is not a duration") == true, "\(String(describing: none))")
    }

    /// A bare number of seconds is read from its digits: one too small for
    /// a double is refused rather than taken as 0, and one a double would
    /// round to a whole second is not whole (found by a red-team pass).
    @Test func aBareNumberDurationIsReadFromItsDigits() {
        let tiny = Self.error(Self.scenario(widget: #""provider": {"policy": "atEnd"}, "truth": {"forecastHorizon": 1e-400}"#))
        #expect(tiny?.description.contains("1e-400 is too small to tell from 0 seconds") == true, "\(String(describing: tiny))")
        let almost = Self.error(Self.scenario(widget: #""provider": {"policy": "after", "after": 1.0000000000000000000000000001}"#))
        #expect(almost?.description.contains("1.0000000000000000000000000001 s is not a whole number of seconds") == true, "\(String(describing: almost))")
        #expect(Self.error(Self.scenario(widget: #""provider": {"policy": "after", "after": 3.6e3}"#)) == nil)
        #expect(Self.error(Self.scenario(widget: #""provider": {"policy": "atEnd"}, "truth": {"forecastHorizon": 0}"#)) == nil)
        #expect(Self.error(Self.scenario(widget: #""provider": {"policy": "atEnd"}, "truth": {"forecastHorizon": 0.0e-400}"#)) == nil)
    }

    /// Any number, not only a duration, is read from its digits: a weight
    /// or a probability too small for a double is refused rather than taken
    /// as 0 (a Saturday without activity, a tap never made), and one below
    /// zero, however small, is out of a range that starts at 0.
    @Test func aNumberTooSmallForADoubleIsRefusedNotReadAsZero() {
        func withSaturday(_ weight: String) -> String {
            #"{"name": "test", "devices": [{"id": "phone", "user": {"weekdayActivity": {"sat": "# + weight
                + #"}}, "widgets": [{"id": "w", "provider": {"policy": "atEnd"}}]}]}"#
        }
        let weekday = Self.error(withSaturday("1e-400"))
        #expect(weekday?.description.contains("field 'devices[0].user.weekdayActivity.sat': 1e-400 is too small to tell from 0; allowed: numbers from 0 to 10") == true, "\(String(describing: weekday))")
        let taps = Self.error(Self.scenario(widget: #""provider": {"policy": "atEnd"}, "tapsPerView": 2.5E-999"#))
        #expect(taps?.description.contains("field 'devices[0].widgets[0].tapsPerView': 2.5E-999 is too small to tell from 0") == true, "\(String(describing: taps))")
        let negative = Self.error(Self.scenario(widget: #""provider": {"policy": "atEnd"}, "tapsPerView": -1e-400"#))
        #expect(negative?.description.contains("-1e-400 is out of range; allowed: numbers from 0 to 1") == true, "\(String(describing: negative))")
        #expect(Self.error(Self.scenario(widget: #""provider": {"policy": "atEnd"}, "tapsPerView": 0.0e-400"#)) == nil)
        #expect(Self.error(withSaturday("0")) == nil && Self.error(withSaturday("1e-9")) == nil)
    }

    /// A duration out of range is named as its author wrote it: a bare
    /// number by its literal ("1e-320", not 320 digits of zeros), and one
    /// below zero, however small, as out of range, not as too small.
    @Test func aDurationOutOfRangeIsNamedAsWritten() {
        let tiny = Self.error(Self.scenario(widget: #""provider": {"policy": "after", "after": 1e-320}"#))
        #expect(tiny?.description.contains("field 'devices[0].widgets[0].provider.after': 1e-320 is out of range; allowed: ") == true, "\(String(describing: tiny))")
        #expect((tiny?.description.count ?? 0) < 300, "\(String(describing: tiny))")
        let negative = Self.error(Self.scenario(widget: #""provider": {"policy": "atEnd"}, "truth": {"forecastHorizon": -1e-400}"#))
        #expect(negative?.description.contains("-1e-400 is out of range") == true, "\(String(describing: negative))")
        let written = Self.error(Self.scenario(widget: #""provider": {"policy": "after", "after": "0.0000001s"}"#))
        #expect(written?.description.contains("0.0000001s is out of range") == true, "\(String(describing: written))")
    }

    @Test func malformedJSONNamesTheLineAndColumn() {
        let text = "{\n  \"name\": \"x\",\n  \"days\": 7,,\n}"
        #expect(Self.error(text) == .malformedJSON(file: "test.json", line: 3, column: 13, reason: "unexpected ','; expected a field name in double quotes"))
    }

    @Test func anUnknownFieldNamesTheNearestValidOne() {
        let error = Self.error(Self.scenario(widget: #""provider": {"polcy": "atEnd"}"#))
        guard case .unknownField(let file, let field, let line, let column, let suggestion, let allowed) = error else {
            Issue.record("expected unknownField, got \(String(describing: error))")
            return
        }
        #expect(file == "test.json")
        #expect(field == "devices[0].widgets[0].provider.polcy")
        #expect(line == 7 && column == 35)
        #expect(suggestion == "policy")
        #expect(allowed.contains("entries"))
    }

    @Test func aWrongTypeNamesTheExpectedType() {
        #expect(Self.error(Self.scenario(top: #" "days": "seven","#))
            == .wrongType(file: "test.json", field: "days", line: 2, column: 27, expected: "a whole number", found: "a string"))
    }

    @Test func anUnknownPolicyListsTheAllowedPolicies() {
        let error = Self.error(Self.scenario(widget: #""provider": {"policy": "atend"}"#))
        #expect(error?.description.contains(#"unknown policy "atend" (did you mean "atEnd"?)"#) == true)
        #expect(error?.description.contains(#"allowed: "atEnd", "after""#) == true)
    }

    @Test func daysOutsideTheLimitAreRejected() {
        for days in ["0", "-3", "367"] {
            let error = Self.error(Self.scenario(top: " \"days\": \(days),"))
            #expect(error?.description.contains("allowed: whole numbers 1...366") == true, "days \(days)")
        }
    }

    @Test func aBudgetMinimumAboveItsMaximumIsRejected() {
        let error = Self.error(Self.scenario(top: #" "scheduler": {"dailyBudget": {"min": 70, "max": 40}},"#))
        #expect(error?.description.contains("min 70 is above max 40; allowed: min ≤ max") == true)
    }

    /// A value a parameters file brings is that file's: an error about it
    /// names the parameters file at the value's line and column, not the
    /// scenario (which does not hold the value); an object merged from both
    /// files names the parameters file and says where the scenario's half is.
    @Test func anErrorAboutAParametersFilesValueNamesThatFile() throws {
        func error(scenario top: String, parameters: String) throws -> String? {
            let file = try ParametersFile.decode(Array(parameters.utf8), file: "p.json")
            do {
                _ = try ScenarioLoader.decodeDocument(Array(Self.scenario(top: top).utf8), file: "s.json", catalog: .builtIn, parameters: file)
                return nil
            } catch {
                return error.description
            }
        }
        let budget = #" "scheduler": {"dailyBudget": {"min": 10, "max": 40}},"#
        #expect(try error(scenario: budget, parameters: #"{"scheduler": {"dailyBudget": {"min": 70}}}"#)
            == "p.json:1:31: field 'scheduler.dailyBudget': min 70 is above max 40, merged into the scenario's value at s.json:2:48; allowed: min ≤ max")
        #expect(try error(scenario: budget, parameters: #"{"scheduler": {"minimumDailyBudget": 20}}"#)
            == "p.json:1:38: field 'scheduler.minimumDailyBudget': 20 is above dailyBudget.min 10; allowed: 1...dailyBudget.min")
        // The scenario's own value is still the scenario's.
        #expect(try error(scenario: #" "scheduler": {"minimumDailyBudget": 20, "dailyBudget": {"min": 10}},"#, parameters: #"{"scheduler": {"minimumSpacing": "5m"}}"#)
            == "s.json:2:55: field 'scheduler.minimumDailyBudget': 20 is above dailyBudget.min 10; allowed: 1...dailyBudget.min")
    }

    /// A variant's own bad value stays the scenario's even when the
    /// parameters file writes the same field at the same line and column:
    /// positions alone do not tell the two files apart, the value does.
    @Test func aVariantsValueAtTheParametersFilesPositionIsStillTheScenarios() throws {
        let variants = #""variants": [{"name": "v", "scheduler": {"pushDailyBudget": 0}}] }"#
        let scenario = #"{ "name": "s", "days": 1, "devices": [ { "id": "p", "widgets": [ { "id": "w", "provider": { "policy": "never" } } ] } ],"#
            + "\n" + variants + "\n"
        let column = variants.distance(from: variants.startIndex, to: variants.range(of: "0}}")!.lowerBound) + 1
        let patch = #""scheduler": {"pushDailyBudget": 5}}"#
        let padding = String(repeating: " ", count: column - 1 - patch.distance(from: patch.startIndex, to: patch.firstIndex(of: "5")!))
        let parameters = try ParametersFile.decode(Array(("{\n" + padding + patch + "\n").utf8), file: "p.json")
        do {
            _ = try ScenarioLoader.decodeDocument(Array(scenario.utf8), file: "s.json", catalog: .builtIn, parameters: parameters)
            Issue.record("the variant's 0 was accepted")
        } catch {
            #expect(error.description.hasPrefix("in variant 'v': s.json:2:\(column): field 'scheduler.pushDailyBudget': 0 is out of range"), "\(error)")
        }
    }

    /// A range written as one number (`"dailyBudget": 30`) is told the
    /// object to write instead, with its fields and their ranges.
    @Test func aRangeOfTheWrongTypeNamesTheObjectToWrite() {
        let budget = Self.error(Self.scenario(top: #" "scheduler": {"dailyBudget": 30},"#))
        #expect(budget?.description == #"test.json:2:48: field 'scheduler.dailyBudget' must be an object {"min": n, "max": n} (whole numbers 1...10000, either may be left out; min ≤ max), found a number"#)
        let calls = Self.error(Self.scenario(top: #" "scheduler": {"extraTimelineCalls": 2},"#))
        #expect(calls?.description.hasSuffix(#"must be an object {"min": n, "max": n} (whole numbers 0...10, min ≤ max), found a number"#) == true)
    }

    @Test func duplicateWidgetIdsAreRejected() {
        let error = Self.error(Self.scenario(widget: #""provider": {"policy": "never"} }, { "id": "w", "provider": {"policy": "never"}"#))
        #expect(error?.description.contains(#"duplicate widget id "w""#) == true)
    }

    @Test func aMissingScenarioFileIsReported() {
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(path: "/nonexistent/weather.json") }
        do {
            _ = try ScenarioLoader.load(path: Paths.packageRoot.appendingPathComponent("Scenarios/wether.json").path)
        } catch {
            guard case .fileNotFound(_, let suggestion, _) = error else { Issue.record("\(error)"); return }
            #expect(suggestion?.hasSuffix("Scenarios/weather.json") == true)
        }
    }

    /// A scenario that is a symbolic link to nothing is named as one, with
    /// the missing name it leads to, through a chain of links too: "no such
    /// file; did you mean" would suggest the very name given, which its
    /// directory lists.
    @Test func aScenarioThatIsALinkToNothingIsNamedAsOne() throws {
        let directory = Paths.temporaryDirectory("dangling-scenario")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let link = directory.appendingPathComponent("h.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "nowhere.json")
        #expect(throws: ScenarioError.unreadable(file: link, reason: "it is a symbolic link that leads to 'nowhere.json', which does not exist")) {
            try ScenarioLoader.load(path: link)
        }
        #expect(ScenarioLoader.suggestion(for: link) == nil)
        let chain = directory.appendingPathComponent("b.json").path
        try FileManager.default.createSymbolicLink(atPath: chain, withDestinationPath: "h.json")
        #expect(throws: ScenarioError.unreadable(file: chain, reason: "it is a symbolic link that leads to 'nowhere.json', which does not exist")) {
            try ScenarioLoader.load(path: chain)
        }
    }

    /// A scenario that is a loop of symbolic links is named as a loop: the
    /// name it leads to exists (it is the loop itself), so "leads to a name
    /// that does not exist" would be untrue.
    @Test func aScenarioThatIsALoopOfLinksIsNamedAsOne() throws {
        let directory = Paths.temporaryDirectory("loop-scenario")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("a.json").path
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "b.json")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("b.json").path, withDestinationPath: "a.json")
        #expect(throws: ScenarioError.unreadable(file: first, reason: "it is a loop of symbolic links")) {
            try ScenarioLoader.load(path: first)
        }
    }

    /// A loop in a directory on the way (`a/weather.json`, `a` → `b` → `a`)
    /// is named too: the system's own words, "too many symbolic links", do
    /// not say where to look.
    @Test func aScenarioBehindALoopOfLinkedDirectoriesIsNamedAsOne() throws {
        let directory = Paths.temporaryDirectory("loop-directory")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("a").path, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("b").path, withDestinationPath: "a")
        let path = directory.appendingPathComponent("a/weather.json").path
        #expect(throws: ScenarioError.unreadable(file: path, reason: "its path goes through a loop of symbolic links")) {
            try ScenarioLoader.load(path: path)
        }
    }
}

extension ScenarioLoadingTests {
    /// Reports and help texts describe every scheduler parameter a scenario
    /// may set, from one catalogue, in the same order.
    @Test func theParameterCatalogueListsEveryScenarioSchedulerField() {
        #expect(SchedulerParameters.catalogue.map(\.name) == ScenarioDecoder.schedulerFields)
    }

    /// Mistakes in items that do not depend on each other (two widgets, two
    /// devices, two variants) are all reported in one run, as a compiler
    /// reports them; a newcomer fixed a scenario one error per run.
    @Test func everyIndependentMistakeIsReportedAtOnce() throws {
        let text = """
            { "name": "several", "days": 2,
              "devices": [ { "id": "phone",
                "widgets": [ { "id": "a", "family": "systemMedum", "provider": { "policy": "atEnd" } },
                             { "id": "b", "provider": { "policy": "after", "after": "-5m" } },
                             { "id": "c", "provider": { "policy": "atEnd" } } ] },
                { "id": "pad", "widgets": [ { "id": "x", "provider": { "policy": "sometimes" } } ] } ] }
            """
        let error = try #require(Self.error(text))
        #expect(error.lines.count == 3, "\(error)")
        #expect(error.lines[0].contains("devices[0].widgets[0].family"))
        #expect(error.lines[1].contains("devices[0].widgets[1].provider.after"))
        #expect(error.lines[2].contains("devices[1].widgets[0].provider.policy"))
        #expect(error.description == error.lines.joined(separator: "\n"))
    }

    /// A widget names its page: when a page has an error, the widgets are
    /// not decoded, so no error is reported that only follows from another
    /// ("no page named ..." for the page that failed).
    @Test func noErrorIsReportedThatOnlyFollowsFromAnother() throws {
        let text = """
            { "name": "cascade", "days": 2,
              "devices": [ { "id": "phone", "pages": [ { "name": "home", "viewsPerDay": -1 }, { "name": "next", "viewsPerDay": "x" } ],
                "widgets": [ { "id": "a", "page": "home", "provider": { "policy": "atEnd" } } ] } ] }
            """
        let error = try #require(Self.error(text))
        #expect(error.lines.count == 2, "\(error)")
        #expect(error.lines.allSatisfy { $0.contains("pages[") }, "\(error)")
    }

    /// Each variant's mistakes are reported, a duplicate name among them even
    /// when the first variant of that name has an error of its own; a base
    /// with an error reports no variant's, which would only repeat it.
    @Test func eachVariantsMistakesAreReported() throws {
        let variants = #"[ { "name": "v1", "provider": { "after": "zz" } }, { "name": "v2", "scheduler": { "dailyBudget": -1 } }, { "name": "v1" } ]"#
        let error = try #require(Self.error(Self.scenario(top: #""variants": \#(variants),"#)))
        #expect(error.lines.count == 3, "\(error)")
        #expect(error.lines[0].hasPrefix("in variant 'v1': "))
        #expect(error.lines[1].hasPrefix("in variant 'v2': "))
        #expect(error.lines[2].contains("duplicate variant name \"v1\""))
        let badBase = try #require(Self.error(Self.scenario(widget: #""provider": {"policy": "sometimes"}"#, top: #""variants": \#(variants),"#)))
        #expect(badBase.lines.count == 1 && badBase.lines[0].contains("unknown policy"), "\(badBase)")
    }

    /// At most `ScenarioErrorList.maximum` errors are described; the rest are counted.
    @Test func aFloodOfMistakesIsCountedNotListed() throws {
        let widgets = (0..<25).map { #"{ "id": "w\#($0)", "provider": { "policy": "sometimes" } }"# }.joined(separator: ", ")
        let text = #"{ "name": "flood", "devices": [ { "id": "phone", "widgets": [ \#(widgets) ] } ] }"#
        let error = try #require(Self.error(text))
        #expect(error.lines.count == ScenarioErrorList.maximum + 1, "\(error)")
        #expect(error.lines.last == "5 more errors not shown")
    }

    /// A variant's patch applies to every widget, so one mistake in it fails
    /// once for each, at the patch's own place: it is one mistake, said once.
    /// And the cap holds across variants: 25 variants, each with its own
    /// mistake, show 20 and count 5.
    @Test func aVariantsOneMistakeIsSaidOnceAndTheCapHoldsAcrossVariants() throws {
        let widgets = (0..<3).map { #"{ "id": "w\#($0)", "provider": { "policy": "atEnd" } }"# }.joined(separator: ", ")
        let one = #"{ "name": "v", "devices": [ { "id": "phone", "widgets": [ \#(widgets) ] } ], "variants": [ { "name": "bad", "provider": { "policy": "sometimes" } } ] }"#
        let error = try #require(Self.error(one))
        #expect(error.lines.count == 1 && error.lines[0].hasPrefix("in variant 'bad': "), "\(error)")
        let variants = (0..<25).map { #"{ "name": "v\#($0)", "provider": { "policy": "bad\#($0)" } }"# }.joined(separator: ", ")
        let many = #"{ "name": "v", "devices": [ { "id": "phone", "widgets": [ \#(widgets) ] } ], "variants": [ \#(variants) ] }"#
        let capped = try #require(Self.error(many))
        #expect(capped.lines.count == ScenarioErrorList.maximum + 1, "\(capped)")
        #expect(capped.lines.last == "5 more errors not shown", "\(capped)")
    }

    /// An item claims its id before it is decoded, so a second item of that
    /// id is a duplicate in the same run even when the first fails.
    @Test func aDuplicateOfAnItemThatFailedIsReportedWithIt() throws {
        let text = #"{ "name": "d", "devices": [ { "id": "phone", "widgets": [ { "id": "w", "provider": { "policy": "bogus" } }, { "id": "w", "provider": { "policy": "atEnd" } } ] } ] }"#
        let error = try #require(Self.error(text))
        #expect(error.lines.count == 2, "\(error)")
        #expect(error.lines[0].contains("unknown policy \"bogus\"") && error.lines[1].contains("duplicate widget id \"w\""), "\(error)")
    }

    /// Errors come in the order they are written, whichever list is read first.
    @Test func errorsComeInFileOrder() throws {
        let text = """
            { "name": "o", "devices": [ { "id": "phone",
                "apps": [ { "id": "app", "sessionsPerDay": -1 } ],
                "pages": [ { "name": "home", "viewsPerDay": -5 } ],
                "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } } ] } ] }
            """
        let error = try #require(Self.error(text))
        #expect(error.lines.count == 2 && error.lines[0].contains("apps[0]") && error.lines[1].contains("pages[0]"), "\(error)")
    }

}
