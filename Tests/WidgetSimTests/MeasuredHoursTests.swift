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

    /// Every hour of every day is every view; a window written twice is one.
    @Test func aWholeWeekOrARepeatedWindowMeasuresNoMoreThanItSays() throws {
        let whole = #""measureDuring": [ { "from": "19:00", "to": "21:00" }, { "from": "00:00", "to": "24:00" } ],"#
        #expect(try ScenarioLoader.decodeDocument(Self.scenario(measureDuring: whole), file: "m.json").base.measuredHours.isWholeDay)
        let twice = #""measureDuring": [ { "from": "19:00", "to": "21:00" }, { "from": "19:00", "to": "21:00" } ],"#
        #expect(try ScenarioLoader.decodeDocument(Self.scenario(measureDuring: twice), file: "m.json").base.measuredHours.windows.count == 1)
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

    /// A replication whose 10 widget-days saw no view: no staleness at all.
    static func unviewed() -> RunMetrics {
        var metrics = RunMetrics()
        metrics.widgetDays = 10
        return metrics
    }

    /// A variant that is never looked at in the hours (its user asleep) has
    /// no staleness: it is not ranked, least of all first at 0s.
    @Test func aVariantNeverViewedDuringTheHoursIsNotRanked() {
        let seen = ComparisonTests.row("seen", [60, 80, 70].map { ComparisonTests.replication(staleness: $0) })
        let asleep = ComparisonTests.row("asleep", [Self.unviewed(), Self.unviewed(), Self.unviewed()])
        let comparison = ComparisonTests.comparison([asleep, seen])
        #expect(comparison.ranking(for: .paced).map(\.variant) == ["seen", "asleep"])
        #expect(comparison.best(for: .paced)?.variant == "seen")
        #expect(comparison.standing(of: "asleep", under: .paced) == nil)
        let text = ComparisonTests.verdict([asleep, seen])
        #expect(text.contains("Never viewed in these runs, so not ranked on staleness: `asleep`."), "\(text)")
        #expect(!text.contains("The runner-up"), "\(text)")
        let table = ComparisonReport.table(comparison.ranking(for: .paced), days: 10)
        #expect(table.contains("| – | **asleep** (never viewed) | 0.0 ± 0.0 | 0.0 ± 0.0 | 0.0 ± 0.0 | 0.00 ± 0.00 | – | – | – | – | – |"), "\(table)")
    }

    /// A replication with no view in the hours has no staleness, not a
    /// fresh one: staleness is over the others, and the table says so.
    @Test func aReplicationWithoutAViewHasNoStaleness() {
        let row = ComparisonTests.row("narrow", [ComparisonTests.replication(staleness: 60), Self.unviewed(), ComparisonTests.replication(staleness: 80)])
        #expect(row.meanStaleness.mean == 70 && row.meanStaleness.count == 2)
        #expect(row.stalePercent.mean == 10)
        #expect(row.viewedReplications == 2 && row.wasViewed)
        // The budget still counts every replication.
        #expect(row.budgeted.count == 3)
        let other = ComparisonTests.row("other", [ComparisonTests.replication(staleness: 90), Self.unviewed(), ComparisonTests.replication(staleness: 100)])
        let comparison = ComparisonTests.comparison([row, other])
        #expect(comparison.stalenessGap(from: row, to: other).count == 2)
        #expect(comparison.stalenessGap(from: row, to: other).mean == 25)
        let table = ComparisonReport.table(comparison.ranking(for: .paced), days: 10)
        #expect(table.contains("Staleness is over the replications that saw a view: `narrow` 2 of 3, `other` 2 of 3."), "\(table)")
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
            ScenarioLoader.errorLines(Self.scenario(measureDuring: measureDuring), file: "m.json")
        }
        #expect(errors(#""measureDuring": [],"#).first?.contains("field 'measureDuring': the list is empty") == true)
        let two = errors(#""measureDuring": [ { "from": "19:00", "to": "19:00" }, { "days": ["sat", "tues"], "from": "15:00", "to": "17:00" } ],"#)
        #expect(two.count == 2, "\(two)")
        #expect(two.first?.contains("field 'measureDuring[0].to': the window closes as it opens") == true, "\(two)")
        #expect(two.last?.contains("field 'measureDuring[1].days[1]': unknown weekday \"tues\" (did you mean \"tue\"?)") == true, "\(two)")
        let many = "\"measureDuring\": [" + Array(repeating: #"{ "from": "19:00", "to": "20:00" }"#, count: 51).joined(separator: ", ") + "],"
        #expect(errors(many).first?.contains("51 windows; allowed: 1...50 windows") == true)
        let inVariant = Self.scenario(measureDuring: "").replacingOccurrences(
            of: #"{ "name": "fast", "#, with: #"{ "name": "fast", "measureDuring": [ { "from": "19:00", "to": "21:00" } ], "#)
        do {
            _ = try ScenarioLoader.decodeDocument(inVariant, file: "m.json")
            Issue.record("a variant took measured hours")
        } catch {
            #expect(error.description.contains("the measured hours are the scenario's, the same for every variant"), "\(error)")
        }
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
