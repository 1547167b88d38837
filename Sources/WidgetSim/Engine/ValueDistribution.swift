/// A distribution of non-negative numbers (rates, scale factors) for
/// describing a population.
public enum ValueDistribution: Equatable, Sendable {
    case fixed(Double)
    /// Uniform over `min...max`.
    case uniform(min: Double, max: Double)
    /// Log-normal given by its median and 95th percentile.
    case logNormal(median: Double, p95: Double)

    /// Draws one value. A fixed value draws nothing, so it never shifts a stream.
    public func draw(using random: inout RandomStream) -> Double {
        switch self {
        case .fixed(let value):
            return value
        case .uniform(let low, let high):
            return low + (high - low) * random.nextUnit()
        case .logNormal(let median, let p95):
            guard median > 0 else { return 0 }
            let sigma = DurationDistribution.logNormalSigma(median: median, p95: p95)
            let exponent = min(30, DeterministicMath.log(median) + sigma * random.nextStandardNormal())
            return DeterministicMath.exp(exponent)
        }
    }

    /// The mean of a draw; for a log-normal, whose draws stop at e^30, the
    /// mean without that cap, itself capped at e^30: an upper bound, close
    /// when e^(μ+σ²) is far below e^30 (for every shipped scale it is within
    /// a part in a million), and too high only for scales whose estimate is
    /// absurd anyway.
    public var mean: Double {
        switch self {
        case .fixed(let value):
            return value
        case .uniform(let low, let high):
            return low + (high - low) / 2
        case .logNormal(let median, let p95):
            guard median > 0 else { return 0 }
            let sigma = DurationDistribution.logNormalSigma(median: median, p95: p95)
            return DeterministicMath.exp(min(30, DeterministicMath.log(median) + sigma * sigma / 2))
        }
    }

    /// A short description for reports.
    public var summary: String {
        switch self {
        case .fixed(let value): return FixedDecimal.format(value, decimals: 2)
        case .uniform(let low, let high): return "uniform \(FixedDecimal.format(low, decimals: 2))–\(FixedDecimal.format(high, decimals: 2))"
        case .logNormal(let median, let p95):
            return "log-normal, median \(FixedDecimal.format(median, decimals: 2)), p95 \(FixedDecimal.format(p95, decimals: 2))"
        }
    }
}
