/// The replacement values the mutator draws from: numbers and text at the
/// edges of what the parsers, the integer arithmetic and the calendar accept.
///
/// Large values that are still valid (ten million devices, a thousand
/// replications) are left out on purpose: they make runs legitimately long,
/// which a timeout would report as a hang.
enum MutationValues {
    /// A digit string far beyond any integer or double.
    static let thousandDigits = "9" + String(repeating: "8", count: 998) + "7"

    /// Numbers as JSON number text (some of it not valid JSON, on purpose).
    static let numbers: [String] = [
        "0", "-1", "1", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "1e308", "-1e308", "1e-320", "0.5", "NaN", "inf", "-inf", "Infinity", thousandDigits, "-" + thousandDigits,
        "-0", "-0.0", "1e400", "1E+2", "9223372036854775806", "4611686018427387904", "18446744073709551615",
        "18446744073709551616", "2147483648", "4294967296", "9007199254740993", "0.1", "1.5", "-0.5",
        "0.000001", "86400", "366", "367", "2", "100",
    ]

    /// Number text that is not JSON at all: it must get a clean syntax error.
    static let invalidJSONNumbers: Set<String> = ["NaN", "inf", "-inf", "Infinity"]

    /// Numbers as CSV cell or partial-file text: the JSON numbers plus forms
    /// that `Int(_:)` and `Double(_:)` treat differently.
    static let cellNumbers: [String] = numbers + [
        "", " 1", "1 ", "+1", "0x10", "1_000", "١٢", "00012", "1e3", "--1", "nan", "+inf", "0.", ".5",
    ]

    /// Values of the kind that overflow when two of them are added, for
    /// counters that a merge sums.
    static let nearIntMax: [String] = [
        "9223372036854775807", "9223372036854775806", "4611686018427387904", "4611686018427387903",
    ]

    /// Strings for JSON string values: dates, offsets, durations and times
    /// at and beyond their limits, and awkward Unicode.
    static let strings: [String] = [
        "", "\u{0}\u{1}\u{1F}\n\t\r", "+-1:00", "24:60", "0000-00-00", "9999-12-31T23:59:59", "é", "😀", "\u{202E}lrtl",
        "e\u{301}", "İ", "ﬃ", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "日本語", "NaN", "inf", "-inf", "1e308", "9223372036854775807",
        "-1", "0", "0s", "-5m", "1e308s", "9223372036854775807s", "9223372036854775808s", "99999999999d", "1h1h",
        "1.5.5m", "30d", "31d", "366d", "1e-320s", " 1h", "1h ", "1 h", "1H", "nans", "infs", "0.0000001s",
        "Z", "+14:00", "-12:00", "+14:01", "+99:99", "-00:00", "+00:60", "+1:00", "01:00",
        "2026-02-29", "2024-02-29T24:00", "2026-03-02T00:00:60", "2026-13-01", "0001-01-01", "-2026-01-01", "99999-01-01",
        "00:00", "24:00", "23:59:59", "25:00", "-01:00", "\\", "\"", "%s%n", "a,b", "a\nb",
        String(repeating: "1h", count: 5_000),
    ]

    /// Malformed string literals written straight into JSON text.
    static let rawStringLiterals: [String] = [
        #""\uD800""#, #""\uDC00\uD800""#, #""\u0000""#, #""\x41""#, #""\u12""#, #""\""#, "\"a\u{0}b\"", "\"tab\there\"",
        "\"\u{7F}\"", #""\uFFFF""#, #""\/""#,
    ]

    /// Timestamps for the `time` column of reports.
    static let timestamps: [String] = [
        "0000-00-00T00:00:00+00:00", "9999-12-31T23:59:59+14:00", "2026-03-02T24:60:00+01:00", "2026-03-02T07:15:00+-1:00",
        "2026-02-30T00:00:00+00:00", "2026-03-02T07:15:00Z", "2026-03-02 07:15:00+01:00", "2026-03-02T07:15:00+99:99",
        "2026-03-02T07:15:00.5+01:00", "0001-01-01T00:00:00+00:00", "2026-03-02T07:15:00+01:00", "2026-03-02T07:15:0a+01:00",
        "１９７０-01-01T00:00:00+00:00",
    ]

    /// Option values for `--minimum-spacing`, `--token-bucket-burst` and the like.
    static let optionValues: [String] = [
        "0", "-1", "1", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "inf", "-inf", "nan",
        "1e308", "1e-320", "0.5", "", " 5m", "5m", "300", "300s", "24d", "1e308s", "9223372036854775807s", "0x10",
        "-0", "-0.0", "0.25", "1.0000001", thousandDigits,
    ]

    /// Lines that a partial file's reader does not expect.
    static let strayLines: [String] = [
        "", " ", "end", "variant", "counts", "shards", "shards 1", "shards 9223372036854775807 0", "start 2026 3 2 0 0",
        "unknown-key 1", "widgetsim-fleet-partial 2", "requests-per-minute 0:1:2", "description \"",
    ]
}
