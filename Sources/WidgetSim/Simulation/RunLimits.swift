import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The most work and memory one run may take, so that no scenario can run
/// for hours, exhaust memory, or reach the event queue's 2^32-event bound.
///
/// Promised: a run is first judged by its `RunEstimate` and refused before it
/// starts when the estimate passes `maximumEventsPerDevice`,
/// `maximumEventsPerRun` (simulate and compare), `maximumScriptedActionsPerDevice`
/// or `memoryBytes`. The
/// simulator also stops by itself, with `RunLimitExceeded`, when a device
/// schedules `guardEventsPerDevice` events or the rows it keeps pass
/// `memoryBytes`, so a run whose estimate was too low still ends with an
/// error, not a crash.
public struct RunLimits: Equatable, Sendable {
    /// Events one device may be estimated to handle: a year of a busy phone
    /// with a dozen widgets is about 10 million.
    public static let maximumEventsPerDevice = 400_000_000.0
    /// Events one `simulate` run, or one replication of `compare`, may be
    /// estimated to handle in all (a few minutes).
    public static let maximumEventsPerRun = 1_000_000_000.0
    /// Events one calibration, comparison or sensitivity analysis may be
    /// estimated to simulate in all, over all its runs (about ten minutes on
    /// a 2-core machine): each run may pass the limits above, and hundreds of
    /// thousands of them would not end for days.
    public static let maximumEventsPerAnalysis = 5_000_000_000.0
    /// Events one `fleet` process (a whole run, or one shard of it) may be
    /// estimated to simulate over all its variants: at most about two hours
    /// on a 2-core machine (the estimate is an upper bound, about five times
    /// the events `fleet-weather` makes), and room for a million devices ×
    /// a week × three variants (about 16 billion estimated). A larger fleet
    /// is split with `--shard`, each shard a process of its own; without a
    /// bound, a fleet within every per-device limit could run for weeks.
    public static let maximumEventsPerFleetRun = 100_000_000_000.0
    /// Scripted actions one device may hold over the run, fixed ones plus
    /// each repeating one once per day it repeats (and, in a fleet, every
    /// moment): they are all planned before the run starts.
    public static let maximumScriptedActionsPerDevice = 100_000.0

    /// Events one device may schedule before the simulator stops it: well
    /// above the estimate's limit, and far below the queue's 2^32.
    public var guardEventsPerDevice = 1 << 30
    /// Bytes of rows an observer may keep before the simulator stops.
    public var memoryBytes = RunLimits.memoryLimitBytes

    public init() {}

    /// The most a run may plan to keep: half the memory the process may use
    /// (the machine's, or less under `ulimit -v`), at most 8 GiB.
    public static let memoryLimitBytes: Int = {
        var limit = min(Int(clamping: ProcessInfo.processInfo.physicalMemory) / 2, 8 << 30)
        var bound = rlimit()
        if getrlimit(resourceLimitAddressSpace, &bound) == 0 {
            // Unlimited is the largest value, which leaves the limit as it is.
            limit = min(limit, Int(clamping: bound.rlim_cur) / 2)
        }
        return max(limit, 64 << 20)
    }()

    #if canImport(Glibc)
    private static let resourceLimitAddressSpace = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
    private static let resourceLimitAddressSpace = RLIMIT_AS
    #endif

    /// Why `estimate` may not run as `command` ("simulate", "compare", "calibrate" or
    /// "fleet"), with the numbers and the field to change; nil when it may.
    public static func refusal(_ estimate: RunEstimate, command: String, threads: Int = 1) -> String? {
        let size = "\(DisplayText.counted(estimate.devices, "device")) × \(DisplayText.counted(estimate.days, "day"))"
        let actionLimit = maximumScriptedActionsPerDevice
        if estimate.scriptedActionsPerDevice > actionLimit {
            return "\(estimate.scriptSource) would give one device \(count(estimate.scriptedActionsPerDevice)) scripted actions (each \"daily\" entry once a day), more than the \(count(actionLimit)) one device may; use fewer script entries, or fewer days"
        }
        if estimate.eventsPerDevice > maximumEventsPerDevice {
            return "one device would handle about \(count(estimate.eventsPerDevice)) events in \(DisplayText.counted(estimate.days, "day")), more than the \(count(maximumEventsPerDevice)) one device may; most come from \(estimate.heaviestSource()); lower it, or the days"
        }
        if command != "fleet" && estimate.events > maximumEventsPerRun {
            return "the run would handle about \(count(estimate.events)) events (\(size)), more than the \(count(maximumEventsPerRun)) one run may; lower the devices or days, or the largest source, \(estimate.heaviestSource())"
        }
        let bytes: Double
        switch command {
        case "simulate": bytes = estimate.simulateBytes
        case "compare": bytes = estimate.compareBytes(threads: threads)
        // Calibration runs keep no rows: only their devices' timelines.
        case "fleet", "calibrate": bytes = estimate.timelineBytes(threads: threads)
        default: bytes = 0
        }
        let timelines = estimate.timelineBytes(threads: command == "simulate" ? 1 : threads)
        let (held, limit) = sizes(bytes, limit: Double(memoryLimitBytes))
        if bytes > Double(memoryLimitBytes) && 2 * timelines > bytes {
            let oneDevice = command == "simulate" || threads <= 1
            let devices = oneDevice ? "one device at a time" : "\(DisplayText.counted(threads, "device")) at a time, one a thread"
            return "the run would hold about \(held), most of it the timelines its widgets' providers return (\(devices)); the limit on this machine is \(limit) (half the memory it may use, at most 8 GiB). Lower the entries of the longest, \(estimate.timelineSource), or the widgets on a device\(oneDevice ? "" : ", or the threads")"
        }
        if bytes > Double(memoryLimitBytes) {
            let kept = command == "compare" ? "views (\(size), \(threads) runs at a time)" : "rows (\(size))"
            return "the run would keep about \(held) of \(kept); the limit on this machine is \(limit) (half the memory it may use, at most 8 GiB). Lower the devices or days, or the largest source, \(estimate.heaviestSource(byRows: true)); or describe the population as a fleet (widgetsim fleet), which keeps no rows"
        }
        return nil
    }

    /// "1.2 million", "3.4 billion", "1,389.2 billion", "12,345".
    public static func count(_ value: Double) -> String {
        func scaled(_ unit: Double, _ name: String) -> String {
            let text = FixedDecimal.format(value / unit, decimals: 1)
            let parts = text.split(separator: ".", maxSplits: 1)
            // The whole part grouped as a count below a million is; past
            // what an Int holds, as formatted.
            let whole = parts.first.flatMap { Int($0) }.map(DisplayText.grouped) ?? String(parts.first ?? "")
            let tenths = parts.count > 1 && parts[1] != "0" ? "." + parts[1] : ""
            return whole + tenths + " " + name
        }
        // Compared once rounded, so that 999,999.6 reads "1 million", not "1,000,000".
        let rounded = value.rounded()
        if rounded >= 1e9 { return scaled(1e9, "billion") }
        if rounded >= 1e6 { return scaled(1e6, "million") }
        return DisplayText.grouped(Int(rounded))
    }

    /// "1.5": bytes as GiB, to a tenth, as every memory refusal prints them.
    public static func gib(_ bytes: Double) -> String { FixedDecimal.format(bytes / 1_073_741_824, decimals: 1) }

    /// A refusal's size and limit: "2.3 GiB" and "1.5 GiB", or in whole MiB
    /// when the two would read the same in GiB ("about 0.1 GiB" against a
    /// limit of "0.1 GiB" under a small `ulimit -v` read as no reason at all).
    static func sizes(_ bytes: Double, limit: Double) -> (size: String, limit: String) {
        guard gib(bytes) == gib(limit) else { return (gib(bytes) + " GiB", gib(limit) + " GiB") }
        // Both within a tenth of a GiB of a limit of at most 8 GiB, so whole
        // MiB fit an Int; the size rounded up and the limit down, so a size
        // over the limit never reads as equal to it.
        func mib(_ bytes: Double, _ rule: FloatingPointRoundingRule) -> String {
            DisplayText.grouped(Int((bytes / 1_048_576).rounded(rule))) + " MiB"
        }
        return (mib(bytes, .up), mib(limit, .down))
    }
}

/// A run stopped by `RunLimits` before its end.
public struct RunLimitExceeded: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case events
        case memory
    }

    public var kind: Kind
    public var device: String
    /// The simulated instant at which the run stopped.
    public var at: SimTime
    public var limit: Int

    public var description: String {
        let when = "on day \(at / Seconds.day + 1) of the run"
        switch kind {
        case .events:
            return "the run stopped: device '\(device)' scheduled more than \(RunLimits.count(Double(limit))) events \(when), the most one device may. The scenario asks for more work than its estimate showed; lower its rates (truth changes, views, reload requests), days or widgets"
        case .memory:
            return "the run stopped: its rows passed \(RunLimits.gib(Double(limit))) GiB \(when), the most this machine allows. Lower the scenario's rates, days or devices, or run it as a fleet (widgetsim fleet), which keeps no rows"
        }
    }
}
