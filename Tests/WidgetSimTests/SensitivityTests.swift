import Foundation
import Testing
@testable import WidgetSim

/// `widgetsim sensitivity`: every unknown has a plausible range, the
/// analysis is deterministic whatever the threads, and a point is judged as
/// `compare` judges.
@Suite("Sensitivity")
struct SensitivityTests {
    static func weather(days: Int = 2) throws -> ScenarioDocument {
        var document = try ScenarioLoader.loadDocument(path: Paths.scenario("weather"))
        document.base.days = days
        for index in document.variants.indices { document.variants[index].setup.days = days }
        return document
    }

    @Test func everyGapParameterHasAPlausibleRangeAndNothingElseDoes() {
        let gaps = SchedulerParameters.catalogue.filter(\.isGap).map(\.name)
        #expect(SchedulerParameters.plausibleRanges.map(\.name) == gaps)
    }

    @Test func eachRangeSetsItsParameterAtBothEnds() {
        for unknown in SchedulerParameters.plausibleRanges {
            var low = SchedulerParameters()
            var high = SchedulerParameters()
            unknown.set(&low, 0)
            unknown.set(&high, 1)
            #expect(low != high, "\(unknown.name)")
            #expect(unknown.current(low) == unknown.describe(0) && unknown.current(high) == unknown.describe(1), "\(unknown.name)")
        }
    }

    @Test func theResultDoesNotDependOnTheThreads() throws {
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 1
        options.threads = 1
        let one = SensitivityReport(try Sensitivity.run(try Self.weather(), options: options)).files()
        options.threads = 3
        let three = SensitivityReport(try Sensitivity.run(try Self.weather(), options: options)).files()
        #expect(one == three)
    }

    /// A point where the same runs come out is judged as the scenario as written.
    @Test func anUnknownThatCannotChangeTheRunsMovesNothing() throws {
        var options = Sensitivity.Options()
        options.runs = 2
        options.trajectories = 0
        let sensitivity = try Sensitivity.run(try Self.weather(), options: options)
        let index = try #require(sensitivity.unknowns.firstIndex { $0.name == "tokenBucketBurst" })
        #expect(!sensitivity.relevant[sensitivity.unknowns.firstIndex { $0.name == "pushBudget" }!])
        for point in sensitivity.sweeps[index] {
            #expect(point.comparison.rows.map(\.meanStaleness) == sensitivity.baseline.comparison.rows.map(\.meanStaleness))
        }
    }

    @Test func aVariantKeepsTheSchedulerFieldsItSets() throws {
        let document = try ScenarioLoader.loadDocument(path: Paths.scenario("home-screen"))
        let variant = try #require(document.variants.first { $0.name == "no-coalescing" })
        #expect(variant.schedulerFields == ["coalescingWindow"])
    }
}
