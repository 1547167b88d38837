/// The budget rules a reloads log is checked against: written beside every
/// report as `parameters.csv`, or given on the command line for a log
/// recorded from a real device.
public struct ReportRules: Equatable, Sendable {
    public var budgetModel: BudgetModel
    public var minimumSpacing: Int
    public var tokenBucketBurst: Double
    public var pushBudget: PushBudget

    public init(budgetModel: BudgetModel = .rollingWindow, minimumSpacing: Int = 300, tokenBucketBurst: Double = 0.25, pushBudget: PushBudget = .shared) {
        self.budgetModel = budgetModel
        self.minimumSpacing = minimumSpacing
        self.tokenBucketBurst = tokenBucketBurst
        self.pushBudget = pushBudget
    }

    public init(_ parameters: SchedulerParameters) {
        self.init(
            budgetModel: parameters.budgetModel, minimumSpacing: parameters.minimumSpacing,
            tokenBucketBurst: parameters.tokenBucketBurst, pushBudget: parameters.pushBudget)
    }

    static let header = ["parameter", "value"]

    /// `parameters.csv`: one rule per row.
    public func csv() -> String {
        var csv = CSVText(header: ReportRules.header)
        csv.append(["budget_model", budgetModel.rawValue])
        csv.append(["minimum_spacing_seconds", String(minimumSpacing)])
        csv.append(["token_bucket_burst", FixedDecimal.format(tokenBucketBurst, decimals: 4)])
        csv.append(["push_budget", pushBudget.rawValue])
        return csv.text
    }

    /// Reads `parameters.csv`.
    public static func parse(_ text: String, file: String) throws(CheckViolation) -> ReportRules {
        let table = try CSVTable(text, file: file, header: header)
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

/// The first thing found wrong in a report, with where it is.
public struct CheckViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: a rule the rows break, or input that cannot be audited.
    public enum Kind: Equatable, Sendable {
        /// The rows break a budget rule (the audit's finding).
        case brokenRule
        /// A file is not in the report's format (a header, a field, the row order).
        case badData
        /// A file the audit needs is not there.
        case missingFile
    }

    public var file: String
    /// The 1-based line, counting the header as line 1; 0 for the whole file.
    public var line: Int
    public var kind: Kind
    public var message: String

    public init(file: String, line: Int, kind: Kind = .brokenRule, message: String) {
        self.file = file
        self.line = line
        self.kind = kind
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// A small RFC 4180 reader for report files and logs in the same columns.
struct CSVTable {
    struct Row {
        var line: Int
        var fields: [String]
    }

    var rows: [Row] = []

    /// Parses `text`, requiring exactly `header` as its first row.
    init(_ text: String, file: String, header: [String]) throws(CheckViolation) {
        var records = try CSVTable.records(text, file: file)
        guard let first = records.first else { throw CheckViolation(file: file, line: 0, kind: .badData, message: "the file is empty; expected the header \(header.joined(separator: ","))") }
        guard first.fields == header else {
            throw CheckViolation(file: file, line: 1, kind: .badData, message: "unexpected header; expected the columns \(header.joined(separator: ","))")
        }
        records.removeFirst()
        for record in records where record.fields.count != header.count {
            throw CheckViolation(file: file, line: record.line, kind: .badData, message: "\(record.fields.count) fields; expected \(header.count) (\(header.joined(separator: ",")))")
        }
        rows = records
    }

    static func records(_ text: String, file: String) throws(CheckViolation) -> [Row] {
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
        if quoted { throw CheckViolation(file: file, line: rowLine, kind: .badData, message: "unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append(Row(line: rowLine, fields: fields))
        }
        return rows
    }
}
