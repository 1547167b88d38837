/// Why CSV text could not be read as the expected table.
struct CSVFormatError: Error, Equatable, Sendable {
    /// The 1-based line, counting the header as line 1; 0 for the whole text.
    var line: Int
    var message: String
}

/// A small RFC 4180 reader for report files and logs in the same columns.
struct CSVTable {
    struct Row {
        var line: Int
        var fields: [String]
    }

    var rows: [Row] = []

    /// Parses `text`, requiring exactly `header` as its first row.
    init(_ text: String, header: [String]) throws(CSVFormatError) {
        var records = try CSVTable.records(text)
        guard let first = records.first else { throw CSVFormatError(line: 0, message: "the file is empty; expected the header \(header.joined(separator: ","))") }
        guard first.fields == header else {
            throw CSVFormatError(line: 1, message: "unexpected header; expected the columns \(header.joined(separator: ","))")
        }
        records.removeFirst()
        for record in records where record.fields.count != header.count {
            throw CSVFormatError(line: record.line, message: "\(record.fields.count) fields; expected \(header.count) (\(header.joined(separator: ",")))")
        }
        rows = records
    }

    static func records(_ text: String) throws(CSVFormatError) -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var rowLine = 1
        var atFieldStart = true
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return scalars.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    if let following = next() {
                        if following == "\"" { field.unicodeScalars.append("\"") } else {
                            quoted = false
                            pending = following
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
            case ",":
                fields.append(field)
                field = ""
                atFieldStart = true
            case "\r":
                continue
            case "\n":
                fields.append(field)
                rows.append(Row(line: rowLine, fields: fields))
                fields = []
                field = ""
                atFieldStart = true
                line += 1
                rowLine = line
            default:
                field.unicodeScalars.append(scalar)
                atFieldStart = false
            }
        }
        if quoted { throw CSVFormatError(line: rowLine, message: "unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append(Row(line: rowLine, fields: fields))
        }
        return rows
    }
}
