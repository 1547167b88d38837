import Foundation
import Testing
@testable import WidgetSim

/// Fleet mode: independent devices, integer aggregates that merge exactly,
/// sharding, and the server-load effect of aligned dates (F25).
@Suite("Fleet")
struct FleetTests {
    /// The shipped fleet scenario, shrunk to a size a debug build runs quickly.
    static func document(devices: Int = 120, days: Int = 2) throws -> ScenarioDocument {
        var document = try ScenarioLoader.loadDocument(path: Paths.scenario("fleet-weather"))
        document.base.population.updateFleet { $0.deviceCount = devices }
        document.base.days = days
        for index in document.variants.indices {
            document.variants[index].setup.population.updateFleet { $0.deviceCount = devices }
            document.variants[index].setup.days = days
        }
        return document
    }

    static func run(_ document: ScenarioDocument, threads: Int = 2, shard: FleetRun.Shard = .whole) -> FleetResult {
        var options = FleetRun.Options()
        options.threads = threads
        options.shard = shard
        return FleetResult.run(document, fingerprint: document.fingerprint, options: options)
    }

    @Test func aFleetDeviceDependsOnlyOnItsIndexAndTheSeed() throws {
        let fleet = try Self.document().base.fleet!
        let seed = StreamSeed(25)
        let first = fleet.device(7, master: seed)
        let again = fleet.device(7, master: seed)
        #expect(first.id == "d7")
        #expect(first.user == again.user && first.utcOffsetSeconds == again.utcOffsetSeconds)
        #expect(first.widgets.map(\.id) == again.widgets.map(\.id))
        // Devices differ from each other.
        let profiles = (0..<40).map { fleet.device($0, master: seed) }
        #expect(Set(profiles.map(\.user.wakeSecond)).count > 20)
        #expect(Set(profiles.map { $0.utcOffsetSeconds ?? 0 }).count >= 4)
    }

    /// The aggregate is the same whatever the number of threads.
    @Test func threadsDoNotChangeTheResult() throws {
        let document = try Self.document()
        #expect(Self.run(document, threads: 1) == Self.run(document, threads: 3))
    }

    /// Shards merged give exactly the unsharded result, in any order.
    @Test func mergedShardsEqualTheWholeRun() throws {
        let document = try Self.document()
        let whole = Self.run(document)
        let shards = (0..<3).map { Self.run(document, shard: FleetRun.Shard(index: $0, count: 3)) }
        var merged = try FleetResult.merge([shards[2], shards[0], shards[1]])
        merged.shards = whole.shards
        merged.shardCount = whole.shardCount
        #expect(merged.variants == whole.variants)
        #expect(FleetReport(try FleetResult.merge(shards)).files().map(\.contents) == FleetReport(whole).files().map(\.contents))
    }

    @Test func aPartialResultSurvivesItsFileFormat() throws {
        let result = Self.run(try Self.document(), shard: FleetRun.Shard(index: 1, count: 2))
        let text = FleetPartialFile.render(result)
        #expect(try FleetPartialFile.parse(text, file: "p.txt") == result)
    }

    @Test func mergingRefusesMissingDuplicateAndForeignShards() throws {
        let document = try Self.document(devices: 30, days: 1)
        let first = Self.run(document, shard: FleetRun.Shard(index: 0, count: 2))
        let second = Self.run(document, shard: FleetRun.Shard(index: 1, count: 2))
        #expect(throws: FleetMergeError.missingShards(["2/2"])) { try FleetResult.merge([first]) }
        #expect(throws: FleetMergeError.duplicateShard(1, of: 2)) { try FleetResult.merge([first, first, second]) }
        var foreign = second
        foreign.seed += 1
        #expect(throws: FleetMergeError.self) { try FleetResult.merge([first, foreign]) }
        #expect(throws: FleetMergeError.self) { try FleetPartialFile.parse("not a partial", file: "x") }
    }

    /// Memory does not grow with devices: the aggregate's size depends on days only.
    @Test func theAggregateSizeDependsOnDaysNotDevices() throws {
        let small = Self.run(try Self.document(devices: 10, days: 2)).variants[0].aggregate
        let large = Self.run(try Self.document(devices: 200, days: 2)).variants[0].aggregate
        #expect(small.requestsPerMinute.count == 2 * 1_440 && large.requestsPerMinute.count == 2 * 1_440)
        #expect(small.stalenessHistogram.count == large.stalenessHistogram.count)
        #expect(large.devices == 200 && small.devices == 10)
    }

    /// F25: after(date) rounded to the wall-clock hour makes the fleet reload
    /// together; jitter spreads it.
    @Test func jitterCutsThePeakOfHourAlignedReloads() throws {
        let result = Self.run(try Self.document(devices: 300, days: 2))
        let peaks = result.variants.map { $0.aggregate.requestsPerMinute.max()! }
        #expect(result.variants.map(\.name) == ["hour-aligned", "jitter-10m", "not-aligned"])
        #expect(Double(peaks[1]) < 0.6 * Double(peaks[0]))
        #expect(peaks[2] < peaks[1])
    }

    @Test func warmUpDaysAreSimulatedButNotCounted() throws {
        var document = try Self.document(devices: 40, days: 1)
        document.base.population.updateFleet { $0.warmUpDays = 0 }
        let cold = FleetRun.run(document.base, options: FleetRun.Options())
        document.base.population.updateFleet { $0.warmUpDays = 1 }
        let warm = FleetRun.run(document.base, options: FleetRun.Options())
        #expect(cold.widgetDays == warm.widgetDays)
        #expect(warm.events > cold.events)
        // Without warm-up every widget's initial reload falls in the counted day.
        #expect(cold.counts.freeReloads > warm.counts.freeReloads)
    }
}
