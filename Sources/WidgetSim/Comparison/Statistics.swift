/// The mean of replications and its 95 % confidence interval.
public struct Estimate: Equatable, Sendable {
    public var mean: Double
    /// Half the width of the 95 % confidence interval; nil with one replication.
    public var halfWidth: Double?

    /// The replications it was estimated from.
    public var count: Int

    public var low: Double? { halfWidth.map { mean - $0 } }
    public var high: Double? { halfWidth.map { mean + $0 } }

    /// The estimate of `values` (independent replications), using Student's t.
    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "an estimate needs at least one value")
        let n = Double(values.count)
        count = values.count
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

    /// About how many replications, at the spread these showed, would give
    /// an interval that excludes `value`, if the mean stayed where it is:
    /// what "run more" means in numbers. Nil when the interval already
    /// excludes it, or when there is no spread to scale (one replication);
    /// `limit + 1` when it would take more than `limit` (a mean on `value`
    /// itself never excludes it). The spread is itself estimated from few
    /// replications, so this is a guide, not a promise.
    public func replicationsToExclude(_ value: Double, limit: Int = 10_000) -> Int? {
        guard let halfWidth, count > 1, let low, let high, low <= value, value <= high else { return nil }
        let spread = halfWidth * Double(count).squareRoot() / StudentT.quantile975(degreesOfFreedom: count - 1)
        let distance = abs(mean - value)
        guard spread > 0 else { return nil }
        guard distance > 0 else { return limit + 1 }
        // The normal quantile's answer, then the t quantile's, one replication at a time.
        let guess = (1.96 * spread / distance) * (1.96 * spread / distance)
        guard guess < Double(limit) else { return limit + 1 }
        var n = max(2, Int(guess.rounded(.up)))
        while StudentT.quantile975(degreesOfFreedom: n - 1) * spread / Double(n).squareRoot() >= distance {
            n += 1
            if n > limit { return limit + 1 }
        }
        return n
    }
}
