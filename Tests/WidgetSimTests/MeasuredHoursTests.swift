import Foundation
import Testing
@testable import WidgetSim

/// A scenario's `measureDuring`: the local hours whose views a comparison
/// ranks on (a live score during matches), while reloads and requests
/// count every hour.
@Suite("Measured hours")
struct MeasuredHoursTests {
    /// Two devices an hour apart, so that each one's own clock places its views.
    static func scenario(measureDuring: String) -> String {
        """
        { "name": "matches", "days": 7, "seed": 11, \(measureDuring)
          "devices": [
            { "id": "home", "pages": [ { "name": "p", "viewsPerDay": 40 } ], "apps": [ { "id": "a" } ],
              "widgets": [ { "id": "score", "app": "a", "page": "p", "provider": { "policy": "after", "after": "30m" }, "truth": { "randomChangesPerDay": 12 } } ] },
            { "id": "away", "utcOffset": "+01:00", "pages": [ { "name": "p", "viewsPerDay": 40 } ], "apps": [ { "id": "a" } ],
              "widgets": [ { "id": "score", "app": "a", "page": "p", "provider": { "policy": "after", "after": "30m" }, "truth": { "randomChangesPerDay": 12 } } ] } ],
          "variants": [ { "name": "fast", "provider": { "after": "10m" } } ] }
        """
    }

    static let evenings = #""measureDuring": [ { "days": ["wed"], "from": "19:00", "to": "22:00" }, { "days": ["sat", "sun"], "from": "23:00", "to": "01:00" } ],"#

    @Test func theMeasuredHoursAreEachWindowOnItsDaysOnTheDevicesOwnClock() throws {
        let setup = try ScenarioLoader.decodeDocument(Self.scenario(measureDuring: Self.evenings), file: "m.json").base
        let hours = setup.measuredHours
        #expect(hours.windows.count == 2)
        let home = setup.calendar(of: setup.devices[0])
        let away = setup.calendar(of: setup.devices[1])
        // 2026-03-02 is a Monday: Wednesday 19:30 is 2 days 19.5 hours in.
        let wednesdayEvening = 2 * Seconds.day + 19 * Seconds.hour + 30 * Seconds.minute
        #expect(hours.contains(wednesdayEvening, calendar: home))
        #expect(!hours.contains(wednesdayEvening + 3 * Seconds.hour, calendar: home))
        // 21:30 at home is 22:30 away, past the window's close.
        #expect(hours.contains(wednesdayEvening + 2 * Seconds.hour, calendar: home))
        #expect(!hours.contains(wednesdayEvening + 2 * Seconds.hour, calendar: away))
        // Sunday's window crosses midnight into Monday.
        let mondayHalfPastMidnight = 7 * Seconds.day + 30 * Seconds.minute
        #expect(hours.contains(mondayHalfPastMidnight, calendar: home))
        #expect(!hours.contains(mondayHalfPastMidnight - 2 * Seconds.hour, calendar: home))
        #expect(MeasuredHours().contains(wednesdayEvening + 3 * Seconds.hour, calendar: home))
    }

    /// The ranking counts exactly the views in the hours; reloads every hour.
    @Test func onlyViewsDuringTheMeasuredHoursCountInARunsMetrics() throws {
        let setup = try ScenarioLoader.decodeDocument(Self.scenario(measureDuring: Self.evenings), file: "m.json").base
        var wholeDay = setup
        wholeDay.measuredHours = MeasuredHours()
        let measured = try RunMetrics.measure(setup)
        let everything = try RunMetrics.measure(wholeDay)
        let views = try Simulation.run(setup).views.filter { view in
            setup.measuredHours.contains(view.time, calendar: setup.calendar(of: setup.devices[view.device]))
        }
        #expect(views.count > 0 && views.count < everything.counts.views)
        #expect(measured.counts.views == views.count)
        #expect(measured.counts.staleViews == views.filter(\.isStale).count)
        #expect(measured.counts.stalenessTotal == views.reduce(0) { $0 + $1.staleness })
        #expect(measured.counts.requests == everything.counts.requests)
        #expect(measured.counts.budgetedReloads == everything.counts.budgetedReloads)
    }

    @Test func aComparisonSaysItRanksOnTheMeasuredHours() throws {
        let document = try ScenarioLoader.decodeDocument(Self.scenario(measureDuring: Self.evenings), file: "m.json")
        var options = Comparison.Options()
        options.runs = 2
        let comparison = try Comparison.run(document, options: options)
        #expect(comparison.measuredHours == document.base.measuredHours)
        let text = ComparisonReport(comparison).markdown()
        #expect(text.contains("**Measured hours** (`measureDuring`): views count only during wed 19:00–22:00; sat,sun 23:00–01:00, local time"), "\(text)")
        #expect(text.contains("**Best on staleness during the measured hours within the budget"), "\(text)")
    }

    /// Hours when nobody looks leave nothing to rank: zeros are not freshness.
    @Test func hoursWithNoViewsLeaveNoVerdict() throws {
        let asleep = #""measureDuring": [ { "from": "03:00", "to": "04:00" } ],"#
        let document = try ScenarioLoader.decodeDocument(Self.scenario(measureDuring: asleep), file: "m.json")
        let comparison = try Comparison.run(document, options: Comparison.Options())
        #expect(ComparisonReport(comparison).verdict().hasPrefix("**No verdict:** no widget was viewed during the measured hours"))
    }

    @Test func aSimulationsSummaryGivesTheViewsDuringTheMeasuredHours() throws {
        let setup = try ScenarioLoader.decodeDocument(Self.scenario(measureDuring: Self.evenings), file: "m.json").base
        let collector = try Simulation.run(setup)
        let summary = try #require(ReportWriter(setup: setup, collector: collector).files().first { $0.name == "summary.md" }).contents
        let inHours = collector.views.filter { $0.device == 0 && setup.measuredHours.contains($0.time, calendar: setup.calendar(of: setup.devices[0])) }
        #expect(summary.contains("## During the measured hours"))
        #expect(summary.contains("| home | score | \(inHours.count) | "), "\(summary)")
        var wholeDay = setup
        wholeDay.measuredHours = MeasuredHours()
        let plain = try #require(ReportWriter(setup: wholeDay, collector: collector).files().first { $0.name == "summary.md" }).contents
        #expect(!plain.contains("measured hours"))
    }

    @Test func measuredHoursAreCheckedWindowByWindowAndRefusedOnAFleet() {
        func errors(_ measureDuring: String) -> [String] {
            do {
                _ = try ScenarioLoader.decodeDocument(Self.scenario(measureDuring: measureDuring), file: "m.json")
                return []
            } catch {
                return error.lines
            }
        }
        #expect(errors(#""measureDuring": [],"#).first?.contains("field 'measureDuring': the list is empty") == true)
        let two = errors(#""measureDuring": [ { "from": "19:00", "to": "19:00" }, { "days": ["sat", "tues"], "from": "15:00", "to": "17:00" } ],"#)
        #expect(two.count == 2, "\(two)")
        #expect(two.first?.contains("field 'measureDuring[0].to': the window closes as it opens") == true, "\(two)")
        #expect(two.last?.contains("field 'measureDuring[1].days[1]': unknown weekday \"tues\" (did you mean \"tue\"?)") == true, "\(two)")
        let many = "\"measureDuring\": [" + Array(repeating: #"{ "from": "19:00", "to": "20:00" }"#, count: 51).joined(separator: ", ") + "],"
        #expect(errors(many).first?.contains("51 windows; allowed: 1...50 windows") == true)
        let fleet = """
            { "name": "f", "measureDuring": [ { "from": "19:00", "to": "21:00" } ],
              "fleet": { "devices": 2, "device": { "widgets": [ { "id": "w", "provider": { "policy": "never" } } ] } } }
            """
        do {
            _ = try ScenarioLoader.decodeDocument(fleet, file: "f.json")
            Issue.record("a fleet took measured hours")
        } catch {
            #expect(error.description.contains("field 'measureDuring': a fleet's report counts every view"), "\(error)")
        }
    }
}
