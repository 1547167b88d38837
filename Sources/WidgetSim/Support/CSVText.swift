/// Builds CSV text (RFC 4180): a header row, then rows, `\n` line endings.
struct CSVText {
    private(set) var text: String

    init(header: [String]) {
        text = header.map(CSVText.quoted).joined(separator: ",") + "\n"
    }

    mutating func append(_ fields: [String]) {
        var first = true
        for field in fields {
            if !first { text += "," }
            first = false
            text += CSVText.quoted(field)
        }
        text += "\n"
    }

    /// The field, quoted only if it holds a comma, quote or line break.
    static func quoted(_ field: String) -> String {
        // Checked on bytes: comparing Characters is needlessly slow here.
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
