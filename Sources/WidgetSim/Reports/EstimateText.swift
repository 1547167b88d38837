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
        if estimate.mean - half < 0 || estimate.mean + half > upper {
            let low = FixedDecimal.format(max(0, estimate.mean - half), decimals: decimals)
            return mean + " (" + low + "–" + FixedDecimal.format(min(upper, estimate.mean + half), decimals: decimals) + suffix + ")"
        }
        return mean + " ± " + FixedDecimal.format(half, decimals: decimals)
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
        if estimate.mean - half < 0 || estimate.mean + half > upper {
            let low = DurationText.format(max(0, estimate.mean - half).rounded())
            return mean + " (" + low + "–" + DurationText.format(min(upper, estimate.mean + half).rounded()) + ")"
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
