import Foundation
import Testing
@testable import WidgetSimCLI

/// The progress line on standard error, driven by a clock the test moves and
/// a writer the test reads.
@Suite("Progress line", .serialized)
struct ProgressLineTests {
    /// A clock that reads whatever the test sets, and a record of what the
    /// line wrote.
    final class Harness: @unchecked Sendable {
        private let lock = NSLock()
        private let start = ContinuousClock.now
        private var offset = Duration.zero
        private var written: [String] = []

        func advance(by duration: Duration) {
            lock.withLock { offset += duration }
        }

        var output: String { lock.withLock { written.joined() } }

        /// A line started now, and the clock moved on by `elapsed`.
        func line(_ label: String, isTerminal: Bool, runningFor elapsed: Duration) -> ProgressLine {
            let line = ProgressLine(
                label, isTerminal: isTerminal,
                now: { self.lock.withLock { self.start + self.offset } },
                write: { text in self.lock.withLock { self.written.append(text) } })
            advance(by: elapsed)
            return line
        }
    }

    @Test func aJobThatEndsWithinASecondShowsNoLine() {
        let harness = Harness()
        let line = harness.line("simulating", isTerminal: true, runningFor: .milliseconds(900))
        line.update(done: 3, total: 4)
        line.finish()
        #expect(harness.output == "")
    }

    @Test func inALogTheLinePrintsOnceAtEachQuarter() {
        let harness = Harness()
        let line = harness.line("fleet", isTerminal: false, runningFor: .seconds(1) + .milliseconds(1))
        for done in 1...8 { line.update(done: done, total: 8, unit: "devices") }
        line.finish()
        #expect(harness.output == """
            fleet: 2/8 devices
            fleet: 4/8 devices
            fleet: 6/8 devices
            fleet: 8/8 devices

            """)
    }

    @Test func onATerminalTheLineIsRewrittenTenTimesASecondAtMost() {
        let harness = Harness()
        let line = harness.line("compare", isTerminal: true, runningFor: .seconds(2))
        line.update(done: 1, total: 100)
        harness.advance(by: .milliseconds(50))
        line.update(done: 2, total: 100)
        harness.advance(by: .milliseconds(50))
        line.update(done: 3, total: 100)
        #expect(harness.output == "\rcompare: 1/100 runs\rcompare: 3/100 runs")
        line.finish()
    }

    @Test func finishingShowsTheCountTheRateLimitHeldBack() {
        let harness = Harness()
        let line = harness.line("calibrate", isTerminal: true, runningFor: .seconds(2))
        line.update(done: 1, total: 100)
        harness.advance(by: .milliseconds(10))
        line.update(done: 57, total: 100)
        line.finish()
        #expect(harness.output == "\rcalibrate: 1/100 runs\rcalibrate: 57/100 runs\n")
    }

    /// Ended directly, or by the interruption hook, which finds the line
    /// most recently started and not yet finished (nothing else in the test
    /// process starts one).
    @Test(arguments: [false, true])
    func anInterruptionEndsTheLineAndNothingIsWrittenAfter(throughTheHook: Bool) {
        let harness = Harness()
        let line = harness.line("simulating", isTerminal: true, runningFor: .seconds(2))
        line.update(done: 1, total: 4)
        if throughTheHook { ProgressLine.stopForInterruption() } else { line.endForInterruption() }
        harness.advance(by: .seconds(1))
        line.update(done: 2, total: 4)
        line.finish()
        #expect(harness.output == "\rsimulating: 1/4 runs\n")
    }

    @Test func aLabelsControlCharactersAreShownEscaped() {
        let harness = Harness()
        let line = harness.line("a\u{1B}[2Jb", isTerminal: false, runningFor: .seconds(2))
        line.update(done: 1, total: 1)
        line.finish()
        #expect(harness.output == "a\\u{1B}[2Jb: 1/1 runs\n")
    }
}
