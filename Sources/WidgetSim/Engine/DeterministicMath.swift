/// `log` and `exp` written with IEEE-754 arithmetic only.
///
/// The platform libm is free to differ in the last bit between glibc and
/// Apple's libm, and one bit can move a drawn time across a whole-second
/// boundary and change every event after it. These versions use only `+ - * /`
/// and exact scaling by powers of two, which IEEE 754 specifies exactly, so a
/// seed draws the same times everywhere. They are accurate to a few ulps,
/// which is far finer than the simulator's one-second resolution.
public enum DeterministicMath {
    static let ln2 = 0.693_147_180_559_945_309_417_232_121_458

    /// The natural logarithm of a positive finite `x`.
    public static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "DeterministicMath.log needs a positive finite argument")
        // x = m * 2^e with m in [sqrt(1/2), sqrt(2)), then log(m) = 2 atanh(s).
        var exponent = Int(x.exponent)
        var mantissa = x.significand  // in [1, 2)
        if mantissa > 1.414_213_562_373_095_048_8 {
            mantissa *= 0.5
            exponent += 1
        }
        let s = (mantissa - 1) / (mantissa + 1)  // |s| < 0.1716
        let s2 = s * s
        // atanh series; 0.1716^2 = 0.0295 so 13 terms reach below 1e-19.
        var term = s
        var sum = 0.0
        var k = 1.0
        for _ in 0..<13 {
            sum += term / k
            term *= s2
            k += 2
        }
        return 2 * sum + Double(exponent) * ln2
    }

    /// e raised to `x`, for `x` in a range whose result is finite and normal.
    public static func exp(_ x: Double) -> Double {
        precondition(x.isFinite && x < 709 && x > -708, "DeterministicMath.exp argument out of range")
        // x = k ln2 + r with |r| <= ln2/2, then exp(x) = 2^k exp(r).
        let k = (x / ln2).rounded(.toNearestOrEven)
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        for n in 1...20 {
            term *= r / Double(n)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }
}
