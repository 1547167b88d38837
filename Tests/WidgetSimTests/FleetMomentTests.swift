import Testing
@testable import WidgetSim

/// Fleet-wide moments: an instant that hits a share of the devices at once
/// (a goal pushed to every fan, F19; a daylight-saving switch, F17).
@Suite("Fleet moments")
struct FleetMomentTests {
    /// The shipped fleet-news scenario, shrunk for a debug build.
    static func document(devices: Int = 60) throws -> ScenarioDocument {
        var document = try ScenarioLoader.loadDocument(path: Paths.scenario("fleet-news"))
        document.base.population.updateFleet { $0.deviceCount = devices }
        for index in document.variants.indices {
            document.variants[index].setup.population.updateFleet { $0.deviceCount = devices }
        }
        return document
    }

    static func moment(share: Double, spread: Int = 0) -> FleetMoment {
        FleetMoment(at: Seconds.day, share: share, spread: spread, action: .systemChange, label: "test")
    }

    /// The devices a moment hits, among the first `count`.
    static func hits(_ fleet: FleetSetup, count: Int = 400) -> [Int] {
        (0..<count).filter { index in
            fleet.device(index, master: StreamSeed(13)).script.contains { $0.action == .systemChange }
        }
    }

    /// About `share` of the devices are hit.
    @Test func aMomentHitsItsShareOfTheDevices() throws {
        var fleet = try Self.document().base.fleet!
        fleet.template.script = []
        fleet.template.repeatingScript = []
        fleet.moments = [Self.moment(share: 0.6)]
        let hit = Self.hits(fleet).count
        // 240 expected of 400; the binomial standard deviation is about 10.
        #expect((200...280).contains(hit))
    }

    /// Adding a moment never changes who an earlier one hits, nor the
    /// devices' profiles: moments draw from a stream of their own.
    @Test func aNewMomentMovesNoEarlierDraw() throws {
        var fleet = try Self.document().base.fleet!
        fleet.template.script = []
        fleet.template.repeatingScript = []
        fleet.moments = [Self.moment(share: 0.5)]
        let before = Self.hits(fleet, count: 100)
        fleet.moments.append(FleetMoment(at: 2 * Seconds.day, share: 1, action: .push(app: 0), label: "later"))
        #expect(Self.hits(fleet, count: 100) == before)
        fleet.moments = []
        let plain = fleet.device(3, master: StreamSeed(13))
        fleet.moments = [Self.moment(share: 1)]
        #expect(fleet.device(3, master: StreamSeed(13)).user == plain.user)
    }

    /// A device hit gets the action within `spread` seconds of the moment.
    @Test func aSpreadDelaysEachDeviceWithinIt() throws {
        var fleet = try Self.document().base.fleet!
        fleet.template.script = []
        fleet.template.repeatingScript = []
        fleet.moments = [Self.moment(share: 1, spread: 300)]
        let times = (0..<100).map { fleet.device($0, master: StreamSeed(13)).script.map(\.at) }
        #expect(times.allSatisfy { $0.count == 1 && (Seconds.day...Seconds.day + 300).contains($0[0]) })
        #expect(Set(times.map { $0[0] }).count > 50)
    }

    /// F17: a system change at one instant reloads every device's widget in
    /// that minute: the report's busiest minute is the moment's.
    @Test func aSystemChangeForEveryoneIsTheBusiestMinute() throws {
        let result = try FleetTests.run(try Self.document())
        let moment = result.moments.first { $0.label.hasPrefix("systemChange") }!
        let minute = moment.at / Seconds.minute
        let counts = result.variants[0].aggregate.requestsPerMinute
        #expect(counts[minute] >= 60)
        #expect(counts.max() == counts[minute])
    }

    /// Shards and threads give the same moments and counts, and the moments
    /// survive the partial file.
    @Test func momentsSurviveShardingAndThePartialFile() throws {
        let document = try Self.document()
        let whole = try FleetTests.run(document, threads: 1)
        let shards = try (0..<3).map { try FleetTests.run(document, threads: 2, shard: FleetRun.Shard(index: $0, count: 3)) }
        let parsed = try shards.map { try FleetPartialFile.parse(FleetPartialFile.render($0), file: "part.txt") }
        #expect(parsed == shards)
        let merged = try FleetResult.merge(parsed)
        #expect(merged.moments == whole.moments && merged.variants == whole.variants)
        #expect(FleetReport(merged).files().map(\.contents) == FleetReport(whole).files().map(\.contents))
        #expect(FleetReport(whole).markdown().contains("## Moments"))
    }

    /// A run shortened with --days reports only the moments inside it, and
    /// its report and partial file hold nothing past the run's end.
    @Test func aMomentAfterAShortenedRunIsLeftOutOfItsReport() throws {
        var document = try Self.document(devices: 20)
        document.base.days = 1
        for index in document.variants.indices { document.variants[index].setup.days = 1 }
        #expect(document.base.fleet!.moments.count == 3)
        let result = try FleetTests.run(document)
        #expect(result.moments.isEmpty)
        let parsed = try FleetPartialFile.parse(FleetPartialFile.render(result), file: "part.txt")
        #expect(try FleetResult.merge([parsed]) == result)
        #expect(!FleetReport(result).markdown().contains("## Moments"))
    }

    /// A moment in the run's last minute still has a row, which says its
    /// minutes after are cut short.
    @Test func aMomentInTheLastMinuteHasARowThatSaysSo() throws {
        var result = try FleetTests.run(try Self.document(devices: 10))
        result.moments = [FleetResult.Moment(at: result.days * Seconds.day - 1, label: "last")]
        let rows = FleetReport(result).markdown().split(separator: "\n").filter { $0.hasPrefix("| last |") }
        #expect(rows.count == result.variants.count)
        #expect(rows.allSatisfy { $0.contains("(the run's last 1 min)") })
    }
}
