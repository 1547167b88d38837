// The fleet half of `make bench`: the speed and memory of fleet simulation.
//
// Every measurement runs in a child process, so each configuration's peak
// resident memory is its own, and is repeated; medians are quoted. Compare
// figures as ratios within one run: these machines are shared and noisy.
import Foundation
import WidgetSim

struct Measurement: Codable {
    var wallSeconds: Double
    var events: Int
    var widgetDays: Int
    var peakRSSKiB: Int
}

func peakRSSKiB() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    #if os(Linux)
    return Int(usage.ru_maxrss)
    #else
    return Int(usage.ru_maxrss) / 1024
    #endif
}

/// The benchmark fleet: the scenario's base, without warm-up, at a given size.
func benchmarkSetup(path: String, devices: Int, days: Int) -> SimulationSetup {
    let document: ScenarioDocument
    do {
        document = try ScenarioLoader.loadDocument(path: path)
    } catch {
        FileHandle.standardError.write(Data("widgetsim-bench: \(error.description)\n".utf8))
        exit(65)
    }
    var setup = document.base
    guard setup.fleet != nil else {
        FileHandle.standardError.write(Data("widgetsim-bench: \(path) is not a fleet scenario\n".utf8))
        exit(64)
    }
    setup.population.updateFleet { fleet in
        fleet.deviceCount = devices
        fleet.warmUpDays = 0
    }
    setup.days = days
    return setup
}

/// Child mode: one measured run, printed as JSON.
func runChild(_ arguments: [String]) -> Never {
    guard arguments.count == 5, let devices = Int(arguments[1]), let days = Int(arguments[2]), let threads = Int(arguments[3]) else {
        FileHandle.standardError.write(Data("usage: widgetsim-bench child <devices> <days> <threads> <scenario>\n".utf8))
        exit(64)
    }
    let setup = benchmarkSetup(path: arguments[4], devices: devices, days: days)
    var options = FleetRun.Options()
    options.threads = threads
    let clock = ContinuousClock()
    let start = clock.now
    guard let aggregate = try? FleetRun.run(setup, options: options) else {
        FileHandle.standardError.write(Data("the benchmark run passed the run limits\n".utf8))
        exit(70)
    }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    let measurement = Measurement(wallSeconds: seconds, events: aggregate.events, widgetDays: aggregate.widgetDays, peakRSSKiB: peakRSSKiB())
    print(String(decoding: try! JSONEncoder().encode(measurement), as: UTF8.self))
    exit(0)
}

/// Runs one configuration `repeats` times in child processes of this program.
func measure(devices: Int, days: Int, threads: Int, scenario: String, repeats: Int) -> [Measurement] {
    (0..<repeats).map { _ in
        measureOnce(executable: thisExecutable(), devices: devices, days: days, threads: threads, scenario: scenario)
    }
}

/// One run of `<executable> child <devices> <days> <threads> <scenario>`: this
/// program, or another build of it (a baseline's), whose child mode prints the same JSON.
func measureOnce(executable: String, devices: Int, days: Int, threads: Int, scenario: String) -> Measurement {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["child", String(devices), String(days), String(threads), scenario]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch {
        FileHandle.standardError.write(Data("widgetsim-bench: cannot start a child (\(executable)): \(error)\n".utf8))
        exit(70)
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let measurement = try? JSONDecoder().decode(Measurement.self, from: data) else {
        FileHandle.standardError.write(Data("widgetsim-bench: a child run of \(executable) failed (status \(process.terminationStatus))\n".utf8))
        exit(70)
    }
    return measurement
}

/// One fleet configuration and its runs.
struct FleetRow {
    var name: String
    var devices: Int
    var days: Int
    var threads: Int
    var runs: [Measurement]

    var wall: Double { median(runs.map(\.wallSeconds)) }
    var events: Int { runs[0].events }
    var widgetDays: Int { runs[0].widgetDays }
    var eventsPerSecond: Double { Double(events) / wall }
    var eventsPerSecondPerCore: Double { eventsPerSecond / Double(threads) }
    var widgetDaysPerSecond: Double { Double(widgetDays) / wall }
    var peakRSSMiB: Double { Double(runs.map(\.peakRSSKiB).max()!) / 1024 }
}

/// The fleet's days in every configuration but size-large.
let benchmarkDays = 7

/// The devices of the throughput configurations (and of the comparison with a baseline).
func throughputDevices(quick: Bool) -> Int { quick ? 5_000 : 20_000 }

/// Measures fleet simulation (the scenario's base, no warm-up) and prints the table, the targets and the `bench.` lines;
/// first, if given, this build against a baseline build (or this build's instruction count).
func runFleetBenchmark(scenario: String, quick: Bool, comparison: BaselineComparison?) {
    let repeats = quick ? 1 : 3
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let days = benchmarkDays
    let widgetsPerDevice = benchmarkSetup(path: scenario, devices: 1, days: days).fleet!.meanWidgetsPerDevice
    let throughputDevices = throughputDevices(quick: quick)
    // 2 % more devices than the mean widget count needs, since widget sets are drawn at random.
    let millionDevices = Int((1_020_000 / (widgetsPerDevice * Double(days))).rounded(.up))

    print("widgetsim-bench: \(scenario) (base, no warm-up), \(format(widgetsPerDevice, 2)) widgets per device, \(cores) cores, median of \(repeats)")
    var comparisonLines: [String] = []
    if let comparison {
        do {
            comparisonLines = try comparison.run()
        } catch {
            FileHandle.standardError.write(Data("widgetsim-bench: \(error.message)\n".utf8))
            exit(error.code)
        }
        if comparison.baseline != nil {
            print("")
            print("This build alone:")
        }
    }
    func run(_ name: String, devices: Int, days: Int, threads: Int, scenario: String, repeats: Int) -> FleetRow {
        progress("  running \(name): \(devices) devices × \(days) days on \(threads) thread(s)...")
        return FleetRow(name: name, devices: devices, days: days, threads: threads,
                   runs: measure(devices: devices, days: days, threads: threads, scenario: scenario, repeats: repeats))
    }
    let small = quick ? 1_250 : 5_000
    let rows = [
        run("throughput-1-thread", devices: throughputDevices, days: days, threads: 1, scenario: scenario, repeats: repeats),
        run("throughput-all-threads", devices: throughputDevices, days: days, threads: cores, scenario: scenario, repeats: repeats),
        run("million-widget-days", devices: millionDevices, days: days, threads: cores, scenario: scenario, repeats: repeats),
        run("size-small", devices: small, days: days, threads: cores, scenario: scenario, repeats: repeats),
        run("size-medium", devices: 4 * small, days: days, threads: cores, scenario: scenario, repeats: repeats),
        run("size-large", devices: 4 * small, days: 4 * days, threads: cores, scenario: scenario, repeats: repeats),
    ]

    print("")
    print("| configuration | devices | days | threads | widget-days | events | wall s | events/s | events/s/core | widget-days/s | peak RSS MiB |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for row in rows {
        print("| \(row.name) | \(row.devices) | \(row.days) | \(row.threads) | \(row.widgetDays) | \(row.events) | \(format(row.wall, 2)) "
            + "| \(format(row.eventsPerSecond / 1e6, 2))M | \(format(row.eventsPerSecondPerCore / 1e6, 2))M "
            + "| \(format(row.widgetDaysPerSecond, 0)) | \(format(row.peakRSSMiB, 1)) |")
    }
    let sizes = rows.filter { $0.name.hasPrefix("size-") }
    let base = sizes[0].wall / Double(sizes[0].widgetDays)
    print("")
    print("Cost per widget-day, relative to size-small (1.00 means linear in devices × days):")
    for row in sizes {
        print("  \(row.name): \(row.widgetDays) widget-days, \(format(row.wall / Double(row.widgetDays) * 1e6, 2)) µs per widget-day, ratio \(format(row.wall / Double(row.widgetDays) / base, 2))")
    }

    let perCore = rows[0].eventsPerSecondPerCore
    let million = rows.first { $0.name == "million-widget-days" }!
    let peakMemory = rows.map(\.peakRSSMiB).max()!
    let worstRatio = sizes.map { $0.wall / Double($0.widgetDays) / base }.max()!
    func verdict(_ passed: Bool) -> String { passed ? "met" : "NOT MET" }
    print("")
    print("Targets:")
    print("  ≥ 10M events/s per core (1 thread): \(format(perCore / 1e6, 2))M — \(verdict(perCore >= 10e6))")
    print("  1,000,000 widget-days in < 20 s (\(cores) threads): \(format(million.wall, 1)) s for \(million.widgetDays) widget-days — \(verdict(million.wall < 20 && million.widgetDays >= 1_000_000))")
    print("  peak memory < 64 MiB at any size: \(format(peakMemory, 1)) MiB — \(verdict(peakMemory < 64))")
    print("  linear cost (ratios within 1.25): worst \(format(worstRatio, 2)) — \(verdict(worstRatio <= 1.25))")
    print("")
    for row in rows {
        print("bench.\(row.name).wall_s=\(format(row.wall, 3)) bench.\(row.name).events_per_s=\(format(row.eventsPerSecond, 0)) bench.\(row.name).widget_days_per_s=\(format(row.widgetDaysPerSecond, 0)) bench.\(row.name).peak_rss_mib=\(format(row.peakRSSMiB, 1))")
    }
    for line in comparisonLines { print(line) }
}
