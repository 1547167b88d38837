extension RandomStream {
    /// An exponential draw with the given mean (ziggurat: no logarithm in
    /// almost every draw, which matters because every Poisson arrival takes one).
    /// Inlined: every view draws one (README, "Speed").
    @inline(__always)
    public mutating func nextExponential(mean: Double) -> Double {
        mean * ExponentialZiggurat.draw(using: &self)
    }

    /// A standard normal draw (ziggurat).
    /// Inlined: every reload draws one or two (README, "Speed").
    @inline(__always)
    public mutating func nextStandardNormal() -> Double {
        NormalZiggurat.draw(using: &self)
    }
}
