import Foundation
import Testing
@testable import WidgetSim

/// fleet.md reads as prose: rates rather than raw counts, no "≤ 0s", and
/// changes in words.
@Suite("Fleet report wording")
struct FleetReportWordingTests {
    static func report() throws -> String {
        let document = try FleetTests.document(devices: 20, days: 2)
        return FleetReport(try FleetResult.run(document, fingerprint: document.fingerprint, options: FleetRun.Options())).markdown()
    }

    @Test func aFreshPercentileIsZeroNotAtMostZero() throws {
        let markdown = try Self.report()
        #expect(!markdown.contains("≤ 0s"))
    }

    @Test func timeoutsAreARatePerThousandCalls() throws {
        #expect(try Self.report().contains("| timed out per 1,000 calls |"))
    }

    @Test func aChangeInRequestsIsSaidInWords() throws {
        let markdown = try Self.report()
        #expect(!markdown.contains("with -"))
        #expect(!markdown.contains("with +"))
        #expect(markdown.contains("fewer requests in all") || markdown.contains("more requests in all") || markdown.contains("the same number of requests in all"))
    }

    @Test func oneWarmUpDayIsSingular() throws {
        #expect(try Self.report().contains("after 1 warm-up day that is simulated"))
    }
}
