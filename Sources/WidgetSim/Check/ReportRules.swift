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

    /// The scheduler parameters these rules fix (the others keep their defaults).
    public var schedulerParameters: SchedulerParameters {
        var parameters = SchedulerParameters()
        parameters.budgetModel = budgetModel
        parameters.minimumSpacing = minimumSpacing
        parameters.tokenBucketBurst = tokenBucketBurst
        parameters.pushBudget = pushBudget
        return parameters
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
