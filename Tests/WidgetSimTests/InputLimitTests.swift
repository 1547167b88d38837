import Foundation
import Testing
@testable import WidgetSim

/// Every input is read within documented limits, in linear time, and no
/// number read can make arithmetic trap: an attacker's file gets an error,
/// never a crash, a hang or an exhausted machine.
@Suite("Input limits")
struct InputLimitTests {
    static func parseError(_ text: String) -> String? {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: JSON

    @Test func anArrayPastTheLimitIsAnError() {
        let text = "[" + Array(repeating: "0", count: JSONParser.maximumArrayCount + 1).joined(separator: ",") + "]"
        #expect(Self.parseError(text)?.contains("an array of more than \(JSONParser.maximumArrayCount) values") == true)
        let fits = "[" + Array(repeating: "0", count: JSONParser.maximumArrayCount).joined(separator: ",") + "]"
        #expect(Self.parseError(fits) == nil)
    }

    @Test func anObjectPastTheLimitIsAnError() {
        let text = "{" + (0...JSONParser.maximumObjectMembers).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
        #expect(Self.parseError(text)?.contains("an object with more than \(JSONParser.maximumObjectMembers) fields") == true)
    }

    @Test func aDuplicateKeyIsFoundInALargeObject() {
        let keys = (0..<5_000).map { "\"k\($0)\":0" } + ["\"k4321\":1"]
        #expect(Self.parseError("{" + keys.joined(separator: ",") + "}")?.contains("duplicate field \"k4321\"") == true)
    }

    @Test func aStringPastTheLimitIsAnError() {
        let text = "\"" + String(repeating: "a", count: JSONParser.maximumStringBytes + 1) + "\""
        #expect(Self.parseError(text)?.contains("a string longer than \(JSONParser.maximumStringBytes) bytes") == true)
    }

    @Test func nestingPastTheLimitIsAnError() {
        let text = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(Self.parseError(text) != nil)
    }

    // MARK: Files

    @Test func aNamedPipeIsRefusedAtOnce() throws {
        let directory = Paths.temporaryDirectory("fifo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pipe.json").path
        #expect(mkfifo(path, 0o600) == 0)
        // Nobody writes to the pipe: a blocking open would never return.
        #expect(throws: InputFileError.notRegular(path: path, kind: "a named pipe (FIFO)")) {
            _ = try InputFile.bytes(at: path, limit: 1_024)
        }
    }

    @Test func aDirectoryAMissingFileAndALargeFileAreRefusedInPlainWords() throws {
        let directory = Paths.temporaryDirectory("files")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: InputFileError.notRegular(path: directory.path, kind: "a directory")) {
            _ = try InputFile.bytes(at: directory.path, limit: 1_024)
        }
        let missing = directory.appendingPathComponent("missing").path
        #expect(throws: InputFileError.missing(path: missing)) { _ = try InputFile.bytes(at: missing, limit: 1_024) }
        let large = directory.appendingPathComponent("large")
        try Data(repeating: 32, count: 1_025).write(to: large)
        #expect(throws: InputFileError.tooLarge(path: large.path, limit: 1_024)) { _ = try InputFile.bytes(at: large.path, limit: 1_024) }
        #expect(try InputFile.bytes(at: large.path, limit: 1_025).count == 1_025)
    }

    @Test func utf16TextIsNamedAsSuch() {
        #expect(InputFile.encodingProblem([0xFF, 0xFE, 0x7B, 0x00])?.contains("UTF-16") == true)
        #expect(InputFile.encodingProblem([0x7B, 0x00, 0x7D, 0x00])?.contains("UTF-16") == true)
        #expect(InputFile.encodingProblem([0xC3, 0x28]) == "the file is not UTF-8 text")
        #expect(InputFile.encodingProblem(Array("{\"name\": \"é\"}".utf8)) == nil)
    }

    /// UTF-32's little-endian byte-order mark begins with UTF-16's, and its
    /// text with zero bytes: it is named as UTF-32, either byte order.
    @Test func utf32TextIsNamedAsSuchNotAsUTF16() {
        #expect(InputFile.encodingProblem([0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00])?.contains("is UTF-32 text") == true)
        #expect(InputFile.encodingProblem([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x7B])?.contains("is UTF-32 text") == true)
        #expect(InputFile.encodingProblem([0xFF, 0xFE, 0x7B, 0x00, 0x00, 0x00])?.contains("is UTF-16 text") == true)
    }

    // MARK: Numbers

    @Test func digitsAreReadStrictly() {
        #expect(DecimalDigits.unsigned("07", width: 2) == 7)
        #expect(DecimalDigits.unsigned("+7") == nil)
        #expect(DecimalDigits.unsigned("7", width: 2) == nil)
        #expect(DecimalDigits.unsigned("") == nil)
        #expect(DecimalDigits.unsigned("9223372036854775807") == Int.max)
        #expect(DecimalDigits.unsigned("9223372036854775808") == nil)
        #expect(DecimalDigits.signed("-12") == -12)
        #expect(DecimalDigits.signed("--1") == nil)
        #expect(DecimalDigits.signed("-9223372036854775808") == nil)
        #expect(DecimalDigits.signed("5", in: 0...4) == nil)
    }

    @Test func offsetsClockTimesAndStartDatesAreParsedStrictly() {
        func error(_ top: String = "", user: String = "") -> ScenarioError? {
            let text = """
                { "name": "t",\(top) "devices": [ { "id": "p",\(user) "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } } ] } ] }
                """
            do {
                _ = try ScenarioLoader.decode(text, file: "t.json")
                return nil
            } catch {
                return error
            }
        }
        #expect(error(#" "utcOffset": "+-1:00","#) != nil)
        #expect(error(#" "utcOffset": "+01:00","#) == nil)
        #expect(error(user: #" "user": { "wake": "+7:00" },"#) != nil)
        #expect(error(user: #" "user": { "wake": "07:00" },"#) == nil)
        #expect(error(#" "start": "0026-03-02","#) != nil)
        #expect(error(#" "start": "2026-+3-02","#) != nil)
        #expect(error(#" "start": "2999-12-31","#) == nil)
        #expect(error(#" "start": "3000-01-01","#) != nil)
    }

    @Test func emptyListsThatMeanNothingAreRefused() throws {
        let fleet = try String(contentsOfFile: Paths.scenario("fleet-weather"), encoding: .utf8)
        func fleetError(_ sets: String) -> String? {
            guard let range = fleet.range(of: #""widgetSets""#) else { return "no widgetSets in fleet-weather" }
            // Replace the whole widgetSets value: from the key to the end of its array.
            let afterKey = fleet[range.upperBound...]
            guard let open = afterKey.firstIndex(of: "[") else { return "malformed" }
            var depth = 0
            var close = open
            for index in afterKey[open...].indices {
                if afterKey[index] == "[" { depth += 1 }
                if afterKey[index] == "]" { depth -= 1 }
                if depth == 0 { close = index; break }
            }
            let text = String(fleet[..<open]) + sets + String(fleet[fleet.index(after: close)...])
            do {
                _ = try ScenarioLoader.decode(text, file: "f.json")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(fleetError("[]")?.contains("the list is empty") == true)
        #expect(fleetError(#"[ { "widgets": [] } ]"#)?.contains("the list is empty") == true)
        #expect(fleetError(#"[ { "widgets": ["forecast"], "weight": 0 } ]"#)?.contains("every weight is 0") == true)
    }
}

/// Found by a red-team review (2026-11-27): a scenario may raise
/// `maximumReliableEntries` to 10,000 and space entries 30 days apart, so an
/// `atEnd` timeline can end 800 years on, past the 2^32 seconds the event
/// queue holds; asking for that reload stopped the run.
@Suite("Far timelines")
struct FarTimelineTests {
    @Test func aTimelineEndingPastTheQueuesReachIsEligibleAtItsReach() throws {
        let setup = try ScenarioLoader.decode("""
            { "name": "far", "days": 2, "scheduler": { "maximumReliableEntries": 2000 },
              "devices": [ { "id": "phone",
                "widgets": [ { "id": "w", "provider": { "entries": 2000, "entrySpacing": "30d", "policy": "atEnd" } } ],
                "script": [ { "at": "1d", "action": "systemChange" } ] } ] }
            """, file: "far.json")
        let run = try Simulation.run(setup)
        // The first call and the free reload the script's change brings.
        #expect(run.reloads.count == 2)
        for reload in run.reloads {
            #expect(reload.result == .ok)
            #expect(reload.nextEligible == EventQueue<DeviceEvent>.maximumTime)
        }
    }
}

/// Found by `make mutate` (mutant 13628): a rate that underflows gives no
/// arrival instead of an infinite gap converted to Int.
@Suite("Arrival rates")
struct ArrivalRateTests {
    /// About 1e-320, a subnormal (written so, as the literal would warn that it loses precision).
    @Test func aRateTooSmallToArriveGivesNoArrival() {
        var random = StreamSeed(1).stream()
        let calendar = CivilCalendar(startEpochSeconds: 0, utcOffsetSeconds: 0)
        #expect(ArrivalProcess.nextArrival(
            after: 0, start: 0, end: Seconds.day, expected: .leastNonzeroMagnitude * 2_024, totalWeight: Double(Seconds.day), shape: nil,
            calendar: calendar, random: &random) == nil)
    }

    /// A stream whose next 64 bits are all zero, so that its next
    /// exponential draw is exactly 0 (xoshiro256** returns 0 when its second
    /// word is 0): a draw that comes about once in 2^53.
    static func streamDrawingZero() -> RandomStream {
        var random = StreamSeed(1).stream()
        random._s1 = 0
        return random
    }

    /// Hours 0–11 have no activity, hours 12–23 some: a draw of exactly 0
    /// from midnight must arrive when activity starts, at noon, not at
    /// midnight (before, it divided 0 by a rate of 0 and trapped).
    @Test func aDrawOfZeroArrivesInTheFirstHourWithActivity() {
        let calendar = CivilCalendar(startEpochSeconds: 0, utcOffsetSeconds: 0)
        let shape = (0..<24).map { $0 < 12 ? 0.0 : 1.0 }
        var random = Self.streamDrawingZero()
        #expect(random.nextExponential(mean: 1) == 0)
        random = Self.streamDrawingZero()
        #expect(ArrivalProcess.nextArrival(
            after: -1, start: 0, end: Seconds.day, expected: 10, totalWeight: 12 * Double(Seconds.hour), shape: shape,
            calendar: calendar, random: &random) == 12 * Seconds.hour)
        random = Self.streamDrawingZero()
        let prepared = PreparedArrivals(start: 0, end: Seconds.day, expected: 10, totalWeight: 12 * Double(Seconds.hour))
        #expect(prepared.next(after: -1, calendar: calendar, random: &random) { prepared.hourlyRate(shape: shape[$0]) }
            == 12 * Seconds.hour)
    }
}
