/// The first thing found wrong in a report, with where it is.
public struct CheckViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: a rule the rows break, or input that cannot be audited.
    public enum Kind: Equatable, Sendable {
        /// The rows break a budget rule (the audit's finding).
        case brokenRule
        /// A file is not in the report's format (a header, a field, the row order).
        case badData
        /// A file the audit needs is not there.
        case missingFile
    }

    public var file: String
    /// The 1-based line, counting the header as line 1; 0 for the whole file.
    public var line: Int
    public var kind: Kind
    public var message: String

    public init(file: String, line: Int, kind: Kind = .brokenRule, message: String) {
        self.file = file
        self.line = line
        self.kind = kind
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
