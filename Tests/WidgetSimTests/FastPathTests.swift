import Foundation
import Testing
@testable import WidgetSim

/// The speed work's fast paths compute exactly what the plain forms they
/// replaced compute: the committed reports stay byte-identical only if every
/// one of them agrees bit for bit, on edge cases as well as on random input.
@Suite("Fast paths")
struct FastPathTests {
    @Test func roundingToAWholeNumberMatchesRoundedHalfAwayFromZero() {
        let edges: [Double] = [
            0, 0.5, 1.5, 2.5, 0.49999999999999994, 0.5000000000000001, 1e-300, 86_399.5, 0x1p52 - 0.5, 0x1p52, 0x1p53 + 2,
            1e15 + 0.5, -0.5, -2.5, -0.49999999999999994,
        ]
        var random = RandomStream(seed: 14)
        let randomValues = (0..<20_000).map { index -> Double in
            let magnitude = [1.0, 100, 86_400, 1e9][index % 4]
            let value = random.nextUnit() * magnitude
            // Every other value sits exactly on a half.
            return index % 2 == 0 ? value : (value * 2).rounded(.down) / 2
        }
        for value in edges + randomValues {
            #expect(DeterministicMath.roundedToInt(value) == Int(value.rounded()), "\(value)")
        }
    }

    @Test func scalingByAPowerOfTwoIsTheGenericInitializerBitForBit() {
        var random = RandomStream(seed: 2)
        var exponents = Array(-1030...(-1015)) + Array(1015...1023) + [-1, 0, 1]
        exponents += (0..<2_000).map { _ in random.nextInt(in: -1022...1023) }
        for exponent in exponents {
            let significand = 0.9 + 1.2 * random.nextUnit()
            let scaled = DeterministicMath.scaled(significand, byPowerOfTwo: exponent)
            let generic = Double(sign: .plus, exponent: exponent, significand: significand)
            #expect(scaled.bitPattern == generic.bitPattern, "\(significand) × 2^\(exponent)")
        }
    }

    @Test func expSplitsItsTableIndexAsTheModuloAndDivisionDid() {
        // exp's index runs over about ±65,500 (|x| < 709); both ends and
        // every residue around zero, where the sign fix-ups mattered.
        for index in Array(-70_000...(-69_900)) + Array(-200...200) + Array(69_900...70_000) + [Int.min, Int.max] {
            let j = ((index % 64) + 64) % 64
            let (fastJ, fastK) = DeterministicMath.splitBy64(index)
            #expect(fastJ == j && fastK == (index - j) / 64, "\(index)")
        }
    }

    @Test func aFreshStreamsFirstOutputIsItsFirstDraw() {
        var seeds = RandomStream(seed: 4)
        for seed in [0, 1, UInt64.max, 0x9E37_79B9_7F4A_7C15] + (0..<5_000).map({ _ in seeds.next() }) {
            var stream = RandomStream(seed: seed)
            #expect(RandomStream.firstOutput(seed: seed) == stream.next(), "\(seed)")
        }
    }

    /// A seed's children, with the parent's half of the derivation worked
    /// out once, are the seeds the derivation gives, written out here as it
    /// was before; and so are the counter-based units drawn from them.
    @Test func aSeedsChildrenAreTheSeedsItsDerivationGives() {
        var draws = RandomStream(seed: 9)
        let parents: [UInt64] = [0, 1, .max, 0x5851_F42D_4C95_7F2D] + (0..<200).map { _ in draws.next() }
        var mismatches: [String] = []
        for parent in parents {
            let children = StreamSeed(parent).children
            for label in [0, 1, .max, UInt64(bitPattern: -3_600)] + (0..<50).map({ _ in draws.next() }) {
                let plain = SplitMix64.mix(SplitMix64.mix(parent ^ 0x5851_F42D_4C95_7F2D) &+ label)
                if children.seed(label).value != plain || StreamSeed(parent).derived(label).value != plain
                    || children.unit(at: label) != Double(plain >> 11) * 0x1.0p-53 {
                    mismatches.append("parent \(parent), label \(label)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(parents.count * 54), the first \(mismatches.prefix(3))")
    }

    /// A scheduling delay from the stream's first 64 bits alone, when the
    /// normal ziggurat needs no more, is the delay the whole stream draws;
    /// the seeds cover delays that need more bits (the tail, the wedges).
    @Test func aSchedulingDelayFromItsFirstBitsIsTheWholeStreamsDelay() {
        var parameters = SchedulerParameters()
        parameters.maximumSchedulingDelay = 20 * Seconds.minute
        let scheduler = ReloadScheduler(parameters: parameters, delaySeed: StreamSeed(77))
        let sampler = DurationSampler(parameters.schedulingDelay)
        var needingMore = 0
        for t in 0..<20_000 {
            var stream = StreamSeed(77).derived(UInt64(t)).stream()
            let expected = min(sampler.draw(using: &stream), parameters.maximumSchedulingDelay)
            #expect(scheduler.schedulingDelay(dueAt: t) == expected, "\(t)")
            if NormalZiggurat.firstTry(RandomStream.firstOutput(seed: StreamSeed(77).derived(UInt64(t)).value)) == nil { needingMore += 1 }
        }
        #expect(needingMore > 50)
    }

    /// An exponential draw whose first try is inlined and whose rest runs
    /// out of line is the one-loop ziggurat draw, bit for bit, and leaves
    /// the stream where it left it, in the tail and the wedges as well.
    @Test func anExponentialDrawSplitAtItsFirstTryIsTheOneLoopDraw() {
        func oneLoopDraw(_ random: inout RandomStream) -> Double {
            let x = { (layer: Int) in Double(bitPattern: ExponentialZiggurat.xBits[layer]) }
            let f = { (layer: Int) in Double(bitPattern: ExponentialZiggurat.fBits[layer]) }
            while true {
                let bits = random.next()
                let layer = Int(bits & 0xFF)
                let candidate = Double(bits >> 11) * 0x1.0p-53 * x(layer)
                if candidate < x(layer + 1) { return candidate }
                if layer == 0 { return ExponentialZiggurat.tailStart - DeterministicMath.log(1 - random.nextUnit()) }
                if f(layer + 1) + (f(layer) - f(layer + 1)) * random.nextUnit() < DeterministicMath.exp(-candidate) { return candidate }
            }
        }
        Self.expectTheSameDraws(seed: 31, split: { $0.nextExponential(mean: 1) }, oneLoop: oneLoopDraw) { bits in
            let layer = Int(bits & 0xFF)
            return Double(bits >> 11) * 0x1.0p-53 * Double(bitPattern: ExponentialZiggurat.xBits[layer])
                >= Double(bitPattern: ExponentialZiggurat.xBits[layer + 1])
        }
    }

    /// 200,000 draws of `split` and of `oneLoop` from streams of the same
    /// seed are the same bits and leave the streams in step; more than 1,000
    /// of them (about 1 % of first tries miss their layer's rectangle) went
    /// past the first try, as `missesFirstTry` tells from a draw's first bits.
    static func expectTheSameDraws(
        seed: UInt64, split: (inout RandomStream) -> Double, oneLoop: (inout RandomStream) -> Double,
        missesFirstTry: (UInt64) -> Bool
    ) {
        var splitStream = RandomStream(seed: seed)
        var reference = RandomStream(seed: seed)
        var beyondFirstTry = 0
        for index in 0..<200_000 {
            var probe = reference
            if missesFirstTry(probe.next()) { beyondFirstTry += 1 }
            let expected = oneLoop(&reference)
            #expect(split(&splitStream).bitPattern == expected.bitPattern, "draw \(index)")
            #expect(splitStream.next() == reference.next(), "stream after draw \(index)")
        }
        #expect(beyondFirstTry > 1_000, "only \(beyondFirstTry) draws went past the first try")
    }

    /// A normal draw whose first try is inlined and whose rest runs out of
    /// line is the one-loop ziggurat draw, bit for bit, and leaves the
    /// stream where it left it, in the tail and the wedges as well.
    @Test func aNormalDrawSplitAtItsFirstTryIsTheOneLoopDraw() {
        func oneLoopDraw(_ random: inout RandomStream) -> Double {
            let x = { (layer: Int) in Double(bitPattern: NormalZiggurat.xBits[layer]) }
            let f = { (layer: Int) in Double(bitPattern: NormalZiggurat.fBits[layer]) }
            while true {
                let bits = random.next()
                if let value = NormalZiggurat.firstTry(bits) { return value }
                let layer = Int(bits & 0x7F)
                let negative = bits & 0x80 != 0
                let candidate = Double(bits >> 11) * 0x1.0p-53 * x(layer)
                if layer == 0 {
                    while true {
                        let tail = -DeterministicMath.log(1 - random.nextUnit()) / NormalZiggurat.tailStart
                        let y = -DeterministicMath.log(1 - random.nextUnit())
                        if 2 * y >= tail * tail { return negative ? -(NormalZiggurat.tailStart + tail) : NormalZiggurat.tailStart + tail }
                    }
                }
                if f(layer + 1) + (f(layer) - f(layer + 1)) * random.nextUnit() < NormalZiggurat.density(candidate) {
                    return negative ? -candidate : candidate
                }
            }
        }
        Self.expectTheSameDraws(seed: 33, split: { $0.nextStandardNormal() }, oneLoop: oneLoopDraw) { bits in
            NormalZiggurat.firstTry(bits) == nil
        }
    }

    /// The normal ziggurat's first try sets the sign from bit 7 by flipping
    /// the sign bit, which is what negating the candidate did.
    @Test func aNormalFirstTrysSignIsTheNegatedCandidate() {
        var random = RandomStream(seed: 32)
        var negatives = 0
        for _ in 0..<100_000 {
            let bits = random.next()
            let layer = Int(bits & 0x7F)
            let candidate = Double(bits >> 11) * 0x1.0p-53 * Double(bitPattern: NormalZiggurat.xBits[layer])
            guard candidate < Double(bitPattern: NormalZiggurat.xBits[layer + 1]) else {
                #expect(NormalZiggurat.firstTry(bits) == nil)
                continue
            }
            let expected = bits & 0x80 != 0 ? -candidate : candidate
            #expect(NormalZiggurat.firstTry(bits)?.bitPattern == expected.bitPattern, "\(bits)")
            if expected < 0 { negatives += 1 }
        }
        // A zero candidate keeps its sign too: -0 for bit 7 set, as negation gives.
        #expect(NormalZiggurat.firstTry(0x80)?.bitPattern == (-0.0).bitPattern)
        #expect(NormalZiggurat.firstTry(0)?.bitPattern == (0.0).bitPattern)
        #expect(negatives > 40_000)
    }

    /// A remainder found by multiplication is the remainder `%` gives, for
    /// every second of a day by the spacings and periods scenarios use, for
    /// divisors and dividends around 2^32, and for pairs outside its range,
    /// which take the division.
    @Test func aRemainderByMultiplicationIsTheRemainder() {
        for divisor in [1, 2, 7, 60, 900, 1_800, 3_599, 3_600, 3_601, 86_399, 86_400, 86_401] {
            let fast = Divisor(divisor)
            for second in 0..<Seconds.day where fast.remainder(dividing: second) != second % divisor {
                Issue.record("\(second) % \(divisor)")
                break
            }
        }
        var random = RandomStream(seed: 34)
        let edges = [1, 2, 3, (1 << 31) - 1, 1 << 31, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 1 << 40, Int.max, -7, Int.min + 1]
        let divisors = edges + (0..<300).map { _ in 1 + random.nextInt(below: (1 << 32) - 1) }
        for divisor in divisors {
            let fast = Divisor(divisor)
            let dividends = [0, 1, divisor - 1, divisor, divisor &+ 1, 86_399, (1 << 32) - 1, 1 << 32, Int.max, -1, -86_400, Int.min + 1]
                + (0..<200).map { _ in random.nextInt(below: 1 << 32) }
            for dividend in dividends {
                #expect(fast.remainder(dividing: dividend) == dividend % divisor, "\(dividend) % \(divisor)")
            }
        }
    }

    /// A truth's periodic instants, found with `Divisor`, are where the
    /// division put them: the last at or before `t` and the first after it,
    /// for periods that divide a day and periods that do not, in zones
    /// either side of UTC.
    @Test func periodicInstantsAreWhereTheDivisionPutThem() {
        var random = RandomStream(seed: 35)
        let periods = [1, 59, 60, 420, 3_600, 5_400, 46_800, Seconds.day - 1, Seconds.day] + (0..<200).map { _ in 1 + random.nextInt(below: Seconds.day) }
        for period in periods {
            let changes = PeriodicChanges(period: period)
            for offset in [0, 5 * Seconds.hour + 45 * Seconds.minute, -8 * Seconds.hour] {
                let calendar = CivilCalendar(startEpochSeconds: 1_772_409_600, utcOffsetSeconds: offset)
                for _ in 0..<50 {
                    let t = random.nextInt(below: 20 * Seconds.day) - Seconds.day
                    let dayStart = calendar.startOfDay(calendar.dayIndex(t))
                    let last = dayStart + (t - dayStart) / period * period
                    let next = min(dayStart + ((t - dayStart) / period + 1) * period, dayStart + Seconds.day)
                    #expect(changes.last(atOrBefore: t, calendar: calendar) == last, "period \(period), t \(t)")
                    #expect(changes.next(after: t, calendar: calendar) == next, "period \(period), t \(t)")
                }
            }
        }
        // The divisor follows the period when it changes.
        var changes = PeriodicChanges(period: 3_600)
        changes.period = 7 * Seconds.minute
        let calendar = CivilCalendar(startEpochSeconds: 1_772_409_600, utcOffsetSeconds: 0)
        #expect(changes.next(after: 1_000, calendar: calendar) == 1_260)
        #expect(changes == PeriodicChanges(period: 7 * Seconds.minute))
    }

    @Test func theCalendarsDayAndTimeOfDayAgreeWithFloorDivision() {
        var random = RandomStream(seed: 3)
        for _ in 0..<200 {
            let start = 1_700_000_000 + random.nextInt(below: Seconds.day * 30)
            let offset = random.nextInt(in: -14 * Seconds.hour...14 * Seconds.hour)
            let calendar = CivilCalendar(startEpochSeconds: start, utcOffsetSeconds: offset)
            let localStart = start + offset
            let firstMidnight = CivilCalendar.floorDiv(localStart, Seconds.day) * Seconds.day
            for _ in 0..<100 {
                let t = random.nextInt(in: -3 * Seconds.day...400 * Seconds.day)
                let local = localStart + t
                #expect(calendar.dayIndex(t) == CivilCalendar.floorDiv(local - firstMidnight, Seconds.day))
                #expect(calendar.secondOfDay(t) == CivilCalendar.floorMod(local, Seconds.day))
                let day = random.nextInt(in: -3...400)
                #expect(calendar.startOfDay(day) == firstMidnight + day * Seconds.day - start - offset)
            }
        }
    }

    /// Carrying the hour from hour to hour sums the same products, in the
    /// same order, as working each hour out from the calendar (the form it
    /// replaced).
    @Test func weightedLengthIsTheSumOverLocalHours() {
        var random = RandomStream(seed: 21)
        for _ in 0..<300 {
            let calendar = CivilCalendar(
                startEpochSeconds: 1_700_000_000 + random.nextInt(below: Seconds.day),
                utcOffsetSeconds: random.nextInt(in: -14 * Seconds.hour...14 * Seconds.hour))
            let shape = (0..<24).map { _ in random.nextUnit() < 0.1 ? 0 : 2 * random.nextUnit() }
            let start = random.nextInt(in: -Seconds.day...3 * Seconds.day)
            let end = start + random.nextInt(in: -Seconds.hour...50 * Seconds.hour)
            var expected = 0.0
            var cursor = start
            while cursor < end {
                let hourEnd = min(end, cursor - calendar.secondOfDay(cursor) % Seconds.hour + Seconds.hour)
                expected += shape[calendar.hour(cursor)] * Double(hourEnd - cursor)
                cursor = hourEnd
            }
            let length = ArrivalProcess.weightedLength(from: start, to: end, shape: shape, calendar: calendar)
            #expect(length.bitPattern == expected.bitPattern, "from \(start) to \(end)")
        }
    }

    /// A shaped arrival as its definition gives it, hour by hour, each
    /// hour and its end worked out from the calendar: the form both walks
    /// below replaced (README, "Speed").
    static func arrivalHourByHour(
        after: SimTime, start: SimTime, end: SimTime, expected: Double, totalWeight: Double, shape: [Double],
        calendar: CivilCalendar, random: inout RandomStream
    ) -> SimTime? {
        guard expected > 0, end > start, totalWeight > 0 else { return nil }
        let perUnitWeight = expected / totalWeight
        var remaining = random.nextExponential(mean: 1)
        var cursor = max(after, start)
        while cursor < end {
            let hourEnd = min(end, cursor - calendar.secondOfDay(cursor) % Seconds.hour + Seconds.hour)
            let rate = perUnitWeight * shape[calendar.hour(cursor)]
            let segment = Double(hourEnd - cursor)
            if rate * segment >= remaining, rate > 0 {
                let arrival = max(cursor + Int(remaining / rate), after + 1)
                return arrival < end ? arrival : nil
            }
            remaining -= rate * segment
            cursor = hourEnd
        }
        return nil
    }

    /// `ArrivalProcess.nextArrival` (app and media sessions, location and
    /// truth changes) and `PreparedArrivals.next` (views) carry the hour
    /// from hour to hour; both must draw what the hour-by-hour definition
    /// draws, with the same draws.
    @Test func shapedArrivalsAreWhereTheDrawnWeightIsUsedUpHourByHour() {
        var random = RandomStream(seed: 4)
        for case_ in 0..<300 {
            let calendar = CivilCalendar(
                startEpochSeconds: 1_772_409_600 + random.nextInt(below: Seconds.day),
                utcOffsetSeconds: random.nextInt(in: -14 * Seconds.hour...14 * Seconds.hour))
            var shape = (0..<24).map { _ in random.nextUnit() < 0.1 ? 0 : 2 * random.nextUnit() }
            let start = random.nextInt(below: 2 * Seconds.day)
            let end = start + random.nextInt(in: -Seconds.hour...30 * Seconds.hour)
            let expected = [0, 0.5, 35, 200][case_ % 4] * (0.5 + random.nextUnit())
            var referenceStream = RandomStream(seed: UInt64(case_))
            // One case in ten starts in an hour without activity with a
            // draw of exactly 0 (xoshiro256** returns 0 when its second word
            // is 0): the arrival must wait for the first hour with some.
            if case_ % 10 == 1 {
                shape[calendar.hour(start)] = 0
                referenceStream._s1 = 0
            }
            let weight = ArrivalProcess.weightedLength(from: start, to: max(start, end), shape: shape, calendar: calendar)
            let prepared = PreparedArrivals(start: start, end: end, expected: expected, totalWeight: weight)
            let rates = shape.map { prepared.hourlyRate(shape: $0) }
            var processStream = referenceStream
            var preparedStream = referenceStream
            var after = start - 1 - random.nextInt(below: Seconds.hour)
            for _ in 0..<400 {
                let reference = Self.arrivalHourByHour(
                    after: after, start: start, end: end, expected: expected, totalWeight: weight, shape: shape,
                    calendar: calendar, random: &referenceStream)
                let process = ArrivalProcess.nextArrival(
                    after: after, start: start, end: end, expected: expected, totalWeight: weight, shape: shape,
                    calendar: calendar, random: &processStream)
                let fast = prepared.next(after: after, calendar: calendar, random: &preparedStream) { rates[$0] }
                #expect(process == reference, "nextArrival, case \(case_) after \(after)")
                #expect(fast == reference, "PreparedArrivals, case \(case_) after \(after)")
                let nextDraw = referenceStream.next()
                #expect(processStream.next() == nextDraw, "nextArrival, case \(case_): other draws than the definition's")
                #expect(preparedStream.next() == nextDraw, "PreparedArrivals, case \(case_): other draws than the definition's")
                guard let reference else { break }
                after = reference
            }
        }
    }

    @Test func anEventHeldBesideTheQueueIsOrderedAsIfItHadBeenQueued() {
        var queue = EventQueue<String>()
        queue.schedule("before", at: 10)
        let held = queue.reserveKey(at: 10)
        queue.schedule("after", at: 10)
        queue.schedule("earlier", at: 9)
        var order: [String] = []
        var heldTaken = false
        while true {
            if !heldTaken && held < queue.nextKey {
                order.append("held")
                heldTaken = true
            } else if let event = queue.popNext() {
                order.append(event.payload)
            } else {
                break
            }
        }
        #expect(order == ["earlier", "before", "held", "after"])
        #expect(queue.scheduledCount == 4)
    }

    @Test func aHeldEventIsTheLatestOnlyUntilAnotherIsScheduledOrReserved() {
        var queue = EventQueue<Int>()
        let first = queue.reserveKey(at: 5)
        #expect(queue.isLatest(key: first))
        _ = queue.reserveKey(at: 7)
        #expect(!queue.isLatest(key: first))
        let second = queue.reserveKey(at: 5)
        #expect(queue.isLatest(key: second))
        queue.schedule(3, at: 6)
        #expect(!queue.isLatest(key: second))
    }

    @Test func theLargestLimitIsTheLargestGrantedInTheTrailingDay() {
        var random = RandomStream(seed: 6)
        var history = BudgetHistory()
        var grants: [(time: SimTime, limit: Int)] = []
        var t = 0
        for _ in 0..<3_000 {
            t += random.nextInt(below: 3 * Seconds.hour)
            // Mostly the same limit, as in a run; sometimes larger or smaller.
            let limit = random.nextUnit() < 0.7 ? 40 : random.nextInt(in: 10...80)
            history.record(t, limit: limit)
            grants.append((t, limit))
            let query = t + random.nextInt(below: Seconds.hour)
            let inWindow = grants.filter { $0.time > query - Seconds.day && $0.time <= query }.map(\.limit)
            #expect(history.largestLimit(at: query) == inWindow.max(), "at \(query)")
        }
    }

    /// A window counts the instants of `(t - length, t]`, at the time of its
    /// last record or later (the only times a forward-moving clock asks).
    @Test func aTrailingWindowCountsTheInstantsOfItsTrailingDay() {
        var random = RandomStream(seed: 12)
        var window = TrailingWindow()
        var instants: [SimTime] = []
        var t = 0
        for _ in 0..<5_000 {
            // Bursts in the same second and quiet stretches longer than a day.
            t += random.nextUnit() < 0.2 ? 0 : random.nextInt(below: random.nextUnit() < 0.05 ? 2 * Seconds.day : Seconds.hour)
            window.record(t)
            instants.append(t)
            for query in [t, t + random.nextInt(below: Seconds.day), t + random.nextInt(below: 3 * Seconds.day)] {
                let expected = instants.filter { $0 > query - Seconds.day && $0 <= query }.count
                #expect(window.count(at: query) == expected, "at \(query), last \(t)")
            }
        }
    }

    /// The state tables are indexed without checks in release builds, so a
    /// device names only its own pages, apps and widgets, checked once when
    /// its simulator is made: here, what each scripted action names.
    @Test func aScriptedActionNamesOnlyTheDevicesOwnPagesAppsAndWidgets() {
        typealias Action = ScriptedAction.Action
        let inRange: [Action] = [
            .view(page: 1), .reloadTimelines(app: 2, kind: "k"), .reloadAllTimelines(app: 2), .push(app: 0),
            .appSession(app: 2, length: 60), .mediaSession(app: 1, length: 60), .tap(widget: 3), .truthChange(widget: 0),
            .locationChange, .systemChange,
        ]
        let outOfRange: [Action] = [
            .view(page: 2), .view(page: -1), .reloadTimelines(app: 3, kind: "k"), .reloadAllTimelines(app: -1), .push(app: 3),
            .appSession(app: Int.max, length: 60), .mediaSession(app: 3, length: 60), .tap(widget: 4), .truthChange(widget: Int.min),
        ]
        for action in inRange { #expect(action.names(pagesBelow: 2, appsBelow: 3, widgetsBelow: 4), "\(action)") }
        for action in outOfRange { #expect(!action.names(pagesBelow: 2, appsBelow: 3, widgetsBelow: 4), "\(action)") }
    }

    /// A device built in Swift whose widget is on a page it does not have is
    /// refused when its simulator is made, in release builds too, before any
    /// table is indexed with the page.
    @Test func aDeviceWhoseWidgetIsOnAMissingPageIsRefusedBeforeItRuns() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var widget = WidgetSetup.configured("lost", policy: .atEnd, latency: 1)
            widget.page = 1
            let setup = SimulationSetup(
                name: "lost", seed: 1, days: 1, utcOffsetSeconds: 0, scheduler: SchedulerParameters(),
                devices: [DeviceSetup(
                    id: "phone", pages: [PageSetup(name: "home", viewsPerDay: 40)], apps: [AppSetup(id: "app")], widgets: [widget])])
            _ = DeviceSimulator(simulation: setup, deviceIndex: 0, observer: ReportCollector())
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("a widget of device phone is on a page or of an app the device does not have"), "\(message)")
    }

    /// The simulator's page view windows answer what a trailing window per
    /// page answers, for a clock that only moves forward, across their
    /// rings' growth: page 0 starts with room for 3 views (so 4), page 2
    /// with none, and bursts in one second fill any ring.
    @Test func pageViewWindowsCountWhatATrailingWindowPerPageCounts() {
        var random = RandomStream(seed: 21)
        var windows = PageViewWindows(capacities: [3, 64, 0])
        #expect((0..<3).map { windows.capacity(of: $0) } == [4, 64, 0])
        var reference = Array(repeating: TrailingWindow(), count: 3)
        var recorded: [[SimTime]] = [[], [], []]
        var now = 0
        for step in 0..<20_000 {
            // Bursts in the same second, busy hours and quiet stretches longer than a day.
            let gap = random.nextUnit()
            now += gap < 0.2 ? 0 : random.nextInt(below: gap < 0.97 ? 10 * Seconds.minute : 2 * Seconds.day)
            // A burst of 300 views on page 0, then page 1, then page 2.
            let burst = step % 5_000 == 0 && step / 5_000 < 3
            let page = burst ? step / 5_000 : random.nextInt(below: 3)
            let views = burst ? 300 : random.nextUnit() < 0.6 ? 1 : 0
            for _ in 0..<views {
                windows.record(page: page, at: now)
                reference[page].record(now)
                recorded[page].append(now)
            }
            let asked = random.nextInt(below: 3)
            let counted = windows.count(page: asked, at: now)
            #expect(counted == reference[asked].count(at: now), "page \(asked) at \(now)")
            // And what a plain list of the page's views says, unchanged by any fast path.
            if step % 50 == 0 {
                #expect(counted == recorded[asked].filter { $0 > now - Seconds.day && $0 <= now }.count, "page \(asked) at \(now), plainly")
            }
        }
        for page in 0..<3 {
            #expect(windows.count(page: page, at: now) == reference[page].count(at: now), "page \(page) at the end")
            #expect(windows.capacity(of: page) >= 512, "page \(page)'s ring never grew past \(windows.capacity(of: page))")
        }
    }

    /// The built-in provider writes its timeline over the older one left in
    /// the widget's buffer: the result is the timeline it would have written
    /// into an empty buffer, whether the new one is longer, shorter (a failed
    /// request's single entry) or the same length.
    @Test func aTimelineWrittenOverAnOlderOneIsTheOneAnEmptyBufferGets() {
        let calendar = CivilCalendar(startEpochSeconds: 1_772_409_600, utcOffsetSeconds: 3_600)
        var random = RandomStream(seed: 3)
        var settings = ConfiguredProvider.Settings()
        settings.network = NetworkModel(latency: .fixed(1), failureRate: 0.3)
        var reusing = ConfiguredProvider(settings: settings)
        var fresh = reusing
        var buffer: [ScheduledEntry] = []
        for call in 0..<400 {
            // Change the timeline's shape now and then, as another provider would.
            if call % 25 == 0 {
                var changed = settings
                changed.entryCount = [1, 3, 30, 6][call / 25 % 4]
                changed.alignEntries = call % 50 == 0
                changed.forecasts = call % 75 == 0
                changed.entryOffsets = call % 100 == 75 ? [0, 600, 4_000, 9_000] : nil
                reusing.settings = changed
                fresh.settings = changed
            }
            let now = call * 1_000 + random.nextInt(below: 1_000)
            func context() -> TimelineProviderContext {
                TimelineProviderContext(
                    family: .systemSmall, isPreview: false, configuration: nil, calendar: calendar, now: now,
                    network: settings.network, random: RandomStream(seed: UInt64(call)),
                    scheduleStorage: ContentTruth(periodic: nil, forecastSeed: StreamSeed(1), calendar: calendar).storage)
            }
            var reusedContext = context()
            var freshContext = context()
            var empty: [ScheduledEntry] = []
            let reusedPolicy = reusing.timeline(in: &reusedContext, into: &buffer)
            let freshPolicy = fresh.timeline(in: &freshContext, into: &empty)
            #expect(buffer == empty, "call \(call)")
            #expect(reusedPolicy == freshPolicy, "call \(call)")
        }
    }

    @Test func aTruthsScheduleIsCopiedBeforeAWriteWhileAContextReadsIt() {
        let calendar = CivilCalendar(startEpochSeconds: 0, utcOffsetSeconds: 0)
        var truth = ContentTruth(periodic: nil, forecastSeed: StreamSeed(1), calendar: calendar)
        truth.recordUnpredictableChange(at: 100)
        let copy = truth
        let context = TimelineProviderContext(
            family: .systemSmall, isPreview: false, configuration: nil, calendar: calendar, now: 500,
            network: NetworkModel(), random: RandomStream(seed: 1), scheduleStorage: truth.storage)
        truth.recordUnpredictableChange(at: 200)
        #expect(truth.unpredictableChanges == [100, 200])
        #expect(copy.unpredictableChanges == [100])
        #expect(context.lastEvent(atOrBefore: 500) == 100)
    }

    /// A provider context kept between calls lets go of the truth's schedule
    /// before the truth changes, so the truth writes in place; the next call
    /// lends it the schedule again, and it sees the change.
    @Test func aKeptContextLetsTheTruthWriteInPlaceAndSeesTheChangeNextCall() {
        let calendar = CivilCalendar(startEpochSeconds: 0, utcOffsetSeconds: 0)
        var truth = ContentTruth(periodic: nil, forecastSeed: StreamSeed(1), calendar: calendar)
        truth.recordUnpredictableChange(at: 100)
        var context = TimelineProviderContext(
            family: .systemSmall, isPreview: false, configuration: nil, calendar: calendar, now: 0,
            network: NetworkModel(), random: RandomStream(seed: 1), scheduleStorage: truth.storage)
        context.beginCall(at: 500, schedule: truth.storage)
        #expect(context.reloadStartedAt == 500 && context.now == 500 && context.backgroundSessionCompletesAt == nil)
        #expect(context.lastEvent(atOrBefore: 500) == 100)
        // An identifier, not a reference: holding the storage would share it.
        let storage = ObjectIdentifier(truth.storage)
        context.releaseSchedule()
        truth.recordUnpredictableChange(at: 600)
        #expect(ObjectIdentifier(truth.storage) == storage, "the truth copied a schedule no context held")
        context.beginCall(at: 700, schedule: truth.storage)
        #expect(context.lastEvent(atOrBefore: 700) == 600)
    }

    /// A page without widgets is never simulated (no view of it can change
    /// a widget), so pages without widgets, before or after the widgets'
    /// pages, change no report, and cost no work per view.
    @Test func pagesWithoutWidgetsChangeNothing() throws {
        let setup = try ScenarioLoader.load(path: Paths.scenario("weather"))
        var crowded = setup
        crowded.population = .devices([{
            var device = setup.devices[0]
            let empty = (0..<60).map { PageSetup(name: "empty\($0)", viewsPerDay: 5_000) }
            device.pages = Array(empty[..<30]) + device.pages + Array(empty[30...])
            for widget in device.widgets.indices { device.widgets[widget].page += 30 }
            return device
        }()])
        crowded.days = setup.days
        let plain = ReportWriter(setup: setup, collector: try Simulation.run(setup)).files()
        let withEmptyPages = ReportWriter(setup: crowded, collector: try Simulation.run(crowded)).files()
        #expect(plain == withEmptyPages)
    }

    /// `log` halves a mantissa above √2 by taking one off its exponent
    /// field, without a branch: the value a branch multiplying by 0.5 gave,
    /// bit for bit, on both sides of √2, at powers of two, for subnormals
    /// and at random.
    @Test func logsHalvingWithoutABranchIsTheBranchsHalving() {
        func branchingLog(_ x: Double) -> Double {
            let (binaryExponent, significandBits) = DeterministicMath.binaryExponentAndSignificand(x)
            var exponent = binaryExponent
            var mantissa = Double(bitPattern: significandBits)
            if mantissa > 1.414_213_562_373_095_048_8 {
                mantissa *= 0.5
                exponent += 1
            }
            return DeterministicMath.log(reduced: mantissa, exponent: exponent)
        }
        let root2 = 1.414_213_562_373_095_048_8
        var values: [Double] = [
            1, 2, 0.5, root2, root2.nextUp, root2.nextDown, 2 * root2, 2 * root2.nextUp, root2 / 4, 2.nextDown, 1.nextUp,
            .leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude, 1e-300, 1e300,
        ]
        var random = RandomStream(seed: 1_414)
        values += (0..<100_000).map { index in
            // Uniforms in (0, 1], as the draws take them, and values of every magnitude.
            index % 2 == 0 ? 1 - random.nextUnit() : Double(sign: .plus, exponent: random.nextInt(in: -1074...1023), significand: 1 + random.nextUnit())
        }
        for value in values where value > 0 && value.isFinite {
            #expect(DeterministicMath.log(value).bitPattern == branchingLog(value).bitPattern, "\(value)")
        }
    }

    /// `exp` reads 2^(j/64) from literals: they are the computed table, bit for bit.
    @Test func expsTableIsTheComputedOneBitForBit() {
        #expect(DeterministicMath.exp2Bits == DeterministicMath.exp2Table.map(\.bitPattern))
    }

    /// Rounding to nearest, ties to even, by adding and subtracting 1.5 · 2^52
    /// gives the library's value (a zero's sign aside, which `==` ignores and
    /// `exp` cannot see), on ties, near the bounds and at random.
    @Test func roundingToNearestEvenMatchesTheLibrary() {
        var values: [Double] = [0, -0.0, 0.4, -0.4, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                                0x1p51 - 0.5, -(0x1p51 - 0.5), 0x1p51, -0x1p51, 0x1p52, 1e300, -1e300, 45_000.5, -45_000.5]
        var random = RandomStream(seed: 51)
        for _ in 0..<100_000 {
            let x = (random.nextUnit() - 0.5) * 2 * 70_000
            values.append(x)
            values.append(x.rounded(.down) + 0.5)
        }
        for x in values {
            #expect(DeterministicMath.roundedToNearestEven(x) == x.rounded(.toNearestOrEven), "\(x)")
        }
    }

    /// Aligned entries on a grid that divides the day follow one another a
    /// spacing apart, exactly where rounding each one up would put it.
    @Test func alignedEntriesOnADailyGridAreWhereRoundingUpPutsThem() {
        var random = RandomStream(seed: 14)
        for spacing in [1, 60, 900, Seconds.hour, 5_400, 7 * Seconds.hour, Seconds.day, 2 * Seconds.day] {
            for offset in [0, 5 * Seconds.hour + 30 * Seconds.minute, -8 * Seconds.hour] {
                let calendar = CivilCalendar(startEpochSeconds: 1_772_409_600, utcOffsetSeconds: offset)
                var settings = ConfiguredProvider.Settings()
                settings.entryCount = 30
                settings.entrySpacing = spacing
                settings.alignEntries = true
                var provider = ConfiguredProvider(settings: settings)
                for _ in 0..<20 {
                    let now = random.nextInt(below: 3 * Seconds.day)
                    var context = TimelineProviderContext(
                        family: .systemSmall, isPreview: false, configuration: nil, calendar: calendar, now: now,
                        network: NetworkModel(latency: .fixed(0)), random: RandomStream(seed: 1),
                        scheduleStorage: ContentTruth(periodic: nil, forecastSeed: StreamSeed(1), calendar: calendar).storage)
                    var entries: [ScheduledEntry] = []
                    _ = provider.timeline(in: &context, into: &entries)
                    // Rounding up written out with `%`, as it was before `Divisor`.
                    func roundedUp(_ t: SimTime) -> SimTime {
                        let remainder = calendar.secondOfDay(t) % spacing
                        return remainder == 0 ? t : t + (spacing - remainder)
                    }
                    var expected = [now]
                    while expected.count < 30 { expected.append(roundedUp(expected.last! + 1)) }
                    #expect(entries.map(\.date) == expected, "spacing \(spacing), offset \(offset), now \(now)")
                }
            }
        }
    }

    /// A page viewed at least `frequentViewsPerDay` times counts as fully
    /// engaged without dividing: the quotient would have been 1 too.
    @Test func fullEngagementWithoutTheDivisionIsTheQuotientsMinimum() {
        var random = RandomStream(seed: 9)
        var divisors: [Double] = [1, 3, 12, 20, 20.000_000_000_000_004, 48, 1e-300, .leastNonzeroMagnitude, 1e300, .infinity, .nan]
        for _ in 0..<200 { divisors.append(random.nextUnit() * 200) }
        for y in divisors {
            for count in 0...400 {
                let x = Double(count)
                let plain = min(1, x / y)
                let fast = x >= y ? 1 : min(1, x / y)
                #expect(plain.bitPattern == fast.bitPattern || (plain.isNaN && fast.isNaN), "\(x) / \(y)")
            }
        }
    }

    /// A fully engaged page's limit is the base budget itself, without the
    /// product with an engagement of 1 and its rounding: the limit the
    /// plain formula gives, for every budget and any views.
    @Test func aFullyEngagedLimitIsTheLimitThePlainFormulaGives() {
        for frequent in [0, 5, 20, 20.5] {
            for learningDays in [0.0, 3] {
                var parameters = SchedulerParameters()
                parameters.frequentViewsPerDay = frequent
                parameters.learningDays = learningDays
                let scheduler = ReloadScheduler(parameters: parameters)
                for base in Array(1...200) + [997, 4_321, 10_000] {
                    for views in [0, 1, 4, 5, 19, 20, 21, 40, 1_000] {
                        for at in [0, 5 * Seconds.day] {
                            var engagement = 1.0
                            if frequent > 0 { engagement = min(1, Double(views) / frequent) }
                            var plain = max(parameters.minimumDailyBudget, DeterministicMath.roundedToInt(Double(base) * engagement))
                            if Double(at) < learningDays * Double(Seconds.day) {
                                plain = DeterministicMath.roundedToInt(Double(plain) * parameters.learningMultiplier)
                            }
                            let limit = scheduler.dailyLimit(baseDailyBudget: base, addedAt: 0, at: at, pageViewsInTrailingDay: views)
                            #expect(limit == plain, "base \(base), \(views) views, frequent \(frequent), at \(at)")
                        }
                    }
                }
            }
        }
    }

    /// The paced model's 24-hour cap adds the burst's whole tokens, kept
    /// as a whole number when the model is made: the same number the
    /// conversion on every decision gave.
    @Test func thePacedCapAddsTheBurstsWholeTokens() {
        for burst in [1, 1.5, 2, 2.999_999, 3.000_000_1, 17.25, 100] {
            var parameters = SchedulerParameters()
            parameters.pacingBurst = burst
            let model = PacedBudget(parameters: parameters)
            for limit in [1, 40, 70] {
                #expect(model.cap(at: 0, limit: limit, history: BudgetHistory()) == limit + Int(Double(Float(burst))), "burst \(burst)")
            }
        }
    }

    @Test func indexListsKeepEachListsMembersInOrder() {
        let lists = [[0, 2], [], [1, 3, 4], [5]]
        let flattened = IndexLists(listCount: 4, grouping: [0, 2, 0, 2, 2, 3])
        for (index, list) in lists.enumerated() {
            #expect(flattened.positions(of: index).map(flattened.member(at:)) == list)
            #expect(Array(flattened.list(index)) == list)
            #expect(flattened.isEmpty(index) == list.isEmpty)
        }
    }

    /// Grouping by key gives the lists that filtering the indices by each key
    /// gave (the form it replaced), keys outside the range in none.
    @Test func indexListsGroupedByKeyAreTheFilteredLists() {
        var random = RandomStream(seed: 17)
        for _ in 0..<300 {
            let listCount = random.nextInt(below: 6)
            let keys = (0..<random.nextInt(below: 12)).map { _ in random.nextInt(below: listCount + 3) - 1 }
            let grouped = IndexLists(listCount: listCount, grouping: keys)
            for list in 0..<listCount {
                let filtered = keys.indices.filter { keys[$0] == list }
                #expect(Array(grouped.list(list)) == filtered, "keys \(keys), list \(list)")
                #expect(grouped.positions(of: list).map(grouped.member(at:)) == filtered)
                #expect(grouped.isEmpty(list) == filtered.isEmpty)
            }
        }
    }

    /// A seed down two or three labels is the seed down each in turn, as the
    /// variadic path derives it (the overloads only skip its array).
    @Test func aSeedDownSeveralLabelsIsTheSeedDownEachInTurn() {
        var random = RandomStream(seed: 29)
        let labels = ["", "app", "weather", "widget-center", "é", "a much longer label than most"]
        for _ in 0..<200 {
            let master = StreamSeed(random.next())
            let a = labels[random.nextInt(below: labels.count)]
            let b = labels[random.nextInt(below: labels.count)]
            let c = labels[random.nextInt(below: labels.count)]
            #expect(master.derived(a, b) == master.derived(a).derived(b))
            #expect(master.derived(a, b, c) == master.derived(a).derived(b).derived(c))
            #expect(master.derived(a, b, c, a) == master.derived(a, b, c).derived(a))
        }
    }

    /// The WidgetCenter buffer the simulator lends to every app event starts
    /// each event empty, comes back with that event's calls, and never
    /// changes a copy of an earlier handle (value semantics hold).
    @Test func aLentRequestBufferStartsEmptyAndComesBackWithTheCalls() {
        var storage: [WidgetCenter.Request] = [.reloadAllTimelines]
        var center = WidgetCenter(configurations: [], requestStorage: &storage)
        #expect(center.requests.isEmpty)
        #expect(storage.isEmpty)
        center.reloadTimelines(ofKind: "k")
        let copy = center
        center.returnRequestStorage(to: &storage)
        #expect(storage == [.reloadTimelines(ofKind: "k")])
        #expect(center.requests.isEmpty)
        let next = WidgetCenter(configurations: [], requestStorage: &storage)
        #expect(next.requests.isEmpty)
        #expect(copy.requests == [.reloadTimelines(ofKind: "k")])
    }

    /// A state table's elements are written in place, and copies of the
    /// table share them (it is not a value; README, "Speed").
    @Test func aStateTableIsWrittenInPlaceAndSharedByItsCopies() {
        let table = StateTable(repeating: 0, count: 4)
        let copy = table
        table[2] = 30
        #expect(Array(copy) == [0, 0, 30, 0])
        // A mutating call on an element changes the element in the table.
        let streams = StateTable(repeating: RandomStream(seed: 1), count: 2)
        _ = streams[1].next()
        var fresh = RandomStream(seed: 1)
        let first = fresh.next()
        let second = fresh.next()
        #expect(streams[1].next() == second)
        #expect(streams[0].next() == first)
    }

    /// A state table's elements live in the block of the object that owns
    /// them: freeing the table frees every element with it.
    @Test func aStateTableFreesItsElementsWithIt() {
        let counter = DeinitCounter()
        do {
            let table = StateTable(count: 5) { Tracked(value: $0, counter: counter) }
            #expect(table.map(\.value) == [0, 1, 2, 3, 4])
            #expect(counter.count == 0)
        }
        #expect(counter.count == 5)
    }

    /// A table whose element builder throws part way frees the elements
    /// already built, and only those.
    @Test func aStateTableBuiltPartWayFreesWhatItBuilt() {
        struct Stop: Error {}
        let counter = DeinitCounter()
        #expect(throws: Stop.self) {
            _ = try StateTable(count: 6) { index -> Tracked in
                if index == 4 { throw Stop() }
                return Tracked(value: index, counter: counter)
            }
        }
        #expect(counter.count == 4)
    }

    /// The held events' search: the first smallest key in the range, or none
    /// when every slot in it is empty (`.max`).
    @Test func theEarliestHeldKeyIsTheFirstSmallestInItsRange() {
        var random = RandomStream(seed: 23)
        for _ in 0..<500 {
            let keys = (0..<random.nextInt(below: 12)).map { _ in random.nextUnit() < 0.4 ? UInt64.max : UInt64(random.nextInt(below: 6)) }
            let table = StateTable(count: keys.count) { keys[$0] }
            let lower = random.nextInt(below: keys.count + 1)
            let upper = lower + random.nextInt(below: keys.count - lower + 1)
            let found = table.indexOfMinimum(in: lower..<upper)
            let smallest = keys[lower..<upper].min() ?? .max
            if smallest == .max {
                #expect(found.index == -1 && found.value == .max, "keys \(keys), range \(lower)..<\(upper)")
            } else {
                #expect(found.index == keys[lower..<upper].firstIndex(of: smallest) && found.value == smallest,
                        "keys \(keys), range \(lower)..<\(upper)")
            }
        }
    }
}

/// Counts the `Tracked` values freed.
private final class DeinitCounter: @unchecked Sendable {
    var count = 0
}

private final class Tracked {
    var value: Int
    let counter: DeinitCounter

    init(value: Int, counter: DeinitCounter) {
        self.value = value
        self.counter = counter
    }

    deinit { counter.count += 1 }
}
