/// Strict reading of numbers written as plain decimal digits.
///
/// `Int("+7")` and `Int("-0")` succeed, so a clock time "+7:00" or an offset
/// "+-1:00" would slip through a parser built on them. These accept only
/// ASCII digits (and, for the signed form, one leading minus), and return nil
/// on overflow instead of trapping.
public enum DecimalDigits {
    /// The value of `text` when it is 1 or more ASCII digits and, when
    /// `width` is given, exactly that many.
    public static func unsigned(_ text: some StringProtocol, width: Int? = nil) -> Int? {
        unsigned(utf8: text.utf8, width: width)
    }

    /// The same, read from UTF-8 bytes (a fixed field of a line, say) without making a string.
    public static func unsigned(utf8 bytes: some Sequence<UInt8>, width: Int? = nil) -> Int? {
        var value = 0
        var count = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(Int(byte - 0x30))
            guard !overflow1 && !overflow2 else { return nil }
            value = next
            count += 1
        }
        guard count > 0, width == nil || count == width else { return nil }
        return value
    }

    /// The value of `text` when it is an optional "-" and then 1 or more ASCII digits.
    public static func signed(_ text: some StringProtocol) -> Int? {
        guard text.utf8.first == 0x2D else { return unsigned(text) }
        guard let magnitude = unsigned(text.dropFirst()) else { return nil }
        return -magnitude
    }

    /// The value of `text` when it is 1 or more ASCII digits, optionally
    /// followed by a point and 1 or more digits ("2", "0.25", "2.0000").
    /// `Double(_:)` alone would also take "0x10", "1e2", "+2", "inf" and
    /// "nan", none of which a report or a help text writes as "a number".
    public static func unsignedDecimal(_ text: some StringProtocol) -> Double? {
        let parts = text.utf8.split(separator: 0x2E, maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ part in !part.isEmpty && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else { return nil }
        return Double(String(text))
    }

    /// The value of `text` read by `signed`, when it lies in `range`.
    public static func signed(_ text: some StringProtocol, in range: ClosedRange<Int>) -> Int? {
        guard let value = signed(text), range.contains(value) else { return nil }
        return value
    }
}
