// widgetsim-bench: speed and memory (`make bench`, `make bench-inputs`).
//
// Two halves, each measured in child processes (so each run's peak resident
// memory is its own) and repeated, with medians quoted: fleet simulation
// (FleetBenchmark.swift), and how reading large inputs grows with their size
// (InputsBenchmark.swift). Compare figures as ratios within one run: these
// machines are shared and noisy. With --baseline, the fleet half starts with
// this build against another build of this program, run alternately in the
// same sitting (BaselineComparison.swift).
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "child" { runChild(arguments) }
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        USAGE: widgetsim-bench [--only fleet|inputs] [--quick] [--scenario <fleet scenario>]
                               [--baseline <widgetsim-bench binary> [--baseline-name <text>]] [--instructions]
                               [--widgetsim <binary>] [--timeout <seconds>] [--keep-inputs]

        fleet: measures fleet simulation (the scenario's base, no warm-up) in child
        processes: throughput on 1 thread and on all cores, 1,000,000 widget-days,
        and the cost at three sizes.

        --baseline: first measures this build against another build of this
        program (`make bench` builds the commit before the speed work into
        .build-baseline): both run the same child, 20,000 devices × 7 days on
        1 thread (5,000 with --quick), alternately, baseline first, 5 pairs (2
        with --quick). Prints each build's events per widget-day, median wall
        time and median widget-days/s per core, the ratio of the medians, the
        ratio of each pair and their median, and the target of 3× the
        baseline's widget-days/s per core. --baseline-name names it (default:
        its path).

        --instructions: counts instructions per widget-day and per event, which
        do not depend on load, in one run of each build's child (1,000 devices ×
        7 days, 1 thread) under 'valgrind --tool=callgrind' (valgrind must be on
        PATH; its output goes to .build/bench-callgrind and is deleted). A
        callgrind run over --timeout seconds is killed. Without --baseline,
        counts this build's alone.

        inputs: times the widgetsim binary (default: the one beside this program)
        in child processes on generated inputs: 'check --reloads' on logs of
        250,000, 500,000 and 1,000,000 rows, and 'validate' on scenario files of
        about 4, 8 and 16 MiB in five shapes. Prints the cost per row or byte and
        its ratio to the smallest size (1.00 means linear). A run over --timeout
        seconds (default 120) is killed and reported as over. Inputs are written
        to .build/bench-inputs and deleted afterwards (kept with --keep-inputs).

        Both by default. Quotes medians of 3 runs (1 with --quick).
        """)
    exit(0)
}

func value(of option: String) -> String? {
    guard let index = arguments.firstIndex(of: option) else { return nil }
    guard index + 1 < arguments.count else {
        FileHandle.standardError.write(Data("widgetsim-bench: \(option) needs a value\n".utf8))
        exit(64)
    }
    return arguments[index + 1]
}

let quick = arguments.contains("--quick")
let scenario = value(of: "--scenario") ?? "Scenarios/fleet-weather.json"
let only = value(of: "--only")
guard only == nil || only == "fleet" || only == "inputs" else {
    FileHandle.standardError.write(Data("widgetsim-bench: --only takes fleet or inputs, got '\(only!)'\n".utf8))
    exit(64)
}
let timeout = value(of: "--timeout").map { Double($0) ?? -1 } ?? 120
guard timeout > 0 else {
    FileHandle.standardError.write(Data("widgetsim-bench: --timeout takes a number of seconds > 0\n".utf8))
    exit(64)
}

var comparison: BaselineComparison?
let baselinePath = value(of: "--baseline")
let countInstructions = arguments.contains("--instructions")
if only != "inputs" && (baselinePath != nil || countInstructions) {
    if let baselinePath, !FileManager.default.isExecutableFile(atPath: baselinePath) {
        FileHandle.standardError.write(Data("widgetsim-bench: no baseline widgetsim-bench at \(baselinePath) ('make bench' builds one)\n".utf8))
        exit(66)
    }
    var valgrind: String?
    if countInstructions {
        valgrind = findOnPath("valgrind")
        if valgrind == nil {
            FileHandle.standardError.write(Data("widgetsim-bench: --instructions needs valgrind on PATH\n".utf8))
            exit(69)
        }
    }
    comparison = BaselineComparison(
        baseline: baselinePath.map { BenchBuild(name: "baseline \(value(of: "--baseline-name") ?? $0)", executable: $0) },
        current: BenchBuild(name: "this build", executable: thisExecutable()),
        scenario: scenario, devices: throughputDevices(quick: quick), days: benchmarkDays, pairs: quick ? 2 : 5,
        valgrind: valgrind, scratch: ".build/bench-callgrind", timeLimit: timeout)
}

if only != "inputs" {
    runFleetBenchmark(scenario: scenario, quick: quick, comparison: comparison)
}
if only != "fleet" {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("widgetsim").path
    let benchmark = InputsBenchmark(
        widgetsim: value(of: "--widgetsim") ?? beside, scratch: ".build/bench-inputs", repeats: quick ? 1 : 3,
        timeLimit: timeout, keepInputs: arguments.contains("--keep-inputs"))
    if only != "inputs" { print("") }
    print("widgetsim-bench inputs: \(benchmark.widgetsim), median of \(benchmark.repeats), time limit \(format(timeout, 0)) s per run")
    do {
        try benchmark.run()
    } catch {
        FileHandle.standardError.write(Data("widgetsim-bench: \(error.message)\n".utf8))
        exit(error.code)
    }
}
