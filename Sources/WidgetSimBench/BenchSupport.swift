import WidgetSim

/// The median; the mean of the middle two for an even count.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func format(_ value: Double, _ decimals: Int) -> String { FixedDecimal.format(value, decimals: decimals) }
