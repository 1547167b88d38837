/// Quantiles of Student's t distribution.
public enum StudentT {
    /// t(0.975, ν) for ν = 1...30, from standard tables.
    static let table: [Double] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ]

    /// The 97.5th percentile, for a two-sided 95 % interval.
    public static func quantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1, "t needs at least one degree of freedom")
        if df <= table.count { return table[df - 1] }
        // Cornish–Fisher expansion around the normal quantile; within 1e-4 for ν > 30.
        let z = 1.959_963_984_540_054
        let v = Double(df)
        return z + (z * z * z + z) / (4 * v) + (5 * pow5(z) + 16 * z * z * z + 3 * z) / (96 * v * v)
    }

    private static func pow5(_ x: Double) -> Double { x * x * x * x * x }
}
