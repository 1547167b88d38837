/// Percentiles by the nearest-rank method, on sorted data.
public enum Percentile {
    /// The `p`-th percentile (0...100) of `sorted`, or nil when it is empty.
    public static func nearestRank(_ p: Double, of sorted: [Int]) -> Int? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
