import Foundation
import Testing
@testable import WidgetSim

/// `check` reads any log without trapping and in linear time: numbers are
/// range-checked where they are read, and each rule is audited with
/// constant (or logarithmic) work per row.
@Suite("Check limits")
struct CheckLimitTests {
    static func row(_ seconds: String, budgeted: Bool = true, limit: String = "40", waited: String = "0", used: String = "1") -> String {
        "\(seconds),2026-03-02T00:00:00+01:00,phone,w,w,\(budgeted ? "policy" : "initial"),\(budgeted ? 1 : 0),\(used),\(limit),\(waited),ok,1,atEnd,3600"
    }

    static func violation(_ rows: [String], rules: ReportRules = ReportRules()) -> CheckViolation? {
        let text = ([ReportWriter.reloadsHeader.joined(separator: ",")] + rows).joined(separator: "\n") + "\n"
        do {
            _ = try ReportChecker.checkReloadsLog(text, file: "log.csv", rules: rules)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("9223372036854775000", "seconds"), ("10000000001", "seconds"), ("-1", "seconds"), ("+5", "seconds"),
    ])
    func aTimeOutOfRangeIsBadData(seconds: String, column: String) {
        let found = Self.violation([Self.row(seconds)])
        #expect(found?.kind == .badData && found?.message.hasPrefix("\(column) '\(seconds)' is not a whole number") == true)
    }

    @Test func aLimitNearIntMaxIsBadDataUnderEveryModel() {
        for model in BudgetModel.allCases where model.imposesLimit {
            let found = Self.violation([Self.row("0", limit: "9223372036854775806")], rules: ReportRules(budgetModel: model))
            #expect(found?.kind == .badData, "\(model.rawValue)")
        }
    }

    @Test func aWaitOfIntMinIsBadData() {
        #expect(Self.violation([Self.row("0", waited: "-9223372036854775808")])?.kind == .badData)
    }

    /// The paced audit follows the bucket one reload at a time; it finds the
    /// same first violation as checking every stretch that ends at each reload.
    @Test func thePacedAuditAgreesWithCheckingEveryStretch() throws {
        let limit = 18
        let parameters = SchedulerParameters()
        let rate = Double(limit) / Double(parameters.pacingWindow)
        var random = StreamSeed(3).stream()
        for _ in 0..<300 {
            var times: [Int] = []
            var t = 0
            for _ in 0..<40 {
                t += parameters.minimumSpacing + random.nextInt(below: 4 * 3_600)
                times.append(t)
            }
            // The first reload at which the 24 hours up to it hold more than the
            // cap (F8, F10), or some stretch ending at it outruns the bucket (F8).
            var expected: Int?
            for n in times.indices where expected == nil {
                let inDay = times[...n].filter { $0 > times[n] - Seconds.day }.count
                let outruns = (0...n).contains { i in
                    Double(n - i + 1) > parameters.pacingBurst + Double(times[n] - times[i]) * rate + 1e-6
                }
                if inDay > limit + Int(parameters.pacingBurst) || outruns { expected = n }
            }
            let log = CheckTests.budgetedLog(times, limit: limit)
            do {
                _ = try ReportChecker.checkReloadsLog(log, file: "log.csv", rules: ReportRules(budgetModel: .paced))
                #expect(expected == nil, "no violation found; expected one at reload \(expected ?? 0)")
            } catch {
                #expect(error.line == (expected ?? -10) + 2, "\(error)")
            }
        }
    }

    /// The busiest stretch ending at a reload counts the refill since the
    /// reload before it, even when a quiet day made the trail forget that
    /// one (it keeps only the trailing 24 hours): days of more than 64
    /// reloads, then days of none.
    @Test func aStretchCountsTheRefillAcrossADayTheTrailForgot() {
        var random = StreamSeed(8).stream()
        var trail = BudgetAuditTrail()
        var reference = BudgetAuditTrail.Stretch()
        let rate = 40.0 / Double(Seconds.day)
        var previous: Int?
        var t = 0
        for day in 0..<12 {
            t = day * Seconds.day
            // Busy days and quiet ones, so the trail's window empties and is compacted.
            guard day % 3 != 1 else { continue }
            for _ in 0..<(100 + random.nextInt(below: 60)) {
                t += 60 + random.nextInt(below: 400)
                trail.advance(to: t - 1, localSecondOfDay: 0)
                trail.append(t, limit: 40)
                trail.advance(to: t, localSecondOfDay: 0)
                trail.recordStretch(rate: rate)
                // The same recurrence, on every reload the log ever had.
                let carried = reference.count == 0 ? 0 : reference.excess - Double(t - (previous ?? t)) * rate
                reference = carried > 0
                    ? BudgetAuditTrail.Stretch(start: reference.start, count: reference.count + 1, excess: carried + 1)
                    : BudgetAuditTrail.Stretch(start: t, count: 1, excess: 1)
                previous = t
                #expect(trail.stretch == reference, "at \(t)")
                #expect(trail.lastTime == t)
            }
        }
    }

    /// The trail's queries, kept in amortised O(1), agree with recounting.
    @Test func theAuditTrailAgreesWithRecounting() {
        var random = StreamSeed(4).stream()
        var trail = BudgetAuditTrail()
        var times: [Int] = []
        var limits: [Int] = []
        var t = 0
        for _ in 0..<3_000 {
            t += random.nextInt(below: 7_200)
            let limit = 1 + random.nextInt(below: 70)
            trail.append(t, limit: limit)
            times.append(t)
            limits.append(limit)
            let local = random.nextInt(below: Seconds.day)
            trail.advance(to: t, localSecondOfDay: local)
            let inWindow = times.indices.filter { times[$0] > t - Seconds.day }
            #expect(trail.inWindow == inWindow.count)
            #expect(trail.largestLimitInWindow == inWindow.map { limits[$0] }.max())
            #expect(trail.countSince(t - local) == times.filter { $0 >= t - local }.count)
        }
    }
}
