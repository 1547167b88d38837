import Foundation
import Testing
@testable import WidgetSim

/// The README's worked example quotes the committed weather report; these
/// tests recompute every figure it quotes, so the text cannot drift from
/// the reports (or the reports from the code: the golden tests pin those).
@Suite("README figures")
struct ReadmeFiguresTests {
    static var readme: String {
        let text = (try? String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        // Compare prose independently of where the lines wrap.
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// True when the README has this text (a Bool, so a failure prints the text, not the README).
    static func says(_ text: String) -> Bool { readme.contains(text) }

    static func report(_ file: String) throws -> String {
        try String(contentsOf: Paths.packageRoot.appendingPathComponent("Reports/weather/\(file)"), encoding: .utf8)
    }

    /// The widget row of a summary: reloads/day, budgeted/day, free/day,
    /// withheld, views, stale views, p50, p95, max.
    static func widgetRow(_ summary: String) -> [String] {
        let row = summary.split(separator: "\n").first { $0.hasPrefix("| phone | forecast |") }!
        return row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The README's table of home-screen's best variant per widget quotes
    /// the committed comparison.md, widget by widget.
    @Test func theBestVariantOfEachHomeScreenWidgetIsTheCommittedOne() throws {
        let markdown = try String(contentsOf: Paths.packageRoot.appendingPathComponent("Reports/home-screen/comparison.md"), encoding: .utf8)
        let lines = markdown.split(separator: "\n").filter { $0.hasPrefix("Best for `") }
        #expect(lines.count == 5)
        for line in lines {
            let widget = line.dropFirst("Best for `".count).prefix { $0 != "`" }
            let best = line.split(separator: "**`")[1].prefix { $0 != "`" }
            let staleness = line.split(separator: "mean staleness ")[1].prefix { $0 != "," }
            let row = "| `\(widget)` | `\(best)` | \(staleness) |"
            #expect(Self.says(row), "the README should have the row: \(row)")
        }
    }

    @Test func theWeatherSummaryFiguresAreTheCommittedReports() throws {
        let f = Self.widgetRow(try Self.report("summary.md"))
        let sentence = "says: \(f[3]) reloads a day (\(f[4]) budgeted, \(f[5]) free), \(f[6]) withheld, \(f[9]) of views stale, p50 \(f[10]), p95 \(f[11]), max \(f[12])."
        #expect(Self.says(sentence), "the README should say: \(sentence)")
    }

    @Test func theWorstWeatherViewIsTheCommittedOne() throws {
        let rows = try Self.report("views.csv").split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let worst = rows.max { Int($0[7])! < Int($1[7])! }!
        let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: Seconds.hour)
        func clock(_ t: Int) -> String { String(calendar.iso8601(t).dropFirst(11).prefix(8)) }
        let seen = Int(worst[0])!
        let sentence = "The worst view, at \(clock(seen)), showed weather that had gone stale at \(clock(seen - Int(worst[7])!))."
        #expect(Self.says(sentence), "the README should say: \(sentence)")
    }

    /// The table of provider variants, each run with the scenario's seed.
    @Test func theWeatherVariantTableIsWhatTheCodeComputes() throws {
        let base = try ScenarioLoader.load(path: Paths.scenario("weather"))
        for (entries, after) in [(6, 1), (12, 1), (6, 2), (12, 2)] {
            var setup = base
            guard case .configured(var settings) = setup.devices[0].widgets[0].provider else { return }
            settings.entryCount = entries
            settings.policy = .after(interval: after * Seconds.hour)
            setup.devices[0].widgets[0].provider = .configured(settings)
            let f = Self.widgetRow(SummaryReport(writer: ReportWriter(setup: setup, collector: try Simulation.run(setup))).render())
            let label = "\(entries) entries, `after(\(after)h)`" + (entries == 6 && after == 1 ? " (the scenario)" : "")
            let row = "| \(label) | \(f[3]) | \(f[9]) | \(f[11]) | \(f[12]) |"
            #expect(Self.says(row), "the README's table should have the row: \(row)")
        }
    }

    @Test func theWeatherComparisonFiguresAreTheCommittedOnes() throws {
        let markdown = try Self.report("comparison.md")
        let verdict = markdown.split(separator: "\n").first { $0.hasPrefix("**Best on staleness") }!
        let best = String(verdict.split(separator: "`")[1])
        func between(_ text: Substring, _ start: String, _ end: String) -> String {
            guard let a = text.range(of: start), let b = text[a.upperBound...].range(of: end) else { return "?" }
            return String(text[a.upperBound..<b.lowerBound])
        }
        let mean = between(verdict, "mean staleness ", ",")
        let budgeted = between(verdict, "for ", " budgeted")
        let sentence = "ranks `\(best)` first on mean staleness (\(mean) for \(budgeted) budgeted reloads a day)."
        #expect(Self.says(sentence), "the README should say: \(sentence)")
        // The sweep's first clause: where the recommendation holds, or ranks first by less than the noise.
        let sweep = markdown.split(separator: "\n").first { $0.hasPrefix("The recommendation `") }!
        let first = between(sweep, "The recommendation `\(best)` ", ";")
        #expect(Self.says(first), "the README should say the recommendation \(first)")
    }

    /// The sentence in which weather's comparison cites its sweep of the other unknowns, word for word.
    @Test func theWeatherComparisonCitesTheCommittedSweep() throws {
        let markdown = try Self.report("comparison.md")
        let sentence = try #require(markdown.split(separator: "\n").first { $0.hasSuffix("(one at a time; `widgetsim sensitivity` also screens interactions).") })
        #expect(Self.says("The committed weather comparison says: \(sentence)"), "the README should quote: \(sentence)")
    }

    /// What matters most in weather's committed sensitivity report, and how far it moves the staleness.
    @Test func theWeatherSensitivityFiguresAreTheCommittedOnes() throws {
        let markdown = try Self.report("sensitivity.md")
        let line = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("**What matters most for `") })
        let parts = line.split(separator: "`")
        let (recommended, unknown) = (String(parts[1]), String(parts[3]))
        let movement = try #require(line.range(of: "which moves its mean staleness from ").map { line[$0.upperBound...] }?.split(separator: ";").first)
        let sentence = "What matters most for `\(recommended)` is `\(unknown)`, which moves its mean staleness from \(movement.hasSuffix(".") ? String(movement.dropLast()) : String(movement))."
        #expect(Self.says(sentence), "the README should say: \(sentence)")
        let walks = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("**All unknowns at once**") })
        let counts = try #require(walks.firstMatch(of: /(\d+) points\): it holds at (\d+), ties at (\d+) and is beaten beyond the noise at (\d+)/))
        let quoted = "All unknowns at once (\(counts.1) points), it holds at \(counts.2), ties at \(counts.3) and is beaten beyond the noise at \(counts.4)."
        #expect(Self.says(quoted), "the README should say: \(quoted)")
    }

    /// The README's table of scheduler parameters is the library's catalogue,
    /// with each default as reports print it.
    @Test func theParameterTableIsTheCatalogue() throws {
        let raw = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let table = Self.parameterTable()
        let found = raw.contains(table)
        #expect(found, "the README's parameter table should read:\n\(table)")
    }

    static func parameterTable() -> String {
        let defaults = SchedulerParameters()
        var table = "| parameter | default | rests on | meaning |\n|---|---|---|---|\n"
        for info in SchedulerParameters.catalogue {
            table += "| `\(info.name)` | \(info.value(defaults)) | \(info.restsOn) | \(info.meaning) |\n"
        }
        return table
    }
}
