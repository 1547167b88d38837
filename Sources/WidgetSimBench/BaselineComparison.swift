// This build against a baseline build of widgetsim-bench (`make bench`,
// BENCH_BASELINE): the commit before a piece of speed work, built into its own
// scratch path by the Makefile, measured in the same sitting as this build.
//
// Why in the same sitting: wall times taken at different times on these shared
// machines differ by more than the changes they are meant to show, so the only
// wall-clock figure quoted is a ratio between two builds measured together.
// Instruction counts (callgrind) do not depend on load at all, so they are
// quoted as a second, independent figure.
import Foundation
import WidgetSim

/// One build of widgetsim-bench to measure: this program, or a baseline's.
struct BenchBuild {
    var name: String
    var executable: String
}

/// Runs the same child configuration (`child <devices> <days> 1 <scenario>`)
/// with a baseline build and this one, alternately, and compares them; can
/// also count each build's instructions per widget-day under callgrind.
///
/// Promised: the two builds run the same configuration, pair by pair, the
/// baseline first in each pair, so that load on the machine falls on both
/// alike; only medians and ratios are quoted. If the builds simulate
/// different widget-days (the model changed), a warning says so.
///
/// Not promised: that the baseline can read today's scenario file. It is run
/// with the same path, and a baseline that fails on it stops the benchmark.
struct BaselineComparison {
    /// The baseline, or nil to count only this build's instructions.
    var baseline: BenchBuild?
    var current: BenchBuild
    var scenario: String
    /// The timed configuration: the single-thread throughput one of the fleet table.
    var devices: Int
    var days: Int
    var pairs: Int
    /// valgrind's path, to count instructions; nil to skip them.
    var valgrind: String?
    /// Callgrind slows a run about a hundredfold, so instructions are counted on a smaller fleet.
    var instructionDevices = 1_000
    /// Callgrind's output files go here (created, then removed).
    var scratch: String
    /// A callgrind run over this many seconds is killed.
    var timeLimit: Double

    /// Per core is per thread here: every run is single-threaded, so it is what one core does.
    static let threads = 1
    static let target = 3.0

    /// One build's timed runs and, if counted, its instructions.
    struct Figures {
        var build: BenchBuild
        var runs: [Measurement] = []
        var instructions: InstructionCount?

        var widgetDays: Int { runs[0].widgetDays }
        var events: Int { runs[0].events }
        var eventsPerWidgetDay: Double { Double(events) / Double(widgetDays) }
        var wall: Double { median(runs.map(\.wallSeconds)) }
        var widgetDaysPerSecondPerCore: Double { median(runs.map(BaselineComparison.widgetDaysPerSecondPerCore)) }
        var peakRSSMiB: Double { Double(runs.map(\.peakRSSKiB).max()!) / 1024 }
    }

    /// One callgrind run: the child's own counts and the instructions it took.
    struct InstructionCount {
        var widgetDays: Int
        var events: Int
        var instructions: Int

        var perWidgetDay: Double { Double(instructions) / Double(widgetDays) }
        var perEvent: Double { Double(instructions) / Double(events) }
    }

    static func widgetDaysPerSecondPerCore(_ run: Measurement) -> Double {
        Double(run.widgetDays) / run.wallSeconds / Double(threads)
    }

    /// Measures, prints the section, and returns its `bench.` lines for the end of the output.
    func run() throws(BenchError) -> [String] {
        var baselineFigures = baseline.map { Figures(build: $0) }
        var currentFigures = Figures(build: current)

        if let baseline {
            for pair in 1...pairs {
                baselineFigures!.runs.append(timedRun(of: baseline, pair: pair))
                currentFigures.runs.append(timedRun(of: current, pair: pair))
            }
        }
        if let valgrind {
            try? FileManager.default.removeItem(atPath: scratch)
            do {
                try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            } catch {
                throw BenchError("cannot create \(scratch): \(error)", code: 73)
            }
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            if let baseline {
                baselineFigures!.instructions = try countInstructions(of: baseline, slug: "baseline", valgrind: valgrind)
            }
            currentFigures.instructions = try countInstructions(of: current, slug: "current", valgrind: valgrind)
        }

        var lines: [String] = []
        if let baselineFigures {
            lines += report(baseline: baselineFigures, current: currentFigures)
        } else {
            lines += reportInstructionsOnly(currentFigures)
        }
        return lines
    }

    func timedRun(of build: BenchBuild, pair: Int) -> Measurement {
        progress("  running \(build.name), pair \(pair) of \(pairs): \(devices) devices × \(days) days on \(BaselineComparison.threads) thread...")
        return measureOnce(executable: build.executable, devices: devices, days: days, threads: BaselineComparison.threads, scenario: scenario)
    }

    /// Runs the build's child once under callgrind and reads the instructions it took.
    func countInstructions(of build: BenchBuild, slug: String, valgrind: String) throws(BenchError) -> InstructionCount {
        progress("  counting instructions of \(build.name) (callgrind): \(instructionDevices) devices × \(days) days on 1 thread...")
        let outputFile = "\(scratch)/\(slug).callgrind"
        let arguments = [
            "--tool=callgrind", "--callgrind-out-file=\(outputFile)",
            build.executable, "child", String(instructionDevices), String(days), String(BaselineComparison.threads), scenario,
        ]
        let outcome = try TimedChild(executable: valgrind, arguments: arguments, outputPrefix: "\(scratch)/\(slug)").run(timeLimit: timeLimit)
        if outcome.timedOut {
            throw BenchError("callgrind on \(build.name) took over \(format(timeLimit, 0)) s (raise --timeout, or leave out --instructions)", code: 70)
        }
        guard outcome.exitCode == 0,
              let measurement = try? JSONDecoder().decode(Measurement.self, from: Data(outcome.standardOutput.utf8)) else {
            let how = outcome.exitCode.map { "exit \($0)" } ?? "killed by a signal"
            throw BenchError("callgrind on \(build.name) failed (\(how)): \(outcome.firstMessageLine)", code: 70)
        }
        guard let instructions = BaselineComparison.instructions(valgrindOutput: outcome.standardError, callgrindFile: outputFile) else {
            throw BenchError("no instruction count in callgrind's output for \(build.name)", code: 70)
        }
        return InstructionCount(widgetDays: measurement.widgetDays, events: measurement.events, instructions: instructions)
    }

    /// The total instruction count: valgrind's "==pid== Collected : N" on
    /// standard error, else the output file's "summary: N" (in its header) or
    /// "totals: N" (its last line). Only the file's first and last 4 KiB are
    /// read: the file is large, and this program's memory is kept small (see FileSink).
    static func instructions(valgrindOutput: String, callgrindFile: String) -> Int? {
        func number(after label: String, in text: String) -> Int? {
            for line in text.split(separator: "\n") {
                guard let range = line.range(of: label) else { continue }
                let rest = line[range.upperBound...].drop { $0 == " " }
                if let value = Int(rest.prefix { $0.isNumber }) { return value }
            }
            return nil
        }
        if let collected = number(after: "Collected :", in: valgrindOutput) { return collected }
        guard let handle = FileHandle(forReadingAtPath: callgrindFile) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 4_096)) ?? Data(), as: UTF8.self)
        if let summary = number(after: "\nsummary:", in: "\n" + head) { return summary }
        guard let end = try? handle.seekToEnd() else { return nil }
        try? handle.seek(toOffset: end > 4_096 ? end - 4_096 : 0)
        let tail = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        return number(after: "\ntotals:", in: "\n" + tail)
    }

    /// Prints the comparison and returns its `bench.` lines.
    func report(baseline: Figures, current: Figures) -> [String] {
        print("")
        print("This build against \(baseline.build.name): \(scenario), \(DisplayText.grouped(devices)) devices × \(days) days on 1 thread, "
            + "\(pairs) pairs of runs alternated (baseline first), medians")
        print("")
        print("| build | widget-days | events | events per widget-day | median wall s | median widget-days/s per core | peak RSS MiB |")
        print("|---|--:|--:|--:|--:|--:|--:|")
        for figures in [baseline, current] {
            print("| \(figures.build.name) | \(DisplayText.grouped(figures.widgetDays)) | \(DisplayText.grouped(figures.events)) | \(format(figures.eventsPerWidgetDay, 1)) "
                + "| \(format(figures.wall, 2)) | \(DisplayText.grouped(Int(figures.widgetDaysPerSecondPerCore.rounded()))) | \(format(figures.peakRSSMiB, 1)) |")
        }
        if baseline.widgetDays != current.widgetDays {
            print("")
            print("warning: the builds simulate different widget-days (\(DisplayText.grouped(baseline.widgetDays)) and \(DisplayText.grouped(current.widgetDays))) "
                + "from the same scenario and size: the model changed, so the ratios below compare different work.")
        }

        let speedup = current.widgetDaysPerSecondPerCore / baseline.widgetDaysPerSecondPerCore
        let pairSpeedups = zip(baseline.runs, current.runs).map {
            BaselineComparison.widgetDaysPerSecondPerCore($1) / BaselineComparison.widgetDaysPerSecondPerCore($0)
        }
        let pairMedian = median(pairSpeedups)
        print("")
        print("Widget-days/s per core, this build / baseline: \(format(speedup, 2))× (ratio of the medians)")
        print("  per pair: \(pairSpeedups.map { "\(format($0, 2))×" }.joined(separator: ", ")); median \(format(pairMedian, 2))×")

        var instructionsSpeedup: Double?
        if let old = baseline.instructions, let new = current.instructions {
            print("")
            print("Instructions (callgrind, one run each of \(DisplayText.grouped(instructionDevices)) devices × \(days) days on 1 thread; does not depend on load):")
            print("")
            printInstructionTable([baseline, current])
            if old.widgetDays != new.widgetDays {
                print("")
                print("warning: under callgrind too the builds simulate different widget-days (\(DisplayText.grouped(old.widgetDays)) and \(DisplayText.grouped(new.widgetDays))).")
            }
            instructionsSpeedup = old.perWidgetDay / new.perWidgetDay
            print("")
            print("Instructions per widget-day, baseline / this build: \(format(instructionsSpeedup!, 2))× "
                + "(per event: \(format(old.perEvent / new.perEvent, 2))×)")
        }

        print("")
        print("Target:")
        print("  ≥ \(format(BaselineComparison.target, 0))× widget-days/s per core (1 thread) against the baseline: "
            + "\(format(speedup, 2))× — \(speedup >= BaselineComparison.target ? "met" : "NOT MET")")

        var lines = [machineLine("baseline", baseline), machineLine("this-build", current)]
        var ratios = "bench.baseline.speedup=\(format(speedup, 3)) bench.baseline.pair_speedup_median=\(format(pairMedian, 3))"
        if let instructionsSpeedup { ratios += " bench.baseline.instructions_speedup=\(format(instructionsSpeedup, 3))" }
        lines.append(ratios)
        return lines
    }

    /// Without a baseline: this build's instructions only.
    func reportInstructionsOnly(_ current: Figures) -> [String] {
        guard let count = current.instructions else { return [] }
        print("")
        print("Instructions of this build (callgrind, one run of \(DisplayText.grouped(instructionDevices)) devices × \(days) days on 1 thread; does not depend on load):")
        print("")
        printInstructionTable([current])
        return ["bench.this-build.instructions_per_widget_day=\(format(count.perWidgetDay, 0)) bench.this-build.instructions_per_event=\(format(count.perEvent, 1))"]
    }

    func printInstructionTable(_ builds: [Figures]) {
        print("| build | widget-days | events | events per widget-day | instructions | per widget-day | per event |")
        print("|---|--:|--:|--:|--:|--:|--:|")
        for figures in builds {
            guard let count = figures.instructions else { continue }
            print("| \(figures.build.name) | \(DisplayText.grouped(count.widgetDays)) | \(DisplayText.grouped(count.events)) | \(format(Double(count.events) / Double(count.widgetDays), 1)) "
                + "| \(DisplayText.grouped(count.instructions)) | \(DisplayText.grouped(Int(count.perWidgetDay.rounded()))) | \(format(count.perEvent, 1)) |")
        }
    }

    func machineLine(_ key: String, _ figures: Figures) -> String {
        var line = "bench.\(key).widget_days=\(figures.widgetDays) bench.\(key).events_per_widget_day=\(format(figures.eventsPerWidgetDay, 2)) "
            + "bench.\(key).wall_s=\(format(figures.wall, 3)) bench.\(key).widget_days_per_s_per_core=\(format(figures.widgetDaysPerSecondPerCore, 0)) "
            + "bench.\(key).peak_rss_mib=\(format(figures.peakRSSMiB, 1))"
        if let count = figures.instructions {
            line += " bench.\(key).instructions_per_widget_day=\(format(count.perWidgetDay, 0)) bench.\(key).instructions_per_event=\(format(count.perEvent, 1))"
        }
        return line
    }
}
