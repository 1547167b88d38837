extension RandomStream {
    /// An exponential draw with the given mean, by inversion.
    public mutating func nextExponential(mean: Double) -> Double {
        // 1 - u lies in (0, 1], so the logarithm is finite.
        -mean * DeterministicMath.log(1 - nextUnit())
    }

    /// A standard normal draw by Marsaglia's polar method (only log and sqrt,
    /// both exact or deterministic here).
    public mutating func nextStandardNormal() -> Double {
        while true {
            let u = 2 * nextUnit() - 1
            let v = 2 * nextUnit() - 1
            let s = u * u + v * v
            if s > 0 && s < 1 {
                return u * (-2 * DeterministicMath.log(s) / s).squareRoot()
            }
        }
    }
}
