import Foundation
import Testing
@testable import WidgetSim

/// The engine: event order, random streams, deterministic math, the calendar.
@Suite("Engine")
struct EngineTests {
    // MARK: Event queue

    @Test func eventsWithEqualTimesComeOutInInsertionOrder() {
        var queue = EventQueue<String>()
        queue.schedule("late", at: 20)
        for name in ["a", "b", "c", "d", "e"] { queue.schedule(name, at: 10) }
        var order: [String] = []
        while let event = queue.popNext() { order.append(event.payload) }
        #expect(order == ["a", "b", "c", "d", "e", "late"])
    }

    @Test(arguments: [UInt64(1), 2, 3, 99, 12_345])
    func eventsComeOutSortedByTimeThenSequence(seed: UInt64) {
        var random = RandomStream(seed: seed)
        var queue = EventQueue<Int>()
        var expected: [(time: Int, id: Int)] = []
        var handles: [EventQueue<Int>.Handle] = []
        for id in 0..<500 {
            let time = random.nextInt(below: 50)
            handles.append(queue.schedule(id, at: time))
            expected.append((time, id))
        }
        // Cancel every seventh event.
        for id in stride(from: 0, to: 500, by: 7) {
            let cancelled = queue.cancel(handles[id])
            #expect(cancelled)
        }
        expected = expected.filter { $0.id % 7 != 0 }.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
        var popped: [(time: Int, id: Int)] = []
        while let event = queue.popNext() { popped.append((event.time, event.payload)) }
        #expect(popped.map(\.id) == expected.map(\.id), "seed \(seed)")
        #expect(popped.map(\.time) == expected.map(\.time), "seed \(seed)")
    }

    @Test func aCancelledEventNeverRunsAndCancellingTwiceFails() {
        var queue = EventQueue<String>()
        let first = queue.schedule("first", at: 5)
        queue.schedule("second", at: 5)
        let cancelled = queue.cancel(first)
        let cancelledAgain = queue.cancel(first)
        let next = queue.popNext()
        let after = queue.popNext()
        #expect(cancelled)
        #expect(!cancelledAgain)
        #expect(next?.payload == "second")
        #expect(after == nil)
    }

    // MARK: Random streams

    @Test func splitMix64MatchesTheReferenceSequence() {
        // Reference values of Vigna's splitmix64.c for seed 1234567.
        var generator = SplitMix64(state: 1_234_567)
        #expect(generator.next() == 6_457_827_717_110_365_317)
        #expect(generator.next() == 3_203_168_211_198_807_973)
        #expect(generator.next() == 9_817_491_932_198_370_423)
    }

    @Test func xoshiro256StarStarMatchesTheReferenceAlgorithm() {
        // Computed by a transcription of Vigna's xoshiro256starstar.c,
        // seeded with splitmix64 as its authors recommend.
        var zero = RandomStream(seed: 0)
        let fromZero = (0..<4).map { _ in zero.next() }
        #expect(fromZero == [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0, 0x6AA5_94F1_262D_2D2C])
        var fortyTwo = RandomStream(seed: 42)
        let fromFortyTwo = (0..<4).map { _ in fortyTwo.next() }
        #expect(fromFortyTwo == [0x1578_0B2E_0C2E_C716, 0x6104_D986_6D11_3A7E, 0xAE17_5332_39E4_99A1, 0xECB8_AD47_03B3_60A1])
    }

    @Test func derivedStreamsDependOnlyOnTheirPath() {
        let master = StreamSeed(7)
        #expect(master.derived("device", "phone").value == master.derived("device").derived("phone").value)
        #expect(master.derived("device", "phone").value != master.derived("device", "ipad").value)
        #expect(master.derived("device", "phone").value != StreamSeed(8).derived("device", "phone").value)
        #expect(master.derived(1).value != master.derived(2).value)
    }

    @Test(arguments: [UInt64(3), 17, 2026])
    func boundedDrawsStayInRangeAndCoverItEvenly(seed: UInt64) {
        var random = RandomStream(seed: seed)
        var counts = Array(repeating: 0, count: 7)
        for _ in 0..<70_000 { counts[random.nextInt(below: 7)] += 1 }
        // Each bucket expects 10 000; 5 standard deviations is about ±470.
        for count in counts { #expect(abs(count - 10_000) < 470, "seed \(seed): \(counts)") }
        for _ in 0..<1_000 {
            let value = random.nextInt(in: -3...3)
            #expect((-3...3).contains(value))
            let unit = random.nextUnit()
            #expect(unit >= 0 && unit < 1)
        }
    }

    @Test func exponentialAndNormalDrawsHaveTheirMoments() {
        var random = RandomStream(seed: 11)
        let n = 200_000
        var sum = 0.0
        for _ in 0..<n { sum += random.nextExponential(mean: 300) }
        #expect(abs(sum / Double(n) - 300) < 3)
        var normalSum = 0.0
        var squares = 0.0
        for _ in 0..<n {
            let z = random.nextStandardNormal()
            normalSum += z
            squares += z * z
        }
        #expect(abs(normalSum / Double(n)) < 0.01)
        #expect(abs(squares / Double(n) - 1) < 0.01)
    }

    @Test func logNormalLatencyHasTheRequestedMedianAndP95() {
        var random = RandomStream(seed: 5)
        let distribution = DurationDistribution.logNormal(median: 100, p95: 400)
        let draws = (0..<100_001).map { _ in distribution.draw(using: &random) }.sorted()
        #expect(abs(draws[50_000] - 100) <= 2)
        #expect(abs(draws[95_000] - 400) <= 10)
    }

    // MARK: Deterministic math

    @Test func deterministicLogAndExpAgreeWithTheSystemLibrary() {
        var random = RandomStream(seed: 1)
        for _ in 0..<10_000 {
            let x = DeterministicMath.exp(random.nextUnit() * 80 - 40)
            let ours = DeterministicMath.log(x)
            #expect(abs(ours - Foundation.log(x)) <= 1e-13 * max(1, abs(ours)))
            let y = random.nextUnit() * 100 - 50
            #expect(abs(DeterministicMath.exp(y) - Foundation.exp(y)) <= 1e-13 * Foundation.exp(y))
        }
        #expect(DeterministicMath.log(1) == 0)
        #expect(DeterministicMath.exp(0) == 1)
    }

    // MARK: Calendar

    @Test func civilDaysRoundTripOverFourCenturies() {
        for days in stride(from: -146_097, through: 146_097, by: 37) {
            let (year, month, day) = CivilCalendar.civilFromDays(days)
            #expect(CivilCalendar.daysFromCivil(year: year, month: month, day: day) == days)
        }
        #expect(CivilCalendar.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.daysFromCivil(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilDateTime(year: 2000, month: 2, day: 29).isValid)
        #expect(!CivilDateTime(year: 1900, month: 2, day: 29).isValid)
        #expect(!CivilDateTime(year: 2026, month: 4, day: 31).isValid)
    }

    @Test func calendarGivesLocalDayWeekdayAndTimeFromVirtualSeconds() {
        // 2026-03-02 is a Monday; the run starts at local midnight in UTC+01:00.
        let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 3_600)
        #expect(calendar.weekday(0) == .monday)
        #expect(calendar.dayIndex(0) == 0)
        #expect(calendar.dayIndex(Seconds.day - 1) == 0)
        #expect(calendar.dayIndex(Seconds.day) == 1)
        #expect(calendar.weekday(5 * Seconds.day) == .saturday)
        #expect(calendar.hour(9 * Seconds.hour + 30 * Seconds.minute) == 9)
        #expect(calendar.iso8601(9 * Seconds.hour + 30 * Seconds.minute + 5) == "2026-03-02T09:30:05+01:00")
        #expect(calendar.iso8601(-1) == "2026-03-01T23:59:59+01:00")
        #expect(calendar.startOfDay(3) == 3 * Seconds.day)
    }

    @Test func anotherTimeZoneSeesTheSameInstantsOnItsOwnClock() {
        let paris = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 3_600)
        let newYork = paris.withUTCOffset(-5 * Seconds.hour)
        #expect(newYork.iso8601(0) == "2026-03-01T18:00:00-05:00")
        #expect(newYork.dayIndex(0) == 0)
        #expect(newYork.startOfDay(1) == 6 * Seconds.hour)
        #expect(newYork.weekday(0) == .sunday)
        #expect(CivilCalendar.formatOffset(-(5 * Seconds.hour + 30 * Seconds.minute)) == "-05:30")
    }
}

/// The ziggurat's exponential draws have the exponential distribution.
@Suite("Exponential ziggurat")
struct ZigguratTests {
    @Test func layerEdgesDescendFromTheTailToZero() {
        let x = ExponentialZiggurat.tables.x
        #expect(x[1] == ExponentialZiggurat.tailStart)
        #expect(x[256] == 0)
        #expect(zip(x, x.dropFirst()).allSatisfy { $0 > $1 })
        // Every layer has the same area: x[i] · (f[i+1] − f[i]) = v.
        let f = ExponentialZiggurat.tables.f
        for i in 1..<255 {
            #expect(abs(x[i] * (f[i + 1] - f[i]) - ExponentialZiggurat.layerArea) < 1e-12)
        }
    }

    @Test func theDrawsTablesAreTheComputedOnesBitForBit() {
        #expect(ExponentialZiggurat.xBits == ExponentialZiggurat.tables.x.map(\.bitPattern))
        #expect(ExponentialZiggurat.fBits == ExponentialZiggurat.tables.f.map(\.bitPattern))
        #expect(NormalZiggurat.xBits == NormalZiggurat.tables.x.map(\.bitPattern))
        #expect(NormalZiggurat.fBits == NormalZiggurat.tables.f.map(\.bitPattern))
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func drawsFollowTheExponentialDistribution(seed: UInt64) {
        var random = RandomStream(seed: seed)
        let n = 400_000
        var below = [0, 0, 0, 0]  // counts below 0.1, 1, 3 and 8 (the tail starts at 7.7)
        var sum = 0.0
        for _ in 0..<n {
            let value = random.nextExponential(mean: 1)
            #expect(value >= 0)
            sum += value
            for (index, edge) in [0.1, 1, 3, 8].enumerated() where value < edge { below[index] += 1 }
        }
        #expect(abs(sum / Double(n) - 1) < 0.01, "seed \(seed)")
        // P(X < t) = 1 − e^−t: 0.09516, 0.63212, 0.95021, 0.99966.
        for (index, expected) in [0.095_163, 0.632_121, 0.950_213, 0.999_665].enumerated() {
            let observed = Double(below[index]) / Double(n)
            #expect(abs(observed - expected) < 4 * (expected * (1 - expected) / Double(n)).squareRoot() + 1e-4, "seed \(seed), edge \(index)")
        }
    }
}
