import Foundation
import WidgetSim

/// `widgetsim check`: audit a report directory, or a reloads log, against the budget rules.
struct CheckCommand: Command {
    static let name = "check"
    static let abstract = "Audit a report directory, a reloads log, or a phone's device log against the budget rules."
    static let arguments = "<report-dir> | --reloads <file.csv> [rules] | --device-log <file.csv> [--minimum-spacing <d>]"
    static let options = [
        OptionSpec(name: "reloads", short: nil, valueName: "file", help: "Check only this reloads log (the columns of a report's reloads.csv)."),
        OptionSpec(name: "device-log", short: nil, valueName: "file", help: "Audit a device log (what a phone records: README, Calibrating from your phone): spacing, and the budget it implies."),
        OptionSpec(name: "parameters", short: nil, valueName: "file", help: "Read the rules from this parameters.csv (default: the report's own, else the defaults)."),
        OptionSpec(name: "budget-model", short: nil, valueName: "model", help: "\(BudgetModel.allCases.map(\.rawValue).joined(separator: ", ")) (default: parameters.csv, else paced)."),
        OptionSpec(name: "minimum-spacing", short: nil, valueName: "duration", help: "Least time between budgeted reloads, 0 to 24h, e.g. 5m (default: parameters.csv, else 5m)."),
        OptionSpec(name: "push-budget", short: nil, valueName: "budget", help: "\(PushBudget.allCases.map(\.rawValue).joined(separator: " or ")) (default: parameters.csv, else shared)."),
        OptionSpec(name: "token-bucket-burst", short: nil, valueName: "fraction", help: "Bucket capacity as a fraction of the daily limit, 0.001 to 1 (default 0.25)."),
    ]
    static let discussion = """
        Checks that budgeted reloads are spaced, that the trailing-24-hour counts
        stay within the limit under the budget model, that free triggers use no
        budget, that budget_used_24h matches the rows, that a view shows an entry
        only after a call of its widget returned a timeline (which entry is not
        checked: reloads.csv has no entry dates), and that daily totals add up. Exits 0 when every rule
        holds and 1 at the first violation, which it names with its file and line;
        65 when a file is not in the report's format, a number is out of range,
        or a file is too large (over 1 GiB; or a report's files together more
        than a fifth of the memory the process may plan on); 66 when one is missing or unreadable,
        or the directory is a fleet report (it keeps counters, not rows: nothing to audit).
        Times are whole seconds up to 10,000,000,000. Options override --parameters, which
        overrides the report's own parameters.csv.

        With --device-log, only what a phone can record is audited: for each
        widget, WidgetKit's own calls (those not within 2 minutes of its app's
        WidgetCenter call or of an App Intent run from its button) must be
        --minimum-spacing apart (F13), and the budget
        the log implies is reported: the most own calls in any 24 hours, and the
        smallest gap. A free reload the app cannot see (a location or locale
        change, F17) also counts as WidgetKit's own, so a close pair names its
        lines for a look. Exits 1 if two own calls are closer than the spacing.
        """

    var directory: String?
    var reloadsLog: String?
    var deviceLog: String?
    var parametersFile: String?
    var overrides: [(row: String, text: String, option: String)] = []

    // A report or a log is audited by its rows alone, never by running a provider, so the catalog goes unused.
    init(_ arguments: ParsedArguments, catalog _: SwiftCatalog = .builtIn) throws(CommandError) {
        reloadsLog = arguments.value("reloads")
        deviceLog = arguments.value("device-log")
        parametersFile = arguments.value("parameters")
        if deviceLog != nil {
            guard reloadsLog == nil, arguments.positionals.isEmpty else { throw .usage("give one of <report-dir>, --reloads <file.csv> or --device-log <file.csv>") }
            let onlySpacing = ["budget-model", "push-budget", "token-bucket-burst", "parameters"].filter { arguments.value($0) != nil }
            guard onlySpacing.isEmpty else {
                throw .usage("option '--\(onlySpacing[0])' does not apply to --device-log: a phone's log has no budget columns; only --minimum-spacing does")
            }
        } else if reloadsLog == nil {
            guard arguments.positionals.count == 1 else { throw .usage("expected one <report-dir>, or --reloads <file.csv>") }
            directory = arguments.positionals[0]
        } else if !arguments.positionals.isEmpty {
            throw .usage("give either <report-dir> or --reloads <file.csv>, not both")
        }
        // Each option is a row of parameters.csv, read by the same rule and range.
        if let text = arguments.value("budget-model") { overrides.append(("budget_model", text, "budget-model")) }
        if let text = arguments.value("minimum-spacing") {
            guard let seconds = DurationText.parse(text) ?? DecimalDigits.unsigned(text).map(Double.init), seconds.isFinite, seconds >= 0, seconds <= Double(Seconds.day),
                  seconds == seconds.rounded() else {
                throw .usage("option '--minimum-spacing' must be a whole number of seconds from 0 to 24h, such as 5m or 300s, got '\(text)'")
            }
            overrides.append(("minimum_spacing_seconds", String(Int(seconds)), "minimum-spacing"))
        }
        if let text = arguments.value("push-budget") { overrides.append(("push_budget", text, "push-budget")) }
        if let text = arguments.value("token-bucket-burst") { overrides.append(("token_bucket_burst", text, "token-bucket-burst")) }
        var probe = ReportRules()
        for override in overrides {
            if let allowed = probe.set(override.row, to: override.text) {
                throw .usage("option '--\(override.option)' must be \(allowed), got '\(override.text)'")
            }
        }
    }

    /// The rules the audit runs under: the report's (nil for a directory,
    /// which reads its own parameters.csv unless something overrides it).
    func rules() throws(CommandError) -> ReportRules? {
        guard parametersFile != nil || !overrides.isEmpty || reloadsLog != nil else { return nil }
        var rules = ReportRules()
        if let parametersFile {
            rules = try CheckCommand.parseRules(at: parametersFile)
        } else if let directory {
            // Options change some rules; the report's own file gives the rest.
            let path = directory + "/parameters.csv"
            if FileManager.default.fileExists(atPath: path) {
                rules = try CheckCommand.parseRules(at: path)
            }
        }
        for override in overrides { _ = rules.set(override.row, to: override.text) }
        return rules
    }

    /// The rules in a parameters.csv file.
    static func parseRules(at path: String) throws(CommandError) -> ReportRules {
        let text = try text(of: path)
        do {
            return try ReportRules.parse(text, file: path)
        } catch {
            // The other kind of parameters file: the JSON that calibrate writes.
            let hint = text.drop(while: \.isWhitespace).hasPrefix("{")
                ? "; check's --parameters takes a report's parameters.csv (the JSON parameters file that 'widgetsim calibrate' writes goes to simulate, compare and sensitivity)"
                : ""
            throw CommandError(error.description + hint, code: .dataError)
        }
    }

    /// A whole input file, or an error that says why it cannot be read.
    static func bytes(of path: String) throws(CommandError) -> [UInt8] {
        if let refusal = memoryRefusal([path]) { throw CommandError("\(path): \(refusal)", code: .dataError) }
        do {
            return try InputFile.bytes(at: path, limit: ReportChecker.maximumFileBytes)
        } catch {
            throw CommandError(error.description, code: error.isDataError ? .dataError : .noInput)
        }
    }

    /// Memory a check takes per byte of its files, at its peak: the bytes,
    /// the fields of the rows, and what is kept per widget-day while the next
    /// file is read. Measured at about 4 for a reloads log alone.
    static let memoryPerInputByte = 5.0

    /// Why files are refused before they are read: checking them together
    /// would take more memory than the process may plan on, and an allocation
    /// past the limit would abort the process instead of failing.
    static func memoryRefusal(_ paths: [String]) -> String? {
        var bytes = 0.0
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            bytes += Double(status.st_size)
        }
        let needed = memoryPerInputByte * bytes
        guard needed > Double(RunLimits.memoryLimitBytes) else { return nil }
        let gib = { (bytes: Double) in FixedDecimal.format(bytes / Double(1 << 30), decimals: 1) }
        return "checking \(paths.count == 1 ? "it" : "these files") would take about \(gib(needed)) GiB of memory, more than the \(gib(Double(RunLimits.memoryLimitBytes))) GiB this process may plan on (half the memory it may use, at most 8 GiB); check \(paths.count == 1 ? "a shorter file" : "a shorter report")"
    }

    static func text(of path: String) throws(CommandError) -> String {
        String(decoding: try bytes(of: path), as: UTF8.self)
    }

    func run(console: Console) throws(CommandError) {
        func read(_ path: String) throws(CheckViolation) -> [UInt8]? {
            do throws(InputFileError) {
                return try InputFile.bytes(at: path, limit: ReportChecker.maximumFileBytes)
            } catch {
                if case .missing = error { return nil }
                throw CheckViolation(file: path, line: 0, kind: error.isDataError ? .badData : .missingFile, message: error.reason)
            }
        }
        if let deviceLog {
            try auditDeviceLog(deviceLog, console: console)
            return
        }
        let rules = try rules()
        do {
            if let reloadsLog {
                let bytes = try CheckCommand.bytes(of: reloadsLog)
                if LogFormat(header: bytes) == .deviceLog {
                    throw CommandError(
                        "\(reloadsLog): a device log (what a phone records), not a reloads log; audit it with --device-log \(DisplayText.shellQuoted(reloadsLog))",
                        code: .dataError)
                }
                let summary = try ReportChecker.checkReloadsLog(bytes, file: reloadsLog, rules: rules ?? ReportRules())
                console.out("\(reloadsLog): every rule holds: \(summary.reloads) reloads \(describe(summary.rules))")
                return
            }
            var isDirectory: ObjCBool = false
            guard let directory, FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
                if let directory, let broken = InputFile.brokenLink(directory) {
                    throw CommandError("\(directory): no such report directory: \(broken.reason)", code: .noInput)
                }
                throw CommandError("\(directory ?? ""): no such report directory", code: .noInput)
            }
            guard isDirectory.boolValue else {
                // A file where a directory was meant: a report's own
                // reloads.csv, or a phone's log. Which option reads it is
                // told by its first bytes (a named pipe is never waited on).
                let quoted = DisplayText.shellQuoted(directory)
                let hint: String
                switch LogFormat(ofFileAt: directory) {
                case .deviceLog: hint = "it is a device log (what a phone records): audit it with --device-log \(quoted)"
                case .reloadsLog: hint = "it is a reloads log: check it with --reloads \(quoted), or give the report directory that holds it"
                case nil:
                    hint = "give the report directory (the one 'widgetsim simulate --out' wrote), check one reloads log with --reloads \(quoted), or a phone's device log with --device-log \(quoted)"
                }
                throw CommandError("\(directory): not a directory; \(hint)", code: .usage)
            }
            // The files of a report are held together: judged together.
            let files = ["reloads.csv", "views.csv", "daily.csv", "parameters.csv"].map { directory + "/" + $0 }
            if let refusal = CheckCommand.memoryRefusal(files) { throw CommandError("\(directory): \(refusal)", code: .dataError) }
            let summary = try ReportChecker.checkDirectory(directory, rules: rules, bytes: read)
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

extension CheckCommand {
    /// `check --device-log`: the spacing of WidgetKit's own calls, and the budget the log implies.
    func auditDeviceLog(_ path: String, console: Console) throws(CommandError) {
        let log = try CalibrateCommand.readLog(path)
        let analysis = DeviceLogAnalysis(log)
        var spacing = SchedulerParameters().minimumSpacing
        if let override = overrides.first(where: { $0.row == "minimum_spacing_seconds" }), let seconds = Int(override.text) { spacing = seconds }
        let observed = DurationText.span(analysis.observedSeconds)
        console.out("\(path): \(DisplayText.counted(analysis.lineCount, "line")), \(DisplayText.counted(analysis.widgets.count, "widget")), \(observed) observed; \(DisplayText.counted(analysis.offGaps, "silence")) over 16h, \(DisplayText.counted(analysis.clockJumps, "clock jump")) back, \(DisplayText.counted(analysis.offsetChanges, "time-zone change"))")
        var closest: (widget: String, gap: Int, line: Int)?
        for widget in analysis.widgets {
            let gaps = widget.gaps
            let smallest = gaps.min { $0.seconds < $1.seconds }
            let implied = "\(widget.mostIn24Hours) own calls at most in any 24 h"
            let gapText = smallest.map { "smallest gap \(DurationText.format(Double($0.seconds))) (line \($0.line))" } ?? "no gap"
            console.out("  \(DisplayText.singleLine(widget.key)): \(DisplayText.counted(widget.callCount, "call")), \(widget.appCalls) the app's; \(implied); \(gapText)")
            if let smallest, smallest.seconds < spacing, closest.map({ smallest.seconds < $0.gap }) ?? true {
                closest = (widget.key, smallest.seconds, smallest.line)
            }
        }
        if let closest {
            throw CommandError(
                "rule violated: \(path):\(closest.line): two of WidgetKit's own calls of \(DisplayText.singleLine(closest.widget)) are \(DurationText.format(Double(closest.gap))) apart, less than the minimum spacing \(DurationText.format(Double(spacing))) (F13); a free reload the app cannot see (location, locale: F17) would explain it",
                code: .failure)
        }
        console.out("\(path): WidgetKit's own calls are at least \(DurationText.format(Double(spacing))) apart")
    }
}

