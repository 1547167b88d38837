/// A positive divisor whose remainders are found by two multiplications
/// instead of a division (Lemire, Kaser and Kurz, "Faster remainder by
/// direct computation", 2019): a 64-bit division takes the processor ten to
/// twenty cycles, and every reload of a provider that aligns its dates to
/// the clock took two (README, "Speed").
///
/// Promised: `remainder(dividing: n)` is `n % value`, bit for bit, for every
/// `n`. The multiplications serve `0 ≤ n < 2^32` with a divisor below 2^32
/// (a second of the day by a spacing, say); any other pair takes the
/// division itself.
struct Divisor: Equatable, Sendable {
    let value: Int
    /// ⌈2^64 / value⌉ (0, by wrapping, for 1), or 0 when the divisor is not
    /// in `1 ..< 2^32`.
    private let multiplier: UInt64
    private let fitsIn32Bits: Bool

    /// `value` may be any integer; the remainder of a divisor of 0 traps, as `%` does.
    init(_ value: Int) {
        self.value = value
        fitsIn32Bits = value > 0 && value < 1 << 32
        multiplier = fitsIn32Bits ? UInt64.max / UInt64(value) &+ 1 : 0
    }

    // Inlined: on the hot path of every reload (README, "Speed").
    /// `n % value`.
    @inline(__always)
    func remainder(dividing n: Int) -> Int {
        guard fitsIn32Bits, UInt(bitPattern: n) < 1 << 32 else { return n % value }
        // The fraction n / value in 64 fixed-point bits, times the divisor:
        // its whole part is the remainder.
        let fraction = multiplier &* UInt64(n)
        return Int(fraction.multipliedFullWidth(by: UInt64(value)).high)
    }
}
