/// What a fleet run comes to, kept as integer counters only.
///
/// Promised: merging is addition, so the same devices give the same aggregate
/// in any order, on any number of threads or shards, and its memory does not
/// depend on the number of devices: it is `days × 1440` per-minute counters
/// plus two fixed histograms.
public struct FleetAggregate: Equatable, Sendable {
    /// Width of a staleness histogram bin, in seconds.
    public static let stalenessBinSeconds = 10
    /// Staleness bins: bin 0 holds fresh views (exactly 0 s); bin k holds
    /// staleness in ((k-1)·10, k·10] s; the last bin holds everything over two days.
    public static let stalenessBinCount = 2 * Seconds.day / stalenessBinSeconds + 2
    /// Reloads-per-device-day histogram length; the last bin holds this many or more.
    public static let reloadBinCount = 1_001

    public var devices = 0
    /// Widget-days measured (warm-up excluded).
    public var widgetDays = 0
    /// Events processed by the simulators, warm-up included, for throughput measurements.
    public var events = 0
    public var counts = EventCounts()
    /// Provider calls (server requests) started in each minute since the start.
    public var requestsPerMinute: [Int]
    /// Device-days by the number of reloads in them.
    public var reloadsPerDeviceDay: [Int]
    public var stalenessHistogram: [Int]

    /// The bytes a fleet run or a merge plans on for `variants` variants
    /// over `days` days: one aggregate per variant kept throughout, and the
    /// larger of its two phases. While running or reading, `inFlight` more
    /// aggregates are in use (one a thread while running; while a partial
    /// file is read, its variants and the copy of the merged ones that
    /// adding them fills, two a variant) beside `readingBytes` of input
    /// text; while writing, those are gone and the per-minute CSV text of
    /// every variant (about 12 bytes a value) is built and copied into the
    /// bytes written, twice its size. An estimate, not a bound: it is what
    /// `fleet` and `merge` compare with `RunLimits.memoryLimitBytes`.
    public static func plannedBytes(days: Int, variants: Int, inFlight: Int, readingBytes: Int = 0) -> Int {
        let aggregate = (days * 1_440 + stalenessBinCount + reloadBinCount) * 8
        let filling = aggregate * inFlight + readingBytes
        let writing = 2 * days * 1_440 * (40 + 12 * variants)
        return aggregate * variants + max(filling, writing) + 64 * 1024 * 1024
    }

    public init(days: Int) {
        requestsPerMinute = Array(repeating: 0, count: days * Seconds.day / Seconds.minute)
        reloadsPerDeviceDay = Array(repeating: 0, count: FleetAggregate.reloadBinCount)
        stalenessHistogram = Array(repeating: 0, count: FleetAggregate.stalenessBinCount)
    }

    /// Adds another aggregate of the same run shape.
    ///
    /// Only for parts of one in-process run (the threads of `FleetRun`), which
    /// share their days, so the precondition cannot be reached from input:
    /// partial files are merged with `mergeChecked`, which returns false on
    /// a length mismatch or an overflow instead.
    public mutating func merge(_ other: FleetAggregate) {
        precondition(requestsPerMinute.count == other.requestsPerMinute.count, "merging aggregates of different lengths")
        devices += other.devices
        widgetDays += other.widgetDays
        events += other.events
        counts.add(other.counts)
        for index in requestsPerMinute.indices { requestsPerMinute[index] += other.requestsPerMinute[index] }
        for index in reloadsPerDeviceDay.indices { reloadsPerDeviceDay[index] += other.reloadsPerDeviceDay[index] }
        for index in stalenessHistogram.indices { stalenessHistogram[index] += other.stalenessHistogram[index] }
    }

    /// Adds another aggregate of the same run shape, as `merge` does, but
    /// returns false (and leaves this one unchanged) when a counter would overflow.
    mutating func mergeChecked(_ other: FleetAggregate) -> Bool {
        guard requestsPerMinute.count == other.requestsPerMinute.count else { return false }
        var sum = self
        func add(_ a: inout Int, _ b: Int) -> Bool {
            let (result, overflow) = a.addingReportingOverflow(b)
            a = result
            return !overflow
        }
        let scalars = add(&sum.devices, other.devices) && add(&sum.widgetDays, other.widgetDays) && add(&sum.events, other.events)
            && sum.counts.addChecked(other.counts)
        guard scalars else { return false }
        for index in sum.requestsPerMinute.indices where !add(&sum.requestsPerMinute[index], other.requestsPerMinute[index]) { return false }
        for index in sum.reloadsPerDeviceDay.indices where !add(&sum.reloadsPerDeviceDay[index], other.reloadsPerDeviceDay[index]) { return false }
        for index in sum.stalenessHistogram.indices where !add(&sum.stalenessHistogram[index], other.stalenessHistogram[index]) { return false }
        guard sum.totalsFit else { return false }
        self = sum
        return true
    }

    /// The most any total of an aggregate may reach: a report adds counters
    /// up (every bin of a histogram, budgeted and free reloads), so each
    /// total must leave room; a real run of 10 million devices for a year
    /// stays far below it.
    static let maximumTotal = 1 << 60

    /// True when every counter and every total a report computes from them
    /// stays below `maximumTotal`. A partial file from no real run may fail this.
    var totalsFit: Bool {
        func total(_ values: [Int]) -> Int? {
            var sum = 0
            for value in values {
                let (next, overflow) = sum.addingReportingOverflow(value)
                guard !overflow, value >= 0, next <= FleetAggregate.maximumTotal else { return nil }
                sum = next
            }
            return sum
        }
        let c = counts
        let scalars = [devices, widgetDays, events, c.budgetedReloads, c.freeReloads, c.withheldRequests, c.timeouts, c.rejectedTimelines,
                       c.views, c.staleViews, c.stalenessTotal]
        return total(scalars) != nil && total(requestsPerMinute) != nil && total(reloadsPerDeviceDay) != nil
            && total(stalenessHistogram) != nil
    }

    static func stalenessBin(_ seconds: Int) -> Int {
        seconds <= 0 ? 0 : min(stalenessBinCount - 1, (seconds + stalenessBinSeconds - 1) / stalenessBinSeconds)
    }

    /// The upper edge, in seconds, of the staleness bin holding the `p`-th
    /// percentile of views (0 when it is the fresh bin); nil without views.
    public func stalenessPercentile(_ p: Double) -> Int? {
        guard let bin = FleetAggregate.percentileBin(p, of: stalenessHistogram) else { return nil }
        return bin * FleetAggregate.stalenessBinSeconds
    }

    /// The `p`-th percentile of reloads per device-day.
    public func reloadsPerDeviceDayPercentile(_ p: Double) -> Int? {
        FleetAggregate.percentileBin(p, of: reloadsPerDeviceDay)
    }

    /// The bin holding the nearest-rank `p`-th percentile of a histogram.
    static func percentileBin(_ p: Double, of histogram: [Int]) -> Int? {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = max(1, Int((p / 100 * Double(total)).rounded(.up)))
        var seen = 0
        for (bin, count) in histogram.enumerated() {
            seen += count
            if seen >= rank { return bin }
        }
        return histogram.count - 1
    }

    /// Total provider calls.
    public var requests: Int { counts.requests }
}

/// Feeds one device at a time into a `FleetAggregate`, keeping no rows.
///
/// The counters written on every view or reload (requests per minute, the
/// staleness histogram, the current device's reloads per day) live in
/// tables rather than in the aggregate's arrays: a write through an array
/// asks the runtime whether its buffer is shared, and these are written
/// once or twice per event (README, "Speed"). `aggregate` copies them out.
///
/// Not promised: value semantics. Copies share those tables, so an observer
/// is handed from run to run (`Simulation.run` consumes it and returns it),
/// never copied and used twice.
struct FleetObserver: SimulationObserver {
    /// Everything but the three counters below, which `aggregate` adds.
    private var totals: FleetAggregate
    private let requestsPerMinute: StateTable<Int>
    private let stalenessHistogram: StateTable<Int>
    /// Reloads in each measured day of the current device.
    private let deviceDayReloads: StateTable<Int>
    /// Seconds of warm-up at the start of the simulation, not counted.
    let warmUp: Int

    init(days: Int, warmUp: Int = 0) {
        // The counters are indexed by the time after the warm-up without
        // checks in release builds (`StateTable`).
        precondition(warmUp >= 0, "FleetObserver: a negative warm-up of \(warmUp) s")
        totals = FleetAggregate(days: 0)
        requestsPerMinute = StateTable(repeating: 0, count: days * Seconds.day / Seconds.minute)
        stalenessHistogram = StateTable(repeating: 0, count: FleetAggregate.stalenessBinCount)
        deviceDayReloads = StateTable(repeating: 0, count: days)
        self.warmUp = warmUp
    }

    /// What the devices finished so far add up to.
    var aggregate: FleetAggregate {
        var aggregate = totals
        aggregate.requestsPerMinute = Array(requestsPerMinute)
        aggregate.stalenessHistogram = Array(stalenessHistogram)
        return aggregate
    }

    // Inlined into the simulator: a view or a reload is counted in a few
    // instructions, and the call passed the whole record through memory.
    @inline(__always)
    mutating func reloadStarted(_ record: ReloadRecord) {
        let time = record.time - warmUp
        guard time >= 0 else { return }
        requestsPerMinute[time / Seconds.minute] += 1
        deviceDayReloads[time / Seconds.day] += 1
        totals.counts.count(record)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    mutating func widgetViewed(_ record: ViewRecord) {
        guard record.time >= warmUp else { return }
        totals.counts.count(record)
        stalenessHistogram[FleetAggregate.stalenessBin(record.staleness)] += 1
    }

    mutating func reloadWithheld(_ record: WithheldRecord) {
        guard record.time >= warmUp else { return }
        totals.counts.count(record)
    }

    mutating func dayStarted(_ record: DayStartRecord) {}

    /// Adds the device just run to the totals and readies the per-day counters for the next.
    mutating func finishDevice(_ device: DeviceSetup, events: Int) {
        totals.devices += 1
        // A widget counts the measured days from the one it is added on:
        // its `addedAt` counts from the simulated start, before the warm-up.
        for widget in device.widgets {
            totals.widgetDays += WidgetSetup.daysInRun(of: deviceDayReloads.count, addedAt: widget.addedAt - warmUp)
        }
        totals.events += events
        for day in deviceDayReloads.indices {
            totals.reloadsPerDeviceDay[min(FleetAggregate.reloadBinCount - 1, deviceDayReloads[day])] += 1
            deviceDayReloads[day] = 0
        }
    }
}
