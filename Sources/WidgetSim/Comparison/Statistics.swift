/// The mean of replications and its 95 % confidence interval, on its own
/// or as one of a family of intervals that hold together.
public struct Estimate: Equatable, Sendable {
    public var mean: Double
    /// Half the width of the 95 % confidence interval; nil with one replication.
    public var halfWidth: Double?

    /// The replications it was estimated from.
    public var count: Int

    /// The comparisons this interval's bounds hold together with, at 95 %
    /// (`criticalValue`); 1 for an interval on its own. A gap from the
    /// freshest of k variants to another is one of k − 1: the freshest was
    /// picked as the one ahead, so to say it leads beyond the noise, its
    /// leads over all k − 1 others must hold at once (Hsu's multiple
    /// comparisons with the best, by Bonferroni).
    public var comparisons: Int

    public var low: Double? { halfWidth.map { mean - $0 } }
    public var high: Double? { halfWidth.map { mean + $0 } }

    /// The estimate of `values` (independent replications), using Student's
    /// t, with an interval that holds together with `comparisons − 1` others.
    public init(_ values: [Double], comparisons: Int = 1) {
        precondition(!values.isEmpty, "an estimate needs at least one value")
        let n = Double(values.count)
        count = values.count
        self.comparisons = max(1, comparisons)
        mean = values.reduce(0, +) / n
        guard values.count > 1 else {
            halfWidth = nil
            return
        }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        halfWidth = Self.criticalValue(degreesOfFreedom: values.count - 1, comparisons: self.comparisons) * (variance / n).squareRoot()
    }

    /// The t multiplier of an interval whose one-sided bounds hold at 95 %
    /// together with those of `comparisons − 1` others (Bonferroni: each
    /// at 1 − 0.05/`comparisons`). With one or two comparisons that is
    /// t(0.975, ν), the tables' two-sided 95 % interval (for one, a bound at
    /// 97.5 %, more than asked); from three on, the 1 − 0.05/`comparisons`
    /// quantile, a two-sided interval of coverage 1 − 0.1/`comparisons`.
    public static func criticalValue(degreesOfFreedom df: Int, comparisons: Int) -> Double {
        comparisons <= 2
            ? StudentT.quantile975(degreesOfFreedom: df)
            : StudentT.quantile(coverage: 1 - 0.1 / Double(comparisons), degreesOfFreedom: df)
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
        let spread = halfWidth * Double(count).squareRoot() / Self.criticalValue(degreesOfFreedom: count - 1, comparisons: comparisons)
        let distance = abs(mean - value)
        guard spread > 0 else { return nil }
        guard distance > 0 else { return limit + 1 }
        // The half-width at n replications, t(ν = n − 1) · spread / √n,
        // falls as n grows: bisect for the first n below the distance.
        let excludes = { (n: Int) in
            Self.criticalValue(degreesOfFreedom: n - 1, comparisons: comparisons) * spread / Double(n).squareRoot() < distance
        }
        guard limit >= 2, excludes(limit) else { return limit + 1 }
        var (fewest, enough) = (1, limit)  // `fewest` does not exclude (one replication has no interval); `enough` does
        while enough - fewest > 1 {
            let middle = fewest + (enough - fewest) / 2
            if excludes(middle) { enough = middle } else { fewest = middle }
        }
        return enough
    }
}
