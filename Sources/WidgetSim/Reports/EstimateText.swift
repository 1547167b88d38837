/// Estimates and durations as reports print them.
enum EstimateText {
    /// "8.1 ± 0.6" or "8.1" with one replication.
    static func show(_ estimate: Estimate, decimals: Int, suffix: String = "") -> String {
        let mean = FixedDecimal.format(estimate.mean, decimals: decimals) + suffix
        guard let half = estimate.halfWidth else { return mean }
        return mean + " ± " + FixedDecimal.format(half, decimals: decimals)
    }

    /// A duration estimate: "16m ± 2m".
    static func showDuration(_ estimate: Estimate) -> String {
        let mean = DurationText.format(estimate.mean.rounded())
        guard let half = estimate.halfWidth else { return mean }
        return mean + " ± " + DurationText.format(half.rounded())
    }

    /// A duration that may be negative: "-1m30s".
    static func signedDuration(_ seconds: Double) -> String {
        (seconds < 0 ? "-" : "") + DurationText.format(abs(seconds).rounded())
    }

    /// A duration in seconds, rounded: "4m47s".
    static func duration(_ seconds: Double) -> String {
        DurationText.format(max(0, seconds).rounded())
    }
}
