import Foundation
import Testing
// Not `@testable`: the README's reader has only the library's public API,
// and so does the example's copy here.
import WidgetSim

/// The README's program "written entirely in Swift" ("Writing a provider in
/// Swift") is compiled and run here, as its reader would paste it: the lines
/// between the markers below must be the README's, so the example cannot
/// fall behind the API (it called `Simulation.run` without `try` after the
/// function came to throw, and a newcomer's paste did not compile).
@Suite("README's Swift example")
struct ReadmeSwiftExampleTests {
    @Test func theReadmesAllSwiftExampleCompilesAndRunsAsWritten() throws {
        let directory = Paths.temporaryDirectory("readme-swift")
        defer { try? FileManager.default.removeItem(at: directory) }
        // README: begin
        let widget = WidgetSetup(
            id: "character", kind: "com.mygame.character-detail",
            provider: .custom(SwiftProvider("characterDetail") { AnyTimelineProvider(CharacterDetailProvider()) }),
            truth: TruthSetup(periodic: PeriodicChanges(period: 8 * Seconds.hour)))
        let setup = SimulationSetup(name: "game", seed: 1, days: 2, devices: [
            DeviceSetup(id: "phone", pages: [PageSetup(name: "home", viewsPerDay: 30)],
                        apps: [AppSetup(id: "game")], widgets: [widget])])
        let run = try Simulation.run(setup)
        // README: end
        // The README writes into Reports/game-swift; a test writes nothing into the checkout.
        try ReportDirectory.write(ReportWriter(setup: setup, collector: run).files(), to: directory.path)
        let summary = try String(contentsOf: directory.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("game"), "\(summary.prefix(200))")

        let source = try String(contentsOfFile: #filePath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let begin = try #require(source.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// README: begin" })
        let end = try #require(source.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// README: end" })
        let example = source[(begin + 1)..<end].map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
        let written = example.joined(separator: "\n")
            + "\ntry ReportDirectory.write(ReportWriter(setup: setup, collector: run).files(), to: \"Reports/game-swift\")\n```"
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\nimport WidgetSim\n\n" + written), "README's example differs from:\n\(written)")
    }
}
