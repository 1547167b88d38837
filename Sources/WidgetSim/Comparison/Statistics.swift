/// The mean of replications and its 95 % confidence interval.
public struct Estimate: Equatable, Sendable {
    public var mean: Double
    /// Half the width of the 95 % confidence interval; nil with one replication.
    public var halfWidth: Double?

    public var low: Double? { halfWidth.map { mean - $0 } }
    public var high: Double? { halfWidth.map { mean + $0 } }

    /// The estimate of `values` (independent replications), using Student's t.
    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "an estimate needs at least one value")
        let n = Double(values.count)
        mean = values.reduce(0, +) / n
        guard values.count > 1 else {
            halfWidth = nil
            return
        }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        halfWidth = StudentT.quantile975(degreesOfFreedom: values.count - 1) * (variance / n).squareRoot()
    }

    /// True when the interval excludes zero: the value differs from zero by
    /// more than the noise between replications.
    public var excludesZero: Bool {
        guard let low, let high else { return false }
        return low > 0 || high < 0
    }
}
