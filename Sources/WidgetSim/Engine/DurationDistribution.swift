/// A distribution of non-negative durations in whole seconds.
///
/// Used for provider latency, session lengths and scheduling delays. Draws are
/// rounded to the nearest second and clamped to `0...maximumSeconds`, so a
/// heavy tail can never push an event past the end of time.
public enum DurationDistribution: Equatable, Sendable {
    /// Always the same duration.
    case fixed(Int)
    /// Uniform over whole seconds in `min...max`.
    case uniform(min: Int, max: Int)
    /// Exponential with this mean (memoryless waits).
    case exponential(mean: Double)
    /// Log-normal given by its median and 95th percentile, the two numbers
    /// people actually know about a network request.
    case logNormal(median: Double, p95: Double)

    /// The longest duration a draw may return: 30 days.
    public static let maximumSeconds = 30 * Seconds.day

    /// The z-score of the 95th percentile of a standard normal.
    static let z95 = 1.644_853_626_951_472_2

    /// Draws one duration.
    public func draw(using random: inout RandomStream) -> Int {
        let seconds: Double
        switch self {
        case .fixed(let value):
            return value
        case .uniform(let low, let high):
            return random.nextInt(in: low...high)
        case .exponential(let mean):
            seconds = random.nextExponential(mean: mean)
        case .logNormal(let median, let p95):
            guard median > 0 else { return 0 }
            let sigma = p95 > median ? DeterministicMath.log(p95 / median) / DurationDistribution.z95 : 0
            let exponent = DeterministicMath.log(median) + sigma * random.nextStandardNormal()
            seconds = exponent > 30 ? Double(DurationDistribution.maximumSeconds) : DeterministicMath.exp(exponent)
        }
        return Int(min(seconds, Double(DurationDistribution.maximumSeconds)).rounded())
    }

    /// The distribution's mean in seconds, for reports.
    public var mean: Double {
        switch self {
        case .fixed(let value): return Double(value)
        case .uniform(let low, let high): return Double(low + high) / 2
        case .exponential(let mean): return mean
        case .logNormal(let median, let p95):
            guard median > 0, p95 > median else { return median }
            let sigma = DeterministicMath.log(p95 / median) / DurationDistribution.z95
            return median * DeterministicMath.exp(sigma * sigma / 2)
        }
    }
}
