import Foundation
import Testing
@testable import WidgetSim

/// The same scenario and seed give byte-identical output; random streams are
/// independent of each other.
@Suite("Determinism")
struct DeterminismTests {
    static func weather() throws -> SimulationSetup {
        try ScenarioLoader.load(path: Paths.scenario("weather"))
    }

    static func render(_ setup: SimulationSetup) throws -> [ReportFile] {
        ReportWriter(setup: setup, collector: try Simulation.run(setup)).files()
    }

    @Test func theSameScenarioAndSeedGiveIdenticalReports() throws {
        let setup = try Self.weather()
        let first = try Self.render(setup)
        let second = try Self.render(setup)
        #expect(first.map(\.name) == ["reloads.csv", "views.csv", "daily.csv", "summary.md", "parameters.csv", "staleness.svg", "staleness-by-hour.svg", "timeline-phone-forecast.svg"])
        #expect(first == second)
    }

    @Test func aWorkerWhoseThreadTheSystemRefusesIsRunByTheCallingThreadWithTheSameResults() {
        // A container's process limit refuses threads: the work must still
        // be done, all of it, with the results in job order.
        let square: @Sendable (Int) -> Int = { $0 * $0 }
        let expected = (0..<37).map { $0 * $0 }
        let counted = Counter()
        for threads in [1, 2, 3, 8] {
            let refusedAll = ParallelMap.map(count: 37, threads: threads, startThread: { _ in nil }, square)
            #expect(refusedAll == expected, "threads \(threads), none granted")
            let started = Counter()
            let everyOther = ParallelMap.map(count: 37, threads: threads, progress: { counted.record($0) }, startThread: { body in
                started.increment() % 2 == 0 ? WorkerThread.start(body) : nil
            }, square)
            #expect(everyOther == expected, "threads \(threads), every other granted")
            #expect(counted.largest == 37)
        }
    }

    @Test func aDifferentSeedGivesADifferentRun() throws {
        var setup = try Self.weather()
        let first = try Self.render(setup)
        setup.seed += 1
        let second = try Self.render(setup)
        #expect(first[0].contents != second[0].contents)
        #expect(first[1].contents != second[1].contents)
    }

    /// Each widget draws from its own streams: adding a widget (on another page,
    /// of another app) does not move a single draw of the first one.
    @Test func addingAWidgetLeavesTheOtherWidgetsRunUnchanged() throws {
        var alone = try Self.weather()
        alone.scheduler.coalescingWindow = 0  // coalescing couples widgets on purpose (F14)
        var together = alone
        together.devices[0].pages.append(PageSetup(name: "second", viewsPerDay: 12))
        together.devices[0].apps.append(AppSetup(id: "news"))
        together.devices[0].widgets.append(.configured("news", policy: .after(interval: 20 * Seconds.minute), page: 1, app: 1))
        let first = try Simulation.run(alone)
        let second = try Simulation.run(together)
        #expect(second.reloads.contains { $0.widget == 1 })
        #expect(first.calls(0) == second.calls(0))
        #expect(first.views.filter { $0.widget == 0 } == second.views.filter { $0.widget == 0 })
    }

    /// Each device draws from its own streams: a device's run does not depend on
    /// which other devices are simulated (so devices can be sharded).
    @Test func aDevicesRunDoesNotDependOnTheOtherDevices() throws {
        let single = try Self.weather()
        var pair = single
        var other = single.devices[0]
        other.id = "tablet"
        pair.devices.insert(other, at: 0)
        func renumbered(_ records: [ReloadRecord], device: Int) -> [ReloadRecord] {
            records.filter { $0.device == device }.map { record in
                var copy = record
                copy.device = 0
                return copy
            }
        }
        let alone = try Simulation.run(single)
        let together = try Simulation.run(pair)
        #expect(alone.reloads == renumbered(together.reloads, device: 1))
        // The other device, identical but for its id, draws from other streams.
        #expect(alone.reloads != renumbered(together.reloads, device: 0))
    }
}

/// A count shared by threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private(set) var largest = 0

    /// The count before this call.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count - 1
    }

    func record(_ value: Int) {
        lock.lock()
        defer { lock.unlock() }
        largest = max(largest, value)
    }
}
