import Foundation
import WidgetSim

/// How the time to read large inputs grows with their size: `widgetsim
/// check --reloads` on logs of 250,000, 500,000 and 1,000,000 rows, and
/// `widgetsim validate` on scenario files of about 4, 8 and 16 MiB (just
/// under the loader's cap), each shape of file in its own series.
///
/// Every run is the release binary in a child process, timed from spawn to
/// exit with its own peak resident memory; each size runs `repeats` times
/// and the median is quoted. The cost per row (or per byte) of each size is
/// divided by the smallest size's: 1.00 means linear, and a series is called
/// linear when its largest ratio is within 1.25.
///
/// Not promised: that a slow size finishes. A run past `timeLimit` is killed
/// and reported as "over N s", and the larger sizes of its series are not
/// run, since they would only take longer.
struct InputsBenchmark {
    var widgetsim: String
    /// Generated inputs go here (created, then removed unless `keepInputs`).
    var scratch: String
    var repeats: Int
    var timeLimit: Double
    var keepInputs = false

    static let logRows = [250_000, 500_000, 1_000_000]
    static let fileBytes = [
        ScenarioLoader.maximumFileBytes / 4, ScenarioLoader.maximumFileBytes / 2, ScenarioLoader.maximumFileBytes - 4_096,
    ]

    /// One input at one size.
    struct Case {
        var name: String
        var series: String
        var sizeLabel: String
        var contents: String
        /// Rows for `check`, bytes for `validate`.
        var units: Int
        var unit: String
        var runs: [TimedChild.Outcome] = []
        /// Not run, because a smaller size of its series was over the time limit.
        var skipped = false

        var timedOut: Bool { runs.contains(where: \.timedOut) }
        var measured: Bool { !skipped && !timedOut && !runs.isEmpty }
        var wall: Double { median(runs.map(\.wallSeconds)) }
        var costPerUnit: Double { wall / Double(units) }
        var peakRSSMiB: Double { Double(runs.map(\.peakRSSKiB).max() ?? 0) / 1024 }
    }

    /// Measures every series and prints the tables; returns the cases.
    @discardableResult
    func run() throws(BenchError) -> [Case] {
        guard FileManager.default.isExecutableFile(atPath: widgetsim) else {
            throw BenchError("no widgetsim binary at \(widgetsim); build it with 'swift build -c release --product widgetsim' or pass --widgetsim <path>", code: 66)
        }
        try? FileManager.default.removeItem(atPath: scratch)
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(scratch): \(error)", code: 73)
        }
        defer { if !keepInputs { try? FileManager.default.removeItem(atPath: scratch) } }

        var cases: [Case] = []
        cases += try series("check", sizes: InputsBenchmark.logRows) { rows throws(BenchError) in
            let path = "\(scratch)/reloads-\(rows).csv"
            let bytes = try ReloadsLogGenerator().write(rows: rows, to: path)
            let label = rows % 1_000_000 == 0 ? "\(rows / 1_000_000)m" : "\(rows / 1_000)k"
            let input = Case(name: "check-\(label)", series: "check",
                             sizeLabel: "\(DisplayText.grouped(rows)) rows", contents: "\(DisplayText.grouped(bytes)) bytes", units: rows, unit: "row")
            return (input, path, ["check", "--reloads", path], "\(path): every rule holds: \(rows) reloads ")
        }
        for shape in ScenarioFileGenerator.Shape.allCases {
            cases += try series("validate \(shape.rawValue)", sizes: InputsBenchmark.fileBytes) { target throws(BenchError) in
                let mebibytes = (target + (1 << 19)) >> 20
                let path = "\(scratch)/\(shape.rawValue)-\(mebibytes)mib.json"
                let (bytes, contents) = try ScenarioFileGenerator(shape: shape).write(targetBytes: target, to: path)
                let input = Case(name: "validate-\(shape.rawValue)-\(mebibytes)mib", series: "validate \(shape.rawValue)",
                                 sizeLabel: "\(mebibytes) MiB", contents: "\(contents); \(DisplayText.grouped(bytes)) bytes", units: bytes, unit: "byte")
                return (input, path, ["validate", path], "\(path): valid: ")
            }
        }
        report(cases)
        return cases
    }

    /// Generates and measures one series, size by size, deleting each input once measured.
    func series(
        _ name: String, sizes: [Int],
        make: (Int) throws(BenchError) -> (input: Case, path: String, arguments: [String], expected: String)
    ) throws(BenchError) -> [Case] {
        var cases: [Case] = []
        for size in sizes {
            progress("  generating \(name) at size \(size)...")
            var (input, path, arguments, expected) = try make(size)
            if cases.last?.timedOut == true || cases.last?.skipped == true {
                input.skipped = true
            } else {
                for attempt in 1...repeats {
                    progress("  running \(input.name) (\(input.sizeLabel), \(input.contents)), run \(attempt) of \(repeats)...")
                    let child = TimedChild(executable: widgetsim, arguments: arguments, outputPrefix: "\(scratch)/\(input.name)")
                    let outcome = try child.run(timeLimit: timeLimit)
                    input.runs.append(outcome)
                    if outcome.timedOut { break }
                    // A failing audit stops at the first violation, so it would time less than the whole input.
                    guard outcome.exitCode == 0, outcome.standardOutput.hasPrefix(expected) else {
                        let how = outcome.exitCode.map { "exit \($0)" } ?? "killed by a signal"
                        throw BenchError("\(input.name): widgetsim \(arguments.joined(separator: " ")) did not pass (\(how)): \(outcome.firstMessageLine)", code: 70)
                    }
                }
            }
            if !keepInputs { try? FileManager.default.removeItem(atPath: path) }
            cases.append(input)
        }
        return cases
    }

    func report(_ cases: [Case]) {
        print("")
        print("| input | size | contents | wall s | cost | ratio to smallest | peak RSS MiB |")
        print("|---|--:|---|--:|--:|--:|--:|")
        for input in cases {
            let smallest = cases.first { $0.series == input.series }!
            let wall: String
            let cost: String
            let ratio: String
            if input.skipped {
                (wall, cost, ratio) = ("not run", "—", "—")
            } else if input.timedOut {
                (wall, cost, ratio) = ("over \(format(timeLimit, 0))", "—", "—")
            } else {
                wall = format(input.wall, 2)
                cost = describeCost(input)
                ratio = smallest.measured ? format(input.costPerUnit / smallest.costPerUnit, 2) : "—"
            }
            let memory = input.skipped ? "—" : format(input.peakRSSMiB, 1)
            print("| \(input.name) | \(input.sizeLabel) | \(input.contents) | \(wall) | \(cost) | \(ratio) | \(memory) |")
        }

        print("")
        print("Cost per row or byte, relative to the smallest size of each series (1.00 means linear; linear if every ratio is within 1.25):")
        var names: [String] = []
        for input in cases where !names.contains(input.series) { names.append(input.series) }
        for name in names {
            let members = cases.filter { $0.series == name }
            let ratios = members.map { $0.measured && members[0].measured ? format($0.costPerUnit / members[0].costPerUnit, 2) : $0.timedOut ? "over \(format(timeLimit, 0)) s" : "not run" }
            let verdict: String
            if let slow = members.first(where: { !$0.measured }) {
                verdict = "NOT linear: \(slow.sizeLabel) took over \(format(timeLimit, 0)) s"
            } else {
                let worst = members.map { $0.costPerUnit / members[0].costPerUnit }.max()!
                verdict = worst <= 1.25 ? "linear (worst \(format(worst, 2)))" : "NOT linear (worst \(format(worst, 2)))"
            }
            print("  \(name): \(ratios.joined(separator: " / ")) — \(verdict)")
        }

        print("")
        print("Peak RSS is each child's own, but on Linux it cannot read below this program's own peak, \(format(Double(peakRSSKiB()) / 1024, 1)) MiB,")
        print("which the kernel carries across exec; inputs are streamed to disk to keep it small.")
        print("")
        for input in cases {
            let key = "bench.\(input.name)"
            if input.skipped {
                print("\(key).not_run=1")
            } else if input.timedOut {
                print("\(key).over_s=\(format(timeLimit, 0)) \(key).peak_rss_mib=\(format(input.peakRSSMiB, 1))")
            } else {
                let smallest = cases.first { $0.series == input.series }!
                let perUnit = input.unit == "row" ? "ns_per_row=\(format(input.costPerUnit * 1e9, 1))" : "ns_per_byte=\(format(input.costPerUnit * 1e9, 2))"
                print("\(key).wall_s=\(format(input.wall, 3)) \(key).\(perUnit) \(key).ratio=\(format(input.costPerUnit / smallest.costPerUnit, 2)) \(key).peak_rss_mib=\(format(input.peakRSSMiB, 1))")
            }
        }
    }

    func describeCost(_ input: Case) -> String {
        input.unit == "row"
            ? "\(format(input.costPerUnit * 1e6, 2)) µs/row"
            : "\(format(input.costPerUnit * 1e9, 1)) ns/byte"
    }
}
