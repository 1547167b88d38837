import WidgetSim

/// A JSON value as the mutator edits it.
///
/// Unlike the library's `JSONNode`, an object may hold the same key twice,
/// a number may be any text, and `raw` holds text written out verbatim, so a
/// tree can render input that is not JSON at all.
indirect enum JSONTree: Sendable {
    case null
    case bool(Bool)
    /// The number's text, as written.
    case number(String)
    case string(String)
    case array([JSONTree])
    case object([JSONMember])
    /// Text written as it is, valid JSON or not.
    case raw(String)

    /// The library parser's tree, members and number text kept as written.
    init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text): self = .number(text)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(JSONTree.init))
        case .object(let members): self = .object(members.map { JSONMember(key: $0.key, value: JSONTree($0.value)) })
        }
    }

    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        case .raw: return "raw"
        }
    }

    // MARK: Paths

    /// A node's place: array indices and member indices from the root.
    typealias Path = [Int]

    /// Every node's path, parents before children, in document order.
    /// - Complexity: O(n) in the number of nodes (a `raw` node counts as one).
    func allPaths() -> [Path] {
        var paths: [Path] = []
        collectPaths(prefix: [], into: &paths)
        return paths
    }

    private func collectPaths(prefix: Path, into paths: inout [Path]) {
        paths.append(prefix)
        switch self {
        case .array(let elements):
            for (index, element) in elements.enumerated() { element.collectPaths(prefix: prefix + [index], into: &paths) }
        case .object(let members):
            for (index, member) in members.enumerated() { member.value.collectPaths(prefix: prefix + [index], into: &paths) }
        default:
            break
        }
    }

    subscript(path: Path) -> JSONTree {
        get {
            guard let first = path.first else { return self }
            switch self {
            case .array(let elements): return elements[first][Array(path.dropFirst())]
            case .object(let members): return members[first].value[Array(path.dropFirst())]
            default: preconditionFailure("path \(path) goes through a \(typeName)")
            }
        }
        set {
            guard let first = path.first else {
                self = newValue
                return
            }
            switch self {
            case .array(var elements):
                elements[first][Array(path.dropFirst())] = newValue
                self = .array(elements)
            case .object(var members):
                members[first].value[Array(path.dropFirst())] = newValue
                self = .object(members)
            default:
                preconditionFailure("path \(path) goes through a \(typeName)")
            }
        }
    }

    /// The path written as the library writes field paths: `devices[0].widgets[1].id`.
    func describe(_ path: Path) -> String {
        var text = ""
        var node = self
        for step in path {
            switch node {
            case .array(let elements):
                text += "[\(step)]"
                node = elements[step]
            case .object(let members):
                text += (text.isEmpty ? "" : ".") + members[step].key
                node = members[step].value
            default:
                return text
            }
        }
        return text.isEmpty ? "(root)" : text
    }

    // MARK: Rendering

    /// The tree as JSON text: pretty-printed like the shipped scenarios,
    /// with arrays of scalars kept on one line.
    func rendered() -> String {
        var text = ""
        render(into: &text, indent: 0)
        text += "\n"
        return text
    }

    /// The tree on one line, for values inside something huge.
    func compact() -> String {
        var text = ""
        render(into: &text, indent: nil)
        return text
    }

    private func render(into text: inout String, indent: Int?) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let number): text += number
        case .string(let string): JSONTree.appendQuoted(string, to: &text)
        case .raw(let raw): text += raw
        case .array(let elements):
            let scalarsOnly = elements.allSatisfy { !$0.isContainer }
            guard let indent, !scalarsOnly, !elements.isEmpty else {
                text += "["
                for (index, element) in elements.enumerated() {
                    if index > 0 { text += indent == nil ? "," : ", " }
                    element.render(into: &text, indent: nil)
                }
                text += "]"
                return
            }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += String(repeating: " ", count: indent + 2)
                element.render(into: &text, indent: indent + 2)
                text += index == elements.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            guard let indent, !members.isEmpty else {
                text += "{"
                for (index, member) in members.enumerated() {
                    if index > 0 { text += indent == nil ? "," : ", " }
                    JSONTree.appendQuoted(member.key, to: &text)
                    text += ":"
                    member.value.render(into: &text, indent: nil)
                }
                text += "}"
                return
            }
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += String(repeating: " ", count: indent + 2)
                JSONTree.appendQuoted(member.key, to: &text)
                text += ": "
                member.value.render(into: &text, indent: indent + 2)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: " ", count: indent) + "}"
        }
    }

    var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }

    /// A JSON string literal: the escapes RFC 8259 requires, everything else as UTF-8.
    static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

/// One member of a JSON object, in file order.
struct JSONMember: Sendable {
    var key: String
    var value: JSONTree
}
