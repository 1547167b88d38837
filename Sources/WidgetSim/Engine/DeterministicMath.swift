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
        // x = m · 2^e with m in [sqrt(1/2), sqrt(2)), read from the bit pattern
        // (subnormals are first scaled into the normal range).
        var bits = x.bitPattern
        var exponent = -1023
        if bits >> 52 == 0 {
            bits = (x * 0x1p54).bitPattern
            exponent -= 54
        }
        exponent += Int(bits >> 52)
        var mantissa = Double(bitPattern: (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)  // in [1, 2)
        if mantissa > 1.414_213_562_373_095_048_8 {
            mantissa *= 0.5
            exponent += 1
        }
        // log(m) = 2 atanh(s) = 2 s (1 + s²/3 + s⁴/5 + ...) with |s| < 0.1716, so
        // s² < 0.0295 and 13 terms reach below 1e-19. Horner with literal
        // coefficients: no division but one, no table lookups.
        let s = (mantissa - 1) / (mantissa + 1)
        let z = s * s
        var p = 1.0 / 25.0
        p = p * z + 1.0 / 23.0
        p = p * z + 1.0 / 21.0
        p = p * z + 1.0 / 19.0
        p = p * z + 1.0 / 17.0
        p = p * z + 1.0 / 15.0
        p = p * z + 1.0 / 13.0
        p = p * z + 1.0 / 11.0
        p = p * z + 1.0 / 9.0
        p = p * z + 1.0 / 7.0
        p = p * z + 1.0 / 5.0
        p = p * z + 1.0 / 3.0
        p = p * z + 1.0
        return 2 * s * p + Double(exponent) * ln2
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// `Int(x.rounded())` (half away from zero), without the library call
    /// `rounded()` makes on every platform: for 0 ≤ x < 2^52, x minus its
    /// truncation is exact, so comparing it with one half decides exactly as
    /// `rounded()` does. Other values take `rounded()` itself.
    @inline(__always)
    static func roundedToInt(_ x: Double) -> Int {
        guard x >= 0 && x < 0x1p52 else { return Int(x.rounded()) }
        let whole = Int(x)
        return x - Double(whole) >= 0.5 ? whole + 1 : whole
    }

    /// 2^(j/64) for j = 0...63, built once from the series below.
    static let exp2Table: [Double] = (0..<64).map { j in seriesExp(Double(j) / 64 * ln2) }

    /// e^r by its Taylor series to r^17/17!, below 1e-19 for |r| < 0.35.
    static func seriesExp(_ r: Double) -> Double {
        var p = 1.0 / 355_687_428_096_000.0   // 1/17!
        p = p * r + 1.0 / 20_922_789_888_000.0  // 1/16!
        p = p * r + 1.0 / 1_307_674_368_000.0
        p = p * r + 1.0 / 87_178_291_200.0
        p = p * r + 1.0 / 6_227_020_800.0
        p = p * r + 1.0 / 479_001_600.0
        p = p * r + 1.0 / 39_916_800.0
        p = p * r + 1.0 / 3_628_800.0
        p = p * r + 1.0 / 362_880.0
        p = p * r + 1.0 / 40_320.0
        p = p * r + 1.0 / 5_040.0
        p = p * r + 1.0 / 720.0
        p = p * r + 1.0 / 120.0
        p = p * r + 1.0 / 24.0
        p = p * r + 1.0 / 6.0
        p = p * r + 0.5
        p = p * r + 1.0
        p = p * r + 1.0
        return p
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// e raised to `x`, for `x` in a range whose result is finite and normal.
    @inline(__always)
    public static func exp(_ x: Double) -> Double {
        precondition(x.isFinite && x < 709 && x > -708, "DeterministicMath.exp argument out of range")
        // x = (64k + j) ln2/64 + r with |r| <= ln2/128 < 0.0055, then
        // exp(x) = 2^k · 2^(j/64) · e^r; the series to r^7/7! is below 1e-19.
        let n = (x * (64 / ln2)).rounded(.toNearestOrEven)
        let r = x - n * (ln2 / 64)
        let index = Int(n)
        let j = ((index % 64) + 64) % 64
        let k = (index - j) / 64
        var p = 1.0 / 5_040.0
        p = p * r + 1.0 / 720.0
        p = p * r + 1.0 / 120.0
        p = p * r + 1.0 / 24.0
        p = p * r + 1.0 / 6.0
        p = p * r + 0.5
        p = p * r + 1.0
        p = p * r + 1.0
        return scaled(exp2Table[j] * p, byPowerOfTwo: k)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// `Double(sign: .plus, exponent: k, significand: significand)`, bit for
    /// bit, for a significand in about [0.9, 2.1]: multiplying by an exact
    /// power of two is exact while the result stays normal (k ≥ -1021 keeps
    /// it so) and costs one instruction; below that the generic initializer
    /// rounds into the subnormals.
    @inline(__always)
    static func scaled(_ significand: Double, byPowerOfTwo k: Int) -> Double {
        guard k >= -1021 && k <= 1023 else { return Double(sign: .plus, exponent: k, significand: significand) }
        return significand * Double(bitPattern: UInt64(1023 + k) << 52)
    }
}
