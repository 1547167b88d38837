// widgetsim-chaos: interrupts real `widgetsim simulate` runs at random
// instants with SIGINT, SIGTERM and SIGKILL, and checks after each that the
// report directory is the old reports or the new ones, byte for byte, that
// the exit status and the message tell the truth, and that nothing is left
// behind (`make chaos`). The rules are in WidgetSimChaosKit's ChaosVerdict.
//
//   widgetsim-chaos [--interruptions N] [--seed S] [--only I] [--duration SECONDS]
//                   [--binary PATH] [--scenario PATH] [--devices N] [--days N] [--no-trace] [--work DIR]
import Dispatch
import Foundation
import WidgetSimChaosKit

func fail(_ message: String, code: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("widgetsim-chaos: \(message)\n".utf8))
    exit(code)
}

let usage = """
    USAGE: widgetsim-chaos [--interruptions <n>] [--seed <s>] [--only <i>] [--duration <seconds>]
                           [--binary <path>] [--scenario <path>] [--devices <n>] [--days <n>] [--no-trace] [--work <dir>]

    Starts `widgetsim simulate` over a copy of old reports again and again, and
    interrupts each run after a random delay (uniform over 0 to 1.2 times a clean
    run's duration) with SIGINT, SIGTERM or SIGKILL. After each it checks that the
    report directory holds the old or the new reports byte for byte, that the exit
    status and the message say which, and that nothing is left beside it (a killed
    run's leftovers must be gone after the next completed run). Exits 1 on any
    failure, with the lines that reproduce it; evidence is kept under
    <work>/failures/seed-<s>/.

    OPTIONS:
      --interruptions <n>    interrupted runs (default 1000)
      --seed <s>             seed of the instants and signals (default 1)
      --only <i>             only iteration i, with the instant and signal it has in the full campaign
      --duration <seconds>   the run duration the delays are fractions of (default: measured)
      --binary <path>        the widgetsim under test (default .build/release/widgetsim)
      --scenario <path>      the scenario whose devices are copied (default Scenarios/weather.json)
      --devices <n>          copies of its devices, which sets the run's length (default 8)
      --days <n>             simulated days (default 366)
      --no-trace             do not write trace.json (by default it is written, which makes the
                             writing phase about a sixth of the run)
      --work <dir>           scratch space and evidence (default .chaos)
    """

/// Unbuffered, so progress reaches a log as it happens.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The command line, consumed option by option so that what is left is unknown.
struct Options {
    var remaining: [String]

    /// The value after `name`, removed from the arguments.
    mutating func take(_ name: String) -> String? {
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else { fail("option '\(name)' needs a value") }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    mutating func number<Value: LosslessStringConvertible & Comparable>(_ name: String, _ range: ClosedRange<Value>? = nil) -> Value? {
        guard let text = take(name) else { return nil }
        guard let value = Value(text), range.map({ $0.contains(value) }) ?? true else {
            fail("option '\(name)': \"\(text)\" is not allowed" + (range.map { "; allowed: \($0.lowerBound)...\($0.upperBound)" } ?? ""))
        }
        return value
    }
}

var options = Options(remaining: Array(CommandLine.arguments.dropFirst()))
if options.remaining.contains("--help") || options.remaining.contains("-h") {
    say(usage)
    exit(0)
}
let interruptions: Int = options.number("--interruptions", 0...1_000_000) ?? 1000
let seed: UInt64 = options.number("--seed") ?? 1
let only: Int? = options.number("--only", 1...1_000_000)
let duration: Double? = options.number("--duration", 0.001...3600)
let binary = options.take("--binary") ?? ".build/release/widgetsim"
let scenario = options.take("--scenario") ?? "Scenarios/weather.json"
let devices: Int = options.number("--devices", 1...10_000) ?? 8
let days: Int = options.number("--days", 1...366) ?? 366
let trace = !options.remaining.contains("--no-trace")
options.remaining.removeAll { $0 == "--no-trace" }
let work = options.take("--work") ?? ".chaos"
guard options.remaining.isEmpty else { fail("unknown argument(s): \(options.remaining.joined(separator: " "))\n\(usage)") }
guard FileManager.default.isExecutableFile(atPath: binary) else { fail("\(binary) is not an executable; build it first ('make chaos' does)", code: 66) }

// The reproduce lines are `make chaos` lines when the campaign is the one
// `make chaos` runs, and this executable's own command line otherwise.
let custom = [
    binary != ".build/release/widgetsim" ? "--binary \(binary)" : nil,
    scenario != "Scenarios/weather.json" ? "--scenario \(scenario)" : nil,
    devices != 8 ? "--devices \(devices)" : nil,
    days != 366 ? "--days \(days)" : nil,
    trace ? nil : "--no-trace",
    work != ".chaos" ? "--work \(work)" : nil,
].compactMap { $0 }.joined(separator: " ")
let extra = custom.isEmpty ? "" : " CHAOS_ARGS='\(custom)'"
let configuration = ChaosConfiguration(
    binary: binary, scenario: scenario, devices: devices, days: days, trace: trace, work: work, seed: seed,
    interruptions: interruptions, only: only, duration: duration
) { iteration, duration in
    [
        "make chaos SEED=\(seed) INTERRUPTIONS=\(iteration)\(extra)   # the campaign up to it",
        "make chaos SEED=\(seed) ONLY=\(iteration) DURATION=\(String(format: "%.3f", duration))\(extra)   # this instant alone",
    ]
}

// Ctrl-C on the harness takes its current run down with it, rather than
// leaving a widgetsim writing into the campaign's directory.
var signalSources: [DispatchSourceSignal] = []
for number in [SIGINT, SIGTERM] {
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    // Not main-actor code: the handler runs on a dispatch queue.
    source.setEventHandler { @Sendable in
        RunningChildren.shared.killAll()
        FileHandle.standardError.write(Data("widgetsim-chaos: interrupted\n".utf8))
        exit(128 + number)
    }
    source.resume()
    signalSources.append(source)
}

let campaign = ChaosCampaign(configuration, log: say)
do {
    let report = try campaign.run()
    say("")
    say(report.summary())
    exit(report.failures.isEmpty ? 0 : 1)
} catch {
    fail("\(error)", code: 70)
}
