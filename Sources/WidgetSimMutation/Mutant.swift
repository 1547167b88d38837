/// One mutated input for `widgetsim`: the files to write into an empty
/// directory, and the command to run there.
///
/// Promised: a mutant depends only on the corpus, the master seed and its
/// index, so the same three always give the same bytes and the same command.
/// Not promised: that the mutant is invalid; some edits leave valid input.
public struct Mutant: Sendable {
    /// Which of widgetsim's input formats the mutant is, and how it is fed.
    public enum Kind: Int, CaseIterable, Sendable, Comparable {
        /// A scenario file, run by `validate`, `simulate`, `compare` or `fleet`.
        case scenario
        /// A report directory (`reloads.csv`, `views.csv`, `daily.csv`, `parameters.csv`), run by `check <dir>`.
        case reportDirectory
        /// One reloads log, run by `check --reloads <file>` with rules given as options.
        case reloadsLog
        /// The partial results of a sharded fleet run, run by `merge`.
        case fleetPartial
        /// A phone's device log, run by `check --device-log <file>` or by
        /// `calibrate <file> --scenario <the scenario that wrote it>`.
        case deviceLog

        public var name: String {
            switch self {
            case .scenario: return "scenario"
            case .reportDirectory: return "report directory"
            case .reloadsLog: return "reloads log"
            case .fleetPartial: return "fleet partial"
            case .deviceLog: return "device log"
            }
        }

        public static func < (left: Kind, right: Kind) -> Bool { left.rawValue < right.rawValue }
    }

    public var index: UInt64
    public var kind: Kind
    /// The seed input it was mutated from, such as `weather.json` or `reports/news`.
    public var origin: String
    /// What to create in the mutant's directory, in this order.
    public var files: [MutantFile]
    /// `widgetsim`'s arguments; paths are relative to the mutant's directory.
    public var arguments: [String]
    /// The edits, in the order they were made.
    public var edits: [MutationEdit]

    public init(index: UInt64, kind: Kind, origin: String, files: [MutantFile], arguments: [String], edits: [MutationEdit]) {
        self.index = index
        self.kind = kind
        self.origin = origin
        self.files = files
        self.arguments = arguments
        self.edits = edits
    }

    /// The bytes of the regular file at `path`, if the mutant has one there.
    public func bytes(at path: String) -> [UInt8]? {
        for file in files where file.path == path {
            if case .bytes(let bytes) = file.content { return bytes }
        }
        return nil
    }

    /// Total bytes of the mutant's regular files.
    public var byteCount: Int {
        files.reduce(0) { total, file in
            if case .bytes(let bytes) = file.content { return total + bytes.count }
            return total
        }
    }

    /// The most expensive edit's operation if there is one, else every
    /// operation once, sorted: what a hang or a memory blow-up is grouped by.
    public var operationSummary: String {
        if let expensive = edits.first(where: \.isExpensive) { return expensive.operation }
        var names: [String] = []
        for edit in edits where !names.contains(edit.operation) { names.append(edit.operation) }
        return names.sorted().joined(separator: "+")
    }
}

/// A file, directory or special file a mutant needs.
public struct MutantFile: Sendable {
    public enum Content: Sendable {
        case bytes([UInt8])
        /// A named pipe that nobody writes: reading it blocks.
        case fifo
        /// A directory where a file is expected.
        case directory
        /// A symbolic link to this target.
        case symbolicLink(String)
    }

    /// Relative to the mutant's directory; may contain one level of folder (`report/reloads.csv`).
    public var path: String
    public var content: Content

    public init(path: String, content: Content) {
        self.path = path
        self.content = content
    }

    public init(path: String, bytes: [UInt8]) {
        self.init(path: path, content: .bytes(bytes))
    }
}

/// One edit made to a seed input: its operation's name and what exactly it did.
public struct MutationEdit: Sendable, Equatable, CustomStringConvertible {
    /// A short, stable name such as `replaceNumber` or `hugeObject`.
    public var operation: String
    /// Where and what, such as `devices[0].days -> 9223372036854775807`.
    public var detail: String
    /// True for the rare edits that make inputs of megabytes or files that block.
    public var isExpensive: Bool

    public init(_ operation: String, _ detail: String, expensive: Bool = false) {
        self.operation = operation
        self.detail = detail
        isExpensive = expensive
    }

    public var description: String { "\(operation): \(detail)" }
}
