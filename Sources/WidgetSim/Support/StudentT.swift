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

    /// The value t with P(|T| ≤ t) = `coverage` for ν = `df`: the
    /// half-width multiplier of a two-sided interval at that coverage
    /// (0.95 gives t(0.975, ν)). Within about 1e-11 of the true value, in
    /// relative terms, for coverages up to 0.9975 and ν up to 20,000, and
    /// 1e-9 at 0.99999 (far into the tail, a double's rounding of
    /// 1 − coverage costs more); above 20,000 Cornish–Fisher around the
    /// normal quantile, within about 1e-5 at 1 − 1e-10. Made of
    /// additions, multiplications, divisions and square roots alone, so
    /// every platform computes the same bits (no `atan` or `erf` from the
    /// system's library).
    public static func quantile(coverage: Double, degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1, "t needs at least one degree of freedom")
        precondition(coverage > 0 && coverage < 1, "a coverage is between 0 and 1, exclusive")
        let exactLimit = 20_000
        guard df > exactLimit else { return exactQuantile(coverage: coverage, degreesOfFreedom: df) }
        // t_ν ≈ z + g1(z)/ν + g2(z)/ν²: recover z from the exact quantile
        // at `exactLimit`, then expand at ν.
        let atLimit = exactQuantile(coverage: coverage, degreesOfFreedom: exactLimit)
        let g1 = { (z: Double) in (z * z * z + z) / 4 }
        let g2 = { (z: Double) in (5 * pow5(z) + 16 * z * z * z + 3 * z) / 96 }
        let limit = Double(exactLimit)
        var z = atLimit
        for _ in 0..<8 { z = atLimit - g1(z) / limit - g2(z) / (limit * limit) }
        let v = Double(df)
        return z + g1(z) / v + g2(z) / (v * v)
    }

    /// P(|T| ≤ t) solved for t by bisection on the closed form for whole ν.
    static func exactQuantile(coverage: Double, degreesOfFreedom df: Int) -> Double {
        var low = 0.0
        var high = 1.0
        while centralProbability(high, degreesOfFreedom: df) < coverage && high < 0x1p60 { high *= 2 }
        // Halve until the midpoint is one of the ends: the bracket is then
        // two neighbouring doubles (at most about 1,100 halvings from 2^60).
        for _ in 0..<1_200 {
            let middle = (low + high) / 2
            if middle == low || middle == high { break }
            if centralProbability(middle, degreesOfFreedom: df) < coverage { low = middle } else { high = middle }
        }
        return high
    }

    /// P(|T| ≤ t) for whole ν (Abramowitz and Stegun 26.7.3 and 26.7.4):
    /// with θ = atan(t/√ν), sin θ times a sum of even powers of cos θ for
    /// even ν, and (2/π)(θ + sin θ cos θ times such a sum) for odd ν.
    static func centralProbability(_ t: Double, degreesOfFreedom df: Int) -> Double {
        let v = Double(df)
        let r = (v + t * t).squareRoot()
        let sine = t / r
        let cosineSquared = v / (r * r)
        var sum = 1.0
        var term = 1.0
        if df % 2 == 0 {
            // 1 + (1/2)c² + (1·3)/(2·4)c⁴ + ... up to c^(ν−2).
            var k = 1
            while 2 * k <= df - 2 {
                term *= cosineSquared * Double(2 * k - 1) / Double(2 * k)
                sum += term
                k += 1
            }
            return sine * sum
        }
        let theta = arctangent(t / v.squareRoot())
        guard df > 1 else { return 2 * theta / Double.pi }
        // 1 + (2/3)c² + (2·4)/(3·5)c⁴ + ... up to c^(ν−3).
        var k = 1
        while 2 * k <= df - 3 {
            term *= cosineSquared * Double(2 * k) / Double(2 * k + 1)
            sum += term
            k += 1
        }
        return 2 / Double.pi * (theta + sine * (v.squareRoot() / r) * sum)
    }

    /// atan(x) for x ≥ 0 from square roots and a series: atan(x) = π/2 −
    /// atan(1/x) above 1, and two halvings of the angle, atan(x) =
    /// 2 atan(x / (1 + √(1 + x²))), bring x below tan(π/16) ≈ 0.199, where
    /// 14 terms of x − x³/3 + x⁵/5 − ... reach below 1e-20.
    static func arctangent(_ x: Double) -> Double {
        if x > 1 { return Double.pi / 2 - arctangent(1 / x) }
        var y = x
        for _ in 0..<2 { y /= 1 + (1 + y * y).squareRoot() }
        let y2 = y * y
        var series = 0.0
        for k in stride(from: 27, through: 1, by: -2) {
            let coefficient = (k / 2) % 2 == 0 ? 1.0 / Double(k) : -1.0 / Double(k)
            series = series * y2 + coefficient
        }
        return 4 * y * series
    }
}
