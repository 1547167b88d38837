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
    /// Several errors, each in an item of a list that does not depend on
    /// the others (devices, a device's pages, apps or widgets, variants),
    /// so that one run reports them all, as a compiler does; `omitted`
    /// more were found and not kept (`ScenarioErrorList.maximum`).
    indirect case several([ScenarioError], omitted: Int)

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
        case .inVariant, .several:
            return lines.joined(separator: "\n")
        }
    }

    /// The errors one by one, a line each: one for most errors; for
    /// `several`, each (a variant's with the variant named) and how many
    /// more were not kept.
    public var lines: [String] {
        switch self {
        case .several(let errors, let omitted):
            let each = errors.flatMap(\.lines)
            return omitted > 0 ? each + ["\(omitted) more error\(omitted == 1 ? "" : "s") not shown"] : each
        case .inVariant(let name, let error):
            return error.lines.map { "in variant '\(name)': \($0)" }
        default:
            return [description]
        }
    }
}

/// The errors of the items of one list that do not depend on each other,
/// gathered so that a scenario with a mistake in two widgets says both at
/// once. An item that depends on one that failed (a widget on a page that
/// did not decode, a variant of a base that did not) is not decoded at all,
/// so no error is reported that only follows from another.
struct ScenarioErrorList {
    /// The most errors kept: the rest are counted, not described.
    static let maximum = 20
    private(set) var errors: [ScenarioError] = []
    private(set) var omitted = 0
    /// The places in the file (line and column) of the errors so far, kept
    /// or not: a variant's patch applies to every widget (or device), so one
    /// mistake in it fails once for each, at the patch's own place, and is
    /// one mistake. Only asked whether it holds a place, never walked.
    private var places: Set<Int> = []

    var isEmpty: Bool { errors.isEmpty }

    /// The value `body` decodes, or nil with its error kept.
    mutating func collect<T>(_ body: () throws(ScenarioError) -> T) -> T? {
        do throws(ScenarioError) {
            return try body()
        } catch {
            append(error)
            return nil
        }
    }

    /// Keeps the error `make` builds, or the one it throws on the way
    /// (reading the field the error is about can fail too).
    mutating func append(_ make: () throws(ScenarioError) -> ScenarioError) {
        do throws(ScenarioError) {
            append(try make())
        } catch {
            append(error)
        }
    }

    mutating func append(_ error: ScenarioError) {
        let (each, more) = Self.flattened(error)
        for error in each {
            if let location = error.location, !places.insert(location.line << 32 | location.column).inserted { continue }
            if errors.count < Self.maximum { errors.append(error) } else { omitted += 1 }
        }
        omitted += more
    }

    /// The errors `error` holds one by one (a variant's each named with the
    /// variant), and how many more it counted without keeping: so the cap
    /// holds however deep the errors were gathered.
    static func flattened(_ error: ScenarioError) -> (errors: [ScenarioError], omitted: Int) {
        switch error {
        case .several(let list, let omitted):
            return list.map(flattened).reduce(([], omitted)) { ($0.errors + $1.errors, $0.omitted + $1.omitted) }
        case .inVariant(let name, let inner):
            let (list, omitted) = flattened(inner)
            return (list.map { .inVariant(name: name, error: $0) }, omitted)
        default:
            return ([error], 0)
        }
    }

    /// Throws the error kept, or all of them as `several` in the order they
    /// are written in the file; nothing when none was.
    func throwIfAny() throws(ScenarioError) {
        guard let first = errors.first else { return }
        guard errors.count > 1 || omitted > 0 else { throw first }
        // In file order: a device's apps may be written before its pages,
        // which are read first. A variant's errors have no place of their
        // own (the patch's and the base's mix), so a list that holds them
        // keeps the variants' order, which is the file's.
        guard errors.allSatisfy({ $0.location != nil }) else { throw .several(errors, omitted: omitted) }
        let ordered = errors.enumerated().sorted { a, b in
            let (x, y) = (a.element.location!, b.element.location!)
            return (x.line, x.column, a.offset) < (y.line, y.column, b.offset)
        }.map(\.element)
        throw .several(ordered, omitted: omitted)
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
        case .fileNotFound, .unreadable, .badContents, .malformedJSON, .inVariant, .several:
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
        case .fileNotFound, .unreadable, .badContents, .malformedJSON, .inVariant, .several:
            return self
        }
    }
}
