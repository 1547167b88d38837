import Foundation

/// Runs a fleet scenario: every device of the population (or of one shard),
/// spread over threads, streamed into integer aggregates.
///
/// Promised: the aggregate depends only on the scenario, its seed and which
/// devices ran, never on the number of threads or how devices were split
/// into shards, because devices are independent and merging is addition.
/// Memory does not grow with the number of devices.
public enum FleetRun {
    /// Part `index` (0-based) of `count` disjoint parts of the fleet: the
    /// devices whose index leaves remainder `index` when divided by `count`.
    public struct Shard: Equatable, Sendable, CustomStringConvertible {
        public var index: Int
        public var count: Int

        /// The command line checks `--shard i/n` (1 ≤ i ≤ n ≤ 100,000) before
        /// it builds a shard, and partial files carry shard numbers, not
        /// shards, so no input reaches the precondition.
        public init(index: Int, count: Int) {
            precondition(count >= 1 && index >= 0 && index < count, "shard index must be in 0..<count")
            self.index = index
            self.count = count
        }

        public static let whole = Shard(index: 0, count: 1)

        /// The devices of this shard among `devices`.
        public func devices(of total: Int) -> StrideTo<Int> { stride(from: index, to: total, by: count) }

        /// "i/n" with i 1-based, as on the command line.
        public var description: String { "\(index + 1)/\(count)" }
    }

    public struct Options: Sendable {
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        public var shard = Shard.whole

        public init() {}
    }

    /// The aggregate of `setup`'s fleet (or shard). `progress(done)` reports
    /// devices finished, every few hundred devices.
    /// Throws when a device passes `RunLimits` (the first such thread's, in thread order).
    public static func run(_ setup: SimulationSetup, options: Options, progress: (@Sendable (Int) -> Void)? = nil) throws(RunLimitExceeded) -> FleetAggregate {
        guard let fleet = setup.fleet else { preconditionFailure("FleetRun needs a fleet scenario") }
        let simulated = setup.warmedUp
        let warmUp = fleet.warmUpDays * Seconds.day
        let devices = Array(options.shard.devices(of: fleet.deviceCount))
        let threads = max(1, min(options.threads, devices.count))
        let counter = DeviceCounter(progress: progress)
        let parts = ParallelMap.map(count: threads, threads: threads) { worker -> Result<FleetAggregate, RunLimitExceeded> in
            let mine = stride(from: worker, to: devices.count, by: threads).lazy.map { devices[$0] }
            do throws(RunLimitExceeded) {
                return .success(try Simulation.run(simulated, devices: mine, observer: FleetObserver(days: setup.days, warmUp: warmUp)) {
                    observer, device, events in
                    observer.finishDevice(device, events: events)
                    counter.increment()
                }.aggregate)
            } catch {
                return .failure(error)
            }
        }
        var total = FleetAggregate(days: setup.days)
        for part in parts { total.merge(try part.get()) }
        return total
    }
}

/// Counts finished devices across threads and reports progress now and then.
private final class DeviceCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private let progress: (@Sendable (Int) -> Void)?

    init(progress: (@Sendable (Int) -> Void)?) {
        self.progress = progress
    }

    func increment() {
        guard let progress else { return }
        lock.lock()
        done += 1
        if done % 256 == 0 { progress(done) }
        lock.unlock()
    }
}
