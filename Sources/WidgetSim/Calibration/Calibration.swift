import Foundation

/// One unknown that a device log can pin down, and the statistic that shows it.
public struct CalibrationKnob: Sendable {
    /// The scenario's `scheduler` field it sets.
    public var field: String
    public var statistic: LogStatistic
    public var facts: String
    /// What the value means, for the report ("the base daily limit").
    public var meaning: String
    /// When the statistic cannot move with it, in words.
    public var needs: String
    public var low: Double
    public var high: Double
    public var geometric: Bool
    public let set: @Sendable (inout SchedulerParameters, Double) -> Void
    public let get: @Sendable (SchedulerParameters) -> Double
    public let format: @Sendable (Double) -> String
    /// Copies the fields it sets from other parameters, exactly (`set` from
    /// `get` would not give back a uniform delay that is not its own kind).
    public let restore: @Sendable (inout SchedulerParameters, SchedulerParameters) -> Void

    /// The knob with its range as `scheduler` allows it. A daily limit below
    /// the scenario's floor (`minimumDailyBudget`, F9) acts as the floor, so
    /// the log cannot tell such values apart, and a parameters file holding
    /// one is refused with the scenario: the range starts at the floor.
    func within(_ scheduler: SchedulerParameters) -> CalibrationKnob {
        guard field == "dailyBudget" else { return self }
        var knob = self
        knob.low = max(low, Double(scheduler.minimumDailyBudget))
        knob.high = max(high, knob.low)
        return knob
    }

    /// The grid of `count` values over the range.
    func grid(_ count: Int, from low: Double, to high: Double) -> [Double] {
        guard count > 1 else { return [low] }
        return (0..<count).map { index in
            let u = Double(index) / Double(count - 1)
            return geometric && low > 0 ? low * DeterministicMath.exp(DeterministicMath.log(high / low) * u) : low + (high - low) * u
        }
    }

    /// The knobs, in the order each pass fits them: the ones that other
    /// statistics depend on least come first, and the scheduling delay last,
    /// since lateness also holds the wait for the pace and the spacing.
    public static let all: [CalibrationKnob] = [
        CalibrationKnob(
            field: "foregroundReloadDelay", statistic: .appReloadDelay, facts: "F17, F18",
            meaning: "mean delay from the app's WidgetCenter call to the reload (uniform, 0.14× to 1.86× the mean)",
            needs: "an app that calls WidgetCenter while it is in the foreground",
            low: 1, high: 120, geometric: true,
            set: { parameters, mean in
                let low = Int((mean * 2 / 14.5).rounded())
                parameters.foregroundReloadDelay = .uniform(min: low, max: max(low, Int((mean * 27 / 14.5).rounded())))
            },
            get: { $0.foregroundReloadDelay.mean },
            format: { DurationText.format($0.rounded()) },
            restore: { $0.foregroundReloadDelay = $1.foregroundReloadDelay }),
        CalibrationKnob(
            field: "minimumSpacing", statistic: .lowGap, facts: "F13",
            meaning: "least time between budgeted reloads of a widget",
            needs: "a widget that asks for reloads closer than the spacing, with budget to spare: a short `after`, or reloads back to back after a quiet spell",
            low: 60, high: 30 * 60, geometric: true,
            set: { $0.minimumSpacing = Int($1.rounded()) },
            get: { Double($0.minimumSpacing) },
            format: { DurationText.format($0.rounded()) },
            restore: { $0.minimumSpacing = $1.minimumSpacing }),
        CalibrationKnob(
            field: "pacingWindow", statistic: .medianGap, facts: "F8, F10",
            meaning: "the span of the day the budget is paced over",
            needs: "a widget that asks for more reloads than the budget allows, under the `paced` model",
            low: 6 * 3_600, high: 24 * 3_600, geometric: false,
            set: { $0.pacingWindow = Int($1.rounded()) },
            get: { Double($0.pacingWindow) },
            format: { DurationText.format($0.rounded()) },
            restore: { $0.pacingWindow = $1.pacingWindow }),
        CalibrationKnob(
            field: "dailyBudget", statistic: .callsPerDay, facts: "F7, F8, F9",
            meaning: "this widget's base daily limit (before the engagement and learning factors)",
            needs: "a widget that asks for more reloads than the budget allows, for at least a day after the learning days",
            low: 10, high: 150, geometric: true,
            set: { parameters, value in
                let limit = Int(value.rounded())
                parameters.dailyBudgetMin = limit
                parameters.dailyBudgetMax = limit
            },
            get: { Double($0.dailyBudgetMin + $0.dailyBudgetMax) / 2 },
            format: { String(Int($0.rounded())) },
            restore: { ($0.dailyBudgetMin, $0.dailyBudgetMax) = ($1.dailyBudgetMin, $1.dailyBudgetMax) }),
        CalibrationKnob(
            field: "schedulingDelay", statistic: .medianLateness, facts: "F4, F14",
            meaning: "median delay from due to run (log-normal, the 95th percentile 15 times it)",
            needs: "reloads that come due while the budget and the spacing allow them",
            low: 10, high: 30 * 60, geometric: true,
            set: { $0.schedulingDelay = .logNormal(median: ($1 * 10).rounded() / 10, p95: 15 * ($1 * 10).rounded() / 10) },
            get: { parameters in
                if case .logNormal(let median, _) = parameters.schedulingDelay { return median }
                return parameters.schedulingDelay.mean
            },
            format: { DurationText.format($0.rounded()) },
            restore: { $0.schedulingDelay = $1.schedulingDelay }),
    ]
}

/// Estimates the unknowns a device log can identify, by simulation: the
/// scenario that describes the phone is run at many values of each unknown,
/// each run writes the device log the phone would have written, and the
/// same statistics are taken from the simulated logs as from the real one
/// (simulated method of moments).
///
/// For each unknown in turn (the others at their current estimates), a grid
/// over its plausible range is simulated `replications` times on common
/// random numbers. A value is **consistent** with the log when the log's
/// statistic lies within the central 95 % of the simulated ones there (a
/// test at 5 %, inverted): the interval is the consistent values, widened to
/// the nearest inconsistent grid values. The estimate is where the
/// simulated mean crosses the observed statistic. An unknown is **not
/// identifiable** from the log when every value in the range is consistent
/// (the statistic does not move with it: the budget never binds, say). A
/// second, finer grid within the interval sharpens it; the passes repeat so
/// unknowns that share a statistic settle together.
///
/// Promised: deterministic for a log, scenario, seed and options, whatever
/// the thread count.
public struct Calibration: Sendable {
    public struct Options: Sendable {
        public var replications = 16
        public var gridPoints = 9
        public var refinePoints = 5
        public var passes = 2
        public var seed: UInt64 = 1
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        public var analysis = DeviceLogAnalysis.Options()
        /// The unknowns to fit, by `CalibrationKnob.field` (default: all).
        /// A name no knob has stops the run: fitting fewer unknowns than
        /// asked without a word would read as "not fitted".
        public var knobs = CalibrationKnob.all.map(\.field)

        public init() {}
    }

    public struct Finding: Sendable {
        public var knob: CalibrationKnob
        public var observed: Double?
        public var value: Double
        public var interval: ClosedRange<Double>?
        public enum Status: Equatable, Sendable {
            case identified
            /// Every value in the range fits the log.
            case notIdentifiable
            /// The log has none of the statistic.
            case noData
            /// No value in the range fits: the statistic is outside what the model produces.
            case outsideRange
            /// The fitting values reach one end of the range, and the simulated
            /// statistic crosses the log's nowhere among them or moves no more
            /// than one log's noise across them: the log bounds the unknown
            /// from one side ("at most 8m23s") but cannot tell the values up
            /// to that end apart, so no estimate is better than another. The
            /// scenario's value stays when it lies within the bound; otherwise
            /// the fitting value nearest it, the least move, replaces it.
            case bounded
        }
        public var status: Status
        /// For a bounded unknown: true when the scenario's value lay outside
        /// the bound, so `value` replaced it in the fitted model.
        public var replacedScenarioValue = false
        /// For the pacing window or the daily limit: true when the value
        /// replaced the scenario's because, beside the other's, it did not
        /// fit the log (see `fitJointly`), though within its own bound.
        public var movedToFitThePair = false

        /// True when `value` is in the fitted model (and `parameters.json`)
        /// in place of the scenario's.
        public var isFitted: Bool { status == .identified || (status == .bounded && replacedScenarioValue) }

        /// True when a bounded unknown's interval reaches the range's lower
        /// end, so the bound is an upper one: "at most" the interval's upper end.
        public var boundIsUpper: Bool {
            guard let interval else { return false }
            return interval.lowerBound <= knob.low
        }
    }

    public struct FitRow: Sendable {
        public var label: String
        public var observed: Double?
        public var simulatedMean: Double?
        public var simulatedLow: Double?
        public var simulatedHigh: Double?
        public var isDuration: Bool

        /// True when the log's statistic lies in the simulated range; nil
        /// when either side has none of it.
        public var fits: Bool? {
            guard let observed, let low = simulatedLow, let high = simulatedHigh else { return nil }
            return low <= observed && observed <= high
        }
    }

    /// How the scenario's widget asks for reloads unlike the log's (F2).
    public enum PolicyMismatch: Equatable, Sendable {
        /// Most of the widget's calls return a policy the other side's rarely do.
        /// The shares are of the other side's calls that return each side's commonest policy.
        case policy(widget: String, observed: DeviceLog.TimelinePolicyName, simulatedShare: Double,
                    simulated: DeviceLog.TimelinePolicyName, observedShare: Double)
        /// The waits the widget asks for (`reload_after` − the call) differ:
        /// one side's median lies outside the other's central 80 %, by more than the slack.
        case wait(widget: String, observed: AskedWaits, simulated: AskedWaits)
    }

    /// The waits a widget's calls ask for (F2): their median and central 80 %, in seconds.
    public struct AskedWaits: Equatable, Sendable {
        public var median: Double
        public var low: Double
        public var high: Double

        /// Nil without any wait.
        init?(_ waits: [Int]) {
            let sorted = waits.sorted()
            guard let median = DeviceLogAnalysis.median(sorted), let low = Percentile.nearestRank(10, of: sorted),
                  let high = Percentile.nearestRank(90, of: sorted) else { return nil }
            self.median = median
            self.low = Double(low)
            self.high = Double(high)
        }

        /// True when `median` lies outside this central 80 % by more than a
        /// tenth of it (at least a minute: a real provider's dates are rarely
        /// to the second).
        func excludes(_ median: Double) -> Bool {
            let slack = max(60, 0.1 * abs(median))
            return median < low - slack || median > high + slack
        }
    }

    public var scenario: String
    public var logFile: String
    public var device: String
    public var days: Int
    public var analysis: DeviceLogAnalysis
    public var estimates: [Finding]
    public var fitted: SchedulerParameters
    public var fit: [FitRow]
    /// How each of the scenario's widgets that asks for reloads unlike the
    /// log's does so, in the log's widget order: then every estimate
    /// describes another widget's phone.
    public var policyMismatches: [PolicyMismatch]
    /// The first of `policyMismatches`, if any.
    public var policyMismatch: PolicyMismatch? { policyMismatches.first }
    public var options: Options

    /// The fields fitted (identified, or bounded with the scenario's value
    /// outside the bound), in the order of the knobs: those `parameters.json` sets.
    public var fittedFields: [String] { estimates.filter(\.isFitted).map(\.knob.field) }

    /// The days each calibration run simulates: the simulated phone runs as
    /// long as the log lasted, from when the widget was added (at most a
    /// year), silences included, and loses the lines it logged in the log's
    /// silences (`cutting`). A silence over `offGap` is read as the phone
    /// off, but it may be a widget with nothing to do: left out, the
    /// simulated days would end before the log's last day, and a widget
    /// whose policy follows the calendar (dragon's battle on a Tuesday)
    /// would be fitted on fewer of the scenario's days than the log spans.
    public static func simulatedDays(_ analysis: DeviceLogAnalysis) -> Int {
        let seconds = analysis.observedSeconds + analysis.silentSeconds
        return min(ScenarioLimits.maximumDays, max(1, (seconds + Seconds.day - 1) / Seconds.day))
    }

    /// How many longer spacings the scheduling delay is fitted again under
    /// when the log does not pin the spacing (see `run`).
    static let spacingsProfiled = 8

    /// The most runs a calibration with `options` simulates: each pass fits
    /// every knob on its grid and finer grid, and the pace and the limit on
    /// a grid of pairs and a profile, and the scheduling delay again under
    /// longer spacings when the spacing is fitted too, each value
    /// `replications` times; then the fitted values once more. An upper
    /// bound (a knob without data runs nothing).
    public static func maximumRuns(options: Options) -> Int {
        let fields = CalibrationKnob.all.map(\.field).filter { options.knobs.contains($0) }
        let joint = fields.contains("pacingWindow") && fields.contains("dailyBudget")
        let grid = options.gridPoints
        let alone = fields.count - (joint ? 2 : 0)
        // The joint fit's pairs, and the written pair when a knob is only bounded.
        // The delay again under longer spacings, when both are fitted.
        let profile = fields.contains("minimumSpacing") && fields.contains("schedulingDelay") ? spacingsProfiled * grid : 0
        let perPass = alone * (grid + options.refinePoints) + (joint ? grid * grid + 4 * grid + 1 : 0) + profile
        return (max(1, options.passes) * perPass + 1) * options.replications
    }

    /// Calibrates `setup` (device `device` is the phone) against `log`.
    public static func run(log: DeviceLog, setup: SimulationSetup, device: Int, options: Options = Options()) throws(RunLimitExceeded) -> Calibration {
        try run(analysis: DeviceLogAnalysis(log, options: options.analysis), of: log.file, setup: setup, device: device, options: options)
    }

    /// Calibrates `setup` against the log `logFile`, already analysed with
    /// `options.analysis` (a caller that judged the run's size from the
    /// analysis analyses the log once).
    public static func run(
        analysis: DeviceLogAnalysis, of logFile: String, setup base: SimulationSetup, device: Int, options: Options = Options(),
        progress: (@Sendable (Int) -> Void)? = nil
    ) throws(RunLimitExceeded) -> Calibration {
        let unknown = options.knobs.filter { name in !CalibrationKnob.all.contains { $0.field == name } }
        precondition(
            unknown.isEmpty,
            "Calibration.Options.knobs: no unknown named \(unknown.map { "'\($0)'" }.joined(separator: ", ")); allowed: \(CalibrationKnob.all.map(\.field).joined(separator: ", "))")
        var setup = base
        setup.days = simulatedDays(analysis)
        let learning = Int(setup.scheduler.learningDays * Double(Seconds.day))
        let knobs = CalibrationKnob.all.filter { options.knobs.contains($0.field) }.map { $0.within(setup.scheduler) }
        var parameters = setup.scheduler
        var estimates: [Finding] = []
        let seeds = (0..<options.replications).map { options.seed &+ UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        let observedGaps = analysis.sortedGaps

        // Runs finished so far, for `progress`: `maximumRuns` is the total it
        // counts towards (a knob without data runs fewer).
        var runsDone = 0
        func simulate(_ values: [SchedulerParameters]) throws(RunLimitExceeded) -> [[DeviceLogAnalysis]] {
            let jobs = values.count * seeds.count
            let before = runsDone
            runsDone += jobs
            var report: (@Sendable (Int) -> Void)?
            if let progress { report = { done in progress(before + done) } }
            let setupCopy = setup
            let analysisOptions = options.analysis
            // A log that records no App Intents counts their reloads as
            // WidgetKit's own; the simulated logs are read the same way, or
            // the two would count different calls.
            let readsIntents = analysis.intentLines > 0
            // The simulated phone runs through the log's silences (see
            // `simulatedDays`) but loses what it logged in them, as the real one did.
            let silences = analysis.silences
            let results: [Result<DeviceLogAnalysis, RunLimitExceeded>] = ParallelMap.map(count: jobs, threads: options.threads, progress: report) { job in
                var run = setupCopy
                run.scheduler = values[job / seeds.count]
                run.seed = seeds[job % seeds.count]
                do throws(RunLimitExceeded) {
                    var log = try Simulation.deviceLog(run, device: device)
                    if !readsIntents { log.lines.removeAll { $0.event == .intent } }
                    log.lines = Calibration.cutting(silences, from: log.lines)
                    return .success(DeviceLogAnalysis(log, options: analysisOptions))
                } catch {
                    return .failure(error)
                }
            }
            var grouped: [[DeviceLogAnalysis]] = []
            for (index, result) in results.enumerated() {
                if index % seeds.count == 0 { grouped.append([]) }
                switch result {
                case .success(let analysis): grouped[grouped.count - 1].append(analysis)
                case .failure(let error): throw error
                }
            }
            return grouped
        }

        /// A knob this pass does not identify goes back to the scenario's
        /// value, whatever an earlier pass found, and that value is the one
        /// reported: later fits, and the goodness of fit, then see the model
        /// `parameters.json` gives (the scenario with the identified values).
        func unfitted(_ knob: CalibrationKnob, in parameters: inout SchedulerParameters) -> Double {
            knob.restore(&parameters, setup.scheduler)
            return knob.get(setup.scheduler)
        }

        func summarize(_ runs: [DeviceLogAnalysis], _ statistic: LogStatistic) -> (mean: Double, low: Double, high: Double)? {
            Self.predictionRange(runs.compactMap { $0.value(of: statistic, learningSeconds: learning) })
        }

        /// True when simulated logs `runs` reproduce the log's gaps between
        /// own calls at every percentile the goodness of fit compares.
        func reproducesGaps(_ runs: [DeviceLogAnalysis]) -> Bool {
            Self.gapPercentiles.allSatisfy { p in
                guard let observedGap = Percentile.nearestRank(p, of: observedGaps).map(Double.init) else { return true }
                guard let range = Self.gapPercentileRange(p, of: runs) else { return false }
                return range.low <= observedGap && observedGap <= range.high
            }
        }

        /// When this pass has not pinned the spacing, `spacingsProfiled`
        /// spacings longer than the one in `parameters`, up to the longest
        /// the log allows; nil when the spacing is pinned or not fitted. On
        /// a grid of its own: the wait a spacing adds is its excess over the
        /// asked wait, so the knob's own grid (a step of half again) steps
        /// over it.
        func longerSpacings(than parameters: SchedulerParameters) -> (knob: CalibrationKnob, values: [Double])? {
            guard let knob = knobs.first(where: { $0.field == "minimumSpacing" }),
                  let spacing = estimates.first(where: { $0.knob.field == "minimumSpacing" }),
                  spacing.status == .bounded || spacing.status == .notIdentifiable, let allowed = spacing.interval else { return nil }
            let current = knob.get(parameters)
            guard current < allowed.upperBound else { return nil }
            let values = knob.grid(Self.spacingsProfiled + 1, from: max(current, allowed.lowerBound), to: allowed.upperBound).dropFirst().filter { $0 > current }
            return values.isEmpty ? nil : (knob, Array(values))
        }

        /// The pacing window and the daily limit, together. The candidates are
        /// a grid over both ranges, plus a profile along the ratio the log's
        /// median gap shows (when the pace sets the gap, gap = window / limit
        /// almost exactly, which a grid alone would miss). A pair is
        /// consistent when the median gap is within `gapTolerance` of the
        /// simulated one and the daily count within its central 95 %; each
        /// knob's interval is the range of its consistent values, widened to
        /// their neighbours on the profile or the grid.
        func fitJointly(_ first: CalibrationKnob, _ second: CalibrationKnob, parameters: inout SchedulerParameters) throws(RunLimitExceeded) -> [Finding] {
            let knobsPair = [first, second]
            let observed = knobsPair.map { analysis.value(of: $0.statistic, learningSeconds: learning) }
            let current = parameters
            guard let gap = observed[0], let count = observed[1] else {
                return knobsPair.indices.map { index in
                    Finding(knob: knobsPair[index], observed: observed[index], value: unfitted(knobsPair[index], in: &parameters), interval: nil, status: .noData)
                }
            }
            // Values as the model takes them (a whole-number limit), so the ratio holds exactly.
            func effective(_ knob: CalibrationKnob, _ value: Double) -> Double {
                var probe = current
                knob.set(&probe, value)
                return knob.get(probe)
            }
            var pairs: [(window: Double, limit: Double)] = []
            for window in first.grid(options.gridPoints, from: first.low, to: first.high) {
                for limit in second.grid(options.gridPoints, from: second.low, to: second.high) {
                    pairs.append((effective(first, window), effective(second, limit)))
                }
            }
            let profileStart = pairs.count
            for value in second.grid(4 * options.gridPoints, from: second.low, to: second.high) {
                let limit = effective(second, value)
                let window = limit * gap
                if first.low <= window, window <= first.high, pairs.last.map({ $0.limit != limit || profileStart == pairs.count }) ?? true {
                    pairs.append((effective(first, window), limit))
                }
            }
            let profileEnd = pairs.count
            let trials = pairs.map { pair in
                var trial = current
                first.set(&trial, pair.window)
                second.set(&trial, pair.limit)
                return trial
            }
            // Each pair's two statistics, summarized once for both passes below.
            let summaries = try simulate(trials).map { runs in (gap: summarize(runs, first.statistic), count: summarize(runs, second.statistic)) }
            var consistent: [(index: Int, distance: Double)] = []
            /// The pair whose simulated statistics came closest to the log's, consistent or not.
            var closest: (index: Int, distance: Double)?
            var countMeans: [Double] = [], gapMeans: [Double] = []
            var countNoise = 0.0, gapNoise = 0.0
            for (index, summary) in summaries.enumerated() {
                guard let g = summary.gap, let c = summary.count else { continue }
                let gapTolerance = Self.gapTolerance(g)
                gapMeans.append(g.mean)
                countMeans.append(c.mean)
                gapNoise = max(gapNoise, gapTolerance)
                countNoise = max(countNoise, (c.high - c.low) / 2)
                let dg = (g.mean - gap) / gapTolerance, dc = (c.mean - count) / max(1e-9, (c.high - c.low) / 2)
                if closest.map({ dg * dg + dc * dc < $0.distance }) ?? true { closest = (index, dg * dg + dc * dc) }
                if abs(g.mean - gap) <= gapTolerance, c.low <= count, count <= c.high {
                    consistent.append((index, dg * dg + dc * dc))
                }
            }
            // Along the profile at the ratio itself (ordered by limit), two neighbouring pairs whose
            // counts bracket the log's fit at the crossing even when neither
            // does: the grid of limits is coarser than the count's noise.
            if !consistent.contains(where: { (profileStart..<profileEnd).contains($0.index) }) {
                var previous: (index: Int, count: Double)?
                for index in profileStart..<profileEnd {
                    guard let g = summaries[index].gap, let c = summaries[index].count, abs(g.mean - gap) <= Self.gapTolerance(g) else {
                        previous = nil
                        continue
                    }
                    if let previous, (previous.count - count) * (c.mean - count) <= 0 {
                        consistent += [(previous.index, abs(previous.count - count)), (index, abs(c.mean - count))]
                        break
                    }
                    previous = (index, c.mean)
                }
            }
            let moves = (gapMeans.max() ?? 0) - (gapMeans.min() ?? 0) >= gapNoise || (countMeans.max() ?? 0) - (countMeans.min() ?? 0) >= countNoise
            guard let best = consistent.min(by: { $0.distance < $1.distance }), moves else {
                // No pair fits: the log is outside the ranges, whether or not the statistics move.
                let status: Finding.Status = consistent.isEmpty ? .outsideRange : .notIdentifiable
                return knobsPair.indices.map { index in
                    let knob = knobsPair[index]
                    // Outside the range, the closest pair tried; otherwise the scenario's value.
                    var value = unfitted(knob, in: &parameters)
                    if status == .outsideRange, let closest { value = index == 0 ? pairs[closest.index].window : pairs[closest.index].limit }
                    return Finding(knob: knob, observed: observed[index], value: value,
                                   interval: status == .notIdentifiable ? knob.low...knob.high : nil, status: status)
                }
            }
            // Each knob's interval: the consistent values, widened on the
            // profile to the neighbouring pairs along the ratio (the truth
            // lies on that line between two of them), and on the grid to the
            // neighbouring grid values.
            let gridCount = options.gridPoints
            var result: [Finding] = []
            for index in 0..<2 {
                let knob = knobsPair[index]
                let value = { (position: Int) -> Double in index == 0 ? pairs[position].window : pairs[position].limit }
                var reach: [Double] = []
                for fit in consistent {
                    reach.append(value(fit.index))
                    if fit.index >= profileStart {
                        if fit.index > profileStart { reach.append(value(fit.index - 1)) } else { reach.append(index == 0 ? first.low : max(second.low, first.low / gap)) }
                        if fit.index < profileEnd - 1 { reach.append(value(fit.index + 1)) } else { reach.append(index == 0 ? first.high : min(second.high, first.high / gap)) }
                    } else {
                        // Grid pairs are laid out window-major: neighbours differ by one step of this knob.
                        let step = index == 0 ? gridCount : 1
                        let position = index == 0 ? fit.index / gridCount : fit.index % gridCount
                        reach.append(position > 0 ? value(fit.index - step) : knob.low)
                        reach.append(position < gridCount - 1 ? value(fit.index + step) : knob.high)
                    }
                }
                let low = max(knob.low, reach.min()!), high = min(knob.high, reach.max()!)
                let estimate = value(best.index)
                let whole = low <= knob.low && high >= knob.high
                // A pair at an end of the knob's range that fits the log
                // means the log cannot rule that end out: the knob is bounded
                // from the other side only, as a single knob's fit says of
                // fitting values that run to an end (`invert`). A widget
                // that asks for fewer reloads than its budget allows fits
                // every limit from some value up, and its count and gap say
                // only "at least" (before, the pair closest to the log's
                // statistics was written as identified, and the scheduling
                // delay was then fitted under that limit's pace).
                let fitting = consistent.map { value($0.index) }
                let fitsAtLow = fitting.contains { $0 <= knob.low * (1 + 1e-9) }
                let fitsAtHigh = fitting.contains { $0 >= knob.high * (1 - 1e-9) }
                if whole || (fitsAtLow && fitsAtHigh) {
                    result.append(Finding(knob: knob, observed: observed[index], value: unfitted(knob, in: &parameters), interval: low...high, status: .notIdentifiable))
                } else if fitsAtLow || fitsAtHigh {
                    // The scenario's value stays when the bound allows it;
                    // otherwise the fitting value nearest it replaces it.
                    let scenarios = knob.get(setup.scheduler)
                    let replaced = fitsAtLow ? scenarios > high : scenarios < low
                    if replaced {
                        let nearest = fitsAtLow ? fitting.max()! : fitting.min()!
                        knob.set(&parameters, nearest)
                        result.append(Finding(
                            knob: knob, observed: observed[index], value: knob.get(parameters), interval: low...high, status: .bounded,
                            replacedScenarioValue: true))
                    } else {
                        result.append(Finding(knob: knob, observed: observed[index], value: unfitted(knob, in: &parameters), interval: low...high, status: .bounded))
                    }
                } else {
                    knob.set(&parameters, estimate)
                    result.append(Finding(knob: knob, observed: observed[index], value: estimate, interval: low...high, status: .identified))
                }
            }
            // Each knob was judged alone, but the two are written as a pair,
            // and a bound's kept or nearest value beside the other knob's
            // value may be a pair that no consistent one is near (a limit
            // bounded above at 14 with the scenario's 18-hour window, where
            // only a day-long window fits a limit of 14). That pair is run
            // once; if it does not fit the log, the bounded knobs take the
            // best pair's values instead, the pair that fits best.
            if result.contains(where: { $0.status == .bounded }) {
                let written = try simulate([parameters])[0]
                let fits = summarize(written, first.statistic).map { abs($0.mean - gap) <= Self.gapTolerance($0) } ?? false
                    && summarize(written, second.statistic).map { $0.low <= count && count <= $0.high } ?? false
                if !fits {
                    for index in result.indices where result[index].status == .bounded {
                        let bestValue = index == 0 ? pairs[best.index].window : pairs[best.index].limit
                        result[index].knob.set(&parameters, bestValue)
                        result[index].value = result[index].knob.get(parameters)
                        result[index].movedToFitThePair = !result[index].replacedScenarioValue
                        result[index].replacedScenarioValue = true
                    }
                }
            }
            return result
        }

        for _ in 0..<max(1, options.passes) {
            estimates = []
            for knob in knobs {
                // The pace and the limit trade off (the gap is about the window
                // over the limit), so when both are fitted they are fitted together.
                if knob.field == "pacingWindow", knobs.contains(where: { $0.field == "dailyBudget" }) { continue }
                if knob.field == "dailyBudget", let pace = knobs.first(where: { $0.field == "pacingWindow" }) {
                    estimates += try fitJointly(pace, knob, parameters: &parameters)
                    continue
                }
                let observed = analysis.value(of: knob.statistic, learningSeconds: learning)
                guard let observed else {
                    estimates.append(Finding(knob: knob, observed: nil, value: unfitted(knob, in: &parameters), interval: nil, status: .noData))
                    continue
                }
                /// The knob's value beside the range its statistic takes in
                /// simulated logs `runs`, for `invert`. A gap fits within the
                /// slack the goodness of fit allows it (3 % or a minute): the
                /// low gap of a phone whose widgets ask every 15 minutes is
                /// about 15 minutes for every spacing up to that, a few
                /// seconds apart from one spacing to the next, and a range of
                /// seconds let that noise pick out some of them (13m4s
                /// written for a true 5m on home-screen).
                func row(_ value: Double, _ runs: [DeviceLogAnalysis]) -> (value: Double, mean: Double, low: Double, high: Double)? {
                    summarize(runs, knob.statistic).map { Self.fitRange($0, isGap: knob.statistic.isGap) }.map { (value, $0.mean, $0.low, $0.high) }
                }
                func evaluate(_ values: [Double]) throws(RunLimitExceeded) -> [(value: Double, mean: Double, low: Double, high: Double)] {
                    let trials = values.map { value in
                        var trial = parameters
                        knob.set(&trial, value)
                        return trial
                    }
                    return try zip(values, simulate(trials)).compactMap { row($0, $1) }
                }
                var grid = try evaluate(knob.grid(options.gridPoints, from: knob.low, to: knob.high))
                var found = Self.invert(grid, observed: observed, range: knob.low...knob.high)
                if found.status == .identified || found.status == .bounded, let interval = found.interval, options.refinePoints > 0 {
                    let finer = try evaluate(knob.grid(options.refinePoints + 2, from: interval.lowerBound, to: interval.upperBound).dropFirst().dropLast().map { $0 })
                    grid = (grid + finer).sorted { $0.value < $1.value }
                    found = Self.invert(grid, observed: observed, range: knob.low...knob.high)
                }
                // The spacing's wait is lateness too (F13, F4). When the log
                // does not pin the spacing, a longer spacing it allows may
                // fit the log with a shorter delay than the current spacing
                // does: the delay fitted under the current one has taken up
                // that wait (9 to 19 minutes written for a true 2m, on
                // phones whose free reloads hid a 25-minute spacing). The
                // delay is then bounded above only, as the spacing is.
                if knob.field == "schedulingDelay", found.status == .identified, let interval = found.interval,
                   let longer = longerSpacings(than: parameters) {
                    let delays = knob.grid(options.gridPoints, from: knob.low, to: knob.high)
                    let trials = longer.values.flatMap { spacing in
                        delays.map { delay in
                            var trial = parameters
                            longer.knob.set(&trial, spacing)
                            knob.set(&trial, delay)
                            return trial
                        }
                    }
                    let runs = try simulate(trials)
                    for index in longer.values.indices {
                        let runsHere = runs[(index * delays.count)..<((index + 1) * delays.count)]
                        // The delay this spacing would give, by the same
                        // inversion: the lateness climbs steeply with a
                        // spacing past the asked wait, so a pair on the
                        // coarse grid rarely fits by itself.
                        let there = Self.invert(zip(delays, runsHere).compactMap { row($0, $1) }, observed: observed, range: knob.low...knob.high)
                        guard there.status == .identified, there.value < interval.lowerBound else { continue }
                        // It counts only if the pair also reproduces the
                        // spread of the gaps, at a delay of the grid beside
                        // the estimate: a widget asking every 15 minutes
                        // under a 16-minute spacing fits its lateness with a
                        // shorter delay too, but its short gaps then move by
                        // a minute or more.
                        let beside = zip(delays, runsHere).sorted { a, b in
                            max(a.0 / there.value, there.value / a.0) < max(b.0 / there.value, there.value / b.0)
                        }.prefix(2)
                        if beside.contains(where: { reproducesGaps($0.1) }) {
                            let fittingHere = grid.filter { $0.low <= observed && observed <= $0.high }.map(\.value)
                            found = (fittingHere.max() ?? found.value, knob.low...interval.upperBound, .bounded)
                            break
                        }
                    }
                }
                // Identified: fitted, and the estimate reported. Outside the
                // range: the value tried whose simulated statistic came closest
                // to the log's is reported, not fitted. Bounded: the scenario's
                // value stays if the bound allows it (a value past the range's
                // open end is within "at most" or "at least" too); else the
                // fitting value nearest it, the least move the log allows,
                // replaces it (see `invert`).
                var replaced = false
                if found.status == .bounded, let interval = found.interval {
                    let scenarios = knob.get(setup.scheduler)
                    replaced = interval.lowerBound <= knob.low ? scenarios > interval.upperBound : scenarios < interval.lowerBound
                }
                var reported = found.value
                if found.status == .identified || replaced { knob.set(&parameters, found.value) } else {
                    let kept = unfitted(knob, in: &parameters)
                    if found.status != .outsideRange { reported = kept }
                }
                estimates.append(Finding(
                    knob: knob, observed: observed, value: reported, interval: found.interval, status: found.status, replacedScenarioValue: replaced))
            }
        }
        // In the order of the knobs, whatever order they were fitted in.
        estimates.sort { a, b in
            knobs.firstIndex { $0.field == a.knob.field }! < knobs.firstIndex { $0.field == b.knob.field }!
        }

        // Every knob of the last pass was set (identified) or put back
        // (`unfitted`), so `parameters` is now the scenario's with that
        // pass's identified values: exactly what `parameters.json` gives.
        // Goodness of fit: the log beside the fitted model's simulated logs.
        let fittedRuns = try simulate([parameters])[0]
        var fit: [FitRow] = []
        for statistic in LogStatistic.allCases {
            let range = summarize(fittedRuns, statistic).map { Self.fitRange($0, isGap: statistic.isGap) }
            fit.append(FitRow(label: statistic.label, observed: analysis.value(of: statistic, learningSeconds: learning),
                              simulatedMean: range?.mean, simulatedLow: range.map { Self.shownLow($0.low, of: statistic) },
                              simulatedHigh: range?.high, isDuration: statistic.isDuration))
        }
        for p in Self.gapPercentiles {
            let range = Self.gapPercentileRange(p, of: fittedRuns)
            fit.append(FitRow(label: "gap between own calls, \(Int(p))th percentile",
                              observed: Percentile.nearestRank(p, of: observedGaps).map(Double.init), simulatedMean: range?.mean,
                              simulatedLow: range.map { max(0, $0.low) }, simulatedHigh: range?.high, isDuration: true))
        }
        return Calibration(scenario: setup.name, logFile: logFile, device: setup.devices[device].id, days: setup.days, analysis: analysis,
                           estimates: estimates, fitted: parameters, fit: fit,
                           policyMismatches: policyMismatches(analysis, simulated: fittedRuns), options: options)
    }

    /// The fewest calls of a widget, on the log's side, that the policy
    /// check judges: a day or two of a widget that rarely calls says little.
    static let minimumCallsToCheck = 20

    /// The first of the log's widgets (in key order) that asks for reloads
    /// unlike the same widget in the simulated logs (F2), or nil when each
    /// asks alike. A widget asks unlike its twin when the policy most of its
    /// calls return is one under a tenth of the other side's calls return
    /// (either way round), or when either side's median wait lies outside
    /// the other's central 80 %. A policy that changes with the hour, such as
    /// a commuter's after(10m) in the rush and after(1h) otherwise, has a
    /// median that flips between its modes from one week to the next, and a
    /// widget that returns `after` and `atEnd` about equally has no policy
    /// most of its calls return, so neither is compared alone. Widgets are
    /// compared one by one: a log of one app sees only its own widgets, and a
    /// pool of several would hide one widget's mismatch in the others' waits.
    /// The unknowns are fitted to the scenario's widgets, so a mismatch makes
    /// every estimate one for some other phone.
    static func policyMismatch(_ analysis: DeviceLogAnalysis, simulated runs: [DeviceLogAnalysis]) -> PolicyMismatch? {
        policyMismatches(analysis, simulated: runs).first
    }

    /// Every widget's mismatch, as `policyMismatch` judges each, in the log's widget order.
    static func policyMismatches(_ analysis: DeviceLogAnalysis, simulated runs: [DeviceLogAnalysis]) -> [PolicyMismatch] {
        analysis.widgets.compactMap { policyMismatch(of: $0, simulated: runs) }
    }

    private static func policyMismatch(of widget: DeviceLogAnalysis.Widget, simulated runs: [DeviceLogAnalysis]) -> PolicyMismatch? {
        let twins = runs.flatMap { $0.widgets.filter { $0.key == widget.key } }
        guard !twins.isEmpty else { return nil }
        var simulatedCalls = [Int](repeating: 0, count: widget.callsByPolicy.count)
        for twin in twins {
            for index in simulatedCalls.indices { simulatedCalls[index] += twin.callsByPolicy[index] }
        }
        if widget.callsByPolicy.reduce(0, +) >= minimumCallsToCheck, simulatedCalls.reduce(0, +) >= minimumCallsToCheck {
            let observed = commonest(widget.callsByPolicy), simulated = commonest(simulatedCalls)
            let simulatedShare = share(of: observed, in: simulatedCalls), observedShare = share(of: simulated, in: widget.callsByPolicy)
            if simulatedShare < 0.1 || observedShare < 0.1 {
                let names = DeviceLog.TimelinePolicyName.allCases
                return .policy(widget: widget.key, observed: names[observed], simulatedShare: simulatedShare,
                               simulated: names[simulated], observedShare: observedShare)
            }
        }
        if widget.askedWaits.count >= minimumCallsToCheck, let observed = AskedWaits(widget.askedWaits),
           let simulated = AskedWaits(twins.flatMap(\.askedWaits)),
           simulated.excludes(observed.median) || observed.excludes(simulated.median) {
            return .wait(widget: widget.key, observed: observed, simulated: simulated)
        }
        return nil
    }

    /// The index of the largest count (the first on a tie).
    private static func commonest(_ counts: [Int]) -> Int {
        counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }!
    }

    private static func share(of index: Int, in counts: [Int]) -> Double {
        Double(counts[index]) / Double(max(1, counts.reduce(0, +)))
    }

    /// `lines` (a simulated log, in time order) without those that fall
    /// inside `silences`, counted in seconds from the first line: the
    /// simulated phone is silent where the real one was, so both logs hold
    /// calls from the same stretches of their days and are compared on
    /// samples of the same size.
    static func cutting(_ silences: [Range<Int>], from lines: [DeviceLog.Line]) -> [DeviceLog.Line] {
        guard let first = lines.first?.time.epochSeconds, !silences.isEmpty else { return lines }
        var next = 0
        return lines.filter { line in
            let offset = line.time.epochSeconds - first
            while next < silences.count && silences[next].upperBound <= offset { next += 1 }
            // A silence's own ends are the calls around it: they stay.
            return next == silences.count || offset <= silences[next].lowerBound
        }
    }

    /// The weekday of the log's first line, in the offset it was written in,
    /// and the weekday device `device` of `setup` starts on. Calibrate replays
    /// the scenario's days from its start and reads no date from the log, so
    /// when the two differ, whatever follows the weekday (weekend habits, a
    /// script's days, scheduled changes) falls on other days than the phone's.
    public static func startWeekdays(of log: DeviceLog, setup: SimulationSetup, device: Int) -> (log: Weekday, scenario: Weekday)? {
        guard let first = log.lines.first, setup.devices.indices.contains(device) else { return nil }
        let logClock = CivilCalendar(startEpochSeconds: first.time.epochSeconds, utcOffsetSeconds: first.time.utcOffsetSeconds)
        return (logClock.weekday(0), setup.calendar(of: setup.devices[device]).weekday(0))
    }

    /// How far a log's median gap may be from the simulated mean and still
    /// fit: the prediction half-width, but at least 3 % or a minute, since a
    /// gap the pace sets barely varies between simulated logs while the
    /// scheduling delay and the day's first reloads shift a real one.
    static func gapTolerance(_ gap: (mean: Double, low: Double, high: Double)) -> Double {
        max((gap.high - gap.low) / 2, gapSlack(gap.mean))
    }

    /// The percentiles of the gaps between a widget's own calls that the
    /// goodness of fit compares, and that a pair of a longer spacing and a
    /// shorter delay must reproduce before it bounds the delay.
    static let gapPercentiles: [Double] = [10, 25, 50, 75, 90]

    /// The range the goodness of fit holds the log's `p`th percentile gap
    /// to, from simulated logs `runs`: a prediction range, as for the
    /// statistics (the extremes of a few simulated logs cover far less than
    /// 95 % of them), widened to a gap's slack.
    static func gapPercentileRange(_ p: Double, of runs: [DeviceLogAnalysis]) -> (mean: Double, low: Double, high: Double)? {
        let simulated = runs.compactMap { Percentile.nearestRank(p, of: $0.sortedGaps).map(Double.init) }
        return predictionRange(simulated).map { fitRange($0, isGap: true) }
    }

    /// The least a gap may differ from the simulated mean and still fit: 3 %
    /// or a minute (see `gapTolerance`).
    static func gapSlack(_ mean: Double) -> Double { max(0.03 * mean, 60) }

    /// The range the goodness of fit holds a log's statistic to: the
    /// prediction range, widened for a gap to the same slack the fitting
    /// allows. Without it, a gap the pace sets in every simulated log (a
    /// range of one second) called a log of the very scenario a misfit.
    static func fitRange(_ summary: (mean: Double, low: Double, high: Double), isGap: Bool)
        -> (mean: Double, low: Double, high: Double)
    {
        guard isGap else { return summary }
        let slack = gapSlack(summary.mean)
        return (summary.mean, min(summary.low, summary.mean - slack), max(summary.high, summary.mean + slack))
    }

    /// The mean of `values` and the range where one more draw falls with 95 %
    /// probability (a normal prediction interval: mean ± t · sd · √(1 + 1/n)),
    /// which, unlike the sample's own extremes, is honest for a few replications.
    static func predictionRange(_ values: [Double]) -> (mean: Double, low: Double, high: Double)? {
        guard !values.isEmpty else { return nil }
        let n = Double(values.count)
        let mean = values.reduce(0, +) / n
        guard values.count >= 2 else { return (mean, mean, mean) }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        let half = StudentT.quantile975(degreesOfFreedom: values.count - 1) * variance.squareRoot() * (1 + 1 / n).squareRoot()
        return (mean, mean - half, mean + half)
    }

    /// The lower end of a simulated range as the goodness of fit shows it.
    /// The prediction range is normal, so for a skewed statistic near zero
    /// (the low gap of a widget with a few calls a day) its lower end
    /// can fall below zero, which such a statistic never does: it is shown
    /// from zero. The fitting keeps the range as computed.
    static func shownLow(_ low: Double, of statistic: LogStatistic) -> Double {
        statistic.canBeNegative ? low : max(0, low)
    }

    /// Test inversion over a grid: which values fit `observed`, and where the
    /// simulated mean crosses it.
    static func invert(_ grid: [(value: Double, mean: Double, low: Double, high: Double)], observed: Double, range: ClosedRange<Double>)
        -> (value: Double, interval: ClosedRange<Double>?, status: Finding.Status)
    {
        guard !grid.isEmpty else { return (range.lowerBound, nil, .noData) }
        let consistent = grid.indices.filter { grid[$0].low <= observed && observed <= grid[$0].high }
        let nearest = grid.indices.min { abs(grid[$0].mean - observed) < abs(grid[$1].mean - observed) }!
        // A statistic that moves less across the whole range than the noise of
        // one log cannot tell the range's values apart.
        let means = grid.map(\.mean)
        let noise = grid.map { ($0.high - $0.low) / 2 }.max() ?? 0
        var fitting = consistent
        if fitting.isEmpty {
            // Between two neighbouring values whose means bracket the log's, the crossing fits.
            for index in 0..<(grid.count - 1) where (grid[index].mean - observed) * (grid[index + 1].mean - observed) <= 0 {
                fitting = [index, index + 1]
                break
            }
        }
        // No value fits, whether or not the statistic moves: "every value
        // fits" would be false (a range collapsed to one value by the
        // scenario's own floor, say), so the log is outside the range.
        guard let first = fitting.first, let last = fitting.last else {
            return (grid[nearest].value, nil, .outsideRange)
        }
        if consistent.count == grid.count || (means.max()! - means.min()!) < noise {
            return (grid[nearest].value, range, .notIdentifiable)
        }
        let lower = first > 0 ? grid[first - 1].value : range.lowerBound
        let upper = last < grid.count - 1 ? grid[last + 1].value : range.upperBound
        // Values that fit at both ends of the range, with or without the
        // middle, leave an interval of the whole range: the log cannot tell
        // its values apart, as when every value fits (the joint fit's rule too).
        if lower <= range.lowerBound && upper >= range.upperBound {
            return (grid[nearest].value, range, .notIdentifiable)
        }
        // Where the mean crosses the observation, between neighbouring grid values.
        var value = grid[nearest].value
        var crossing: Int?
        for index in max(0, first - 1)..<min(grid.count - 1, last + 1) {
            let a = grid[index], b = grid[index + 1]
            if (a.mean - observed) * (b.mean - observed) <= 0, a.mean != b.mean {
                value = a.value + (b.value - a.value) * (observed - a.mean) / (b.mean - a.mean)
                crossing = index
                break
            }
        }
        let crosses = crossing != nil
        // Fitting values that run to one end of the range bound the unknown
        // from that side only when the log cannot tell them apart: no
        // crossing among them, or means that differ by no more than the
        // noise of one log, where a crossing is the noise's (the low gap of a
        // widget asking every 5 minutes is 5 minutes for every spacing up to
        // 5 minutes). The estimate is then no better than any value there.
        let reachesEnd = lower <= range.lowerBound || upper >= range.upperBound
        let fittingRows = grid[first...last]
        let fittingMeans = fittingRows.map(\.mean)
        // At most, not below: statistics the policy sets exactly (a low
        // gap of 60 s for every spacing up to a minute) have no noise at all.
        let flat = fittingMeans.max()! - fittingMeans.min()! <= fittingRows.map { ($0.high - $0.low) / 2 }.max()!
        // Nor when the simulated statistic is the same, to the last digit,
        // from the range's end up to the crossing, and moves only past it:
        // on common random numbers, the unknown does not act at those values
        // (the low gap of a widget asking every 5 minutes is the same for
        // every spacing up to 5 minutes, and rises past it), so the crossing
        // marks only where it starts to, and the values from the end up to
        // it fit alike. Written as identified, the crossing's value is set
        // by noise (a spacing of 4m44s for a true 5m). The same, not within
        // the noise: a statistic that still moves there, as the foreground
        // delay's median does as it nears the 2 minutes past which a reload
        // is no longer the app's, gives a crossing that is an estimate.
        var standsStillToCrossing = false
        if let crossing {
            let endSide = lower <= range.lowerBound ? grid[first...max(first, crossing)] : grid[min(last, crossing + 1)...last]
            let means = endSide.map(\.mean)
            standsStillToCrossing = means.count >= 2 && means.max()! - means.min()! <= 1e-9 * max(1, abs(means.max()!))
        }
        if reachesEnd && (!crosses || flat || standsStillToCrossing) {
            // A bound's value is its fitting value farthest from the range's
            // end, the one nearest any value the bound rules out: what
            // replaces such a value with the least move. (The interval's own
            // end is one grid step further, where the log no longer fits.)
            return (lower <= range.lowerBound ? grid[last].value : grid[first].value, lower...upper, .bounded)
        }
        return (min(upper, max(lower, value)), lower...upper, .identified)
    }
}
