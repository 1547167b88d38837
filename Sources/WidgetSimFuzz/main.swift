// widgetsim-fuzz: random valid scenarios must run without crashing, pass
// `check`, and give the same bytes twice (`make fuzz`).
//
//   widgetsim-fuzz --seeds N [--start S]   sweep seeds S..<S+N on every core
//   widgetsim-fuzz --seed N [--keep DIR]   one seed; with --keep, write its scenario and reports to DIR
//   widgetsim-fuzz --range A B             (internal) one child's share of a sweep
import Dispatch
import Foundation
import WidgetSim

func fail(_ message: String, code: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("widgetsim-fuzz: \(message)\n".utf8))
    exit(code)
}

func value(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("--help") {
    print("usage: widgetsim-fuzz --seeds <n> [--start <s>] | --seed <n> [--keep <dir>]")
    exit(arguments.isEmpty ? 64 : 0)
}

// Child: one range, sequentially; the first failure is printed and ends it.
if arguments.first == "--range" {
    guard arguments.count == 3, let start = UInt64(arguments[1]), let end = UInt64(arguments[2]) else { fail("bad --range") }
    for seed in start..<end {
        if let failure = RandomScenario.failure(seed: seed) {
            print("FAIL \(seed) \(failure)")
            exit(1)
        }
    }
    exit(0)
}

// One seed, for reproducing a failure.
if let text = value("--seed", in: arguments) {
    guard let seed = UInt64(text) else { fail("--seed needs a whole number") }
    if let directory = value("--keep", in: arguments) {
        let scenario = RandomScenario.text(seed: seed)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? scenario.write(toFile: directory + "/scenario.json", atomically: true, encoding: .utf8)
        if let setup = try? ScenarioLoader.decode(scenario, file: "scenario.json") {
            try? ReportDirectory.write(ReportWriter(setup: setup, collector: Simulation.run(setup)).files(), to: directory + "/report")
        }
        print("seed \(seed): scenario in \(directory)/scenario.json, reports in \(directory)/report")
    }
    if let failure = RandomScenario.failure(seed: seed) {
        print("seed \(seed) FAILS: \(failure)")
        exit(1)
    }
    print("seed \(seed): every property holds")
    exit(0)
}

// Sweep: ranges in child processes, so a crash is caught and pinned to its seed.
guard let countText = value("--seeds", in: arguments), let count = UInt64(countText), count > 0 else {
    fail("give --seeds <n> or --seed <n>")
}
let start = UInt64(value("--start", in: arguments) ?? "1") ?? 1
let chunk: UInt64 = 250

/// Runs seeds start..<end in a child; returns nil or a failure line.
@Sendable func runChild(_ start: UInt64, _ end: UInt64) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = ["--range", String(start), String(end)]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { fail("cannot start a child: \(error)", code: 70) }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if process.terminationReason == .exit && process.terminationStatus == 0 { return nil }
    if let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("FAIL ") }) {
        return String(line)
    }
    // It crashed: find the seed by running each alone.
    if end - start > 1 {
        for seed in start..<end {
            if let failure = runChild(seed, seed + 1) { return failure }
        }
    }
    return "FAIL \(start) crashed (\(process.terminationReason == .uncaughtSignal ? "signal" : "exit") \(process.terminationStatus))"
}

final class Sweep: @unchecked Sendable {
    let lock = NSLock()
    var failures: [(seed: UInt64, line: String)] = []
    var done: UInt64 = 0
}

/// Sweeps seeds start..<start+count on every core; returns the failures.
func sweepSeeds(start: UInt64, count: UInt64, chunk: UInt64) -> [(seed: UInt64, line: String)] {
    let sweep = Sweep()
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let chunks = Int((count + chunk - 1) / chunk)
    print("widgetsim-fuzz: seeds \(start)..<\(start + count) in \(chunks) chunks on \(cores) cores")
    DispatchQueue.concurrentPerform(iterations: cores) { worker in
        var index = worker
        while index < chunks {
            let first = start + UInt64(index) * chunk
            let last = min(start + count, first + chunk)
            let failure = runChild(first, last)
            sweep.lock.lock()
            if let failure {
                let seed = UInt64(failure.split(separator: " ")[1]) ?? first
                sweep.failures.append((seed, failure))
            }
            sweep.done += last - first
            if index % 40 == 0 {
                FileHandle.standardError.write(Data("  \(sweep.done)/\(count) seeds\n".utf8))
            }
            sweep.lock.unlock()
            index += cores
        }
    }
    return sweep.failures
}

let clock = ContinuousClock()
let began = clock.now
let failures = sweepSeeds(start: start, count: count, chunk: chunk)
let elapsed = clock.now - began
guard let first = failures.min(by: { $0.seed < $1.seed }) else {
    print("widgetsim-fuzz: all \(count) seeds pass (no crash, check passes, same bytes twice) in \(elapsed.components.seconds) s")
    exit(0)
}
print("widgetsim-fuzz: \(failures.count) chunk(s) failed; the first failing seed:")
print("  \(first.line)")
print("  reproduce: make fuzz SEED=\(first.seed)")
exit(1)
