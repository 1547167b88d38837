/// A seeded pseudo-random generator: xoshiro256** (Blackman and Vigna, 2018).
///
/// Promised: the same seed gives the same sequence on every platform and
/// toolchain, because every draw below is written here from integer and
/// IEEE-754 arithmetic only (no standard-library `random(in:)`, whose
/// algorithm is not a stable contract, and no libm).
///
/// Not promised: cryptographic quality. Streams are for simulation only.
public struct RandomStream: Sendable {
    var _s0: UInt64
    var _s1: UInt64
    var _s2: UInt64
    var _s3: UInt64

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Creates a stream whose state is expanded from `seed` by SplitMix64,
    /// as the xoshiro authors recommend, so that nearby seeds give unrelated streams.
    @inline(__always)
    public init(seed: UInt64) {
        var expander = SplitMix64(state: seed)
        _s0 = expander.next()
        _s1 = expander.next()
        _s2 = expander.next()
        _s3 = expander.next()
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// `RandomStream(seed: seed).next()`, without the rest of the state: the
    /// first output reads only the second word, so a stream made for one
    /// draw that needs only its first 64 bits (a scheduling delay, almost
    /// always) skips three of the four words' expansion.
    @inline(__always)
    static func firstOutput(seed: UInt64) -> UInt64 {
        // The expansion `init` makes, stopped at the second word (the first
        // word's mix is unused, and compiled away).
        var expander = SplitMix64(state: seed)
        _ = expander.next()
        return scrambled(expander.next())
    }

    /// The "**" scrambler: an output from the state's second word.
    @inline(__always)
    static func scrambled(_ second: UInt64) -> UInt64 {
        (second &* 5).rotatedLeft(by: 7) &* 9
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = RandomStream.scrambled(_s1)
        let t = _s1 << 17
        _s2 ^= _s0
        _s3 ^= _s1
        _s1 ^= _s2
        _s0 ^= _s3
        _s2 ^= t
        _s3 = _s3.rotatedLeft(by: 45)
        return result
    }

    /// A uniform double in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform integer in `0..<bound`, without modulo bias (Lemire, 2019).
    /// - Precondition: `bound > 0`
    public mutating func nextInt(below bound: Int) -> Int {
        precondition(bound > 0, "RandomStream.nextInt(below:) needs a positive bound")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    public mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + nextInt(below: range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `probability`; consumes exactly one draw.
    public mutating func nextBool(probability: Double) -> Bool {
        nextUnit() < probability
    }
}

extension UInt64 {
    func rotatedLeft(by amount: UInt64) -> UInt64 {
        (self << amount) | (self >> (64 - amount))
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): expands one 64-bit seed into
/// well-mixed words. Used to seed `RandomStream` and to derive seeds.
public struct SplitMix64: Sendable {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// The SplitMix64 output function: a bijective 64-bit mixer.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
