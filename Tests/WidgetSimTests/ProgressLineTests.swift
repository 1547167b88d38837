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

        func line(_ label: String, isTerminal: Bool) -> ProgressLine {
            ProgressLine(
                label, isTerminal: isTerminal,
                now: { self.lock.withLock { self.start + self.offset } },
                write: { text in self.lock.withLock { self.written.append(text) } })
        }
    }

    @Test func aJobThatEndsWithinASecondShowsNoLine() {
        let harness = Harness()
        let line = harness.line("simulating", isTerminal: true)
        harness.advance(by: .milliseconds(900))
        line.update(done: 3, total: 4)
        line.finish()
        #expect(harness.output == "")
    }

    @Test func inALogTheLinePrintsOnceAtEachQuarter() {
        let harness = Harness()
        let line = harness.line("fleet", isTerminal: false)
        harness.advance(by: .seconds(1) + .milliseconds(1))
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
        let line = harness.line("compare", isTerminal: true)
        harness.advance(by: .seconds(2))
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
        let line = harness.line("calibrate", isTerminal: true)
        harness.advance(by: .seconds(2))
        line.update(done: 1, total: 100)
        harness.advance(by: .milliseconds(10))
        line.update(done: 57, total: 100)
        line.finish()
        #expect(harness.output == "\rcalibrate: 1/100 runs\rcalibrate: 57/100 runs\n")
    }

    @Test func anInterruptionEndsTheLineAndNothingIsWrittenAfter() {
        let harness = Harness()
        let line = harness.line("simulating", isTerminal: true)
        harness.advance(by: .seconds(2))
        line.update(done: 1, total: 4)
        line.endForInterruption()
        harness.advance(by: .seconds(1))
        line.update(done: 2, total: 4)
        line.finish()
        #expect(harness.output == "\rsimulating: 1/4 runs\n")
    }

    /// The interruption hook finds the line most recently started and not
    /// yet finished: nothing else in the test process starts one.
    @Test func theInterruptionHookEndsTheCurrentLine() {
        let harness = Harness()
        let line = harness.line("fleet", isTerminal: true)
        harness.advance(by: .seconds(2))
        line.update(done: 1, total: 4, unit: "devices")
        ProgressLine.stopForInterruption()
        line.update(done: 2, total: 4, unit: "devices")
        line.finish()
        #expect(harness.output == "\rfleet: 1/4 devices\n")
    }

    @Test func aLabelsControlCharactersAreShownEscaped() {
        let harness = Harness()
        let line = harness.line("a\u{1B}[2Jb", isTerminal: false)
        harness.advance(by: .seconds(2))
        line.update(done: 1, total: 1)
        line.finish()
        #expect(harness.output == "a\\u{1B}[2Jb: 1/1 runs\n")
    }
}
