/// Why a scenario could not be loaded. Every case names the file; those about
/// a value name the field (as a path such as `devices[0].widgets[1].provider.policy`),
/// its line and column, and what would have been accepted.
public enum ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    case fileNotFound(file: String, suggestion: String?)
    case unreadable(file: String, reason: String)
    case malformedJSON(file: String, line: Int, column: Int, reason: String)
    case unknownField(file: String, field: String, line: Int, column: Int, suggestion: String?, allowed: [String])
    case missingField(file: String, field: String, line: Int, column: Int)
    case wrongType(file: String, field: String, line: Int, column: Int, expected: String, found: String)
    case invalidValue(file: String, field: String, line: Int, column: Int, reason: String, allowed: String)
    /// An error in the scenario as one of its variants changes it.
    indirect case inVariant(name: String, error: ScenarioError)

    public var description: String {
        switch self {
        case .fileNotFound(let file, let suggestion):
            return "\(file): no such scenario file" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unreadable(let file, let reason):
            return "\(file): cannot read the file: \(reason)"
        case .malformedJSON(let file, let line, let column, let reason):
            return "\(file):\(line):\(column): malformed JSON: \(reason)"
        case .unknownField(let file, let field, let line, let column, let suggestion, let allowed):
            let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            return "\(file):\(line):\(column): unknown field '\(field)'\(hint); allowed fields here: \(allowed.joined(separator: ", "))"
        case .missingField(let file, let field, let line, let column):
            return "\(file):\(line):\(column): missing required field '\(field)'"
        case .wrongType(let file, let field, let line, let column, let expected, let found):
            return "\(file):\(line):\(column): field '\(field)' must be \(expected), found \(found)"
        case .invalidValue(let file, let field, let line, let column, let reason, let allowed):
            return "\(file):\(line):\(column): field '\(field)': \(reason); allowed: \(allowed)"
        case .inVariant(let name, let error):
            return "in variant '\(name)': \(error.description)"
        }
    }
}

/// "Did you mean" suggestions for names typed by people.
public enum Suggestion {
    /// The closest of `candidates` to `word` by edit distance (ignoring case),
    /// if close enough to be a plausible typo.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        var best: (distance: Int, candidate: String)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if best == nil || distance < best!.distance { best = (distance, candidate) }
        }
        guard let best, best.distance <= max(2, word.count / 3) else { return nil }
        return best.candidate
    }

    /// Levenshtein distance between two strings, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// Shorthand inside the library.
func nearest(to word: String, among candidates: [String]) -> String? {
    Suggestion.nearest(to: word, among: candidates)
}
