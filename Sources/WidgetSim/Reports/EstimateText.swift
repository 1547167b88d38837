/// Estimates and durations as reports print them.
enum EstimateText {
    /// "8.1 ± 0.6", or "8.1" with one replication. The quantities reports
    /// show this way (reloads, withheld requests, shares, staleness) cannot
    /// be negative, and some cannot pass a bound (a share 100 %, a staleness
    /// the run's length), so an interval that would cross zero or `upper` is
    /// cut there and written as a range: "0.3 (0–0.9)". Cutting at a bound
    /// the true value cannot cross keeps the interval's 95 % coverage.
    static func show(_ estimate: Estimate, decimals: Int, suffix: String = "", atMost upper: Double = .infinity) -> String {
        let mean = FixedDecimal.format(estimate.mean, decimals: decimals) + suffix
        guard let half = estimate.halfWidth else { return mean }
        if let (low, high) = cut(estimate.mean, half, atMost: upper) {
            return mean + " (" + FixedDecimal.format(low, decimals: decimals) + "–" + FixedDecimal.format(high, decimals: decimals) + suffix + ")"
        }
        return mean + " ± " + FixedDecimal.format(half, decimals: decimals)
    }

    /// The interval `mean` ± `half` cut at zero and at `upper`, when it
    /// crosses either; nil when it crosses neither (it is written "± half").
    private static func cut(_ mean: Double, _ half: Double, atMost upper: Double) -> (low: Double, high: Double)? {
        guard mean - half < 0 || mean + half > upper else { return nil }
        return (max(0, mean - half), min(upper, mean + half))
    }

    /// A share in percent, whose interval stays within 0–100 %: "6.6% ± 0.9".
    static func showPercent(_ estimate: Estimate) -> String {
        show(estimate, decimals: 1, suffix: "%", atMost: 100)
    }

    /// A duration estimate: "16m ± 2m", or "2s (0s–6s)" when cut at zero or
    /// at `upper` seconds.
    static func showDuration(_ estimate: Estimate, atMost upper: Double = .infinity) -> String {
        let mean = DurationText.format(estimate.mean.rounded())
        guard let half = estimate.halfWidth else { return mean }
        if let (low, high) = cut(estimate.mean, half, atMost: upper) {
            return mean + " (" + DurationText.format(low.rounded()) + "–" + DurationText.format(high.rounded()) + ")"
        }
        return mean + " ± " + DurationText.format(half.rounded())
    }

    /// A duration that may be negative: "-1m30s".
    static func signedDuration(_ seconds: Double) -> String {
        // A difference that rounds to nothing has no sign: "-0s" read as a loss.
        let magnitude = abs(seconds).rounded()
        return (seconds < 0 && magnitude > 0 ? "-" : "") + DurationText.format(magnitude)
    }

    /// A duration in seconds, rounded: "4m47s".
    static func duration(_ seconds: Double) -> String {
        DurationText.format(max(0, seconds).rounded())
    }
}
