import Foundation
import Testing
import WidgetSim
import WidgetSimCLI

/// Providers in the user's own package (README, "Your providers in your own
/// package"): a package that depends on widgetsim hands its providers and
/// apps to `WidgetSimCommandLine.main(providers:apps:)`, and its scenarios
/// name them as they name the built-in examples. Only public API is used
/// here (no `@testable`), as such a package would.
@Suite("Providers in your own package")
struct OwnPackageTests {
    /// A provider no built-in resembles: one entry, then `after(now + 30 min)`.
    struct EveryHalfHourProvider: TimelineProvider {
        struct Entry: TimelineEntry {
            var date: SimTime
        }

        func placeholder(in context: Context) -> Entry { Entry(date: context.now) }
        func snapshot(in context: Context) -> Entry { Entry(date: context.now) }
        func timeline(in context: inout Context) -> Timeline<Entry> {
            Timeline(entries: [Entry(date: context.now)], policy: .after(context.now + 30 * Seconds.minute))
        }
    }

    /// An app that reloads nothing, ever: only its name matters here.
    struct SilentApp: ContainingApp {
        func handle(_ event: AppEvent, at now: SimTime, center: inout WidgetCenter) {}
    }

    static let everyHalfHour = SwiftCatalog.Provider(
        name: "everyHalfHour", summary: "one entry, after(now + 30 min)", make: { AnyTimelineProvider(EveryHalfHourProvider()) })
    static let silentApp = SwiftCatalog.App(name: "silentApp", summary: "never calls WidgetCenter", make: { SilentApp() })

    /// A one-day scenario whose widget names `provider` and whose app names `app`.
    static func scenario(provider: String, app: String = "silentApp", in directory: URL) throws -> String {
        let text = """
            {"name": "own", "days": 1, "devices": [{"id": "phone",
              "apps": [{"id": "game", "swift": "\(app)"}],
              "widgets": [{"id": "w", "kind": "com.me.w", "app": "game", "provider": {"swift": "\(provider)"}}]}]}
            """
        let path = directory.appendingPathComponent("own.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func policies(inReportsAt directory: URL) throws -> [String] {
        let reloads = try String(contentsOf: directory.appendingPathComponent("reloads.csv"), encoding: .utf8)
        return reloads.split(separator: "\n").dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[12]) }
    }

    @Test func aProviderAndAnAppGivenToTheEntryPointRunFromAScenarioThatNamesThem() throws {
        let directory = Paths.temporaryDirectory("own-package")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.scenario(provider: "everyHalfHour", in: directory)
        let out = directory.appendingPathComponent("reports")
        let console = CapturingConsole()
        let code = WidgetSimCommandLine.run(
            ["simulate", path, "--out", out.path, "--quiet"], providers: [Self.everyHalfHour], apps: [Self.silentApp], console: console)
        #expect(code == .success, "\(console.errors)")
        let policies = try Self.policies(inReportsAt: out)
        #expect(!policies.isEmpty && policies.allSatisfy { $0 == "after" })
    }

    /// The same scenario without the registration is refused: the names
    /// came from the entry point, not from the library's catalog.
    @Test func withoutTheRegistrationTheScenarioIsRefused() throws {
        let directory = Paths.temporaryDirectory("own-package-unregistered")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.scenario(provider: "everyHalfHour", app: "characterApp", in: directory)
        let console = CapturingConsole()
        #expect(WidgetSimCommandLine.run(["validate", path], console: console) == .dataError)
        #expect(console.errors.contains(#"no Swift provider named "everyHalfHour""#))
    }

    @Test func anUnknownProviderNameListsEveryRegisteredOneTheirsIncluded() throws {
        let directory = Paths.temporaryDirectory("own-package-typo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.scenario(provider: "everyHalfHuor", in: directory)
        let console = CapturingConsole()
        let code = WidgetSimCommandLine.run(["validate", path], providers: [Self.everyHalfHour], apps: [Self.silentApp], console: console)
        #expect(code == .dataError)
        #expect(console.errors.contains(#"no Swift provider named "everyHalfHuor" (did you mean "everyHalfHour"?)"#))
        #expect(console.errors.contains(#"allowed: "characterDetail", "dragonBattle", "everyHalfHour""#))
    }

    /// A scenario's `"swift": "<name>"` must name one thing, so a package
    /// cannot quietly replace a built-in example: exit 70 before any command.
    @Test func aPackageCannotTakeANameAlreadyRegistered() {
        let console = CapturingConsole()
        let taken = SwiftCatalog.Provider(name: "characterDetail", summary: "", make: { AnyTimelineProvider(EveryHalfHourProvider()) })
        #expect(WidgetSimCommandLine.run(["list"], providers: [taken], console: console) == .software)
        #expect(console.errors.contains(#"two Swift providers are named "characterDetail""#))
        #expect(throws: SwiftCatalogError.nameTaken(kind: .app, name: "silentApp")) {
            try SwiftCatalog.builtIn.adding(apps: [Self.silentApp, Self.silentApp])
        }
    }

    // MARK: The example package (Tests/ExamplePackage), built by `make test`

    /// `make test` builds the example package first and says where; a bare
    /// `swift test` without that build skips the test rather than building a
    /// second copy of the library itself.
    static var exampleBinary: URL? {
        if let path = ProcessInfo.processInfo.environment["WIDGETSIM_EXAMPLE_BINARY"] { return URL(fileURLWithPath: path) }
        let built = Paths.packageRoot.appendingPathComponent(".build-example/debug/my-widgetsim")
        return FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
    }

    static func runExample(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let binary = try #require(exampleBinary)
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path) is missing: run 'make example'")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = Paths.packageRoot
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errorData, as: UTF8.self))
    }

    /// E2: Apple's provider, ported in the example package, gives four hourly
    /// entries (25 %, 50 %, 75 %, 100 %) and `atEnd` on every call.
    @Test(.enabled(if: exampleBinary != nil, "run by 'make test', which builds Tests/ExamplePackage"))
    func theExamplePackageIsWidgetsimWithItsOwnPortedProvider() throws {
        let out = Paths.temporaryDirectory("example-package")
        defer { try? FileManager.default.removeItem(at: out) }
        let scenario = "Tests/ExamplePackage/Scenarios/apple-character.json"
        let run = try Self.runExample(["simulate", scenario, "--out", out.path])
        #expect(run.status == 0, "\(run.errors)")
        let rows = try String(contentsOf: out.appendingPathComponent("reloads.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(!rows.isEmpty && rows.allSatisfy { $0[11] == "4" && $0[12] == "atEnd" })
    }

    /// The README shows the port as a diff from Apple's code; its new side
    /// must be the example package's file, and the count it states must be
    /// the diff's (under 30 changed lines).
    @Test func theReadmesDiffIsTheExamplePackagesPortAndStatesItsSize() throws {
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let portPath = "Tests/ExamplePackage/Sources/MyWidgetSim/CharacterDetailProvider.swift"
        guard let start = readme.range(of: "```diff\n--- Apple: CharacterDetailProvider"),
              let end = readme.range(of: "\n```\n", range: start.upperBound..<readme.endIndex) else {
            Issue.record("the README has no diff from Apple's CharacterDetailProvider")
            return
        }
        let lines = readme[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        #expect(lines.first == "+++ \(portPath)")
        let body = lines.dropFirst().filter { !$0.hasPrefix("@@") }
        let newSide = body.filter { !$0.hasPrefix("-") }.map { $0.dropFirst() }.joined(separator: "\n") + "\n"
        let port = try String(contentsOf: Paths.packageRoot.appendingPathComponent(portPath), encoding: .utf8)
        #expect(newSide == port, "regenerate the README's diff: the port changed")
        let added = body.filter { $0.hasPrefix("+") }.count
        let removed = body.filter { $0.hasPrefix("-") }.count
        #expect(added + removed < 30)
        let sentence = "\(added + removed) changed lines (\(added) added, \(removed) removed)"
        #expect(readme.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(sentence), "the README should say: \(sentence)")
    }
}
