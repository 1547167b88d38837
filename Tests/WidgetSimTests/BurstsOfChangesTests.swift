import Foundation
import Testing
@testable import WidgetSim

/// A truth's `randomChangesDuring`: windows of the week whose every opening
/// (a match) brings a number of unforeseen changes on average (goals), at
/// instants that differ from one replication to the next.
@Suite("Bursts of changes")
struct BurstsOfChangesTests {
    static func scenario(seed: Int = 4, bursts: String) -> String {
        """
        { "name": "score", "days": 28, "seed": \(seed),
          "devices": [ { "id": "phone", "utcOffset": "+01:00", "pages": [ { "name": "home", "viewsPerDay": 30 } ], "apps": [ { "id": "a" } ],
            "widgets": [ { "id": "w", "app": "a", "page": "home", "provider": { "policy": "after", "after": "15m" },
              "truth": { "randomChangesDuring": \(bursts) } } ] } ] }
        """
    }

    static let matches = #"[ { "days": ["tue"], "from": "20:00", "to": "22:00", "expected": 5 }, { "days": ["sun"], "from": "23:00", "to": "01:00", "expected": 3 } ]"#

    /// Every change falls inside an opening, on the device's own clock (the
    /// Sunday match runs past midnight), and the count is about the expected.
    @Test func burstsComeOnlyInsideTheirWindowsAtAboutTheExpectedCount() throws {
        var total = 0
        for seed in 1...5 {
            let setup = try ScenarioLoader.decodeDocument(Self.scenario(seed: seed, bursts: Self.matches), file: "s.json").base
            let calendar = setup.calendar(of: setup.devices[0])
            let windows = MeasuredHours(setup.devices[0].widgets[0].truth.randomChangesDuring.map(\.window))
            let changes = try Simulation.run(setup).contentChanges
            #expect(changes.allSatisfy { windows.contains($0.time, calendar: calendar) }, "seed \(seed)")
            total += changes.count
        }
        // 5 runs of 4 Tuesdays (5 each) and 4 Sundays (3 each): 160 expected.
        #expect((130...190).contains(total), "\(total)")
        #expect(setupWindowChangesPerDay() == (5.0 + 3.0) / 7)
    }

    func setupWindowChangesPerDay() -> Double {
        (try? ScenarioLoader.decodeDocument(Self.scenario(bursts: Self.matches), file: "s.json").base.devices[0].widgets[0].truth.windowChangesPerDay) ?? 0
    }

    /// A page's bursts of views (a fan follows the match on the widget):
    /// every look falls in an opening, at about the expected count, awake
    /// hours or not.
    @Test func burstsOfViewsComeOnlyInsideTheirWindows() throws {
        var total = 0
        for seed in 1...5 {
            let text = Self.scenario(seed: seed, bursts: Self.matches).replacingOccurrences(
                of: #""viewsPerDay": 30 }"#, with: #""viewsPerDay": 0, "viewsDuring": [ { "days": ["sat"], "from": "23:30", "to": "00:30", "expected": 12 } ] }"#)
            let setup = try ScenarioLoader.decodeDocument(text, file: "s.json").base
            #expect(setup.devices[0].pages[0].viewsDuring.count == 1)
            let calendar = setup.calendar(of: setup.devices[0])
            let window = MeasuredHours([setup.devices[0].pages[0].viewsDuring[0].window])
            let views = try Simulation.run(setup).views
            #expect(views.allSatisfy { window.contains($0.time, calendar: calendar) }, "seed \(seed)")
            total += views.count
        }
        // 5 runs of 4 Saturdays, 12 each: 240 expected (the user sleeps from 23:00).
        #expect((200...280).contains(total), "\(total)")
    }

    /// Overlapping openings add their rates; nothing comes after the last ends.
    @Test func overlappingOpeningsAddTheirRates() {
        var random = StreamSeed(9).stream()
        var count = 0
        var after = 0.0
        let openings = [BurstArrivals.Opening(from: 0, to: 1_000, rate: 0.1), BurstArrivals.Opening(from: 500, to: 1_000, rate: 0.2)]
        // 100 expected in [0, 1000), 100 more in [500, 1000).
        while let next = BurstArrivals.nextArrival(openings, after: after, random: &random) {
            #expect(next > after && next < 1_000)
            count += 1
            after = next
        }
        #expect((160...240).contains(count), "\(count)")
        #expect(BurstArrivals.nextArrival([], after: 0, random: &random) == nil)
        #expect(BurstArrivals.nextArrival([BurstArrivals.Opening(from: 0, to: 10, rate: 1)], after: 10, random: &random) == nil)
    }

    /// A dense window (more than one change a second) keeps its count: the
    /// chain runs in continuous time and several changes share a second,
    /// all inside the window (the red team's 12:00–12:01 with 30 expected
    /// had counts 6 % high and changes at 12:01:00).
    @Test func aDenseWindowKeepsItsCountAndItsEdges() throws {
        var total = 0
        for seed in 1...20 {
            let text = Self.scenario(seed: seed, bursts: #"[ { "from": "12:00", "to": "12:01", "expected": 30 } ]"#)
            let setup = try ScenarioLoader.decodeDocument(text, file: "s.json").base
            let calendar = setup.calendar(of: setup.devices[0])
            let window = MeasuredHours([setup.devices[0].widgets[0].truth.randomChangesDuring[0].window])
            let changes = try Simulation.run(setup).contentChanges
            #expect(changes.allSatisfy { window.contains($0.time, calendar: calendar) }, "seed \(seed)")
            total += changes.count
        }
        // 20 runs of 28 days, 30 each: 16,800 expected, sd 130.
        #expect((16_300...17_300).contains(total), "\(total)")
    }

    /// An opening that began before the run brings none, as documented: a
    /// run starting at 21:00 skips that evening's 20:00–22:00.
    @Test func anOpeningThatBeganBeforeTheRunBringsNone() throws {
        let text = Self.scenario(bursts: #"[ { "from": "20:00", "to": "22:00", "expected": 1000 } ]"#)
            .replacingOccurrences(of: #""days": 28"#, with: #""days": 1, "start": "2026-03-02T21:00", "utcOffset": "+01:00""#)
        let setup = try ScenarioLoader.decodeDocument(text, file: "s.json").base
        // The next evening's opening, 23 hours in, is inside the day's run.
        let changes = try Simulation.run(setup).contentChanges
        #expect(!changes.isEmpty && changes.allSatisfy { $0.time >= 23 * Seconds.hour }, "\(changes.prefix(3))")
    }

    /// The bursts draw from a stream of their own: the views and the
    /// reloads of a widget that polls come at the same instants with them
    /// as without them (only what the views show changes).
    @Test func burstsMoveNoOtherDraw() throws {
        let bursts = try ScenarioLoader.decodeDocument(Self.scenario(bursts: Self.matches), file: "s.json").base
        var without = bursts
        without.devices[0].widgets[0].truth.randomChangesDuring = []
        let a = try Simulation.run(bursts)
        let b = try Simulation.run(without)
        #expect(a.contentChanges.count > 0 && b.contentChanges.isEmpty)
        #expect(a.views.map(\.time) == b.views.map(\.time))
        #expect(a.reloads.map(\.time) == b.reloads.map(\.time))
        #expect(a.views != b.views)
    }

    @Test func burstsAreCheckedWindowByWindow() {
        func errors(_ bursts: String) -> [String] {
            ScenarioLoader.errorLines(Self.scenario(bursts: bursts), file: "s.json")
        }
        let two = errors(#"[ { "days": ["tue"], "from": "20:00", "to": "22:00" }, { "from": "20:00", "to": "22:00", "expected": -1 } ]"#)
        #expect(two.count == 2, "\(two)")
        #expect(two.first?.contains("randomChangesDuring[0]") == true && two.first?.contains("expected") == true, "\(two)")
        #expect(two.last?.contains("randomChangesDuring[1].expected") == true, "\(two)")
        #expect(errors(#"[ { "from": "20:00", "to": "22:00", "expected": 2, "goals": 3 } ]"#).first?.contains("unknown field") == true)
        #expect(errors("[]").first?.contains("the list is empty") == true)
    }
}
