/// Estimates and durations as reports print them.
enum EstimateText {
    /// "8.1 ± 0.6", or "8.1" with one replication. The quantities reports
    /// show this way (reloads, withheld requests, shares, staleness) cannot
    /// be negative, so an interval that would dip below zero is cut at zero
    /// and written as a range: "0.3 (0–0.9)". Cutting at a bound the true
    /// value cannot cross keeps the interval's 95 % coverage.
    static func show(_ estimate: Estimate, decimals: Int, suffix: String = "") -> String {
        let mean = FixedDecimal.format(estimate.mean, decimals: decimals) + suffix
        guard let half = estimate.halfWidth else { return mean }
        if estimate.mean - half < 0 {
            return mean + " (" + FixedDecimal.format(0, decimals: decimals) + "–" + FixedDecimal.format(estimate.mean + half, decimals: decimals) + suffix + ")"
        }
        return mean + " ± " + FixedDecimal.format(half, decimals: decimals)
    }

    /// A duration estimate: "16m ± 2m", or "2s (0s–6s)" when cut at zero.
    static func showDuration(_ estimate: Estimate) -> String {
        let mean = DurationText.format(estimate.mean.rounded())
        guard let half = estimate.halfWidth else { return mean }
        if estimate.mean - half < 0 {
            return mean + " (0s–" + DurationText.format((estimate.mean + half).rounded()) + ")"
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
