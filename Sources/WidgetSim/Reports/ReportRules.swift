/// The scheduler rules a reloads log is audited against: written beside
/// every report as `parameters.csv`, or given on the command line for a log
/// recorded from a real device.
///
/// Promised: `parameters.csv` lists every rule in `ReportRules.rows`, one per
/// row, and `parse` reads back exactly what `csv()` wrote. A row that a
/// file leaves out keeps its default, so a report written before a rule
/// existed is audited as the rule's default says.
public struct ReportRules: Equatable, Sendable {
    /// The parameters the audit reads; only those in `rows` matter.
    public var parameters: SchedulerParameters

    public init(_ parameters: SchedulerParameters = SchedulerParameters()) {
        self.parameters = parameters
    }

    /// The default rules with some changed, as `check`'s options give them.
    public init(budgetModel: BudgetModel? = nil, minimumSpacing: Int? = nil, tokenBucketBurst: Double? = nil, pushBudget: PushBudget? = nil) {
        self.init()
        if let budgetModel { parameters.budgetModel = budgetModel }
        if let minimumSpacing { parameters.minimumSpacing = minimumSpacing }
        if let tokenBucketBurst { parameters.tokenBucketBurst = tokenBucketBurst }
        if let pushBudget { parameters.pushBudget = pushBudget }
    }

    public var budgetModel: BudgetModel {
        get { parameters.budgetModel }
        set { parameters.budgetModel = newValue }
    }
    public var minimumSpacing: Int {
        get { parameters.minimumSpacing }
        set { parameters.minimumSpacing = newValue }
    }
    public var pushBudget: PushBudget {
        get { parameters.pushBudget }
        set { parameters.pushBudget = newValue }
    }
    public var tokenBucketBurst: Double {
        get { parameters.tokenBucketBurst }
        set { parameters.tokenBucketBurst = newValue }
    }

    /// One audited rule: its name in `parameters.csv`, how it is written,
    /// and how it is read back (nil when the text is not allowed).
    public struct Row: Sendable {
        public var name: String
        public var allowed: String
        let write: @Sendable (SchedulerParameters) -> String
        let read: @Sendable (String, inout SchedulerParameters) -> Bool
    }

    /// Every rule the audit reads, in the order `parameters.csv` lists them.
    public static let rows: [Row] = [
        Row(name: "budget_model", allowed: BudgetModel.allCases.map(\.rawValue).joined(separator: ", "),
            write: { $0.budgetModel.rawValue },
            read: { text, parameters in
                guard let model = BudgetModel(rawValue: text) else { return false }
                parameters.budgetModel = model
                return true
            }),
        wholeNumber("minimum_spacing_seconds", 0...Seconds.day, \.minimumSpacing),
        wholeNumber("pacing_window_seconds", Seconds.hour...Seconds.day, \.pacingWindow),
        Row(name: "pacing_burst", allowed: "a decimal number from 1 to 100",
            write: { exactly($0.pacingBurst) },
            read: { text, parameters in
                guard let burst = DecimalDigits.unsignedDecimal(text), burst >= 1, burst <= 100 else { return false }
                parameters.pacingBurst = burst
                return true
            }),
        Row(name: "token_bucket_burst", allowed: "a decimal number from 0.001 to 1",
            write: { exactly($0.tokenBucketBurst) },
            read: { text, parameters in
                guard let burst = DecimalDigits.unsignedDecimal(text), burst >= 0.001, burst <= 1 else { return false }
                parameters.tokenBucketBurst = burst
                return true
            }),
        Row(name: "push_budget", allowed: PushBudget.allCases.map(\.rawValue).joined(separator: ", "),
            write: { $0.pushBudget.rawValue },
            read: { text, parameters in
                guard let push = PushBudget(rawValue: text) else { return false }
                parameters.pushBudget = push
                return true
            }),
        wholeNumber("push_daily_budget", 1...10_000, \.pushDailyBudget),
        wholeNumber("maximum_reliable_entries", 1...ConfiguredProvider.Settings.maximumEntries, \.maximumReliableEntries),
        wholeNumber("early_reload_window_seconds", 0...Seconds.day, \.earlyReloadWindow),
    ]

    /// `value` with 4 decimals when they give it back exactly, otherwise
    /// every digit it needs: `check` audits the rules as written, so they
    /// must be the run's own (a burst of 2.00004999 written as 2.0000 made
    /// a report `simulate` wrote fail its audit).
    static func exactly(_ value: Double) -> String {
        let fixed = FixedDecimal.format(value, decimals: 4)
        // Never with an exponent, which `check` refuses to read back.
        return Double(fixed) == value ? fixed : DurationText.decimal(value)
    }

    static func wholeNumber(_ name: String, _ range: ClosedRange<Int>, _ field: WritableKeyPath<SchedulerParameters, Int> & Sendable) -> Row {
        Row(name: name, allowed: "whole numbers \(range.lowerBound)...\(range.upperBound)",
            write: { String($0[keyPath: field]) },
            read: { text, parameters in
                guard let value = DecimalDigits.signed(text, in: range) else { return false }
                parameters[keyPath: field] = value
                return true
            })
    }

    static let header = ["parameter", "value"]

    /// `parameters.csv`: one rule per row.
    public func csv() -> String {
        var csv = CSVText(header: ReportRules.header)
        for row in ReportRules.rows { csv.append([row.name, row.write(parameters)]) }
        return csv.text
    }
}
