/// Why CSV text could not be read as the expected table.
struct CSVFormatError: Error, Equatable, Sendable {
    /// The 1-based line, counting the header as line 1; 0 for the whole text.
    var line: Int
    var message: String
}

/// A small RFC 4180 reader for report files and logs in the same columns,
/// one row at a time.
///
/// Promised: it reads UTF-8 bytes in one pass, holds one row at a time, and
/// stops at a row with more fields than the header, so memory stays bounded
/// by the longest row whatever the file. Quoted fields may hold commas,
/// quotes (doubled) and newlines; a carriage return outside quotes is ignored.
struct CSVReader {
    struct Row {
        /// The 1-based line the row starts on (the header is line 1).
        var line: Int
        var fields: [String]
    }

    private let bytes: [UInt8]
    private let header: [String]
    private var index = 0
    private var line = 1

    /// A reader of `bytes`, which must start with exactly `header`. A UTF-8
    /// byte-order mark before it (spreadsheets save one) is skipped: it would
    /// make a header that looks right on screen an "unexpected header".
    init(_ bytes: [UInt8], header: [String]) throws(CSVFormatError) {
        self.bytes = bytes
        self.header = header
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        guard let first = try nextRecord(limit: header.count) else {
            throw CSVFormatError(line: 0, message: "the file is empty; expected the header \(header.joined(separator: ","))")
        }
        guard first.fields == header else {
            throw CSVFormatError(line: 1, message: "unexpected header; expected the columns \(header.joined(separator: ","))")
        }
    }

    init(_ text: String, header: [String]) throws(CSVFormatError) {
        try self.init(Array(text.utf8), header: header)
    }

    /// The next row, or nil at the end.
    mutating func next() throws(CSVFormatError) -> Row? {
        guard let record = try nextRecord(limit: header.count) else { return nil }
        guard record.fields.count == header.count else {
            throw CSVFormatError(line: record.line, message: "\(record.fields.count) fields; expected \(header.count) (\(header.joined(separator: ",")))")
        }
        return record
    }

    /// The next record, stopping early once it has more than `limit` fields.
    private mutating func nextRecord(limit: Int) throws(CSVFormatError) -> Row? {
        guard index < bytes.count else { return nil }
        let rowLine = line
        var fields: [String] = []
        fields.reserveCapacity(limit)
        var field: [UInt8] = []
        var quoted = false
        var atFieldStart = true
        func tooMany() -> CSVFormatError {
            CSVFormatError(line: rowLine, message: "more than \(limit) fields; expected \(limit) (\(header.joined(separator: ",")))")
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where atFieldStart:
                quoted = true
                atFieldStart = false
            case UInt8(ascii: ","):
                fields.append(String(decoding: field, as: UTF8.self))
                guard fields.count <= limit else { throw tooMany() }
                field.removeAll(keepingCapacity: true)
                atFieldStart = true
            case UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "\n"):
                line += 1
                fields.append(String(decoding: field, as: UTF8.self))
                return Row(line: rowLine, fields: fields)
            default:
                field.append(byte)
                atFieldStart = false
            }
        }
        if quoted { throw CSVFormatError(line: rowLine, message: "unterminated quoted field") }
        if field.isEmpty && fields.isEmpty { return nil }
        fields.append(String(decoding: field, as: UTF8.self))
        return Row(line: rowLine, fields: fields)
    }
}

/// Which table a CSV file holds, told by its header as `CSVReader` reads
/// it (a byte-order mark skipped, quotes undone, a carriage return
/// ignored), for a message that names the command that reads the file.
public enum CSVHeader {
    /// True when `bytes` begin with exactly `header`. Reads no further than
    /// one field past the header's, so a file of commas costs nothing.
    public static func begins(_ bytes: [UInt8], with header: [String]) -> Bool {
        (try? CSVReader(bytes, header: header)) != nil
    }
}

/// A whole small CSV file read into rows: `parameters.csv`, say.
struct CSVTable {
    typealias Row = CSVReader.Row

    var rows: [Row] = []

    /// Parses `text`, requiring exactly `header` as its first row.
    init(_ text: String, header: [String]) throws(CSVFormatError) {
        var reader = try CSVReader(text, header: header)
        while let row = try reader.next() { rows.append(row) }
    }
}
