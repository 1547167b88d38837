import Foundation
import Testing
@testable import WidgetSimCLI
import WidgetSim

/// The `widgetsim` executable, run as a user would: output, files and exit codes.
@Suite("Command line")
struct CommandLineTests {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the built binary with `arguments` in `directory` (the package root unless given).
    static func widgetsim(_ arguments: [String], in directory: URL = Paths.packageRoot) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: Paths.binary.path) else {
            throw CLITestError.binaryMissing(Paths.binary.path)
        }
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    enum CLITestError: Error, CustomStringConvertible {
        case binaryMissing(String)
        var description: String {
            switch self {
            case .binaryMissing(let path): return "\(path) is missing: run 'swift build' first ('make test' does)"
            }
        }
    }

    @Test func simulateWritesTheReportsTheirChartsAndRules() throws {
        let out = Paths.temporaryDirectory("simulate")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try Self.widgetsim(["simulate", "weather", "--out", out.path, "--days", "2"])
        #expect(result.status == 0, "\(result.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["daily.csv", "parameters.csv", "reloads.csv", "staleness-by-hour.svg", "staleness.svg", "summary.md", "timeline-phone-forecast.svg", "views.csv"])
        let reloads = try String(contentsOf: out.appendingPathComponent("reloads.csv"), encoding: .utf8)
        #expect(reloads.hasPrefix("seconds,time,device,widget,kind,trigger,budgeted,budget_used_24h,budget_limit,waited_seconds,result,entries,policy,next_eligible_seconds\n"))
        #expect(result.output.contains("weather: 2 days"))
    }

    /// Counts read as English: one day, one device, one widget.
    @Test func aCountOfOneTakesTheSingular() throws {
        let out = Paths.temporaryDirectory("singular")
        defer { try? FileManager.default.removeItem(at: out) }
        let simulated = try Self.widgetsim(["simulate", "weather", "--out", out.path, "--days", "1"])
        #expect(simulated.status == 0, "\(simulated.errors)")
        #expect(simulated.output.contains("weather: 1 day, 1 device, 1 widget, seed"), "\(simulated.output)")
        #expect(DisplayText.counted(2, "day") == "2 days")
        #expect(DisplayText.counted(0, "shard") == "0 shards")
        #expect(DisplayText.counted(1, "entry", plural: "entries") == "1 entry")
    }

    /// The command a sensitivity report gives to reproduce it writes the same
    /// report: it names the scenario file that ran and the parameters file
    /// merged in, not the scenario's name.
    @Test func aSensitivityReportsReproduceCommandReproducesIt() throws {
        let first = Paths.temporaryDirectory("sensitivity-first")
        let second = Paths.temporaryDirectory("sensitivity-second")
        let inputs = Paths.temporaryDirectory("sensitivity-inputs")
        defer {
            for directory in [first, second, inputs] { try? FileManager.default.removeItem(at: directory) }
        }
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let scenario = inputs.appendingPathComponent("my-weather.json").path
        try FileManager.default.copyItem(atPath: Paths.scenario("weather"), toPath: scenario)
        let parameters = inputs.appendingPathComponent("phone.json").path
        try #"{ "scheduler": { "minimumSpacing": "10m" } }"#.write(toFile: parameters, atomically: true, encoding: .utf8)
        let ran = try Self.widgetsim([
            "sensitivity", scenario, "--parameters", parameters, "--runs", "1", "--trajectories", "0", "--seed", "5", "--days", "1",
            "--out", first.path, "-q",
        ])
        #expect(ran.status == 0, "\(ran.errors)")
        let report = try String(contentsOf: first.appendingPathComponent("sensitivity.md"), encoding: .utf8)
        let marker = "Reproduce with `widgetsim "
        let start = try #require(report.range(of: marker)).upperBound
        let end = try #require(report[start...].firstIndex(of: "`"))
        let arguments = report[start..<end].split(separator: " ").map(String.init)
        #expect(arguments.starts(with: ["sensitivity", scenario, "--parameters", parameters]), "\(arguments)")
        #expect(arguments.contains("--seed") && arguments.contains("--days"), "\(arguments)")
        let again = try Self.widgetsim(arguments + ["--out", second.path, "-q"])
        #expect(again.status == 0, "\(again.errors)")
        let reproduced = try String(contentsOf: second.appendingPathComponent("sensitivity.md"), encoding: .utf8)
        #expect(reproduced == report)
    }

    /// The reproducing command survives a shell: a path with a space, a
    /// quote, a `$`, a `|` or a backtick is quoted, and the code span it
    /// sits in is fenced so that nothing in it ends the span; pasted into
    /// /bin/sh, it writes the same report.
    @Test func aSensitivityReportsReproduceCommandSurvivesAShell() throws {
        let inputs = Paths.temporaryDirectory("sensitivity-quoting")
        defer { try? FileManager.default.removeItem(at: inputs) }
        let odd = inputs.appendingPathComponent("my dir")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        let scenario = odd.appendingPathComponent("it's $HOME|`x`.json").path
        try FileManager.default.copyItem(atPath: Paths.scenario("weather"), toPath: scenario)
        let parameters = odd.appendingPathComponent("p 1.json").path
        try #"{ "scheduler": { "minimumSpacing": "10m" } }"#.write(toFile: parameters, atomically: true, encoding: .utf8)
        let first = inputs.appendingPathComponent("first").path
        let ran = try Self.widgetsim(["sensitivity", scenario, "--parameters", parameters, "--runs", "1", "--trajectories", "0", "--days", "1", "--out", first, "-q"])
        #expect(ran.status == 0, "\(ran.errors)")
        let report = try String(contentsOfFile: first + "/sensitivity.md", encoding: .utf8)
        let marker = "Reproduce with "
        let afterMarker = try #require(report.range(of: marker)).upperBound
        let fence = String(report[afterMarker...].prefix { $0 == "`" })
        #expect(fence == "``", "\(report[afterMarker...].prefix(200))")
        let spanStart = report.index(afterMarker, offsetBy: fence.count)
        let spanEnd = try #require(report.range(of: fence, range: spanStart..<report.endIndex)).lowerBound
        let command = report[spanStart..<spanEnd].trimmingCharacters(in: .whitespaces)
        #expect(command.hasPrefix("widgetsim sensitivity '\(odd.path)/it'\\''s $HOME|`x`.json' --parameters '\(odd.path)/p 1.json' "), "\(command)")

        let second = inputs.appendingPathComponent("second").path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$0\" " + command.dropFirst("widgetsim ".count) + " --out \"$1\" -q", Paths.binary.path, second]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(try String(contentsOfFile: second + "/sensitivity.md", encoding: .utf8) == report)
    }

    /// An output path that cannot be written is named as given, never by the
    /// scratch paths beside it. /proc refuses new files even to root.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self")))
    func anUnwritableOutputIsNamedAsGiven() throws {
        let result = try Self.widgetsim(["simulate", "weather", "--days", "1", "--out", "/proc/widgetsim-reports"])
        #expect(result.status == 73)
        #expect(result.errors.hasPrefix("error: /proc/widgetsim-reports: cannot create the report directory: "), "\(result.errors)")
        #expect(!result.errors.contains(".widgetsim-run-"), "\(result.errors)")
    }

    /// Standard output that cannot be written (a full disk) is a failed run,
    /// exit 74; a closed pipe (`| head -1`) is not.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aListThatCannotBeWrittenExits74AndAClosedPipeIsNoFailure() throws {
        let list = try Self.widgetsimWritingToAFullDisk(["list"])
        #expect(list.status == 74)
        #expect(list.errors.hasPrefix("error: standard output: "), "\(list.errors)")

        // A command that fails on its own (check finding a broken rule, exit 1)
        // keeps its code, and still says that its standard output was lost.
        let log = Paths.temporaryDirectory("full").appendingPathComponent("phone.csv")
        defer { try? FileManager.default.removeItem(at: log.deletingLastPathComponent()) }
        #expect(try Self.widgetsim(["simulate", "weather", "--days", "2", "--out", log.deletingLastPathComponent().appendingPathComponent("r").path,
                                    "--device-log", log.path]).status == 0)
        let broken = try Self.widgetsimWritingToAFullDisk(["check", "--device-log", log.path, "--minimum-spacing", "2h"])
        #expect(broken.status == 1)
        #expect(broken.errors.contains("rule violated") && broken.errors.contains("error: standard output: "), "\(broken.errors)")

        let closed = Process()
        closed.executableURL = Paths.binary
        closed.arguments = ["list"]
        closed.currentDirectoryURL = Paths.packageRoot
        let pipe = Pipe()
        closed.standardOutput = pipe
        closed.standardError = Pipe()
        try pipe.fileHandleForReading.close()
        try closed.run()
        closed.waitUntilExit()
        #expect(closed.terminationStatus == 0)
    }

    /// Runs the built binary with its standard output on /dev/full, as on a full disk.
    static func widgetsimWritingToAFullDisk(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = arguments
        process.currentDirectoryURL = Paths.packageRoot
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: "", errors: message)
    }

    /// An error that quotes a huge value stays one readable line: its start
    /// (file and field) and its end (what is allowed) are kept.
    @Test func anErrorQuotingAHugeValueKeepsItsStartAndEnd() throws {
        let directory = Paths.temporaryDirectory("huge-value")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("huge.json")
        try #"{ "name": "huge", "days": \#(String(repeating: "9", count: 100_000)), "devices": [] }"#.write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.widgetsim(["validate", file.path])
        #expect(result.status == 65)
        let line = result.errors.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.count < 2_200, "\(line.count)")
        #expect(line.hasPrefix("error: \(file.path):") && line.contains("characters cut") && line.hasSuffix("whole numbers 1...366"), "\(line.suffix(200))")
    }

    /// An error is one line, whatever it quotes: a newline in a value (here
    /// a widget's kind) is shown as an escape, so the rest cannot pass for
    /// an error of its own.
    @Test func anErrorQuotingANewlineStaysOneLine() throws {
        let directory = Paths.temporaryDirectory("newline-value")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("nl.json")
        try #"{ "name": "nl", "devices": [ { "id": "p", "widgets": [ { "id": "w", "kind": "k\nerror: forged", "provider": { "policy": "never" } } ] } ] }"#
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.widgetsim(["validate", file.path])
        #expect(result.status == 65)
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        #expect(result.errors.contains(#""k\u{A}error: forged" is not a usable identifier"#), "\(result.errors)")
    }

    /// One widget's comparison has one directory, whichever way it is named.
    @Test func aWidgetNamedWithItsDeviceGoesWhereItsBareIDGoes() throws {
        let directory = Paths.temporaryDirectory("widget-directory")
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = [
            "compare", Paths.scenario("home-screen"), "--widget", "phone/headlines", "--runs", "1", "--days", "1",
            "--no-sweep", "--no-sensitivity", "-q",
        ]
        process.currentDirectoryURL = directory
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("Reports").path) == ["home-screen-headlines"])
    }

    /// Two widgets never share a default directory: a widget named with its
    /// device goes to Reports/<scenario>-<device>+<id>, and ids hold no "+",
    /// so `a-b/c` and `a/b-c` (both "a-b-c" with a "-") get one each.
    @Test func twoWidgetsNeverShareADefaultDirectory() throws {
        let directory = Paths.temporaryDirectory("widget-directories")
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
            { "name": "col", "days": 1, "devices": [
              { "id": "a-b", "widgets": [ { "id": "c", "provider": { "policy": "after", "after": "30m" } } ] },
              { "id": "a", "widgets": [ { "id": "b-c", "provider": { "policy": "after", "after": "2h" } } ] } ],
              "variants": [ { "name": "v", "provider": { "after": "1h" } } ] }
            """.write(to: directory.appendingPathComponent("col.json"), atomically: true, encoding: .utf8)
        for widget in ["a-b/c", "a/b-c"] {
            let process = Process()
            process.executableURL = Paths.binary
            process.arguments = ["compare", "col.json", "--widget", widget, "--runs", "1", "--no-sweep", "--no-sensitivity", "-q"]
            process.currentDirectoryURL = directory
            process.standardError = Pipe()
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(widget)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("Reports").path).sorted() == ["col-a+b-c", "col-a-b+c"])
    }

    /// A report whose files together would take more memory than the process
    /// may plan on is refused before any is read (an allocation past the
    /// limit aborts); files are sparse, so the test costs nothing.
    @Test func aCheckTooLargeForMemoryIsRefusedBeforeReading() throws {
        let directory = Paths.temporaryDirectory("check-memory")
        defer { try? FileManager.default.removeItem(at: directory) }
        let budget = Double(RunLimits.memoryLimitBytes) / CheckCommand.memoryPerInputByte
        let file = directory.appendingPathComponent("reloads.csv").path
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        #expect(truncate(file, off_t(budget * 0.6)) == 0)
        #expect(CheckCommand.memoryRefusal([file]) == nil)
        let other = directory.appendingPathComponent("views.csv").path
        #expect(FileManager.default.createFile(atPath: other, contents: nil))
        #expect(truncate(other, off_t(budget * 0.6)) == 0)
        #expect(CheckCommand.memoryRefusal([file, other]) != nil)
    }

    @Test func anUnknownOptionSuggestsTheNearestOneAndExits64() throws {
        let result = try Self.widgetsim(["simulate", "weather", "--sede", "3"])
        #expect(result.status == 64)
        #expect(result.errors.contains("unknown option '--sede' for 'simulate'; did you mean '--seed'?"))
    }

    @Test func anUnknownCommandSuggestsTheNearestOneAndExits64() throws {
        let result = try Self.widgetsim(["simulat", "weather"])
        #expect(result.status == 64)
        #expect(result.errors.contains("did you mean 'simulate'?"))
    }

    /// simulate, compare and fleet each take exactly one <scenario>, and say so the same way.
    @Test(arguments: ["simulate", "compare", "fleet"])
    func aScenarioCommandNeedsExactlyOneScenarioAndExits64(command: String) throws {
        let missing = try Self.widgetsim([command])
        #expect(missing.status == 64)
        #expect(missing.errors.contains("missing <scenario>: a scenario name or a path to a .json file"))
        let two = try Self.widgetsim([command, "weather", "news"])
        #expect(two.status == 64)
        #expect(two.errors.contains("expected one <scenario>, got 2: weather news"))
    }

    /// Every option takes one value: given twice, it is refused (64) with
    /// both values, never read as the last one (a comparison of 'ticker'
    /// when 'headlines' was asked for too).
    @Test func anOptionGivenTwiceIsRefused() throws {
        let result = try Self.widgetsim(["compare", "home-screen", "--widget", "headlines", "--widget=ticker", "--out", "/nonexistent/c"])
        #expect(result.status == 64)
        #expect(result.errors.contains("option '--widget' given twice ('headlines', then 'ticker'); it takes one value"), "\(result.errors)")
    }

    /// A run prints at most 20 of a scenario's warnings and counts the rest,
    /// so that a large scenario's repeated mistake does not bury the run's
    /// output; `validate`, which is for checking files, prints them all.
    @Test func aRunShowsTwentyWarningsAndCountsTheRestWhileValidateShowsAll() throws {
        let directory = Paths.temporaryDirectory("many-warnings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let widgets = (0..<25).map { #"{ "id": "w\#($0)", "provider": {"policy": "after", "after": "1m"} }"# }
        let scenario = directory.appendingPathComponent("many.json")
        try #"{ "name": "many", "days": 1, "devices": [ { "id": "phone", "widgets": [ \#(widgets.joined(separator: ", ")) ] } ] }"#
            .write(to: scenario, atomically: true, encoding: .utf8)
        func warnings(_ text: String) -> [Substring] { text.split(separator: "\n").filter { $0.hasPrefix("warning: ") } }
        let run = try Self.widgetsim(["simulate", scenario.path, "--out", directory.appendingPathComponent("out").path])
        #expect(run.status == 0, "\(run.errors)")
        let shown = warnings(run.errors)
        #expect(shown.count == 21)
        #expect(shown.prefix(20).allSatisfy { $0.contains("is shorter than the minimum spacing") })
        #expect(shown.last == "warning: \(scenario.path): 5 more warnings not shown; 'widgetsim validate \(scenario.path)' prints them all")
        let validate = try Self.widgetsim(["validate", scenario.path])
        #expect(validate.status == 0)
        #expect(warnings(validate.errors + validate.output).count == 25)
        // `validate` takes no parameters file, so with one the line says what
        // `validate` would print: the scenario's own warnings.
        let parameters = directory.appendingPathComponent("parameters.json")
        try #"{ "scheduler": { "minimumSpacing": "5m" } }"#.write(to: parameters, atomically: true, encoding: .utf8)
        let withFile = try Self.widgetsim(["simulate", scenario.path, "--parameters", parameters.path, "--out", directory.appendingPathComponent("out").path])
        #expect(warnings(withFile.errors).last == "warning: \(scenario.path): 5 more warnings not shown; 'widgetsim validate \(scenario.path)' prints those of the scenario without \(parameters.path)", "\(withFile.errors)")
    }

    /// An option where an option's value should be ("--out --quiet", "--out
    /// -q") is a value forgotten: refused, saying how to write a value that
    /// does start with '-', where it made a directory named "--quiet".
    @Test func anOptionGivenWhereAValueShouldBeIsAForgottenValue() throws {
        let directory = Paths.temporaryDirectory("option-as-value")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenarios = ["--scenarios", Paths.packageRoot.appendingPathComponent("Scenarios").path]
        for value in ["--quiet", "-q", "--seed=3"] {
            let result = try Self.widgetsim(["simulate", "weather", "--out", value] + scenarios, in: directory)
            #expect(result.status == 64)
            #expect(result.errors.contains("option '--out' needs a value <dir>, and got the option '\(value)'; a value that starts with '-' is written --out=\(value)"), "\(result.errors)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
        // Written with '=', it is the value; one that is no option of the command, too.
        #expect(try Self.widgetsim(["simulate", "weather", "--days", "1", "--out=--quiet", "-q"] + scenarios, in: directory).status == 0)
        #expect(try Self.widgetsim(["simulate", "weather", "--days", "1", "--out", "-x", "-q"] + scenarios, in: directory).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["--quiet", "-x"])
    }

    /// Every option naming where widgetsim writes refuses '-' (which other
    /// tools read as standard output, and which made a directory or file
    /// named '-') and an empty path, with a usage error that names the
    /// option, before anything is written.
    @Test func anOutputPathOfDashOrNothingIsRefusedNamingTheOption() throws {
        let directory = Paths.temporaryDirectory("dash-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenarios = ["--scenarios", Paths.packageRoot.appendingPathComponent("Scenarios").path]
        let commands: [(arguments: [String], option: String, kind: String)] = [
            (["simulate", "weather"], "out", "directory"),
            (["simulate", "weather", "--device-log"], "device-log", "file"),
            (["compare", "weather"], "out", "directory"),
            (["sensitivity", "weather"], "out", "directory"),
            (["fleet", "fleet-weather"], "out", "directory"),
            (["fleet", "fleet-weather", "--partial"], "partial", "file"),
            (["calibrate", "log.csv", "--scenario", "weather"], "out", "directory"),
            (["merge", "part.txt"], "out", "directory"),
        ]
        for command in commands {
            for path in ["-", ""] {
                let option = command.arguments.last == "--\(command.option)" ? [] : ["--\(command.option)"]
                let result = try Self.widgetsim(command.arguments + option + [path] + (command.arguments[0] == "merge" ? [] : scenarios), in: directory)
                #expect(result.status == 64, "\(command.arguments) '\(path)': \(result.errors)")
                let expected = path == "-"
                    ? "option '--\(command.option)' takes a \(command.kind), and widgetsim writes none to standard output ('-'); for a \(command.kind) named '-', give ./-"
                    : "option '--\(command.option)' needs a \(command.kind)"
                #expect(result.errors.contains(expected), "\(command.arguments) '\(path)': \(result.errors)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    /// `fleet --partial` writes a partial result instead of a report, so
    /// '--out' with it is refused (64) rather than ignored: the report's
    /// directory is given to 'widgetsim merge'.
    @Test func fleetRefusesOutWithPartial() throws {
        let directory = Paths.temporaryDirectory("partial-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let part = directory.appendingPathComponent("part.txt").path
        let report = directory.appendingPathComponent("report").path
        let result = try Self.widgetsim(["fleet", "fleet-news", "--devices", "2", "--days", "1", "--partial", part, "--out", report])
        #expect(result.status == 64)
        #expect(result.errors.contains("'--out' and '--partial' cannot be combined"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: part) && !FileManager.default.fileExists(atPath: report))
    }

    /// `check --minimum-spacing` takes a duration or plain whole seconds, as
    /// its help says: a hexadecimal float ("0x1p4", 16 s to `Double(_:)`),
    /// an exponent, or a number with nothing on one side of its point is a
    /// usage error.
    @Test(arguments: ["0x1p4", "1.6e1", "+16", "5.m", ".5m"])
    func checksMinimumSpacingIsADurationOrPlainWholeSeconds(written: String) throws {
        let result = try Self.widgetsim(["check", "Reports/weather", "--minimum-spacing", written])
        #expect(result.status == 64)
        #expect(result.errors.contains("option '--minimum-spacing' must be a whole number of seconds from 0 to 24h, such as 5m or 300s, got '\(written)'"))
        #expect(try Self.widgetsim(["check", "Reports/weather", "--minimum-spacing", "16"]).status == 0)
    }

    /// `check` exits 1 only for a broken budget rule; a malformed file is bad
    /// data (65) and a missing one, or a fleet report with no rows, is no input (66).
    @Test func checkExits1ForABrokenRule65ForBadData66ForMissingRows() throws {
        let directory = Paths.temporaryDirectory("check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let weather = Paths.packageRoot.appendingPathComponent("Reports/weather")
        for name in ["reloads.csv", "views.csv", "daily.csv", "parameters.csv"] {
            try FileManager.default.copyItem(at: weather.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        #expect(try Self.widgetsim(["check", directory.path]).status == 0)

        let broken = try Self.widgetsim(["check", directory.path, "--minimum-spacing", "2h"])
        #expect(broken.status == 1)
        #expect(broken.errors.contains("rule violated: ") && broken.errors.contains("the minimum spacing is 7200 s (F13)"))

        let reloads = directory.appendingPathComponent("reloads.csv")
        let text = try String(contentsOf: reloads, encoding: .utf8)
        try text.replacingOccurrences(of: ".forecast,policy,", with: ".forecast,polcy,").write(to: reloads, atomically: true, encoding: .utf8)
        let malformed = try Self.widgetsim(["check", directory.path])
        #expect(malformed.status == 65)
        #expect(malformed.errors.contains("unknown trigger 'polcy'") && !malformed.errors.contains("rule violated"))

        let fleet = try Self.widgetsim(["check", "Reports/fleet-weather"])
        #expect(fleet.status == 66)
        #expect(fleet.errors.contains("a fleet report keeps counters, not rows, so there is nothing to audit"))
    }

    /// A fleet has no listed devices: validate describes its size and its template's widgets.
    @Test func validateDescribesAFleetByItsTemplate() throws {
        let result = try Self.widgetsim(["validate", "fleet-news"])
        #expect(result.status == 0)
        #expect(result.output.contains("valid: 'fleet-news', 3 days, a fleet of 400 devices, each from a template of 1 widget"))
        #expect(result.output.contains("  fleet.device/headlines: com.example.news.headlines, systemLarge, after(30m)"))
        #expect(!result.output.contains("0 device(s)"))
    }

    /// `widgetsim validate` on a scenario given as its text, in a scratch directory.
    static func validate(_ scenario: String) throws -> Result {
        let directory = Paths.temporaryDirectory("validate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("scenario.json")
        try scenario.write(to: file, atomically: true, encoding: .utf8)
        return try widgetsim(["validate", file.path])
    }

    /// Several mistakes, each on an `error:` line of its own (so an editor
    /// can jump to each), with the data error's exit code.
    @Test func eachMistakeIsAnErrorLineOfItsOwn() throws {
        let result = try Self.validate("""
            { "name": "two", "devices": [ { "id": "phone", "widgets": [
                { "id": "a", "provider": { "policy": "sometimes" } }, { "id": "b", "provider": { "policy": "rarely" } } ] } ] }
            """)
        #expect(result.status == 65)
        let lines = result.errors.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("error: ") && $0.contains("scenario.json:") }, "\(result.errors)")
        #expect(lines.last?.contains("unknown policy \"rarely\"") == true, "\(result.errors)")
    }

    /// A value of control characters is escaped before the line is cut to
    /// length, so each `error:` line stays short (escaped after, a value of
    /// 5,000 of them made lines of 9,600 characters).
    @Test func anErrorLineIsCutAfterItsEscapes() throws {
        let name = String(repeating: "\\u0001", count: 5_000)
        let result = try Self.validate(#"{ "name": "c", "devices": [ { "id": "phone", "apps": [ { "id": "a", "swift": "\#(name)" } ], "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } } ] } ] }"#)
        #expect(result.status == 65)
        let lines = result.errors.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].count <= WidgetSimCommandLine.maximumMessageCharacters + 100, "\(lines.map(\.count))")
    }

    /// validate says what each widget's content does beside its policy: how
    /// often it changes, whether it can be foreseen, and what an unforeseen
    /// change does (pushed, or the app told), so a scenario's pushes show
    /// before a run.
    @Test func validateDescribesEachWidgetsContent() throws {
        let weather = try Self.widgetsim(["validate", "weather"])
        #expect(weather.output.contains(
            "  phone/forecast: com.example.weather.forecast, systemMedium, after(1h), 6 entries 1h apart on the clock, forecasts, jitter 5m; content changes every 1h, 2 unforeseen changes a day, forecast about 6h ahead\n"),
            "\(weather.output)")
        let game = try Self.widgetsim(["validate", "game"])
        #expect(game.output.contains("Swift provider characterDetail; content changes every 8h, 3 unforeseen changes a day, each telling the app, forecast about 30d ahead\n"), "\(game.output)")
        let stocks = try Self.widgetsim(["validate", "stocks"])
        #expect(stocks.output.contains("; content changes every 1m in its active hours\n"), "\(stocks.output)")
        let dragon = try Self.widgetsim(["validate", "dragon"])
        #expect(dragon.output.contains("; 1 unforeseen change a day, each telling the app, 1 scheduled change\n"), "\(dragon.output)")

        // Goals on match days only: the script changes the content.
        let scripted = try Self.validate(#"""
            {"name": "match", "devices": [{"id": "p", "widgets": [{"id": "score", "provider": {"policy": "after", "after": "15m"}}],
              "script": [{"daily": "15:30", "days": ["sat", "sun"], "action": "truthChange", "widget": "score"}]}]}
            """#)
        #expect(scripted.output.contains("  p/score: score, systemMedium, after(15m), 1 entry; changed by the script\n"), "\(scripted.output) \(scripted.errors)")
    }

    /// validate names the scheduler settings a scenario changes, each beside
    /// its default, so a "scheduler" section shows what it does before a run.
    @Test func validateNamesTheSchedulerSettingsAScenarioChanges() throws {
        let plain = try Self.widgetsim(["validate", "weather"])
        #expect(plain.output.contains("\n  scheduler: the defaults\n"), "\(plain.output)")
        let fleet = try Self.widgetsim(["validate", "fleet-weather"])
        #expect(fleet.output.contains("\n  scheduler: learningDays 0.0 (default 3.0)\n"), "\(fleet.output)")
        let developer = try Self.widgetsim(["validate", "developer-mode"])
        #expect(developer.output.contains(
            "\n  scheduler: budgetModel unlimited (default paced), minimumSpacing 0s (default 5m), schedulingDelay 0s (default log-normal, median 2m, p95 30m), deferWhenUnseenFor off (default 2h)\n"),
            "\(developer.output)")
    }

    /// validate says what each device's user does, so a slip in the
    /// behaviour shows before a run; a fleet's template names what each
    /// device draws for itself, and a sleep past midnight reads as written.
    @Test func validateDescribesTheUsersBehaviour() throws {
        let phone = try Self.widgetsim(["validate", "weather"])
        #expect(phone.status == 0, "\(phone.errors)")
        #expect(phone.output.contains(
            "  phone: awake 07:00 to 23:00 (±30m); views a day: home 40; app sessions a day: weather 1.5; 2 location and 0.02 system changes a day\n"),
            "\(phone.output)")
        let fleet = try Self.widgetsim(["validate", "fleet-news"])
        #expect(fleet.output.contains(
            "  fleet.device: awake 06:00–08:00 to 22:00–00:30 (±30m), drawn for each device; views a day: home 40, scaled for each device; app sessions a day: news 2, scaled for each device;"),
            "\(fleet.output)")
        let shaped = try Self.widgetsim(["validate", "commuter"])
        #expect(shaped.output.contains("  phone: awake 06:15 to 23:30 (±30m), its own hours; views a day: home 30;"), "\(shaped.output)")

        let result = try Self.validate(#"""
            {"name": "weekly", "devices": [{"id": "phone",
              "user": {"wake": "08:00", "sleep": "01:30", "dayJitter": "0s", "weekdayActivity": {"sat": 0.5, "sun": 0},
                       "locationChangesPerDay": 0, "systemChangesPerDay": 1},
              "pages": [{"name": "home", "viewsPerDay": 12.5}], "apps": [{"id": "app", "mediaSessionsPerDay": 2}],
              "widgets": [{"id": "w", "app": "app", "provider": {"policy": "atEnd"}}]}]}
            """#)
        #expect(result.output.contains(
            "  phone: awake 08:00 to 01:30 the next day, a weekly rhythm; views a day: home 12.5; app sessions a day: app 2 media; 0 location and 1 system changes a day\n"
                + "  phone/w: w, systemMedium, atEnd, 1 entry; content never changes\n"),
            "\(result.output) \(result.errors)")
    }

    /// validate builds every variant with the base, and names them.
    @Test func validateNamesTheVariantsItValidated() throws {
        let result = try Self.widgetsim(["validate", "weather", "todo"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("  4 variants besides 'after-60m', each valid: 'atEnd', 'after-15m', 'after-30m', 'never-push'\n"), "\(result.output)")
    }

    /// validate calls a file valid only once it is within the limits.
    @Test func validateSaysValidOnlyWithinTheLimits() throws {
        let directory = Paths.temporaryDirectory("validate-limits")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("long.json")
        try BadInputTests.longScript.write(to: scenario, atomically: true, encoding: .utf8)
        let result = try Self.widgetsim(["validate", scenario.path])
        #expect(result.status == 65)
        #expect(!result.output.contains("valid"))
        #expect(result.errors.contains("would give one device 109,800 scripted actions"))
    }

    /// A calibration simulates many runs of the log's length: one whose runs
    /// add up past the limit is refused before it starts, with what to lower.
    @Test func aCalibrationPastItsTotalWorkIsRefused() throws {
        let directory = Paths.temporaryDirectory("calibrate-work")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("busy.json")
        try ScenarioLoadingTests.scenario(
            widget: #""kind": "k", "family": "systemSmall", "provider": {"policy": "atEnd"}, "truth": {"randomChangesPerDay": 3000, "onRandomChange": "reloadKind"}"#)
            .write(to: scenario, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("long.csv")
        try BadInputTests.longDeviceLog.write(to: log, atomically: true, encoding: .utf8)
        let result = try Self.widgetsim(["calibrate", log.path, "--scenario", scenario.path, "--out", directory.appendingPathComponent("out").path])
        #expect(result.status == 65)
        #expect(result.errors.contains("simulate up to "))
        #expect(result.errors.contains("more than the 5 billion one calibration may; use --only, fewer --replications or --grid points, or a shorter log"))
    }

    /// A phone described by one of the scenario's variants: calibrate fits
    /// that variant's widget, names it in the "use it" line, and warns of none;
    /// against the base, whose widget asks for another wait, it warns.
    @Test func calibrateVariantDescribesThePhoneByThatVariant() throws {
        let directory = Paths.temporaryDirectory("calibrate-variant")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("phone.csv")
        let simulated = try Self.widgetsim(["simulate", "weather", "--variant", "after-15m", "--days", "4", "--seed", "11",
                                            "--device-log", log.path, "--out", directory.appendingPathComponent("day").path, "-q"])
        #expect(simulated.status == 0, "\(simulated.errors)")
        let common = ["calibrate", log.path, "--scenario", "weather", "--only", "schedulingDelay", "--replications", "4", "--grid", "3"]
        let variant = try Self.widgetsim(common + ["--variant", "after-15m", "--out", directory.appendingPathComponent("variant").path])
        #expect(variant.status == 0, "\(variant.errors)")
        #expect(!variant.errors.contains("warning"), "\(variant.errors)")
        let markdown = try String(contentsOf: directory.appendingPathComponent("variant/calibration.md"), encoding: .utf8)
        #expect(markdown.contains("Use it: `widgetsim simulate weather --variant after-15m --parameters <this directory>/parameters.json`"))
        let base = try Self.widgetsim(common + ["--out", directory.appendingPathComponent("base").path])
        #expect(base.status == 0, "\(base.errors)")
        #expect(base.errors.contains("warning: \(log.path): The scenario's widget `com.example.weather.forecast systemMedium Paris` does not ask for reloads as the log's does: the log's calls ask for a reload a median 1"), "\(base.errors)")
    }

    /// A device log inside the report directory would be lost: the log is
    /// written first, then the reports replace their directory whole. So a
    /// path below `--out`, however it is spelled ("./", "x/./y", a link to
    /// the directory), is refused before the run, naming both options.
    @Test func aDeviceLogInsideTheReportDirectoryIsRefused() throws {
        let directory = Paths.temporaryDirectory("log-inside-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let day = directory.appendingPathComponent("day")
        try FileManager.default.createDirectory(at: day, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("alias").path, withDestinationPath: "day")
        for log in ["day/reloads.csv", "day/./phone.csv", "./day/logs/phone.csv", "alias/phone.csv"] {
            let path = directory.path + "/" + log
            let result = try Self.widgetsim(["simulate", "weather", "--days", "1", "--out", day.path, "--device-log", path])
            #expect(result.status == 64, "\(log): \(result.errors)")
            #expect(result.errors.contains(
                "option '--device-log': '\(path)' is inside '\(day.path)', the report directory of option '--out', which the reports replace whole, so the log would be lost; allowed: a file outside '\(day.path)'"),
                "\(log): \(result.errors)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: day.path) == [], "\(log)")
        }
        let beside = directory.appendingPathComponent("day-phone.csv")
        let result = try Self.widgetsim(["simulate", "weather", "--days", "1", "--out", day.path, "--device-log", beside.path, "-q"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try String(contentsOf: beside, encoding: .utf8).hasPrefix("time,"), "a device log beside the report directory is written")
    }

    /// A device log replaces only an earlier device log (or an empty file),
    /// as a partial result replaces only a partial result: naming the
    /// scenario itself, or a file of one's own, by a slip is refused (73)
    /// and the file is left as it was.
    @Test func aDeviceLogReplacesOnlyAnEarlierDeviceLog() throws {
        try Self.expectReplacesOnlyItsOwnKind(
            "log-destination", scenario: "weather", run: ["simulate", "mine.json", "--days", "1", "-q", "--out", "day", "--device-log"],
            kind: "device log", header: "time,event,app,")
    }

    /// The rule every file of results keeps (`--partial`, `--device-log`):
    /// the run's own input, and a file of another kind, given by a slip,
    /// are refused with 73 and left as they were; a new file, one the same
    /// command wrote, and an empty file (a job script's `mktemp`) are written.
    static func expectReplacesOnlyItsOwnKind(_ label: String, scenario name: String, run: [String], kind: String, header: String) throws {
        let directory = Paths.temporaryDirectory(label)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scenario = directory.appendingPathComponent("mine.json")
        try FileManager.default.copyItem(atPath: Paths.scenario(name), toPath: scenario.path)
        let original = try Data(contentsOf: scenario)
        let notes = directory.appendingPathComponent("notes.txt")
        try "precious notes\n".write(to: notes, atomically: true, encoding: .utf8)

        let overInput = try widgetsim(run + ["./mine.json"], in: directory)
        #expect(overInput.status == 73)
        #expect(overInput.errors.hasPrefix("error: ./mine.json: cannot write the file there: it is mine.json, which this run reads; give another path for the \(kind)"), "\(overInput.errors)")
        #expect(try Data(contentsOf: scenario) == original)

        let overNotes = try widgetsim(run + ["notes.txt"], in: directory)
        #expect(overNotes.status == 73)
        #expect(overNotes.errors.hasPrefix("error: notes.txt: cannot write the file there: it is a file but not a widgetsim \(kind)"), "\(overNotes.errors)")
        #expect(try String(contentsOf: notes, encoding: .utf8) == "precious notes\n")

        let empty = directory.appendingPathComponent("empty.txt")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        for file in ["result.txt", "result.txt", "empty.txt"] {
            let written = try widgetsim(run + [file], in: directory)
            #expect(written.status == 0, "\(file): \(written.errors)")
            #expect(try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8).hasPrefix(header), "\(file)")
        }
    }

    /// `calibrate --parameters` writes a parameters.json that carries the
    /// given file's settings beside the identified unknowns, so the "use it"
    /// line, which passes only the new file, keeps them.
    @Test func calibrateWithParametersKeepsThatFilesSettings() throws {
        let directory = Paths.temporaryDirectory("calibrate-parameters")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("phone.csv")
        let simulated = try Self.widgetsim(["simulate", "weather", "--days", "4", "--device-log", log.path,
                                            "--out", directory.appendingPathComponent("day").path, "-q"])
        #expect(simulated.status == 0, "\(simulated.errors)")
        let given = directory.appendingPathComponent("mine.json")
        try #"{"scheduler": {"pushDailyBudget": 3}}"#.write(to: given, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let result = try Self.widgetsim(["calibrate", log.path, "--scenario", "weather", "--parameters", given.path,
                                         "--only", "foregroundReloadDelay", "--replications", "4", "--grid", "3", "--out", out.path, "-q"])
        #expect(result.status == 0, "\(result.errors)")
        let written = try String(contentsOf: out.appendingPathComponent("parameters.json"), encoding: .utf8)
        #expect(written.contains(#""pushDailyBudget": 3"#), "\(written)")
        #expect(written.contains("with \(given.path)"), "\(written)")
    }

    /// The README's sharded recipe: a partial file's directory is made, as a
    /// report directory's parent is, by shards started together.
    @Test func shardsMakeTheirPartialFilesDirectory() throws {
        let directory = Paths.temporaryDirectory("partial-dir")
        defer { try? FileManager.default.removeItem(at: directory) }
        let parts = directory.appendingPathComponent("parts/run")
        let shards = try (1...2).map { shard in
            let process = Process()
            process.executableURL = Paths.binary
            process.arguments = ["fleet", "fleet-news", "--devices", "4", "--days", "1", "--threads", "1",
                                 "--shard", "\(shard)/2", "--partial", parts.appendingPathComponent("part-\(shard).txt").path, "-q"]
            process.currentDirectoryURL = Paths.packageRoot
            process.standardError = Pipe()
            try process.run()
            return process
        }
        for shard in shards { shard.waitUntilExit() }
        #expect(shards.map(\.terminationStatus) == [0, 0])
        let merged = try Self.widgetsim(["merge", parts.appendingPathComponent("part-1.txt").path, parts.appendingPathComponent("part-2.txt").path,
                                         "--out", directory.appendingPathComponent("merged").path, "-q"])
        #expect(merged.status == 0, "\(merged.errors)")
    }

    /// Without --out, a merged report goes where the unsharded run's goes:
    /// Reports/<the scenario file's base name>, which each partial records,
    /// never the scenario's "name" (a copy of a scenario keeps the name, and
    /// its merge would replace the original's report). A partial that does
    /// not record it, as an older widgetsim wrote them, needs --out.
    @Test func aMergedReportGoesWhereTheUnshardedRunsReportGoes() throws {
        let directory = Paths.temporaryDirectory("merge-default")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.scenario("fleet-weather"), toPath: directory.appendingPathComponent("mycopy.json").path)
        for shard in 1...2 {
            let ran = try Self.widgetsim(["fleet", "mycopy.json", "--devices", "4", "--days", "1", "--shard", "\(shard)/2", "--partial", "p\(shard).txt", "-q"], in: directory)
            #expect(ran.status == 0, "\(ran.errors)")
        }
        let reports = directory.appendingPathComponent("Reports")
        let merged = try Self.widgetsim(["merge", "p1.txt", "p2.txt", "-q"], in: directory)
        #expect(merged.status == 0, "\(merged.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports.path) == ["mycopy"])
        #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("mycopy/fleet.md").path))

        let second = directory.appendingPathComponent("p2.txt")
        let unnamed = try String(contentsOf: second, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("report ") }.joined(separator: "\n")
        try unnamed.write(to: second, atomically: true, encoding: .utf8)
        let older = try Self.widgetsim(["merge", "p1.txt", "p2.txt", "-q"], in: directory)
        #expect(older.status == 64)
        #expect(older.errors.hasPrefix("error: p2.txt does not record which report it belongs to"), "\(older.errors)")
        let given = try Self.widgetsim(["merge", "p1.txt", "p2.txt", "--out", "elsewhere", "-q"], in: directory)
        #expect(given.status == 0, "\(given.errors)")
    }

    /// A partial result replaces only an earlier partial result: the
    /// scenario file the run reads, or any other file, given by a slip to
    /// --partial, is refused with 73 and left as it was, as a directory
    /// without a report is refused to --out.
    @Test func aPartialResultReplacesOnlyAnEarlierPartialResult() throws {
        try Self.expectReplacesOnlyItsOwnKind(
            "partial-destination", scenario: "fleet-weather", run: ["fleet", "mine.json", "--devices", "2", "--days", "1", "-q", "--partial"],
            kind: "partial result", header: "widgetsim-fleet-partial 1\n")
    }

    /// A fleet run too large for the machine's memory is refused naming its
    /// scenario file, as every refusal of a run is: exit 65, or 64 when an
    /// option (`--days`, `--threads`) made it too large. (Threads past what
    /// the command line allows make it too large on any machine.)
    @Test func aFleetTooLargeForMemoryIsRefusedNamingItsScenario() throws {
        let path = Paths.scenario("fleet-weather")
        let document = try ScenarioLoader.loadDocument(path: path)
        for overridden in [false, true] {
            do {
                try FleetMemory.check(document, threads: 1_000_000, file: path, overridden: overridden)
                Issue.record("a fleet run of a million threads was not refused")
            } catch {
                #expect(error.message.hasPrefix("\(path): this fleet run ("), "\(error.message)")
                #expect(error.code == (overridden ? .usage : .dataError))
            }
        }
    }

    @Test(arguments: ["help", "--help", "-h"])
    func helpOnHelpIsTheOverview(asked: String) throws {
        let result = try Self.widgetsim(["help", asked])
        #expect(result.status == 0)
        #expect(result.output.contains("help") && result.errors.isEmpty, "\(result.errors)")
    }

    /// --days shorter than the fleet's moments: a warning, and a report without them.
    @Test func aFleetRunShortenedPastItsMomentsWarnsAndFinishes() throws {
        let directory = Paths.temporaryDirectory("short-fleet")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.widgetsim(["fleet", "fleet-news", "--days", "1", "--devices", "20", "--out", directory.path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("3 of the fleet's moments fall after the 1-day run ends; the report leaves them out"))
    }

    /// --days shorter than the scenario: simulate, compare and sensitivity
    /// warn, as fleet does for its moments, of the scripted actions at a fixed
    /// instant and the scheduled truth changes the run leaves out ("daily"
    /// actions are not left out, only repeated on fewer days); --quiet
    /// silences the warning, and the run succeeds either way.
    @Test func aRunShortenedPastItsScriptWarnsAndFinishes() throws {
        let directory = Paths.temporaryDirectory("short-script")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scenario = directory.appendingPathComponent("dd.json").path
        try """
            { "name": "dd", "days": 7,
              "devices": [ { "id": "p", "apps": [{"id": "a"}],
                "widgets": [ { "id": "w", "app": "a", "provider": { "policy": "after", "after": "15m" }, "truth": { "scheduledChanges": ["6d"] } } ],
                "script": [ {"at": "6d12h", "action": "push", "app": "a"}, {"at": ["1h", "6d"], "action": "truthChange", "widget": "w"},
                            {"daily": "07:30", "action": "truthChange", "widget": "w"} ] } ]
            }
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let warning = "warning: \(scenario): the 2-day run ends before 2 scripted actions and 1 scheduled truth change of the scenario's; the report leaves them out"
        let commands = [
            ["simulate"], ["compare", "--runs", "2", "--no-sweep", "--no-sensitivity"], ["sensitivity", "--runs", "2", "--trajectories", "0"],
        ]
        for command in commands {
            let out = directory.appendingPathComponent(command[0]).path
            let result = try Self.widgetsim(command + [scenario, "--days", "2", "--out", out])
            #expect(result.status == 0, "\(command[0]): \(result.errors)")
            #expect(result.errors.contains(warning), "\(command[0]): \(result.errors)")
            let quiet = try Self.widgetsim(command + [scenario, "--days", "2", "--out", out + "-quiet", "--quiet"])
            #expect(quiet.status == 0 && !quiet.errors.contains("warning:"), "\(command[0]): \(quiet.errors)")
        }
        let whole = try Self.widgetsim(["simulate", scenario, "--days", "7", "--out", directory.appendingPathComponent("whole").path])
        #expect(whole.status == 0 && !whole.errors.contains("warning:"), "\(whole.errors)")
        // A fleet's template is cut off alike.
        let fleet = directory.appendingPathComponent("fleet.json").path
        try """
            { "name": "ff", "days": 3,
              "fleet": { "devices": 3, "device": { "apps": [{"id": "a"}],
                "widgets": [ { "id": "w", "app": "a", "provider": { "policy": "after", "after": "15m" }, "truth": { "scheduledChanges": ["2d"] } } ],
                "script": [ {"at": "2d12h", "action": "push", "app": "a"} ] } }
            }
            """.write(toFile: fleet, atomically: true, encoding: .utf8)
        let fleetRun = try Self.widgetsim(["fleet", fleet, "--days", "1", "--out", directory.appendingPathComponent("fleet").path])
        #expect(fleetRun.status == 0, "\(fleetRun.errors)")
        #expect(fleetRun.errors.contains("warning: \(fleet): the 1-day run ends before 1 scripted action and 1 scheduled truth change of the scenario's"), "\(fleetRun.errors)")
    }

    /// A variant that replaces the script loses its own instants to a short
    /// --days, not the base's: the warning names it with its own count.
    @Test func aVariantsOwnScriptCutOffByDaysIsWarnedOfByName() throws {
        let directory = Paths.temporaryDirectory("short-variant-script")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scenario = directory.appendingPathComponent("vv.json").path
        try """
            { "name": "vv", "days": 4,
              "devices": [ { "id": "p", "apps": [{"id": "a"}],
                "widgets": [ { "id": "w", "app": "a", "provider": { "policy": "after", "after": "15m" } } ],
                "script": [ {"at": "3d", "action": "push", "app": "a"} ] } ],
              "variants": [
                { "name": "same", "description": "the base's script", "provider": { "after": "30m" } },
                { "name": "more", "description": "three late pushes", "script": [ {"at": ["2d", "3d", "3d1h"], "action": "push", "app": "a"} ] } ]
            }
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let result = try Self.widgetsim(
            ["compare", scenario, "--runs", "2", "--no-sweep", "--no-sensitivity", "--days", "2", "--out", directory.appendingPathComponent("c").path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("warning: \(scenario): the 2-day run ends before 1 scripted action of the scenario's"), "\(result.errors)")
        #expect(result.errors.contains("warning: \(scenario): the 2-day run ends before 3 scripted actions of variant 'more'; its results leave them out"), "\(result.errors)")
        #expect(!result.errors.contains("variant 'same'"), "\(result.errors)")
    }

    /// --days shorter than the scenario ends the run before a widget's
    /// `addedAt`: the widget is never added, yet is listed with no reloads and
    /// no views, so simulate, compare and fleet warn of it as of the scripted
    /// actions the run leaves out, and say why its rows are empty.
    @Test func aWidgetAddedAfterAShortenedRunEndsIsWarnedOf() throws {
        let directory = Paths.temporaryDirectory("short-added")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("ad.json").path
        try """
            { "name": "ad", "days": 7,
              "devices": [ { "id": "p", "apps": [{"id": "app"}],
                "widgets": [ { "id": "a", "app": "app", "provider": { "policy": "after", "after": "30m" } },
                  { "id": "b", "app": "app", "addedAt": "3d", "provider": { "policy": "after", "after": "30m" } } ],
                "script": [ {"at": "5d", "action": "push", "app": "app"} ] } ],
              "variants": [ { "name": "v", "provider": { "after": "1h" } } ]
            }
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let warning = "warning: \(scenario): the 2-day run ends before 1 scripted action and 1 widget addition (addedAt) of the scenario's; the report leaves them out: a widget never added has no reloads and no views"
        for command in [["simulate"], ["compare", "--runs", "2", "--no-sweep", "--no-sensitivity"]] {
            let result = try Self.widgetsim(command + [scenario, "--days", "2", "--out", directory.appendingPathComponent(command[0]).path])
            #expect(result.status == 0, "\(command[0]): \(result.errors)")
            #expect(result.errors.contains(warning), "\(command[0]): \(result.errors)")
        }
        let untouched = try Self.widgetsim(["simulate", scenario, "--days", "4", "--out", directory.appendingPathComponent("four").path])
        #expect(untouched.status == 0 && !untouched.errors.contains("widget addition"), "\(untouched.errors)")
        // A fleet's widgets are added counting from its warm-up's start, a day before the measured one.
        let fleet = directory.appendingPathComponent("fleet.json").path
        try """
            { "name": "ff", "days": 4,
              "fleet": { "devices": 2, "device": {
                "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "1h" } },
                             { "id": "late", "addedAt": "2d", "provider": { "policy": "after", "after": "1h" } } ] } }
            }
            """.write(toFile: fleet, atomically: true, encoding: .utf8)
        let cut = try Self.widgetsim(["fleet", fleet, "--days", "1", "--out", directory.appendingPathComponent("fleet").path])
        #expect(cut.status == 0, "\(cut.errors)")
        #expect(cut.errors.contains("warning: \(fleet): the 1-day run ends before 1 widget addition (addedAt) of the scenario's"), "\(cut.errors)")
        let kept = try Self.widgetsim(["fleet", fleet, "--days", "2", "--out", directory.appendingPathComponent("fleet").path])
        #expect(kept.status == 0 && !kept.errors.contains("widget addition"), "\(kept.errors)")
    }

    /// `check` on a report directory that is a symbolic link to nothing says
    /// so, with the missing name it leads to, rather than "no such report directory" alone.
    @Test func checkNamesAReportDirectoryThatIsALinkToNothing() throws {
        let directory = Paths.temporaryDirectory("dangling-report")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let link = directory.appendingPathComponent("latest").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "run-7")
        let result = try Self.widgetsim(["check", link])
        #expect(result.status == 66)
        #expect(result.errors.contains("\(link): no such report directory: it is a symbolic link that leads to 'run-7', which does not exist"), "\(result.errors)")
    }

    /// `check` on a report directory, and `list` on a scenarios directory,
    /// that is a loop of symbolic links say it is a loop, as `--out` does:
    /// the name the loop leads to exists, so "which does not exist" would be untrue.
    @Test func checkAndListNameALoopOfLinksAsOne() throws {
        let directory = Paths.temporaryDirectory("loop-report")
        defer { try? FileManager.default.removeItem(at: directory) }
        let loop = directory.appendingPathComponent("loopA").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loopB")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("loopB").path, withDestinationPath: "loopA")
        let checked = try Self.widgetsim(["check", loop])
        #expect(checked.status == 66)
        #expect(checked.errors.contains("\(loop): no such report directory: it is a loop of symbolic links"), "\(checked.errors)")
        let listed = try Self.widgetsim(["list", "--scenarios", loop])
        #expect(listed.status == 66)
        #expect(listed.errors.contains("\(loop): no such directory: it is a loop of symbolic links (option '--scenarios')"), "\(listed.errors)")
    }

    /// A parameters file is merged into the scenario before a variant
    /// applies, so a daily limit fitted under the variant's lower floor
    /// (`minimumDailyBudget`) comes with that floor, and the report's own
    /// "use it" run accepts the file.
    @Test func aLimitFittedUnderAVariantsFloorLoadsWithTheVariant() throws {
        let directory = Paths.temporaryDirectory("variant-floor")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let phone = directory.appendingPathComponent("lo.json").path
        let widgets = """
            "devices": [ { "id": "phone", "pages": [ { "name": "home", "viewsPerDay": 60 } ], "apps": [ { "id": "app" } ],
              "widgets": [ { "id": "w", "kind": "k", "family": "systemSmall",
                "provider": { "policy": "after", "after": "5m" }, "truth": { "changeEvery": "1h" } } ] } ]
            """
        try """
            { "name": "lo", "seed": 3, "days": 8, "start": "2026-03-02T00:00", "utcOffset": "+00:00",
              "scheduler": { "dailyBudget": { "min": 20, "max": 20 } }, \(widgets) }
            """.write(toFile: phone, atomically: true, encoding: .utf8)
        let scenario = directory.appendingPathComponent("vf.json").path
        try """
            { "name": "vf", "seed": 3, "days": 8, "start": "2026-03-02T00:00", "utcOffset": "+00:00",
              "scheduler": { "dailyBudget": { "min": 80, "max": 100 }, "minimumDailyBudget": 60 }, \(widgets),
              "variants": [ { "name": "v", "description": "low floor", "scheduler": { "minimumDailyBudget": 5 } } ] }
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("log.csv").path
        #expect(try Self.widgetsim(["simulate", phone, "--device-log", log, "--out", directory.appendingPathComponent("sim").path, "-q"]).status == 0)
        let calibrated = directory.appendingPathComponent("cal").path
        let calibration = try Self.widgetsim(["calibrate", log, "--scenario", scenario, "--variant", "v", "--only", "dailyBudget", "--out", calibrated, "-q"])
        #expect(calibration.status == 0, "\(calibration.errors)")
        let file = try String(contentsOfFile: calibrated + "/parameters.json", encoding: .utf8)
        #expect(file.contains("\"minimumDailyBudget\": 5"), "\(file)")
        let useIt = try Self.widgetsim(
            ["simulate", scenario, "--variant", "v", "--parameters", calibrated + "/parameters.json", "--out", directory.appendingPathComponent("run").path, "-q"])
        #expect(useIt.status == 0, "\(useIt.errors)")
    }

    @Test func aMissingScenarioExits66AndNamesTheNearestScenario() throws {
        let result = try Self.widgetsim(["simulate", "wether"])
        #expect(result.status == 66)
        #expect(result.errors.contains("no scenario named 'wether'; did you mean 'weather'?"))
    }

    @Test func aNameRunAwayFromTheCheckoutSaysWhereNamesAreLookedUp() throws {
        let directory = Paths.temporaryDirectory("elsewhere")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.widgetsim(["simulate", "weather", "--out", "out"], in: directory)
        #expect(result.status == 66)
        #expect(result.errors.contains(
            "Scenarios/weather.json: no scenario named 'weather'; a name is looked up in Scenarios/ under the current directory, which holds no scenarios: run from the directory that holds Scenarios/ (the widgetsim checkout, or a package of your own), or give --scenarios <dir> or the path of a .json file"),
            "\(result.errors)")
        let elsewhere = try Self.widgetsim(["simulate", "weather", "--scenarios", "mine", "--out", "out"], in: directory)
        #expect(elsewhere.status == 66)
        #expect(elsewhere.errors.contains("a name is looked up in mine/ (option '--scenarios'), which holds no scenarios"), "\(elsewhere.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
    }

    @Test func anInvalidScenarioExits65AndLeavesThePreviousReports() throws {
        let directory = Paths.temporaryDirectory("invalid")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("broken.json")
        try #"{"name": "broken", "days": 0, "devices": []}"#.write(to: scenario, atomically: true, encoding: .utf8)
        let reports = directory.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try "old".write(to: reports.appendingPathComponent("reloads.csv"), atomically: true, encoding: .utf8)
        let result = try Self.widgetsim(["simulate", scenario.path, "--out", reports.path])
        #expect(result.status == 65)
        #expect(result.errors.contains("broken.json:1:28: field 'days': 0 is out of range; allowed: whole numbers 1...366"))
        #expect(try String(contentsOf: reports.appendingPathComponent("reloads.csv"), encoding: .utf8) == "old")
    }

    @Test func compareWritesTheComparisonAndPrintsTheVerdict() throws {
        let out = Paths.temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try Self.widgetsim(["compare", "weather", "--runs", "2", "--days", "2", "--no-sweep", "--out", out.path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("Best on staleness within the budget (paced)"))
        #expect(result.output.contains("over the plausible range of"))
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["comparison.csv", "comparison.md", "comparison.svg"])
    }

    /// A user of a multi-widget scenario asks which policy is best for their widget.
    @Test func compareWidgetRanksOnThatWidgetAloneAndSkipsThePooledSweep() throws {
        let out = Paths.temporaryDirectory("compare-widget")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try Self.widgetsim(["compare", "home-screen", "--widget", "headlines", "--runs", "2", "--days", "2", "--no-sweep", "--out", out.path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("Best for headlines on staleness within its budget (paced)"))
        #expect(!result.output.contains("over the plausible range of"))
        let markdown = try String(contentsOf: out.appendingPathComponent("comparison.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("# widgetsim comparison: home-screen, widget `headlines`\n"))
    }

    /// A comparison of one widget writes no per-widget table, so an earlier
    /// pooled comparison's table in the same directory goes: it would sit
    /// beside this run's reports as if it were this run's.
    @Test func aComparisonOfOneWidgetDropsAnEarlierComparisonsPerWidgetTable() throws {
        let out = Paths.temporaryDirectory("compare-stale-widgets")
        defer { try? FileManager.default.removeItem(at: out) }
        let common = ["--runs", "1", "--days", "1", "--no-sweep", "--no-sensitivity", "--out", out.path, "-q"]
        let pooled = try Self.widgetsim(["compare", "home-screen"] + common)
        #expect(pooled.status == 0, "\(pooled.errors)")
        let table = out.appendingPathComponent("comparison-widgets.csv").path
        #expect(FileManager.default.fileExists(atPath: table))
        let one = try Self.widgetsim(["compare", "home-screen", "--widget", "headlines"] + common)
        #expect(one.status == 0, "\(one.errors)")
        #expect(!FileManager.default.fileExists(atPath: table))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("comparison.md").path))
    }

    /// The recommended policy's own day, row by row: the variant's reports, not the base's.
    @Test func simulateVariantWritesThatVariantsReports() throws {
        let out = Paths.temporaryDirectory("simulate-variant")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try Self.widgetsim(["simulate", "weather", "--variant", "after-15m", "--days", "2", "--out", out.path])
        #expect(result.status == 0, "\(result.errors)")
        let summary = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("> Variant 'after-15m': reload every 15 minutes. The scenario: "))
        #expect(summary.contains("after(15m)"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("reloads.csv").path))
    }

    /// Warnings go to standard error, name the place, and change no exit code.
    @Test(arguments: ["validate", "simulate"])
    func aWarningGoesToStandardErrorAndKeepsExitCode0(command: String) throws {
        let directory = Paths.temporaryDirectory("warning")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("short.json")
        try ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "after", "after": 60}"#, top: #" "days": 1,"#)
            .write(to: scenario, atomically: true, encoding: .utf8)
        let extra = command == "simulate" ? ["--out", directory.appendingPathComponent("reports").path] : []
        let result = try Self.widgetsim([command, scenario.path] + extra)
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.errors.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("simulate ") }
        #expect(lines == [
            "warning: \(scenario.path):7:63: field 'devices[0].widgets[0].provider.after': a bare number is seconds: 60 means 1m; write \"1m\" to say so",
            "warning: \(scenario.path):7:63: field 'devices[0].widgets[0].provider.after': 1m is shorter than the minimum spacing 5m (scheduler.minimumSpacing): WidgetKit keeps a widget's reloads at least 5m apart (F13), so this widget reloads at most every 5m, not every 1m",
        ])
    }

    /// A directory holding only a sensitivity report is widgetsim's, so a second run may replace it.
    @Test func sensitivityRewritesTheReportItWrote() throws {
        let out = Paths.temporaryDirectory("sensitivity-twice")
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = ["sensitivity", "weather", "--runs", "1", "--trajectories", "0", "--days", "1", "-q", "--out", out.path]
        for _ in 0..<2 {
            let result = try Self.widgetsim(arguments)
            #expect(result.status == 0, "\(result.errors)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["sensitivity.csv", "sensitivity.md", "sensitivity.svg"])
    }

    /// `--no-sensitivity` skips the sweep of the other unknowns, and the verdict does not cite one.
    @Test func compareWithoutTheSensitivitySweepCitesNone() throws {
        let out = Paths.temporaryDirectory("compare-no-sensitivity")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try Self.widgetsim(["compare", "weather", "--runs", "2", "--days", "2", "--no-sweep", "--no-sensitivity", "--out", out.path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("Best on staleness within the budget (paced)"))
        let markdown = try String(contentsOf: out.appendingPathComponent("comparison.md"), encoding: .utf8)
        #expect(!markdown.contains("plausible range"))
        let help = try Self.widgetsim(["help", "compare"])
        #expect(help.status == 0 && help.output.contains("--no-sensitivity"))
    }

    @Test func anUnknownBudgetModelSuggestsTheNearestAndExits64() throws {
        let result = try Self.widgetsim(["compare", "weather", "--budget-models", "rollingWindow,tokenbucket"])
        #expect(result.status == 64)
        #expect(result.errors.contains("unknown budget model 'tokenbucket' in '--budget-models'; did you mean 'tokenBucket'?"))
    }

    @Test func listShowsEachScenarioWithItsQuestion() throws {
        let result = try Self.widgetsim(["list"])
        #expect(result.status == 0)
        for name in ["weather", "stocks", "game", "news", "calendar", "screentime", "location-weather", "todo", "home-screen", "developer-mode", "fleet-weather", "fleet-news"] {
            #expect(result.output.contains("\n\(name) ") || result.output.hasPrefix("\(name) "), "\(name)")
        }
    }

    @Test func simulateWithTraceAlsoWritesTraceJSON() throws {
        let out = Paths.temporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try Self.widgetsim(["simulate", "weather", "--days", "1", "--trace", "--out", out.path])
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("trace.json").path))
    }

    /// A run's reports never sit beside an earlier run's trace or timelines
    /// as if they were its own; a file that is not a simulate report stays.
    @Test func aRunWithoutTraceDropsAnEarlierRunsTraceAndKeepsOtherFiles() throws {
        let out = Paths.temporaryDirectory("stale-trace")
        defer { try? FileManager.default.removeItem(at: out) }
        let traced = try Self.widgetsim(["simulate", "weather", "--days", "1", "--trace", "--out", out.path, "-q"])
        #expect(traced.status == 0, "\(traced.errors)")
        for name in ["timeline-phone-removed.svg", "notes.txt"] {
            try "earlier".write(to: out.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let plain = try Self.widgetsim(["simulate", "weather", "--days", "1", "--out", out.path, "-q"])
        #expect(plain.status == 0, "\(plain.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(!names.contains("trace.json") && !names.contains("timeline-phone-removed.svg"), "\(names)")
        #expect(names.contains("notes.txt") && names.contains("timeline-phone-forecast.svg"), "\(names)")
    }

    /// Shards run as parallel processes and merged give the unsharded report, byte for byte.
    @Test func shardsRunInParallelProcessesMergeIntoTheUnshardedReport() throws {
        let directory = Paths.temporaryDirectory("shards")
        defer { try? FileManager.default.removeItem(at: directory) }
        let common = ["fleet", "fleet-weather", "--devices", "90", "--days", "1", "--threads", "1", "-q"]
        let whole = try Self.widgetsim(common + ["--out", directory.appendingPathComponent("whole").path])
        #expect(whole.status == 0, "\(whole.errors)")
        // Three shards at once, as a batch engine would run them.
        let processes = try (1...3).map { shard -> Process in
            let process = Process()
            process.executableURL = Paths.binary
            process.currentDirectoryURL = Paths.packageRoot
            process.arguments = common + ["--shard", "\(shard)/3", "--partial", directory.appendingPathComponent("part-\(shard).txt").path]
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let merged = try Self.widgetsim(["merge", "-q", "--out", directory.appendingPathComponent("merged").path]
            + (1...3).map { directory.appendingPathComponent("part-\($0).txt").path })
        #expect(merged.status == 0, "\(merged.errors)")
        for file in ["fleet.md", "fleet.csv", "server_load.csv", "reloads_per_device_day.csv", "load.svg", "load-peak.svg"] {
            let a = try Data(contentsOf: directory.appendingPathComponent("whole/\(file)"))
            let b = try Data(contentsOf: directory.appendingPathComponent("merged/\(file)"))
            #expect(a == b, "\(file)")
        }
        let missing = try Self.widgetsim(["merge", directory.appendingPathComponent("part-1.txt").path, "--out", directory.appendingPathComponent("incomplete").path])
        #expect(missing.status == 65)
        #expect(missing.errors.contains("missing shards: 2/3, 3/3"))
    }

    @Test func aShardWithoutAPartialFileIsAUsageError() throws {
        let result = try Self.widgetsim(["fleet", "fleet-weather", "--shard", "1/2"])
        #expect(result.status == 64)
        #expect(result.errors.contains("'--shard' needs '--partial <file>'"))
        let simulate = try Self.widgetsim(["simulate", "fleet-weather"])
        #expect(simulate.status == 64)
        #expect(simulate.errors.contains("describes a fleet; run 'widgetsim fleet fleet-weather'"))
    }

    @Test func helpDescribesEachCommandAndExits0() throws {
        let overview = try Self.widgetsim(["--help"])
        #expect(overview.status == 0 && overview.output.contains("simulate"))
        let simulate = try Self.widgetsim(["simulate", "--help"])
        #expect(simulate.status == 0 && simulate.output.contains("--seed <n>"))
    }

    @Test func noArgumentsPrintsTheOverviewAndExits64() {
        let console = CapturingConsole()
        #expect(WidgetSimCommandLine.run([], console: console) == .usage)
        #expect(console.errors.contains("USAGE: widgetsim <command>"))
    }
}
