/// What Apple leaves open, as ranges: every [gap] parameter of the
/// catalogue with a low and a high value a reader of the facts could defend,
/// and why. `widgetsim sensitivity` runs a scenario across these ranges;
/// `widgetsim help sensitivity` prints this table.
///
/// A range is walked by a position `u` from 0 (low) to 1 (high): numbers
/// linearly or, for durations that span orders of magnitude, geometrically;
/// a list of levels (a budget model, say) by equal slices of `u`.
public struct PlausibleRange: Sendable {
    /// The parameter's field name in a scenario's `scheduler`.
    public var name: String
    /// The facts the range rests on.
    public var facts: String
    /// Why these bounds, in one line.
    public var reason: String
    /// For a list of levels, their names (the catalogue's default first); empty for a number.
    public var levels: [String]
    /// The value at position `u`, as reports print it.
    public let describe: @Sendable (Double) -> String
    /// Sets the parameter to its value at position `u`.
    public let set: @Sendable (inout SchedulerParameters, Double) -> Void
    /// The parameter's value in a set of parameters, as `describe` prints it.
    public let current: @Sendable (SchedulerParameters) -> String

    /// True for a list of levels rather than a number.
    public var isCategorical: Bool { !levels.isEmpty }

    /// The positions one-at-a-time sweeps visit besides the scenario's own
    /// value: low and high, or every level.
    public var sweepPositions: [Double] {
        isCategorical ? levels.indices.map { Double($0) / Double(max(1, levels.count - 1)) } : [0, 1]
    }

    /// The level index at position `u`.
    static func level(_ u: Double, of count: Int) -> Int {
        min(count - 1, max(0, Int((u * Double(count - 1)).rounded())))
    }

    static func linear(_ low: Double, _ high: Double, _ u: Double) -> Double { low + (high - low) * min(1, max(0, u)) }

    static func geometric(_ low: Double, _ high: Double, _ u: Double) -> Double {
        low * DeterministicMath.exp(DeterministicMath.log(high / low) * min(1, max(0, u)))
    }
}

extension SchedulerParameters {
    /// The plausible range of every [gap] parameter, in catalogue order.
    public static let plausibleRanges: [PlausibleRange] = [
        levels("budgetModel", "F8, F10, F24", "Apple describes a daily budget, not how it is counted; `unlimited` is left out (F7: there is a budget)",
               [.paced, .rollingWindow, .tokenBucket, .midnightReset], \.budgetModel, name: \.rawValue),
        number("frequentViewsPerDay", "F8, F9", "how often a \"frequently viewed\" widget is seen is not given; from a glance an hour to three", 10, 40,
               get: { $0.frequentViewsPerDay }, set: { $0.frequentViewsPerDay = $1 }, format: { FixedDecimal.format($0, decimals: 1) }),
        number("minimumDailyBudget", "F9", "rarely seen widgets reload less; how little is not given", 2, 10, whole: true,
               get: { Double($0.minimumDailyBudget) }, set: { $0.minimumDailyBudget = Int($1.rounded()) }, format: { String(Int($0)) }),
        number("learningMultiplier", "F11", "\"more reloads than normal\" while learning: from none to twice as many", 1, 2,
               get: { $0.learningMultiplier }, set: { $0.learningMultiplier = $1 }, format: { FixedDecimal.format($0, decimals: 2) }),
        duration("pacingWindow", "F8, F10", "the budget spread over the waking day at least, the whole day at most (F8: every 15–60 minutes)",
                 12 * Seconds.hour, 24 * Seconds.hour, geometric: false, get: { $0.pacingWindow }, set: { $0.pacingWindow = $1 }),
        number("pacingBurst", "F8", "reloads back to back after a quiet spell: from none extra to a morning's catch-up", 1, 4,
               get: { $0.pacingBurst }, set: { $0.pacingBurst = $1 }, format: { FixedDecimal.format($0, decimals: 2) }),
        number("tokenBucketBurst", "F10", "a bucket from a tenth to half the daily limit", 0.1, 0.5,
               get: { $0.tokenBucketBurst }, set: { $0.tokenBucketBurst = $1 }, format: { FixedDecimal.format($0, decimals: 2) }),
        duration("coalescingWindow", "F14", "reloads across widgets may be coalesced; how far apart is not said: none to a quarter hour",
                 0, 15 * Seconds.minute, geometric: false, get: { $0.coalescingWindow }, set: { $0.coalescingWindow = $1 }),
        DistributionScale.logNormal.range(
            "schedulingDelay", "F4", "median delay from due to run, 30 s to 10 min, the 95th percentile 15 times it (F4: seen 1–2 h late)",
            low: 30, high: 600, get: { $0.schedulingDelay }, set: { $0.schedulingDelay = $1 }),
        duration("earlyReloadWindow", "F4, F14", "reloads were seen \"sometimes early\": not at all to 10 minutes",
                 0, 10 * Seconds.minute, geometric: false, get: { $0.earlyReloadWindow }, set: { $0.earlyReloadWindow = $1 }),
        duration("deferWhenUnseenFor", "F9", "an unseen widget stops reloading after an hour to six",
                 Seconds.hour, 6 * Seconds.hour, geometric: true, get: { $0.deferWhenUnseenFor }, set: { $0.deferWhenUnseenFor = $1 }),
        DistributionScale.uniformFourfold.range(
            "singleEntryAtEndDelay", "F3, F8", "the system picks the time of a one-entry atEnd reload: from 5–20 min to 30 min–2 h",
            low: 5 * 60, high: 30 * 60, get: { $0.singleEntryAtEndDelay }, set: { $0.singleEntryAtEndDelay = $1 }),
        levels("pushBudget", "F19", "push reloads have \"a budget\"; whose is not said", PushBudget.allCases, \.pushBudget, name: \.rawValue),
        number("pushDailyBudget", "F19", "a push budget of its own: from a few a day to more than the timeline's", 5, 50, whole: true,
               get: { Double($0.pushDailyBudget) }, set: { $0.pushDailyBudget = Int($1.rounded()) }, format: { String(Int($0)) }),
        DistributionScale.uniformFromZero.range(
            "pushDeliveryDelay", "F19", "notifications are delivered opportunistically: within 10 s to within 10 min",
            low: 10, high: 600, get: { $0.pushDeliveryDelay }, set: { $0.pushDeliveryDelay = $1 }),
        DistributionScale.uniformFromZero.range(
            "systemReloadDelay", "F17", "a reload after a locale or accessibility change: within a second to within a minute",
            low: 1, high: 60, get: { $0.systemReloadDelay }, set: { $0.systemReloadDelay = $1 }),
        number("extraTimelineCalls", "F18", "more getTimeline calls in one refresh: none to the 2–5 calls seen with 3 widgets on iOS 17", 0, 4, whole: true,
               get: { Double($0.extraTimelineCalls.upperBound) }, set: { $0.extraTimelineCalls = 0...Int($1.rounded()) },
               format: { $0 == 0 ? "0" : "0–\(Int($0))" }),
    ]

    static func number(
        _ name: String, _ facts: String, _ reason: String, _ low: Double, _ high: Double, whole: Bool = false,
        get: @escaping @Sendable (SchedulerParameters) -> Double, set: @escaping @Sendable (inout SchedulerParameters, Double) -> Void,
        format: @escaping @Sendable (Double) -> String
    ) -> PlausibleRange {
        let value: @Sendable (Double) -> Double = { u in
            let raw = PlausibleRange.linear(low, high, u)
            return whole ? raw.rounded() : raw
        }
        return PlausibleRange(
            name: name, facts: facts, reason: reason, levels: [], describe: { format(value($0)) },
            set: { parameters, u in set(&parameters, value(u)) }, current: { format(get($0)) })
    }

    static func duration(
        _ name: String, _ facts: String, _ reason: String, _ low: Int, _ high: Int, geometric: Bool,
        get: @escaping @Sendable (SchedulerParameters) -> Int, set: @escaping @Sendable (inout SchedulerParameters, Int) -> Void
    ) -> PlausibleRange {
        let value: @Sendable (Double) -> Int = { u in
            let raw = geometric ? PlausibleRange.geometric(Double(low), Double(high), u) : PlausibleRange.linear(Double(low), Double(high), u)
            return Int(raw.rounded())
        }
        let format: @Sendable (Int) -> String = { $0 == 0 ? "off" : DurationText.format(Double($0)) }
        return PlausibleRange(
            name: name, facts: facts, reason: reason, levels: [], describe: { format(value($0)) },
            set: { parameters, u in set(&parameters, value(u)) }, current: { format(get($0)) })
    }

    static func levels<Level: Equatable & Sendable>(
        _ name: String, _ facts: String, _ reason: String, _ all: [Level], _ field: WritableKeyPath<SchedulerParameters, Level> & Sendable,
        name levelName: @escaping @Sendable (Level) -> String
    ) -> PlausibleRange {
        PlausibleRange(
            name: name, facts: facts, reason: reason, levels: all.map(levelName),
            describe: { levelName(all[PlausibleRange.level($0, of: all.count)]) },
            set: { parameters, u in parameters[keyPath: field] = all[PlausibleRange.level(u, of: all.count)] },
            current: { levelName($0[keyPath: field]) })
    }
}

/// How a plausible range scales a distribution of delays by one number.
enum DistributionScale {
    /// Log-normal with the median given and the 95th percentile 15 times it.
    case logNormal
    /// Uniform from a to 4a.
    case uniformFourfold
    /// Uniform from 0 to a.
    case uniformFromZero

    func distribution(_ a: Double) -> DurationDistribution {
        switch self {
        case .logNormal: return .logNormal(median: a, p95: 15 * a)
        case .uniformFourfold: return .uniform(min: Int(a.rounded()), max: Int((4 * a).rounded()))
        case .uniformFromZero: return .uniform(min: 0, max: Int(a.rounded()))
        }
    }

    /// A range whose position sets `a` geometrically from `low` to `high`.
    func range(
        _ name: String, _ facts: String, _ reason: String, low: Double, high: Double,
        get: @escaping @Sendable (SchedulerParameters) -> DurationDistribution,
        set: @escaping @Sendable (inout SchedulerParameters, DurationDistribution) -> Void
    ) -> PlausibleRange {
        let scale = self
        let value: @Sendable (Double) -> DurationDistribution = { u in
            // Whole seconds for the uniform forms, so the values print as written.
            let a = PlausibleRange.geometric(low, high, u)
            return scale.distribution(scale == .logNormal ? (a * 10).rounded() / 10 : a.rounded())
        }
        return PlausibleRange(
            name: name, facts: facts, reason: reason, levels: [], describe: { value($0).summary },
            set: { parameters, u in set(&parameters, value(u)) }, current: { get($0).summary })
    }
}
