import Testing
@testable import WidgetSim

/// Reading a scenario does work in proportion to the file, whatever its
/// shape: checked by counting operations on files of two sizes, never by
/// timing (speed is measured only by `make bench`, whose `validate` series
/// found the case below).
@Suite("Loading work grows linearly")
struct LoadingWorkTests {
    /// A valid one-day scenario whose script has `actions` views, each at a
    /// bare number of seconds (so each warns), and two variants, each of
    /// which decodes the whole file again and repeats every warning.
    static func scenario(actions: Int) -> String {
        let script = (0..<actions).map { #"{ "at": \#(10 * $0 + 7), "action": "view", "page": "home" }"# }
        return """
            {
              "name": "warned",
              "days": 1,
              "devices": [
                {
                  "id": "phone",
                  "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } } ],
                  "script": [
                    \(script.joined(separator: ",\n        "))
                  ]
                }
              ],
              "variants": [
                { "name": "spaced", "scheduler": { "minimumSpacing": "15m" } },
                { "name": "late", "user": { "wake": "08:00" } }
              ]
            }
            """
    }

    /// The equality tests of warnings made while loading the scenario of
    /// `actions` actions, and the warnings it gets.
    static func work(actions: Int) throws -> (equalityTests: Int, warnings: Int) {
        let count = OperationCount()
        let document = try ScenarioWarning.$equalityTests.withValue(count) {
            try ScenarioLoader.decodeDocument(scenario(actions: actions), file: "warned.json")
        }
        return (count.value, document.warnings.count)
    }

    /// Each warning was once checked against every earlier one (in each of
    /// the three decodings, and again against the base's for each variant):
    /// 500 bare-number instants cost 0.6 million comparisons, 2,000 cost 10
    /// million, and the 16 MiB script file of `make bench-inputs`, some
    /// 100,000 warnings, took minutes. A hash set makes it about ten per warning.
    @Test func warningsAreComparedAFewTimesEachNotWithEveryEarlierOne() throws {
        let small = try Self.work(actions: 500)
        let large = try Self.work(actions: 2_000)
        // Every action warns once; the variants' repeats are not shown again.
        #expect(small.warnings == 500)
        #expect(large.warnings == 2_000)
        // Four times the warnings, about four times the comparisons (a
        // quadratic check makes it sixteen), and about ten per warning (11
        // measured): each is looked up five times (three decodings, two
        // variants' filters), each lookup comparing it with the occupied
        // slots of its probe sequence. The hash seed changes from run to run,
        // so the counts vary a little (ratios of 3.9 to 4.6 measured).
        #expect(large.equalityTests <= 6 * max(small.equalityTests, small.warnings))
        #expect(large.equalityTests <= 25 * large.warnings)
    }

    /// The count is the equality the log and the variants rely on: warnings
    /// that differ in any field are different, and are each shown.
    @Test func equalWarningsAreThoseEqualInEveryField() {
        let warning = ScenarioWarning(file: "f.json", field: "days", line: 2, column: 3, message: "m")
        #expect(Mirror(reflecting: warning).children.count == 6, "== and hash(into:) must name every stored property")
        var others: [ScenarioWarning] = []
        for change in 0..<6 {
            var other = warning
            switch change {
            case 0: other.file = "g.json"
            case 1: other.field = "seed"
            case 2: other.line = 4
            case 3: other.column = 5
            case 4: other.message = "n"
            default: other.variant = "v"
            }
            others.append(other)
            #expect(other != warning)
        }
        #expect(Set(others + [warning]).count == 7)
        let count = OperationCount()
        ScenarioWarning.$equalityTests.withValue(count) { _ = warning == warning }
        #expect(count.value == 1)
    }
}
