/// A strict RFC 8259 JSON parser that records each value's line and column.
///
/// Promised: it accepts exactly RFC 8259 JSON (no comments, no trailing
/// commas), rejects duplicate keys in one object, and reports the first error
/// with its position. It runs in time linear in the input (duplicate keys are
/// found with a hash set) and stops at the first value past one of its
/// limits, checked while reading: nesting deeper than `maximumDepth`, an
/// array longer than `maximumArrayCount`, an object with more than
/// `maximumObjectMembers` fields, a string longer than `maximumStringBytes`,
/// more than `maximumValues` values in all. No input crashes it.
public struct JSONParser {
    public static let maximumDepth = 256
    /// The longest array: far more than any scenario needs (1,000 devices,
    /// 10,000 timeline entries), far less than would exhaust memory.
    public static let maximumArrayCount = 100_000
    /// The most fields in one object: a scenario object has a few dozen.
    public static let maximumObjectMembers = 10_000
    /// The longest string, in UTF-8 bytes.
    public static let maximumStringBytes = 1_048_576
    /// The most values in one document, so memory stays bounded whatever the shape.
    public static let maximumValues = 2_000_000

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0
    private var values = 0

    /// Parses a whole document.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        // A UTF-8 byte-order mark is tolerated, as editors write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the top-level value")
        }
        return node
    }

    /// Parses UTF-8 text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    private func error(_ message: String, at position: SourcePosition? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position ?? self.position)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line += 1
            column = 1
        } else if bytes[index] & 0xC0 != 0x80 {
            // Count characters, not UTF-8 continuation bytes.
            column += 1
        }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = position
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        values += 1
        if values > JSONParser.maximumValues {
            throw error("more than \(JSONParser.maximumValues) values in one file, the most a scenario may hold")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(value: try parseObject(), position: start)
        case UInt8(ascii: "["): return JSONNode(value: try parseArray(), position: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), position: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(value: .bool(true), position: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(value: .bool(false), position: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(value: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), position: start)
        default:
            throw error("unexpected \(describeCurrent()); expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let start = position
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("invalid literal; expected '\(word)'", at: start)
            }
            advance()
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode.Value {
        try enter()
        advance()  // {
        var members: [JSONNode.Member] = []
        // Small objects are searched directly; larger ones through a set, so
        // an object with many keys is still read in linear time.
        var keys = Set<String>()
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected a field name in double quotes")
            }
            let keyPosition = position
            let key = try parseString()
            let duplicate: Bool
            if members.count < 16 {
                duplicate = members.contains { $0.key == key }
            } else {
                if keys.isEmpty { keys = Set(members.map(\.key)) }
                duplicate = keys.contains(key)
            }
            if duplicate { throw error("duplicate field \"\(key)\"", at: keyPosition) }
            if members.count >= JSONParser.maximumObjectMembers {
                throw error("an object with more than \(JSONParser.maximumObjectMembers) fields, the most a scenario may hold", at: keyPosition)
            }
            if members.count >= 16 { keys.insert(key) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after field name")
            }
            advance()
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                advance()
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                advance()
                depth -= 1
                return .object(members)
            }
            throw error("unexpected \(describeCurrent()); expected ',' or '}'")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode.Value {
        try enter()
        advance()  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if elements.count >= JSONParser.maximumArrayCount {
                throw error("an array of more than \(JSONParser.maximumArrayCount) values, the most a scenario may hold")
            }
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                advance()
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                advance()
                depth -= 1
                return .array(elements)
            }
            throw error("unexpected \(describeCurrent()); expected ',' or ']'")
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        advance()  // "
        // One UTF-8 buffer for the whole string, escapes encoded into it and
        // validated once at the end: appending to a scalar view per escape
        // copied it each time, which made escaped strings quadratic.
        var buffer: [UInt8] = []
        // Bytes read so far (escapes count as their bytes).
        var length = 0
        func append(_ scalar: Unicode.Scalar) {
            UTF8.encode(scalar) { buffer.append($0) }
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw JSONSyntaxError(message: "invalid UTF-8 in string", position: start)
                }
                return text
            case UInt8(ascii: "\\"):
                advance()
                guard index < bytes.count else { throw error("unterminated string", at: start) }
                let escape = bytes[index]
                advance()
                switch escape {
                case UInt8(ascii: "\""): append("\"")
                case UInt8(ascii: "\\"): append("\\")
                case UInt8(ascii: "/"): append("/")
                case UInt8(ascii: "b"): append("\u{08}")
                case UInt8(ascii: "f"): append("\u{0C}")
                case UInt8(ascii: "n"): append("\n")
                case UInt8(ascii: "r"): append("\r")
                case UInt8(ascii: "t"): append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        advance()
                        advance()
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    append(Unicode.Scalar(code)!)
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in string")
                }
            case 0x00..<0x20:
                throw error("control character in string; write it as an escape such as \\n")
            default:
                buffer.append(byte)
                advance()
            }
            length += 1
            if length > JSONParser.maximumStringBytes {
                throw error("a string longer than \(JSONParser.maximumStringBytes) bytes, the most a scenario may hold", at: start)
            }
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = JSONParser.hexValue(bytes[index]) else {
                throw error("invalid \\u escape; expected four hex digits")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        let startPosition = position
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        if bytes[index] == UInt8(ascii: "-") { advance() }
        guard isDigit(index) else { throw error("invalid number", at: startPosition) }
        if bytes[index] == UInt8(ascii: "0") {
            advance()
            if isDigit(index) { throw error("invalid number: leading zero", at: startPosition) }
        } else {
            while isDigit(index) { advance() }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            advance()
            guard isDigit(index) else { throw error("invalid number: expected digits after '.'", at: startPosition) }
            while isDigit(index) { advance() }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            advance()
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { advance() }
            guard isDigit(index) else { throw error("invalid number: expected digits in exponent", at: startPosition) }
            while isDigit(index) { advance() }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
