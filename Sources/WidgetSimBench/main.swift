// widgetsim-bench: speed and memory (`make bench`, `make bench-inputs`).
//
// Two halves, each measured in child processes (so each run's peak resident
// memory is its own) and repeated, with medians quoted: fleet simulation
// (FleetBenchmark.swift), and how reading large inputs grows with their size
// (InputsBenchmark.swift). Compare figures as ratios within one run: these
// machines are shared and noisy.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "child" { runChild(arguments) }
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        USAGE: widgetsim-bench [--only fleet|inputs] [--quick] [--scenario <fleet scenario>]
                               [--widgetsim <binary>] [--timeout <seconds>] [--keep-inputs]

        fleet: measures fleet simulation (the scenario's base, no warm-up) in child
        processes: throughput on 1 thread and on all cores, 1,000,000 widget-days,
        and the cost at three sizes.

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

if only != "inputs" {
    runFleetBenchmark(scenario: value(of: "--scenario") ?? "Scenarios/fleet-weather.json", quick: quick)
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
