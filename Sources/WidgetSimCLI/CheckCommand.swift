import Foundation
import WidgetSim

/// `widgetsim check`: audit a report directory, or a reloads log, against the budget rules.
struct CheckCommand: Command {
    static let name = "check"
    static let abstract = "Audit a report directory, or a reloads log from a real device, against the budget rules."
    static let arguments = "<report-dir> | --reloads <file.csv> [rules]"
    static let options = [
        OptionSpec(name: "reloads", short: nil, valueName: "file", help: "Check only this reloads log (the columns of reloads.csv), e.g. recorded from a device."),
        OptionSpec(name: "budget-model", short: nil, valueName: "model", help: "rollingWindow, tokenBucket, midnightReset or unlimited (default: parameters.csv, else rollingWindow)."),
        OptionSpec(name: "minimum-spacing", short: nil, valueName: "duration", help: "Least time between budgeted reloads, e.g. 5m (default: parameters.csv, else 5m)."),
        OptionSpec(name: "push-budget", short: nil, valueName: "budget", help: "shared or free (default: parameters.csv, else shared)."),
        OptionSpec(name: "token-bucket-burst", short: nil, valueName: "fraction", help: "Bucket capacity as a fraction of the daily limit (default 0.25)."),
    ]
    static let discussion = """
        Checks that budgeted reloads are spaced, that the trailing-24-hour counts
        stay within the limit under the budget model, that free triggers use no
        budget, that budget_used_24h matches the rows, that views show timelines
        some call produced, and that daily totals add up. Exits 0 when every rule
        holds and 1 at the first violation, which it names with its file and line;
        65 when a file is not in the report's format, 66 when one is missing.
        """

    var directory: String?
    var reloadsLog: String?
    var rules: ReportRules?

    init(_ arguments: ParsedArguments) throws(CommandError) {
        reloadsLog = arguments.value("reloads")
        if reloadsLog == nil {
            guard arguments.positionals.count == 1 else { throw .usage("expected one <report-dir>, or --reloads <file.csv>") }
            directory = arguments.positionals[0]
        } else if !arguments.positionals.isEmpty {
            throw .usage("give either <report-dir> or --reloads <file.csv>, not both")
        }
        let given = ["budget-model", "minimum-spacing", "push-budget", "token-bucket-burst"].contains { arguments.value($0) != nil }
        guard given || reloadsLog != nil else { return }
        var rules = ReportRules()
        if let text = arguments.value("budget-model") {
            guard let model = BudgetModel(rawValue: text) else {
                throw .usage("unknown budget model '\(text)'; allowed: \(BudgetModel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            rules.budgetModel = model
        }
        if let text = arguments.value("minimum-spacing") {
            guard let seconds = DurationText.parse(text) ?? Double(text), seconds >= 0, seconds == seconds.rounded() else {
                throw .usage("option '--minimum-spacing' must be a duration such as 5m or 300s, got '\(text)'")
            }
            rules.minimumSpacing = Int(seconds)
        }
        if let text = arguments.value("push-budget") {
            guard let push = PushBudget(rawValue: text) else { throw .usage("unknown push budget '\(text)'; allowed: shared, free") }
            rules.pushBudget = push
        }
        if let text = arguments.value("token-bucket-burst") {
            guard let burst = Double(text), burst > 0, burst <= 1 else { throw .usage("option '--token-bucket-burst' must be in (0, 1], got '\(text)'") }
            rules.tokenBucketBurst = burst
        }
        self.rules = rules
    }

    func run(console: Console) throws(CommandError) {
        let read: (String) -> String? = { path in FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }
        do {
            if let reloadsLog {
                guard let text = read(reloadsLog) else { throw CommandError("\(reloadsLog): no such file", code: .noInput) }
                let summary = try ReportChecker.checkReloadsLog(text, file: reloadsLog, rules: rules ?? ReportRules())
                console.out("\(reloadsLog): every rule holds: \(summary.reloads) reloads \(describe(summary.rules))")
                return
            }
            var isDirectory: ObjCBool = false
            guard let directory, FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandError("\(directory ?? ""): no such report directory", code: .noInput)
            }
            let summary = try ReportChecker.checkDirectory(directory, rules: rules, read: read)
            console.out("\(directory): every rule holds: \(summary.reloads) reloads, \(summary.views) views, \(summary.dailyRows) daily rows \(describe(summary.rules))")
        } catch let violation as CheckViolation {
            switch violation.kind {
            case .brokenRule: throw CommandError("rule violated: \(violation.description)", code: .failure)
            case .badData: throw CommandError(violation.description, code: .dataError)
            case .missingFile: throw CommandError(violation.description, code: .noInput)
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("\(error)", code: .software)
        }
    }

    func describe(_ rules: ReportRules) -> String {
        "(\(rules.budgetModel.rawValue), spacing \(DurationText.format(Double(rules.minimumSpacing))), push \(rules.pushBudget.rawValue))"
    }
}
