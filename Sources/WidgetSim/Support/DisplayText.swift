/// Text from a scenario or a partial file made safe to show: in markdown
/// reports and on a terminal.
///
/// Promised: control characters (C0, DEL, C1), the Unicode controls that
/// reorder text (bidirectional overrides and isolates) and the line and
/// paragraph separators (U+2028, U+2029, which break a line as a newline
/// does) never pass through:
/// each is shown as `\u{1B}`, so an escape sequence in a scenario's
/// description cannot recolour a terminal or hide text in a report. Printable
/// text, in any script, passes unchanged.
public enum DisplayText {
    /// `text` with every control character shown as `\u{XX}`; a newline is
    /// kept when `keepingNewlines` (text that spans lines on purpose).
    public static func visible(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !(keepingNewlines && scalar == "\n") {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text for one line (of a listing, or of markdown such as a quote):
    /// visible, with line breaks as spaces so it cannot end the block it is in.
    public static func singleLine(_ text: String) -> String {
        visible(text.replacing("\r\n", with: " ").replacing("\n", with: " "))
    }

    /// Text for a markdown table cell: one line, with `|` escaped so it
    /// cannot split the cell.
    public static func markdownCell(_ text: String) -> String {
        singleLine(text).replacing("|", with: "\\|")
    }

    /// `argument` as a POSIX shell reads it back as one word: unchanged
    /// when it holds only characters no shell treats specially (so plain
    /// paths and names read as before), else in single quotes, with each
    /// `'` written `'\''`.
    public static func shellQuoted(_ argument: String) -> String {
        let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_@%+=:,./-".unicodeScalars.contains($0)
        }
        return plain ? argument : "'" + argument.replacing("'", with: "'\\''") + "'"
    }

    /// `text` as one markdown code span, on one line: fenced with more
    /// backticks than any run inside it (and padded with a space when it
    /// starts or ends with one), so no character of it can end the span
    /// early; a `|` needs no escape there, outside a table.
    public static func codeSpan(_ text: String) -> String {
        let line = singleLine(text)
        var longest = 0
        var run = 0
        for character in line {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padding = line.hasPrefix("`") || line.hasSuffix("`") ? " " : ""
        return fence + padding + line + padding + fence
    }

    /// A count with its noun, singular for one: "1 day", "3 days". `plural`
    /// defaults to the noun plus "s".
    public static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// A whole number with thousands separators: 1019795 → "1,019,795",
    /// -1234 → "-1,234" (for the command line's messages and the bench).
    public static func grouped(_ value: Int) -> String {
        var digits = String(value.magnitude)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
