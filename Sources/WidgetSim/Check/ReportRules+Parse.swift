/// `parameters.csv`, read back for an audit.
extension ReportRules {
    /// Reads `parameters.csv`.
    public static func parse(_ text: String, file: String) throws(CheckViolation) -> ReportRules {
        let table = try CSVTable.audited(text, file: file, header: header)
        var rules = ReportRules()
        for row in table.rows {
            let value = row.fields[1]
            func bad(_ allowed: String) -> CheckViolation {
                CheckViolation(file: file, line: row.line, kind: .badData, message: "parameter '\(row.fields[0])' has value '\(value)'; allowed: \(allowed)")
            }
            switch row.fields[0] {
            case "budget_model":
                guard let model = BudgetModel(rawValue: value) else { throw bad(BudgetModel.allCases.map(\.rawValue).joined(separator: ", ")) }
                rules.budgetModel = model
            case "minimum_spacing_seconds":
                guard let seconds = Int(value), seconds >= 0 else { throw bad("whole seconds ≥ 0") }
                rules.minimumSpacing = seconds
            case "token_bucket_burst":
                guard let burst = Double(value), burst > 0, burst <= 1 else { throw bad("a number in (0, 1]") }
                rules.tokenBucketBurst = burst
            case "push_budget":
                guard let push = PushBudget(rawValue: value) else { throw bad(PushBudget.allCases.map(\.rawValue).joined(separator: ", ")) }
                rules.pushBudget = push
            default:
                throw CheckViolation(file: file, line: row.line, kind: .badData, message: "unknown parameter '\(row.fields[0])'; allowed: budget_model, minimum_spacing_seconds, token_bucket_burst, push_budget")
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
