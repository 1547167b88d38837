/// Why a scenario could not be loaded. Every case names the file; those about
/// a value name the field (as a path such as `devices[0].widgets[1].provider.policy`),
/// its line and column, and what would have been accepted.
public enum ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `kind` names what the file should have been ("scenario file", "parameters file").
    case fileNotFound(file: String, suggestion: String?, kind: String = "scenario file")
    case unreadable(file: String, reason: String)
    /// The file is there but cannot be a scenario: too large, or not UTF-8 text (UTF-16, say).
    case badContents(file: String, reason: String)
    case malformedJSON(file: String, line: Int, column: Int, reason: String)
    case unknownField(file: String, field: String, line: Int, column: Int, suggestion: String?, allowed: [String])
    case missingField(file: String, field: String, line: Int, column: Int)
    case wrongType(file: String, field: String, line: Int, column: Int, expected: String, found: String)
    case invalidValue(file: String, field: String, line: Int, column: Int, reason: String, allowed: String)
    /// An error in the scenario as one of its variants changes it.
    indirect case inVariant(name: String, error: ScenarioError)

    public var description: String {
        switch self {
        case .fileNotFound(let file, let suggestion, let kind):
            return "\(file): no such \(kind)" + (suggestion.map { Suggestion.hint(suggesting: $0, style: .clause, quote: "'") } ?? "")
        case .unreadable(let file, let reason):
            return "\(file): cannot read the file: \(reason)"
        case .badContents(let file, let reason):
            return "\(file): \(reason)"
        case .malformedJSON(let file, let line, let column, let reason):
            return "\(file):\(line):\(column): malformed JSON: \(reason)"
        case .unknownField(let file, let field, let line, let column, let suggestion, let allowed):
            let hint = suggestion.map { Suggestion.hint(suggesting: $0, style: .parenthesized, quote: "'") } ?? ""
            return "\(file):\(line):\(column): unknown field '\(field)'\(hint); allowed fields here: \(allowed.joined(separator: ", "))"
        case .missingField(let file, let field, let line, let column):
            return "\(file):\(line):\(column): missing required field '\(field)'"
        case .wrongType(let file, let field, let line, let column, let expected, let found):
            // The top level has no field name: it is the file itself.
            let subject = field.isEmpty ? "the file" : "field '\(field)'"
            return "\(file):\(line):\(column): \(subject) must be \(expected), found \(found)"
        case .invalidValue(let file, let field, let line, let column, let reason, let allowed):
            return "\(file):\(line):\(column): field '\(field)': \(reason); allowed: \(allowed)"
        case .inVariant(let name, let error):
            return "in variant '\(name)': \(error.description)"
        }
    }
}

extension ScenarioError {
    /// The field, line and column of an error about one value; nil for an
    /// error about the whole file, or in a variant.
    var location: (field: String, line: Int, column: Int)? {
        switch self {
        case .unknownField(_, let field, let line, let column, _, _),
             .missingField(_, let field, let line, let column),
             .wrongType(_, let field, let line, let column, _, _),
             .invalidValue(_, let field, let line, let column, _, _):
            return (field, line, column)
        case .fileNotFound, .unreadable, .badContents, .malformedJSON, .inVariant:
            return nil
        }
    }

    /// The same error about a value written in `file` at `position`.
    func relocated(file: String, at position: SourcePosition) -> ScenarioError {
        switch self {
        case .unknownField(_, let field, _, _, let suggestion, let allowed):
            return .unknownField(file: file, field: field, line: position.line, column: position.column, suggestion: suggestion, allowed: allowed)
        case .missingField(_, let field, _, _):
            return .missingField(file: file, field: field, line: position.line, column: position.column)
        case .wrongType(_, let field, _, _, let expected, let found):
            return .wrongType(file: file, field: field, line: position.line, column: position.column, expected: expected, found: found)
        case .invalidValue(_, let field, _, _, let reason, let allowed):
            return .invalidValue(file: file, field: field, line: position.line, column: position.column, reason: reason, allowed: allowed)
        case .fileNotFound, .unreadable, .badContents, .malformedJSON, .inVariant:
            return self
        }
    }
}
