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

    /// The σ of a log-normal given by its median and 95th percentile: 0
    /// (every draw the median) when the percentile is not above the median.
    static func logNormalSigma(median: Double, p95: Double) -> Double {
        p95 > median ? DeterministicMath.log(p95 / median) / z95 : 0
    }

    /// Draws one duration.
    public func draw(using random: inout RandomStream) -> Int {
        DurationSampler(self).draw(using: &random)
    }

    /// The distribution's mean in seconds, for reports.
    public var mean: Double {
        switch self {
        case .fixed(let value): return Double(value)
        case .uniform(let low, let high): return Double(low + high) / 2
        case .exponential(let mean): return mean
        case .logNormal(let median, let p95):
            guard median > 0, p95 > median else { return median }
            let sigma = DurationDistribution.logNormalSigma(median: median, p95: p95)
            return median * DeterministicMath.exp(sigma * sigma / 2)
        }
    }
}

/// A `DurationDistribution` with its parameters worked out once (a log-normal's
/// log-median and sigma), for distributions drawn on every event.
///
/// Promised: draws exactly what `DurationDistribution.draw` draws from the same stream.
public struct DurationSampler: Sendable {
    enum Kind: Sendable {
        case fixed(Int)
        case uniform(ClosedRange<Int>)
        case exponential(mean: Double)
        case logNormal(mu: Double, sigma: Double)
        case zero
    }

    let kind: Kind

    public init(_ distribution: DurationDistribution) {
        switch distribution {
        case .fixed(let value): kind = .fixed(value)
        case .uniform(let low, let high): kind = .uniform(low...high)
        case .exponential(let mean): kind = .exponential(mean: mean)
        case .logNormal(let median, let p95):
            guard median > 0 else {
                kind = .zero
                return
            }
            let sigma = DurationDistribution.logNormalSigma(median: median, p95: p95)
            kind = .logNormal(mu: DeterministicMath.log(median), sigma: sigma)
        }
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Draws one duration in whole seconds, clamped to `0...DurationDistribution.maximumSeconds`.
    @inline(__always)
    public func draw(using random: inout RandomStream) -> Int {
        let seconds: Double
        switch kind {
        case .zero: return 0
        case .fixed(let value): return value
        case .uniform(let range): return random.nextInt(in: range)
        case .exponential(let mean):
            seconds = random.nextExponential(mean: mean)
        case .logNormal(let mu, let sigma):
            return DurationSampler.logNormalSeconds(mu: mu, sigma: sigma, normal: random.nextStandardNormal())
        }
        return DeterministicMath.roundedToInt(min(seconds, Double(DurationDistribution.maximumSeconds)))
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// A log-normal draw in whole seconds, from its standard normal draw,
    /// clamped as `draw` clamps every duration.
    @inline(__always)
    static func logNormalSeconds(mu: Double, sigma: Double, normal: Double) -> Int {
        let exponent = mu + sigma * normal
        let seconds = exponent > 30 ? Double(DurationDistribution.maximumSeconds) : DeterministicMath.exp(exponent)
        return DeterministicMath.roundedToInt(min(seconds, Double(DurationDistribution.maximumSeconds)))
    }
}

extension DurationDistribution {
    /// A short human description: "uniform 2s–27s", "log-normal median 2m, p95 30m".
    public var summary: String {
        switch self {
        case .fixed(let value): return DurationText.format(Double(value))
        case .uniform(let low, let high): return "uniform \(DurationText.format(Double(low)))–\(DurationText.format(Double(high)))"
        case .exponential(let mean): return "exponential, mean \(DurationText.format(mean.rounded()))"
        case .logNormal(let median, let p95):
            return "log-normal, median \(DurationText.format(median.rounded())), p95 \(DurationText.format(p95.rounded()))"
        }
    }
}
