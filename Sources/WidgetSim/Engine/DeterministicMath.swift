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
        // x = m · 2^e with m in [sqrt(1/2), sqrt(2)): m in [1, 2) is halved
        // (exactly: one off its exponent field) when above √2. Without a
        // branch: a draw's m falls on either side at random, and a branch
        // mispredicted on half of them (README, "Speed"). For positive
        // doubles, comparing bit patterns compares the values.
        var (exponent, significandBits) = binaryExponentAndSignificand(x)
        let halved = UInt64(unsafeBitCast(significandBits > (1.414_213_562_373_095_048_8).bitPattern, to: UInt8.self))
        significandBits &-= halved << 52
        exponent &+= Int(halved)
        return log(reduced: Double(bitPattern: significandBits), exponent: exponent)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// `x` as 2^exponent · m with m in [1, 2), m as its bit pattern, read
    /// from `x`'s (a subnormal is first scaled into the normal range).
    @inline(__always)
    static func binaryExponentAndSignificand(_ x: Double) -> (exponent: Int, significandBits: UInt64) {
        var bits = x.bitPattern
        var exponent = -1023
        if bits >> 52 == 0 {
            bits = (x * 0x1p54).bitPattern
            exponent -= 54
        }
        exponent += Int(bits >> 52)
        return (exponent, (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// log(m · 2^exponent) for m in [sqrt(1/2), sqrt(2)].
    @inline(__always)
    static func log(reduced mantissa: Double, exponent: Int) -> Double {
        // log(m) = 2 atanh(s) = 2 s (1 + s²/3 + s⁴/5 + ...) with |s| < 0.1716, so
        // s² < 0.0295 and 13 terms reach below 1e-19. Literal coefficients:
        // no division but one, no table lookups.
        let s = (mantissa - 1) / (mantissa + 1)
        return 2 * s * logSeries(s * s) + Double(exponent) * ln2
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// 1 + z/3 + z²/5 + ... + z¹²/25 for 0 ≤ z < 0.0295, by Horner's rule.
    /// Estrin's scheme (pairs of terms, a chain of 5 dependent steps, not
    /// 13) timed about 1 % faster, within the machine's noise, and rounds
    /// differently in the last bit of about one argument in 1,000: not
    /// kept (README, "Speed").
    @inline(__always)
    static func logSeries(_ z: Double) -> Double {
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
        return p
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
        // `whole` is below 2^52, so adding one cannot overflow. The one is
        // added as a number, not chosen by a branch: half of all draws
        // round up, and a branch mispredicted on them (README, "Speed").
        return whole &+ Int(unsafeBitCast(x - Double(whole) >= 0.5, to: UInt8.self))
    }

    /// 2^(j/64) for j = 0...63, built once from the series below.
    static let exp2Table: [Double] = (0..<64).map { j in seriesExp(Double(j) / 64 * ln2) }

    /// `exp2Table`'s bit patterns as literals, which `exp` reads: the compiler
    /// lays them out in the binary, so a call makes no lazy-initialization
    /// check (`swift_once`) and no bounds check (README, "Speed").
    /// `FastPathTests` checks them bit for bit against `exp2Table`.
    static let exp2Bits: [UInt64] = [
        0x3FF0_0000_0000_0000, 0x3FF0_2C9A_3E77_8061, 0x3FF0_59B0_D315_8574, 0x3FF0_8745_1875_9BC8,
        0x3FF0_B558_6CF9_890F, 0x3FF0_E3EC_32D3_D1A2, 0x3FF1_1301_D012_5B51, 0x3FF1_429A_AEA9_2DE0,
        0x3FF1_72B8_3C7D_517B, 0x3FF1_A35B_EB6F_CB75, 0x3FF1_D487_3168_B9AA, 0x3FF2_063B_8862_8CD6,
        0x3FF2_387A_6E75_6238, 0x3FF2_6B45_65E2_7CDD, 0x3FF2_9E9D_F51F_DEE1, 0x3FF2_D285_A6E4_030B,
        0x3FF3_06FE_0A31_B715, 0x3FF3_3C08_B264_16FF, 0x3FF3_71A7_373A_A9CA, 0x3FF3_A7DB_34E5_9FF7,
        0x3FF3_DEA6_4C12_3422, 0x3FF4_160A_21F7_2E2A, 0x3FF4_4E08_6061_892D, 0x3FF4_86A2_B5C1_3CD0,
        0x3FF4_BFDA_D536_2A27, 0x3FF4_F9B2_769D_2CA7, 0x3FF5_342B_569D_4F82, 0x3FF5_6F47_36B5_27DA,
        0x3FF5_AB07_DD48_5429, 0x3FF5_E76F_15AD_2148, 0x3FF6_247E_B03A_5585, 0x3FF6_6238_8255_2224,
        0x3FF6_A09E_667F_3BCC, 0x3FF6_DFB2_3C65_1A2F, 0x3FF7_1F75_E8EC_5F74, 0x3FF7_5FEB_5642_67C8,
        0x3FF7_A114_73EB_0187, 0x3FF7_E2F3_36CF_4E62, 0x3FF8_2589_994C_CE12, 0x3FF8_68D9_9B44_92EC,
        0x3FF8_ACE5_422A_A0DB, 0x3FF8_F1AE_9915_7736, 0x3FF9_3737_B0CD_C5E5, 0x3FF9_7D82_9FDE_4E50,
        0x3FF9_C491_82A3_F090, 0x3FFA_0C66_7B5D_E564, 0x3FFA_5503_B23E_255C, 0x3FFA_9E6B_5579_FDC0,
        0x3FFA_E89F_995A_D3AD, 0x3FFB_33A2_B84F_15FA, 0x3FFB_7F76_F2FB_5E47, 0x3FFB_CC1E_904B_C1D2,
        0x3FFC_199B_DD85_529C, 0x3FFC_67F1_2E57_D14B, 0x3FFC_B720_DCEF_906A, 0x3FFD_072D_4A07_897B,
        0x3FFD_5818_DCFB_A487, 0x3FFD_A9E6_03DB_3286, 0x3FFD_FC97_337B_9B5E, 0x3FFE_502E_E78B_3FF6,
        0x3FFE_A4AF_A2A4_90DA, 0x3FFE_FA1B_EE61_5A28, 0x3FFF_5076_5B6E_4540, 0x3FFF_A7C1_819E_90D8,
    ]

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// `x.rounded(.toNearestOrEven)` without the library call (`rint`) it
    /// makes: for |x| < 2^51, adding 1.5 · 2^52 lands where the spacing of
    /// doubles is 1, so the addition itself rounds x to an integer, to
    /// nearest with ties to even (the default rounding), and subtracting it
    /// again is exact. Only the sign of a zero may differ (−0.4 gives +0,
    /// not −0); `exp` cannot tell. Other values take the library call.
    @inline(__always)
    static func roundedToNearestEven(_ x: Double) -> Double {
        guard abs(x) < 0x1p51 else { return x.rounded(.toNearestOrEven) }
        return (x + 0x1.8p52) - 0x1.8p52
    }

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
        // A zero `n` of either sign gives the same `r` and the same result.
        let n = roundedToNearestEven(x * (64 / ln2))
        let r = x - n * (ln2 / 64)
        let (j, k) = splitBy64(Int(n))
        var p = 1.0 / 5_040.0
        p = p * r + 1.0 / 720.0
        p = p * r + 1.0 / 120.0
        p = p * r + 1.0 / 24.0
        p = p * r + 1.0 / 6.0
        p = p * r + 0.5
        p = p * r + 1.0
        p = p * r + 1.0
        return scaled(Double(bitPattern: exp2Bits[j]) * p, byPowerOfTwo: k)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// `index = 64k + j` with `j` in `0..<64`: `j = ((index % 64) + 64) % 64`
    /// and `k = (index - j) / 64`, by a mask and an arithmetic shift, which
    /// give the same numbers for every index, negative ones included (two's
    /// complement), without a division's sign fix-ups.
    @inline(__always)
    static func splitBy64(_ index: Int) -> (j: Int, k: Int) {
        (index & 63, index >> 6)
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
