/// `parameters.csv`, read back for an audit.
extension ReportRules {
    /// Reads `parameters.csv`.
    public static func parse(_ text: String, file: String) throws(CheckViolation) -> ReportRules {
        let table = try CSVTable.audited(text, file: file, header: header)
        var rules = ReportRules()
        var firstLines: [String: Int] = [:]
        for line in table.rows {
            let name = line.fields[0]
            let value = line.fields[1]
            guard let row = rows.first(where: { $0.name == name }) else {
                throw CheckViolation(
                    file: file, line: line.line, kind: .badData,
                    message: "unknown parameter '\(name)'; allowed: \(rows.map(\.name).joined(separator: ", "))")
            }
            // A file that says two things of one rule does not say which the run had.
            if let first = firstLines[name] {
                throw CheckViolation(
                    file: file, line: line.line, kind: .badData,
                    message: "parameter '\(name)' given twice (the first is line \(first)); allowed: each parameter once")
            }
            firstLines[name] = line.line
            guard row.read(value, &rules.parameters) else {
                throw CheckViolation(
                    file: file, line: line.line, kind: .badData,
                    message: "parameter '\(name)' has value '\(value)'; allowed: \(row.allowed)")
            }
        }
        return rules
    }

    /// Sets the rule named `name` (a row of `parameters.csv`) from `text`.
    /// Returns nil when it is set, or what the rule allows when it is not.
    public mutating func set(_ name: String, to text: String) -> String? {
        guard let row = ReportRules.rows.first(where: { $0.name == name }) else {
            return "one of the rules " + ReportRules.rows.map(\.name).joined(separator: ", ")
        }
        return row.read(text, &parameters) ? nil : row.allowed
    }
}

extension CSVTable {
    /// Reads a report file; a file not in the expected columns is bad data for the audit.
    static func audited(_ text: String, file: String, header: [String]) throws(CheckViolation) -> CSVTable {
        do {
            return try CSVTable(text, header: header)
        } catch {
            throw CheckViolation(error, file: file)
        }
    }
}

extension CSVReader {
    /// A reader of a report file; a file not in the expected columns is bad data for the audit.
    static func audited(_ bytes: [UInt8], file: String, header: [String]) throws(CheckViolation) -> CSVReader {
        do {
            return try CSVReader(bytes, header: header)
        } catch {
            throw CheckViolation(error, file: file)
        }
    }

    /// The next row, or nil at the end; a malformed row is bad data for the audit.
    mutating func audited(file: String) throws(CheckViolation) -> Row? {
        do {
            return try next()
        } catch {
            throw CheckViolation(error, file: file)
        }
    }
}

extension CheckViolation {
    init(_ error: CSVFormatError, file: String) {
        self.init(file: file, line: error.line, kind: .badData, message: error.message)
    }
}
