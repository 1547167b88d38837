/// A CSV file as the mutator edits it: records of raw field text.
///
/// Fields keep their quotes, so rendering an unedited document gives back
/// its bytes exactly, and an edit can write a field that is not valid CSV.
struct CSVDocument: Sendable {
    /// The header first, then the data rows.
    var records: [[String]]
    var endsWithNewline: Bool
    /// Rendered rows written after `records`: how a huge file is kept, so
    /// that it costs its bytes and not an array of strings per field.
    var tail: [UInt8] = []

    init(records: [[String]], endsWithNewline: Bool = true) {
        self.records = records
        self.endsWithNewline = endsWithNewline
    }

    /// Splits at commas and newlines outside double quotes.
    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var records: [[String]] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        // Scalars, not characters: "\r\n" is one Character and would hide the newline.
        for scalar in text.unicodeScalars {
            if scalar == "\"" { quoted.toggle() }
            if !quoted && scalar == "," {
                fields.append(field)
                field = ""
            } else if !quoted && scalar == "\n" {
                fields.append(field)
                records.append(fields)
                fields = []
                field = ""
            } else {
                field.unicodeScalars.append(scalar)
            }
        }
        endsWithNewline = field.isEmpty && fields.isEmpty
        if !endsWithNewline {
            fields.append(field)
            records.append(fields)
        }
        self.records = records
    }

    var rendered: [UInt8] {
        var text = records.map { $0.joined(separator: ",") }.joined(separator: "\n")
        if (endsWithNewline || !tail.isEmpty) && !records.isEmpty { text += "\n" }
        return Array(text.utf8) + tail
    }

    var header: [String] { records.first ?? [] }
    var dataRowCount: Int { max(0, records.count - 1) }

    /// What a column holds, judged from its values in the seed.
    enum ColumnType {
        case number, timestamp, text
    }

    func columnType(_ column: Int) -> ColumnType {
        var sawNumber = false
        for record in records.dropFirst() where column < record.count {
            let value = record[column]
            if value.isEmpty { continue }
            if value.utf8.count == 25 && value.contains("T") { return .timestamp }
            if Double(value) == nil { return .text }
            sawNumber = true
        }
        return sawNumber ? .number : .text
    }

    /// Distinct values of a column in file order: the column's own vocabulary.
    func values(ofColumn column: Int) -> [String] {
        var seen: [String] = []
        for record in records.dropFirst() where column < record.count && !seen.contains(record[column]) {
            seen.append(record[column])
            if seen.count >= 32 { break }
        }
        return seen
    }
}
