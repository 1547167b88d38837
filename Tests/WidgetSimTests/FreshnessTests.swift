import Testing
@testable import WidgetSim

/// summary.md's freshness answers: the time until a reload shows an
/// unforeseen change, and stale views by the hour of the day.
@Suite("Freshness figures")
struct FreshnessTests {
    static func reload(at time: SimTime, completesAt end: SimTime, result: ReloadResult = .ok) -> ReloadRecord {
        ReloadRecord(time: time, device: 0, widget: 0, trigger: .policy, budgeted: true, budgetUsed24h: 1, budgetLimit: 50,
                     waited: 0, result: result, entryCount: 1, policy: .never, nextEligible: nil, completesAt: end)
    }

    @Test func timeToFreshRunsFromAChangeToTheEndOfTheFirstCallThatStartedAfterIt() throws {
        let setup = try CalibrationTests.phone(after: "1h", days: 1)
        var collector = ReportCollector()
        // A call that started before the change fetched too early to show it;
        // a timed-out call shows nothing.
        collector.reloadStarted(Self.reload(at: 90, completesAt: 130))
        collector.reloadStarted(Self.reload(at: 200, completesAt: 240, result: .timedOut))
        collector.reloadStarted(Self.reload(at: 300, completesAt: 302))
        collector.contentChanged(ContentChangeRecord(time: 100, device: 0, widget: 0))
        collector.contentChanged(ContentChangeRecord(time: 300, device: 0, widget: 0))
        collector.contentChanged(ContentChangeRecord(time: 500, device: 0, widget: 0))
        let figures = FreshnessFigures(setup: setup, collector: collector, calendars: [setup.calendar])
        let fresh = figures.timeToFresh[0][0]
        #expect(fresh.changes == 3)
        #expect(fresh.delays == [2, 202])
        #expect(fresh.unanswered == 1)
    }

    @Test func staleViewsAreCountedInTheLocalHourOfTheirDevice() throws {
        let setup = try CalibrationTests.phone(after: "1h", days: 1)
        var collector = ReportCollector()
        // The scenario starts at local midnight (+01:00): 07:30 local is 7.5 h in.
        collector.widgetViewed(ViewRecord(time: 7 * 3_600 + 1_800, device: 0, widget: 0, shownEntryDate: 0, dataAsOf: 0, staleness: 600, isStale: true))
        collector.widgetViewed(ViewRecord(time: 7 * 3_600 + 1_900, device: 0, widget: 0, shownEntryDate: 0, dataAsOf: 0, staleness: 0, isStale: false))
        let figures = FreshnessFigures(setup: setup, collector: collector, calendars: [setup.calendar])
        #expect(figures.hours[7].views == 2)
        #expect(figures.hours[7].staleViews == 1)
        #expect(figures.hours[7].meanStaleness == 300)
        #expect(figures.hours.enumerated().allSatisfy { $0.offset == 7 || $0.element.views == 0 })
    }

    /// A widget added later, as `addedAt` says, fetches the changes made
    /// before it on its first call: only changes from its adding on have a
    /// time to fresh, and a widget never added has none.
    @Test func onlyChangesAfterAWidgetIsAddedHaveATimeToFresh() throws {
        let text = """
        { "name": "late", "days": 4, "devices": [ { "id": "p", "widgets": [
            { "id": "late", "addedAt": "2d", "provider": { "policy": "after", "after": "15m" }, "truth": { "randomChangesPerDay": 24 } },
            { "id": "never", "addedAt": "3d", "provider": { "policy": "after", "after": "15m" }, "truth": { "randomChangesPerDay": 24 } } ] } ] }
        """
        // Run for 3 days, as `--days 3` would: the second widget is never added.
        var setup = try ScenarioLoader.decodeDocument(text, file: "late.json").base
        setup.days = 3
        let collector = try Simulation.run(setup)
        #expect(collector.contentChanges.contains { $0.widget == 0 })
        #expect(collector.contentChanges.allSatisfy { $0.widget == 0 && $0.time >= 2 * Seconds.day })
        let summary = SummaryReport(writer: ReportWriter(setup: setup, collector: collector)).render()
        #expect(summary.contains("for a widget added later, over its days from the one it was added on"))
        #expect(summary.contains("| p | never | after(15m), 1 entry | 0.0 | 0.0 | 0.0 | 0 | 0 | 0 | 0.0% | – | – | – | 0 | – | – |"), "\(summary)")
    }

    @Test func summaryLabelsTotalsAsTotalsAndMeansAsPerDay() throws {
        let setup = try CalibrationTests.phone(after: "1h", days: 2)
        let summary = SummaryReport(writer: ReportWriter(setup: setup, collector: try Simulation.run(setup))).render()
        #expect(summary.contains("| reloads (server requests)/day | budgeted/day | free/day | withheld (total) | timed out (total) | views (total) |"))
        #expect(summary.contains("## Staleness by hour of day"))
        #expect(summary.contains("time to fresh p50 | time to fresh p95"))
    }
}
