/// Exponential variates by the ziggurat method (Marsaglia and Tsang, 2000),
/// 256 layers: about 99 % of draws take one 64-bit word, a table look-up and
/// a comparison; the rest fall back to `DeterministicMath` in the wedges and
/// the tail.
///
/// Promised: the tables are what `DeterministicMath` computes (`tables`),
/// bit for bit, so a stream draws the same values on every platform. The
/// draws read them from literals (`ZigguratTables.swift`, checked against
/// `tables` by `ZigguratTests`).
enum ExponentialZiggurat {
    /// Where the tail starts, and the area of each layer, for 256 layers of e^-x.
    static let tailStart = 7.697_117_470_131_049_72
    static let layerArea = 0.003_949_659_822_581_557_199_3

    /// Layer edges x[0] > x[1] = r > ... > x[256] = 0, and f(x) = e^-x at each.
    static let tables: (x: [Double], f: [Double]) = {
        var x = [Double](repeating: 0, count: 257)
        var f = [Double](repeating: 0, count: 257)
        x[0] = layerArea / DeterministicMath.exp(-tailStart)
        x[1] = tailStart
        for i in 1..<256 {
            let next = DeterministicMath.exp(-x[i]) + layerArea / x[i]
            x[i + 1] = next >= 1 ? 0 : -DeterministicMath.log(next)
        }
        x[256] = 0
        for i in 0...256 { f[i] = DeterministicMath.exp(-x[i]) }
        return (x, f)
    }()

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// One draw from the exponential distribution with mean 1: the first
    /// try inline, where almost every draw ends, and the rest out of line
    /// (`drawAfterFirstTry`), so that inlining it into every view costs
    /// little code (README, "Speed").
    @inline(__always)
    static func draw(using random: inout RandomStream) -> Double {
        let bits = random.next()
        let candidate = Double(bits >> 11) * 0x1.0p-53 * Double(bitPattern: xBits[Int(bits & 0xFF)])
        if candidate < Double(bitPattern: xBits[Int(bits & 0xFF) + 1]) { return candidate }
        return drawAfterFirstTry(bits, using: &random)
    }

    /// The rest of `draw` for 64 bits whose candidate fell outside its
    /// layer's rectangle: the tail, a wedge, or a new try.
    @inline(never)
    static func drawAfterFirstTry(_ firstBits: UInt64, using random: inout RandomStream) -> Double {
        let x = { (layer: Int) in Double(bitPattern: xBits[layer]) }
        let f = { (layer: Int) in Double(bitPattern: fBits[layer]) }
        var bits = firstBits
        while true {
            let layer = Int(bits & 0xFF)
            let u = Double(bits >> 11) * 0x1.0p-53
            let candidate = u * x(layer)
            if candidate < x(layer + 1) { return candidate }
            if layer == 0 {
                // The tail beyond r is itself exponential, shifted by r.
                return tailStart - DeterministicMath.log(1 - random.nextUnit())
            }
            if f(layer + 1) + (f(layer) - f(layer + 1)) * random.nextUnit() < DeterministicMath.exp(-candidate) {
                return candidate
            }
            bits = random.next()
        }
    }
}

/// Standard normal variates by the ziggurat method (Marsaglia and Tsang,
/// 2000), 128 layers, symmetric: the log-normal latencies and delays drawn
/// on every reload need no logarithm in almost every draw. The tables are
/// promised as `ExponentialZiggurat`'s are.
enum NormalZiggurat {
    static let tailStart = 3.442_619_855_899
    static let layerArea = 9.912_563_035_262_17e-3

    static func density(_ x: Double) -> Double { DeterministicMath.exp(-0.5 * x * x) }

    /// Layer edges x[0] > x[1] = r > ... > x[128] = 0, and f(x) = e^(−x²/2) at each.
    static let tables: (x: [Double], f: [Double]) = {
        var x = [Double](repeating: 0, count: 129)
        var f = [Double](repeating: 0, count: 129)
        x[0] = layerArea / density(tailStart)
        x[1] = tailStart
        for i in 1..<128 {
            let next = density(x[i]) + layerArea / x[i]
            x[i + 1] = next >= 1 ? 0 : (-2 * DeterministicMath.log(next)).squareRoot()
        }
        x[128] = 0
        for i in 0...128 { f[i] = density(x[i]) }
        return (x, f)
    }()

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The draw that 64 bits give when they fall inside a layer's
    /// rectangle (almost all do), or nil when `draw` needs more bits.
    @inline(__always)
    static func firstTry(_ bits: UInt64) -> Double? {
        let layer = Int(bits & 0x7F)
        let candidate = Double(bits >> 11) * 0x1.0p-53 * Double(bitPattern: xBits[layer])
        guard candidate < Double(bitPattern: xBits[layer + 1]) else { return nil }
        // The sign bit set from bit 7 without a branch, which a random sign
        // mispredicts half the time: `-candidate` flips exactly that bit.
        return Double(bitPattern: candidate.bitPattern ^ ((bits & 0x80) << 56))
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// One standard normal draw: the first try inline, where almost every
    /// draw ends, and the rest out of line (`drawAfterFirstTry`), as the
    /// exponential's.
    @inline(__always)
    static func draw(using random: inout RandomStream) -> Double {
        let bits = random.next()
        if let value = firstTry(bits) { return value }
        return drawAfterFirstTry(bits, using: &random)
    }

    /// The rest of `draw` for 64 bits whose candidate fell outside its
    /// layer's rectangle: the tail, a wedge, or a new try.
    @inline(never)
    static func drawAfterFirstTry(_ firstBits: UInt64, using random: inout RandomStream) -> Double {
        let x = { (layer: Int) in Double(bitPattern: xBits[layer]) }
        let f = { (layer: Int) in Double(bitPattern: fBits[layer]) }
        var bits = firstBits
        while true {
            if let value = firstTry(bits) { return value }
            let layer = Int(bits & 0x7F)
            let negative = bits & 0x80 != 0
            let candidate = Double(bits >> 11) * 0x1.0p-53 * x(layer)
            if layer == 0 {
                // Marsaglia's tail method beyond r.
                while true {
                    let tail = -DeterministicMath.log(1 - random.nextUnit()) / tailStart
                    let y = -DeterministicMath.log(1 - random.nextUnit())
                    if 2 * y >= tail * tail {
                        return negative ? -(tailStart + tail) : tailStart + tail
                    }
                }
            }
            if f(layer + 1) + (f(layer) - f(layer + 1)) * random.nextUnit() < density(candidate) {
                return negative ? -candidate : candidate
            }
            bits = random.next()
        }
    }
}
