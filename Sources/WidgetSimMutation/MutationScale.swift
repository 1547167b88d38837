/// How big the mutator's big edits are, and how often they happen.
///
/// `full` is what the fuzzer runs against the release binary: sizes that
/// find quadratic parsers and memory blow-ups. `small` keeps the same edits
/// at sizes an in-process test in a debug build gets through in seconds.
public struct MutationScale: Sendable {
    /// The chance that a mutant is one expensive edit alone: megabytes of
    /// input, or nesting thousands deep.
    public var expensiveProbability: Double
    /// The chance that a mutant is a special file alone where a regular file
    /// should be: a directory, a dangling link, /dev/null, /dev/zero or a named pipe.
    public var specialFileProbability: Double
    /// Elements in a huge JSON array.
    public var hugeArrayElements: Int
    /// Elements in the largest JSON array: zeros just under the 16 MiB a scenario file may have.
    public var largestArrayElements: Int
    /// Distinct keys in a huge JSON object.
    public var hugeObjectKeys: Int
    /// Bytes in a long string.
    public var longStringBytes: Int
    /// Levels of nesting in a deeply nested value (the parser allows 256).
    public var deepNesting: Int
    /// Levels in the deepest nesting.
    public var deepestNesting: Int
    /// Rows in a huge CSV log.
    public var hugeCSVRows: Int
    /// `index:count` pairs in a huge sparse line of a partial file.
    public var hugeSparsePairs: Int
    /// Whether files that block or never end (a named pipe, /dev/zero) may be made.
    public var allowsBlockingFiles: Bool

    public static let full = MutationScale(
        expensiveProbability: 1.0 / 200, specialFileProbability: 1.0 / 400, hugeArrayElements: 1_000_000, largestArrayElements: 8_000_000,
        hugeObjectKeys: 200_000, longStringBytes: 1 << 20, deepNesting: 1_000, deepestNesting: 100_000,
        hugeCSVRows: 200_000, hugeSparsePairs: 200_000, allowsBlockingFiles: true)

    public static let small = MutationScale(
        expensiveProbability: 1.0 / 50, specialFileProbability: 0, hugeArrayElements: 2_000, largestArrayElements: 5_000,
        hugeObjectKeys: 500, longStringBytes: 4_096, deepNesting: 300, deepestNesting: 1_000,
        hugeCSVRows: 500, hugeSparsePairs: 500, allowsBlockingFiles: false)
}
