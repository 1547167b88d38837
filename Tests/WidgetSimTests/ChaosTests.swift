import Foundation
import Testing
import WidgetSimChaosKit

/// README, "Errors, exit codes and safety": whenever a run is stopped, the
/// report directory holds the old reports or the new ones byte for byte,
/// the exit status and the message say which, and nothing is left beside
/// it. `make chaos` checks this over a thousand interruptions of the release
/// build; this is its short campaign on the debug build.
@Suite("Chaos", .serialized)
struct ChaosTests {
    /// Fixed, so that a failure names the seed that reproduces it.
    static let seed: UInt64 = 20261123

    /// About 20 s on the 2-core machine: 20 interruptions of a run of about
    /// 0.8 s (two devices over a year with a trace, in the debug build).
    @Test func interruptedRunsLeaveTheOldOrTheNewReportsSayWhichAndLeaveNothingBehind() throws {
        guard FileManager.default.isExecutableFile(atPath: Paths.binary.path) else {
            throw CommandLineTests.CLITestError.binaryMissing(Paths.binary.path)
        }
        let work = Paths.temporaryDirectory("chaos")
        let seed = Self.seed
        let configuration = ChaosConfiguration(
            binary: Paths.binary.path, scenario: Paths.scenario("weather"), devices: 2, days: 366, work: work.path,
            seed: seed, interruptions: 20, calibrationRuns: 2
        ) { iteration, duration in
            let options = "CHAOS_ARGS='--binary .build/debug/widgetsim --devices 2'"
            return [
                "make chaos SEED=\(seed) INTERRUPTIONS=\(iteration) \(options)",
                "make chaos SEED=\(seed) ONLY=\(iteration) DURATION=\(String(format: "%.3f", duration)) \(options)",
            ]
        }
        let report = try ChaosCampaign(configuration).run()
        #expect(report.failures.isEmpty, "\(report.summary())")
        // A failure's evidence stays for reading; a pass leaves nothing.
        if report.failures.isEmpty { try? FileManager.default.removeItem(at: work) }
    }
}

/// The rules the chaos harness applies to each run, pinned case by case, so
/// that what it reports does not depend on catching a race.
@Suite("Chaos verdict")
struct ChaosVerdictTests {
    static let unchanged = "widgetsim: interrupted; earlier reports are unchanged\n"
    static let inPlace = "widgetsim: interrupted; the new reports are in place\n"
    static let staging = ".reports.tmp-4242-1"

    static func kinds(
        _ signal: ChaosSignal?, _ termination: Termination?, _ state: DirectoryState, says message: String = "",
        created: [String] = [], earlier: [[String]] = []
    ) -> [FindingKind] {
        let observation = RunObservation(
            signal: signal, phase: signal == nil ? nil : .writing, termination: termination, state: state,
            standardError: message, created: created, earlierLeftovers: earlier)
        return ChaosVerdict.findings(observation).map(\.kind)
    }

    @Test func aTruthfulInterruptionOrACompletedRunPasses() {
        #expect(Self.kinds(.int, .exited(130), .old, says: Self.unchanged) == [])
        #expect(Self.kinds(.term, .exited(143), .old, says: Self.unchanged) == [])
        #expect(Self.kinds(.int, .exited(130), .new, says: Self.inPlace) == [])
        #expect(Self.kinds(.term, .exited(0), .new) == [])
        #expect(Self.kinds(.kill, .signalled(9), .old) == [])
        #expect(Self.kinds(.kill, .exited(0), .new) == [])
        #expect(Self.kinds(nil, .exited(0), .new) == [])
        // Signalled before the handlers were installed: no message to check.
        #expect(Self.kinds(.int, .signalled(2), .old) == [])
    }

    @Test func aDirectoryWithMissingFilesIsBrokenWhateverTheExit() {
        let missing = DirectoryState.broken("against the new reports: 1 missing (trace.json)")
        #expect(Self.kinds(.int, .exited(130), missing, says: Self.unchanged) == [.brokenDirectory, .wrongMessage])
        #expect(Self.kinds(.term, .exited(0), missing) == [.brokenDirectory, .wrongExit])
        #expect(Self.kinds(.kill, .signalled(9), missing) == [.brokenDirectory])
    }

    @Test func exitStatusesMustMatchTheSignalAndTheDirectory() {
        #expect(Self.kinds(.int, .exited(0), .old) == [.wrongExit])
        #expect(Self.kinds(.int, .exited(143), .old, says: Self.unchanged) == [.wrongExit])
        #expect(Self.kinds(.term, .exited(130), .old, says: Self.unchanged) == [.wrongExit])
        #expect(Self.kinds(.kill, .exited(137), .old) == [.wrongExit])
        #expect(Self.kinds(.int, .exited(74), .old) == [.wrongExit])
        #expect(Self.kinds(.term, .signalled(11), .old) == [.wrongExit])
        #expect(Self.kinds(.int, .signalled(2), .new) == [.wrongExit])
        #expect(Self.kinds(nil, .exited(130), .old, says: Self.unchanged) == [.wrongExit])
        #expect(Self.kinds(.term, nil, .old) == [.hung])
    }

    @Test func theMessageMustSayWhichReportsAreInPlaceAndBeTrue() {
        // The race of today's handler: the swap is done, the message is not.
        #expect(Self.kinds(.term, .exited(143), .new, says: Self.unchanged) == [.wrongMessage])
        #expect(Self.kinds(.int, .exited(0), .new, says: Self.unchanged) == [.wrongMessage])
        #expect(Self.kinds(.int, .exited(130), .old, says: Self.inPlace) == [.wrongMessage])
        #expect(Self.kinds(.int, .exited(130), .old) == [.wrongMessage])
        #expect(Self.kinds(.int, .exited(130), .old, says: Self.unchanged + Self.inPlace) == [.wrongMessage])
    }

    @Test func onlyAKilledRunMayLeaveFilesAndTheNextCompletedRunRemovesThem() {
        #expect(Self.kinds(.kill, .signalled(9), .old, created: [Self.staging]) == [])
        #expect(Self.kinds(.int, .exited(130), .old, says: Self.unchanged, created: [Self.staging]) == [.leftBehind])
        #expect(Self.kinds(.kill, .exited(0), .new, created: [Self.staging]) == [.leftBehind])
        // An interrupted run may not have had the time to clean up; a completed one had.
        #expect(Self.kinds(.int, .exited(130), .old, says: Self.unchanged, earlier: [[Self.staging]]) == [])
        #expect(Self.kinds(nil, .exited(0), .new, earlier: [[Self.staging]]) == [.notCleaned])
        #expect(Self.kinds(.term, .exited(0), .new, earlier: [[Self.staging], [".reports.tmp-4343-1"]]) == [.notCleaned, .notCleaned])
        // A killed run that got as far as writing had first to clear the way.
        #expect(Self.kinds(.kill, .signalled(9), .old, created: [".reports.tmp-4343-1"], earlier: [[Self.staging]]) == [.accumulated])
    }

    @Test func theMessagesOfTodayAndOfTheFixAreRead() {
        #expect(Claim(standardError: Self.unchanged) == .oldReportsKept)
        #expect(Claim(standardError: Self.inPlace) == .newReportsInPlace)
        #expect(Claim(standardError: "error: reports/: cannot move the new reports into place: No such file or directory\n") == .none)
    }

    @Test func aPlanDependsOnlyOnTheSeedAndTheIteration() {
        let plans = (1...300).map { InterruptionPlan(seed: 7, iteration: $0) }
        #expect(plans == (1...300).map { InterruptionPlan(seed: 7, iteration: $0) })
        #expect(plans != (1...300).map { InterruptionPlan(seed: 8, iteration: $0) })
        #expect(plans.allSatisfy { $0.fraction >= 0 && $0.fraction < InterruptionPlan.span })
        // About a third each, and some after the end of the run.
        for signal in ChaosSignal.allCases {
            #expect((70...130).contains(plans.filter { $0.signal == signal }.count))
        }
        #expect(plans.contains { $0.fraction > 1 })
    }
}
