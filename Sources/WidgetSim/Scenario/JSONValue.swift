/// A place in a source file, 1-based.
public struct SourcePosition: Equatable, Sendable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A parsed JSON value that remembers where it was written, so errors about
/// it can name the line and column. Object members keep their file order.
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        /// The number's literal text, so integers beyond 2^53 stay exact.
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    public struct Member: Sendable {
        public var key: String
        public var keyPosition: SourcePosition
        public var value: JSONNode
    }

    public var value: Value
    public var position: SourcePosition

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON syntax error at a position.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var message: String
    public var position: SourcePosition
}
