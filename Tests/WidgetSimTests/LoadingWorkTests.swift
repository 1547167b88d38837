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

    /// A scripted reload or fleet moment naming a kind none of the app's
    /// 200 widgets has is warned of with a "did you mean", which compares
    /// the kind with each of the 200: it is worked out once for each wrong
    /// kind in the file, however often the script and the moments name it
    /// and however many variants decode the file again, and for at most
    /// `KindHints.maximum` kinds (a 54 KB file of 100 such reloads and 64
    /// variants took 39 s when each decoding worked them all out).
    @Test func aWrongKindsHintIsWorkedOutOnceInTheFile() throws {
        func hints(distinct: Int, repeats: Int) throws -> (workedOut: Int, warnings: Int) {
            let widgets = (0..<200).map { #"{ "id": "w\#($0)", "kind": "com.example.kind-\#($0)", "app": "a", "provider": { "policy": "never" } }"# }
            let script = (0..<(distinct * repeats)).map { #"{ "at": "1h", "action": "reloadTimelines", "app": "a", "kind": "com.example.kinb-\#($0 % distinct)" }"# }
            let moments = (0..<repeats).map { #"{ "at": "2h", "share": 0.5, "action": "reloadTimelines", "app": "a", "kind": "com.example.kinb-\#($0 % distinct)" }"# }
            let variants = (0..<8).map { #"{ "name": "v\#($0)", "scheduler": { "coalescingWindow": "\#($0 + 1)m" } }"# }
            let device = #"{ "id": "p", "apps": [ { "id": "a" } ], "widgets": [ \#(widgets.joined(separator: ", ")) ], "script": [ \#(script.joined(separator: ", ")) ] }"#
            let fleet = #"{ "devices": 10, "device": { "apps": [ { "id": "a" } ], "widgets": [ \#(widgets.joined(separator: ", ")) ] }, "moments": [ \#(moments.joined(separator: ", ")) ] }"#
            let count = OperationCount()
            var warnings = 0
            for population in [#""devices": [ \#(device) ]"#, #""fleet": \#(fleet)"#] {
                let text = #"{ "name": "kinds", "days": 1, \#(population), "variants": [ \#(variants.joined(separator: ", ")) ] }"#
                warnings += try KindHints.$workedOut.withValue(count) { try ScenarioLoader.decodeDocument(text, file: "k.json") }.warnings.count
            }
            return (count.value, warnings)
        }
        let few = try hints(distinct: 3, repeats: 40)
        // Each file works out each wrong kind once: 3 in the devices' file, 3 in the fleet's.
        #expect(few.workedOut == 6)
        #expect(few.warnings > 120)
        // 120 wrong kinds in the devices' file: only the first 100 get a hint
        // (the fleet's file has one moment, so one wrong kind).
        let many = try hints(distinct: KindHints.maximum + 20, repeats: 1)
        #expect(many.workedOut == KindHints.maximum + 1)
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
