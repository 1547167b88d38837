/// Reads one JSON value of a scenario as a typed value, or throws a
/// `ScenarioError` that names the file, the field path and the position.
struct ValueReader {
    let node: JSONNode
    let path: String
    let file: String
    /// Where warnings go (a bare number read as seconds, say); nil to drop them.
    var warnings: ScenarioWarningLog? = nil

    var position: SourcePosition { node.position }

    func wrongType(_ expected: String) -> ScenarioError {
        .wrongType(file: file, field: path, line: position.line, column: position.column, expected: expected, found: node.typeName)
    }

    func invalid(_ reason: String, allowed: String) -> ScenarioError {
        .invalidValue(file: file, field: path, line: position.line, column: position.column, reason: reason, allowed: allowed)
    }

    func string() throws(ScenarioError) -> String {
        guard case .string(let text) = node.value else { throw wrongType("a string") }
        return text
    }

    /// A non-empty identifier of letters, digits, '.', '_' and '-': it appears
    /// in CSV rows and in file names.
    func identifier() throws(ScenarioError) -> String {
        let text = try string()
        guard ValueReader.isIdentifier(text) else {
            throw invalid("\"\(text)\" is not a usable identifier", allowed: "1 to 100 ASCII letters, digits, '.', '_' and '-', not dots alone")
        }
        return text
    }

    /// 1 to 100 ASCII letters, digits, '.', '_' and '-', not dots alone.
    /// Dots alone are refused: a name becomes a directory (`Reports/<name>`),
    /// and "." or ".." would name the current directory or its parent.
    static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.count <= 100 && text.unicodeScalars.allSatisfy(isIdentifierScalar)
            && !text.allSatisfy { $0 == "." }
    }

    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": return true
        default: return false
        }
    }

    func bool() throws(ScenarioError) -> Bool {
        guard case .bool(let value) = node.value else { throw wrongType("true or false") }
        return value
    }

    func double(in range: ClosedRange<Double>) throws(ScenarioError) -> Double {
        guard case .number(let literal) = node.value else { throw wrongType("a number") }
        guard let value = Double(literal), value.isFinite else { throw invalid("\(literal) is not a finite number", allowed: describe(range)) }
        // A weight or a probability of "1e-400" would otherwise be taken as
        // 0 without a word (a day without activity, a tap never made); one
        // below zero, however small, is outside a range that starts at 0.
        if ValueReader.underflowsToZero(literal, value: value) {
            if literal.hasPrefix("-") && range.lowerBound >= 0 { throw invalid("\(literal) is out of range", allowed: describe(range)) }
            throw invalid("\(literal) is too small to tell from 0", allowed: describe(range))
        }
        guard range.contains(value) else { throw invalid("\(literal) is out of range", allowed: describe(range)) }
        return value
    }

    /// True when the nonzero JSON number `literal` reads as `value` 0: too
    /// small for a double ("1e-400"). Its significand has a nonzero digit.
    static func underflowsToZero(_ literal: String, value: Double) -> Bool {
        value == 0 && literal.prefix(while: { $0 != "e" && $0 != "E" }).contains(where: { ("1"..."9").contains($0) })
    }

    func int(in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        guard case .number(let literal) = node.value else { throw wrongType("a whole number") }
        guard let value = Int(literal) ?? ValueReader.wholeNumber(literal) else {
            throw invalid("\(literal) is not a whole number in range", allowed: "whole numbers \(range.lowerBound)...\(range.upperBound)")
        }
        guard range.contains(value) else {
            throw invalid("\(literal) is out of range", allowed: "whole numbers \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// A whole number written with a fraction or an exponent ("7.0", "1e2"),
    /// when its value is whole and fits an `Int`; see `wholeMagnitude`.
    static func wholeNumber(_ literal: String) -> Int? {
        guard let (negative, magnitude) = wholeMagnitude(literal), let value = Int(exactly: magnitude) else { return nil }
        return negative ? -value : value
    }

    /// The sign and magnitude of the whole number a JSON number literal
    /// denotes, however it is written ("7.0", "1e2", "1.5e1", "1e19"), or
    /// nil when it is not whole or its magnitude is above `UInt64.max`.
    ///
    /// Promised: exact, read from the literal's digits. A double is not: above
    /// 2^53 it rounds to an even neighbour, so "9007199254740993.0" would read
    /// as ...992 and a seed written with an exponent could be another seed.
    static func wholeMagnitude(_ literal: String) -> (negative: Bool, magnitude: UInt64)? {
        var text = Substring(literal)
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        let parts = text.split(maxSplits: 1, omittingEmptySubsequences: false) { $0 == "e" || $0 == "E" }
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let fraction = mantissa.count == 2 ? mantissa[1] : ""
        // The value is `digits` × 10^shift, with the leading zeros dropped.
        var digits = Array((mantissa[0] + fraction).utf8.drop { $0 == UInt8(ascii: "0") })
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        if digits.isEmpty { return (negative, 0) }
        var exponent = 0
        if parts.count == 2 {
            var written = parts[1]
            let negativeExponent = written.first == "-"
            if written.first == "-" || written.first == "+" { written = written.dropFirst() }
            // An exponent past a billion leaves a nonzero number out of range or not whole.
            guard let magnitude = DecimalDigits.unsigned(written), magnitude <= 1_000_000_000 else { return nil }
            exponent = negativeExponent ? -magnitude : magnitude
        }
        var shift = exponent - fraction.count
        while shift < 0 && digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            shift += 1
        }
        // UInt64.max has 20 digits.
        guard shift >= 0, digits.count + shift <= 20 else { return nil }
        digits += repeatElement(UInt8(ascii: "0"), count: shift)
        guard let magnitude = UInt64(String(decoding: digits, as: UTF8.self)) else { return nil }
        return (negative, magnitude)
    }

    /// A whole number from 0 to `UInt64.max`, written as `int(in:)` reads
    /// one: plain digits, or with a fraction or an exponent when its value,
    /// read exactly, is whole ("1e19" is 10000000000000000000).
    func uint64() throws(ScenarioError) -> UInt64 {
        guard case .number(let literal) = node.value else { throw wrongType("a whole number") }
        let exact = ValueReader.wholeMagnitude(literal).flatMap { $0.negative && $0.magnitude != 0 ? nil : $0.magnitude }
        guard let value = UInt64(literal) ?? exact else {
            throw invalid("\(literal) is not a whole number in range", allowed: "whole numbers 0...\(UInt64.max)")
        }
        return value
    }

    func probability() throws(ScenarioError) -> Double {
        try double(in: 0...1)
    }

    /// A duration in seconds: a number of seconds, or text such as "90s", "15m", "1h30m", "2d", "0.5s".
    /// `origin` names what an instant given this way counts from ("the
    /// start of the run" for `addedAt`), for the message that a date is not one.
    /// `whole` says the field takes whole seconds only, for the message
    /// about an unknown unit such as "ms".
    func seconds(minimum: Double = 0, maximum: Double = Double(366 * Seconds.day), from origin: String? = nil, whole: Bool = false) throws(ScenarioError) -> Double {
        let allowed = "a duration such as \"30s\", \"15m\", \"1h30m\" or \"2d\", or a number of seconds, from \(DurationText.format(minimum)) to \(DurationText.format(maximum))"
        let value: Double
        switch node.value {
        case .number(let literal):
            guard let number = Double(literal), number.isFinite else { throw invalid("\(literal) is not a duration", allowed: allowed) }
            // A nonzero literal too small for a double ("1e-400") would
            // otherwise be taken as 0 without a word.
            if ValueReader.underflowsToZero(literal, value: number) {
                // Below zero, however little, is outside every duration's range.
                if literal.hasPrefix("-") && minimum >= 0 { throw invalid("\(literal) is out of range", allowed: allowed) }
                throw invalid("\(literal) is too small to tell from 0 seconds", allowed: allowed)
            }
            value = number
            // "after": 5 reads as 5 seconds, though its author may have thought in minutes. Zero has no unit to mistake.
            if number != 0 { warnings?.warn(self, ValueReader.bareNumberWarning(literal: literal, seconds: number)) }
        case .string(let text):
            guard let parsed = DurationText.parse(text) else {
                // Other fields (a script's "at", scheduledChanges) take dates, so
                // one here is a likely slip, and its "T" is no unknown unit.
                if ValueReader.looksLikeDate(text) {
                    let measured = origin.map { "a duration from \($0) (such as \"2d8h\"), not a date" } ?? "a duration (such as \"30m\"), not a date"
                    throw invalid("\"\(text)\" is a date, but this field takes a duration", allowed: "\(measured), or a number of seconds, from \(DurationText.format(minimum)) to \(DurationText.format(maximum))")
                }
                if let unit = DurationText.unknownUnit(in: text) {
                    // A distribution's parameters may be fractions of a
                    // second (a 500 ms latency); the times they draw are
                    // rounded to whole seconds. Other durations may not.
                    let finer = whole
                        ? "virtual time is whole seconds, so nothing finer than \"1s\""
                        : "a fraction of a second is written in seconds, as in \"0.5s\""
                    throw invalid(
                        "\"\(text)\" has the unit \"\(unit)\", which is not one widgetsim knows",
                        allowed: "the units d, h, m and s (days, hours, minutes, seconds), as in \"30s\", \"15m\", \"1h30m\" or \"2d\", or a number of seconds; \(finer)")
                }
                if DurationText.hasUnitsOutOfOrder(text) {
                    throw invalid("\"\(text)\" gives its units out of order", allowed: "each unit once, the largest first, as in \"1h30m\" or \"2d12h\"; \(allowed)")
                }
                throw invalid("\"\(text)\" is not a duration", allowed: allowed)
            }
            value = parsed
        default:
            throw wrongType("a duration (\"15m\" or a number of seconds)")
        }
        guard value >= minimum && value <= maximum else {
            // As written when the number is, so that "1e-320" is not echoed
            // back as 320 digits of zeros.
            let shown: String
            if case .number(let literal) = node.value { shown = literal } else { shown = DurationText.format(value) }
            throw invalid("\(shown) is out of range", allowed: allowed)
        }
        return value
    }

    /// True for text that starts as a date does, "YYYY-MM-DD".
    static func looksLikeDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(10))
        guard bytes.count == 10 else { return false }
        return bytes.indices.allSatisfy { index in
            index == 4 || index == 7 ? bytes[index] == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
        }
    }

    /// The warning for a duration written as a bare number.
    static func bareNumberWarning(literal: String, seconds: Double) -> String {
        let written = DurationText.format(seconds)
        var text = "a bare number is seconds: \(literal) means \(written); write \"\(written)\" to say so"
        if seconds == seconds.rounded() && seconds < 60 { text += ", or \"\(literal)m\" for \(literal) minutes" }
        return text
    }

    /// A duration in whole seconds.
    func wholeSeconds(minimum: Int = 0, maximum: Int = 366 * Seconds.day, from origin: String? = nil) throws(ScenarioError) -> Int {
        let value = try seconds(minimum: Double(minimum), maximum: Double(maximum), from: origin, whole: true)
        // Read from the literal's digits, as whole numbers are: a double
        // rounds 1.0000000000000000000000000001 to 1.
        if case .number(let literal) = node.value, ValueReader.wholeMagnitude(literal) == nil {
            throw invalid("\(literal) s is not a whole number of seconds", allowed: "whole seconds; virtual time has one-second resolution")
        }
        guard value == value.rounded() else {
            throw invalid("\(value) s is not a whole number of seconds", allowed: "whole seconds; virtual time has one-second resolution")
        }
        return Int(value)
    }

    /// A local clock time "HH:MM" or "HH:MM:SS", as seconds after midnight:
    /// from 00:00 to 24:00, the end of the day (a window's end, a bedtime),
    /// or to 23:59:59 when `allowingEndOfDay` is false (the time of something
    /// that happens each day, where 24:00 would be the next day's 00:00).
    /// Every message states the same allowed values: the ones accepted.
    func clockTime(allowingEndOfDay: Bool = true) throws(ScenarioError) -> Int {
        let text = try string()
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let allowed = "a local time \"HH:MM[:SS]\" from \"00:00\" to \"\(allowingEndOfDay ? "24:00" : "23:59:59")\""
        guard (2...3).contains(parts.count), let hour = DecimalDigits.unsigned(parts[0], width: 2),
              let minute = DecimalDigits.unsigned(parts[1], width: 2),
              let second = parts.count == 3 ? DecimalDigits.unsigned(parts[2], width: 2) : 0,
              (0...24).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              hour < 24 || (minute == 0 && second == 0) else {
            throw invalid("\"\(text)\" is not a clock time", allowed: allowed)
        }
        guard allowingEndOfDay || hour < 24 else { throw invalid("\"\(text)\" is the next day's \"00:00\"", allowed: allowed) }
        return hour * Seconds.hour + minute * Seconds.minute + second
    }

    /// One of an enumeration's raw values.
    func oneOf<Choice: RawRepresentable & CaseIterable>(_ type: Choice.Type) throws(ScenarioError) -> Choice where Choice.RawValue == String {
        let text = try string()
        if let choice = Choice(rawValue: text) { return choice }
        let names = Choice.allCases.map(\.rawValue)
        var hint = Suggestion.hint(for: text, among: names, style: .parenthesized)
        if hint.isEmpty, let whole = Suggestion.wholeName(endingWith: text, among: names) {
            hint = Suggestion.hint(suggesting: whole, style: .parenthesized)
        }
        throw invalid("unknown value \"\(text)\"\(hint)", allowed: names.map { "\"\($0)\"" }.joined(separator: ", "))
    }

    func array() throws(ScenarioError) -> [ValueReader] {
        guard case .array(let elements) = node.value else { throw wrongType("an array") }
        return elements.enumerated().map { ValueReader(node: $0.element, path: "\(path)[\($0.offset)]", file: file, warnings: warnings) }
    }

    func object() throws(ScenarioError) -> ObjectReader {
        try object(shaped: nil)
    }

    /// An object whose fields `form` shows (`{"min": n, "max": n}`, with
    /// their ranges), so that a value of another type is told what to write.
    func object(shaped form: String?) throws(ScenarioError) -> ObjectReader {
        guard case .object(let members) = node.value else { throw wrongType(form.map { "an object \($0)" } ?? "an object") }
        return ObjectReader(members: members, reader: self)
    }

    private func describe(_ range: ClosedRange<Double>) -> String {
        "numbers from \(DurationText.plain(range.lowerBound)) to \(DurationText.plain(range.upperBound))"
    }
}

/// Reads the fields of one JSON object.
struct ObjectReader {
    let members: [JSONNode.Member]
    let reader: ValueReader

    var file: String { reader.file }

    func fieldPath(_ key: String) -> String {
        reader.path.isEmpty ? key : "\(reader.path).\(key)"
    }

    /// The value of `key`, if present.
    func optional(_ key: String) -> ValueReader? {
        members.first { $0.key == key }.map { ValueReader(node: $0.value, path: fieldPath(key), file: file, warnings: reader.warnings) }
    }

    /// The value of `key`, which must be present.
    func required(_ key: String) throws(ScenarioError) -> ValueReader {
        guard let value = optional(key) else {
            throw .missingField(file: file, field: fieldPath(key), line: reader.position.line, column: reader.position.column)
        }
        return value
    }

    /// Throws for the first field (in file order) that is not in `allowed`.
    func rejectUnknownFields(_ allowed: [String]) throws(ScenarioError) {
        for member in members where !allowed.contains(member.key) {
            throw .unknownField(
                file: file, field: fieldPath(member.key), line: member.keyPosition.line, column: member.keyPosition.column,
                suggestion: Suggestion.nearest(to: member.key, among: allowed), allowed: allowed)
        }
    }
}
