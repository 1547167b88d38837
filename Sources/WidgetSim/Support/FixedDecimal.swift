/// Formats numbers for reports without Foundation or locale, so output is
/// byte-identical across runs and platforms (the STYLE rule on numbers).
public enum FixedDecimal {
    /// `value` with exactly `decimals` digits after the point, rounded half away from zero.
    public static func format(_ value: Double, decimals: Int) -> String {
        precondition(decimals >= 0 && decimals <= 9, "FixedDecimal supports 0...9 decimals")
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else { return String(value) }
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let whole = units / divisor
        let fraction = units % divisor
        var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// A percentage of `part` in `whole` with one decimal, "0.0" when `whole` is 0.
    public static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "0.0" : format(100 * Double(part) / Double(whole), decimals: 1)
    }
}
