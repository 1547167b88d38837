/// `parameters.csv`, read back for an audit.
extension ReportRules {
    /// Reads `parameters.csv`.
    public static func parse(_ text: String, file: String) throws(CheckViolation) -> ReportRules {
        let table = try CSVTable.audited(text, file: file, header: header)
        var rules = ReportRules()
        for line in table.rows {
            let name = line.fields[0]
            let value = line.fields[1]
            guard let row = rows.first(where: { $0.name == name }) else {
                throw CheckViolation(
                    file: file, line: line.line, kind: .badData,
                    message: "unknown parameter '\(name)'; allowed: \(rows.map(\.name).joined(separator: ", "))")
            }
            guard row.read(value, &rules.parameters) else {
                throw CheckViolation(
                    file: file, line: line.line, kind: .badData,
                    message: "parameter '\(name)' has value '\(value)'; allowed: \(row.allowed)")
            }
        }
        return rules
    }
}

extension CSVTable {
    /// Reads a report file; a file not in the expected columns is bad data for the audit.
    static func audited(_ text: String, file: String, header: [String]) throws(CheckViolation) -> CSVTable {
        do {
            return try CSVTable(text, header: header)
        } catch {
            throw CheckViolation(file: file, line: error.line, kind: .badData, message: error.message)
        }
    }
}
