import Foundation
import WidgetSim

/// `widgetsim compare`: run a scenario's base and variants on the same seeds and rank them.
struct CompareCommand: Command {
    static let name = "compare"
    static let abstract = "Run a scenario's base and variants on the same seeds and rank them."
    static let arguments = "<scenario> [--widget <id>] [--runs <n>] [--budget-models <list> | --no-sweep] [--no-sensitivity] [--threads <n>] [--seed <n>] [--days <n>] [--parameters <file>] [--out <dir>]"
    static let options = [
        OptionSpec(name: "runs", short: "n", valueName: "n", help: "Replications per variant and budget model (1...1000, default 10)."),
        OptionSpec(name: "budget-models", short: nil, valueName: "list",
                   help: "Comma-separated budget models to run, the first used for the verdict (default: the scenario's, then the others)."),
        OptionSpec(name: "no-sweep", short: nil, valueName: nil, help: "Run the scenario's own budget model only."),
        OptionSpec(name: "no-sensitivity", short: nil, valueName: nil,
                   help: "Skip the one-at-a-time sweep of the other unknowns that the verdict cites (faster)."),
        OptionSpec(name: "widget", short: nil, valueName: "id",
                   help: "Rank the variants on this widget's numbers alone (default --out: Reports/<scenario>-<id>)."),
        ScenarioOptions.seed,
        ScenarioOptions.days,
        ScenarioOptions.threads,
        ScenarioOptions.out,
        ScenarioOptions.parameters,
        ScenarioOptions.scenarios,
        ScenarioOptions.quiet,
    ]
    static let discussion = """
        Writes comparison.csv, comparison.md and comparison.svg. The scenario's
        "variants" list the alternatives; the base scenario is compared under its
        "baseName" ("base" unless the scenario names it).
        Replication r of every variant uses the same seed, so differences come
        from the policies, not from luck. A scenario's "measureDuring" ranks on
        the views in those local hours alone (README, "Measured hours").

        The verdict also says whether the recommendation survives every other
        unknown: each [gap] parameter but the budget model (which the budget-model
        sweep covers) is set to the low and the high end of its plausible range,
        one at a time, and the variants are ranked again under the verdict's budget
        model, on the same seeds and --runs. The sentence says it holds over all of
        them, or names each unknown and value at which another variant ties with it
        or beats it. It runs each variant up to 2 x --runs more times per unknown
        (none for an unknown that cannot change its runs); --no-sensitivity skips it.
        'widgetsim sensitivity' has the full analysis (the budget model too, and
        all unknowns at once).

        With several widgets, the verdict pools them all; comparison.md also
        ranks the variants for each widget alone, and comparison-widgets.csv
        has those rows. --widget <id> writes one widget's full comparison: its
        reloads, withheld requests, views, staleness and provider calls alone
        (the other unknowns' sweep, which ranks pooled numbers, is skipped).
        """

    var scenario: ScenarioReference
    var runs: Int
    var budgetModels: [BudgetModel]?
    var noSweep: Bool
    var noSensitivity: Bool
    var seed: UInt64?
    var days: Int?
    var threads: Int?
    var outputDirectory: String
    /// `--out`, when given.
    var givenDirectory: String?
    var quiet: Bool
    var parameters: String?
    var widget: String?

    init(_ arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError) {
        scenario = try ScenarioReference(single: arguments, catalog: catalog)
        runs = try arguments.integer("runs", in: 1...1_000) ?? 10
        noSweep = arguments.has("no-sweep")
        noSensitivity = arguments.has("no-sensitivity")
        if let list = arguments.value("budget-models") {
            guard !noSweep else { throw .usage("'--budget-models' and '--no-sweep' cannot be combined") }
            var models: [BudgetModel] = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                guard let model = BudgetModel(rawValue: name) else {
                    let names = BudgetModel.allCases.map(\.rawValue)
                    let hint = Suggestion.hint(for: name, among: names, style: .clause, quote: "'")
                    throw .usage("unknown budget model '\(name)' in '--budget-models'\(hint); allowed: \(names.joined(separator: ", "))")
                }
                guard !models.contains(model) else { throw .usage("budget model '\(name)' listed twice in '--budget-models'") }
                models.append(model)
            }
            budgetModels = models
        }
        seed = try arguments.seed("seed")
        days = try arguments.integer("days", in: 1...ScenarioLimits.maximumDays)
        threads = try arguments.integer("threads", in: 1...256)
        widget = arguments.value("widget")
        if widget?.isEmpty == true { throw .usage("option '--widget' needs a widget id") }
        // One widget's comparison goes beside the pooled one (see `run`), never over it.
        givenDirectory = try arguments.outputPath("out", of: "directory")
        outputDirectory = givenDirectory ?? "Reports/\(scenario.baseName)"
        quiet = arguments.has("quiet")
        parameters = arguments.value("parameters")
    }

    /// The runs and events of the ranking, and of the sweep of the other
    /// unknowns when it runs (`sweep`), estimated before they start.
    static func estimatedWork(_ document: ScenarioDocument, options: Comparison.Options, sweep: Bool) -> (runs: Int, events: Double) {
        let ranking = Comparison.estimatedWork(document, options: options)
        let swept = sweep ? Sensitivity.estimatedWorkCitedByComparison(document, options: options) : (runs: 0, events: 0)
        return (ranking.runs + swept.runs, ranking.events + swept.events)
    }

    func run(console: Console) throws(CommandError) {
        var outputDirectory = self.outputDirectory
        var document = try scenario.loadDocument(parameters: parameters, warningsTo: quiet ? nil : console)
        let asLoaded = document
        try scenario.requireDeviceList(document.base)
        if let seed { document.override { $0.seed = seed } }
        if let days { document.override { $0.days = days } }
        if !quiet { scenario.warnOfInstantsAfterEnd(document, console: console) }
        var options = Comparison.Options()
        options.runs = runs
        let own = document.base.scheduler.budgetModel
        // The default sweep: the scenario's own model first, then every other.
        let everyModel = [own] + BudgetModel.allCases.filter { $0 != own }
        options.budgetModels = budgetModels ?? (noSweep ? [own] : everyModel)
        if let threads { options.threads = threads }
        if let widget {
            // Named by the widget's label, whichever way it was given (`headlines`
            // or `phone/headlines`), so one widget has one directory. The
            // label's "/" becomes a "+", which no id holds, so two widgets never
            // share one ("a-b/c" and "a/b-c" would, were it a "-").
            let label = try requireWidget(widget, in: document.base)
            if givenDirectory == nil { outputDirectory = "Reports/\(scenario.baseName)-\(label.replacingOccurrences(of: "/", with: "+"))" }
        }
        try scenario.requireWithinLimits(document.all.map(\.setup), command: "compare", threads: options.threads, overridden: days != nil)
        var defaults = Comparison.Options()
        defaults.budgetModels = everyModel
        try scenario.requireAnalysisWithinLimit(
            Self.estimatedWork(document, options: options, sweep: !noSensitivity && widget == nil), analysis: "the comparison",
            shrinkWith: "fewer --runs, fewer --budget-models (or --no-sweep), --no-sensitivity, or fewer --days",
            overridden: Self.estimatedWork(asLoaded, options: defaults, sweep: widget == nil).events <= RunLimits.maximumEventsPerAnalysis)
        try checkReportDestination(outputDirectory)
        let comparison = try withProgress("compare \(document.base.name)", quiet: quiet) { progress throws(RunLimitExceeded) in
            try Comparison.run(document, options: options) { done, total in progress?.update(done: done, total: total) }
        }
        var sensitivity: Sensitivity?
        var reported = comparison
        if let widget, let reference = comparison.widget(named: widget) {
            reported = comparison.restricted(to: reference)
        }
        // The sweep of the other unknowns ranks pooled numbers: it cannot speak for one widget.
        if !noSensitivity && widget == nil {
            sensitivity = try withProgress("compare \(document.base.name): other unknowns", quiet: quiet) { progress throws(RunLimitExceeded) in
                try Sensitivity.citedByComparison(document, options: options) { done, total in progress?.update(done: done, total: total) }
            }
        }
        let report = ComparisonReport(reported, sensitivity: sensitivity)
        let files = report.files()
        // An earlier comparison's per-widget table, which this one (of one
        // widget, or of a scenario with one) does not write, would sit beside
        // this run's reports as if it were this run's.
        let written = Set(files.map(\.name))
        try writeReports(files, to: outputDirectory) { name in
            name == "comparison-widgets.csv" && !written.contains(name)
        }
        guard !quiet else { return }
        console.out(report.terminalSummary())
        console.out("wrote \(files.map(\.name).joined(separator: ", ")) to \(DisplayText.visible(outputDirectory))/")
    }
}

extension CompareCommand {
    /// Refuses, before any run, a `--widget` that names no widget of the
    /// scenario; returns the label of the one it names.
    func requireWidget(_ name: String, in setup: SimulationSetup) throws(CommandError) -> String {
        let widgets = Comparison.widgets(of: setup)
        if let found = Comparison.widget(named: name, among: widgets) { return found.label }
        let labels = widgets.map(\.label)
        let ambiguous = widgets.contains { $0.id == name } ? "; '\(name)' is on several devices, so name it as <device>/<id>" : ""
        let hint = ambiguous.isEmpty ? Suggestion.hint(for: name, among: labels, style: .clause, quote: "'") : ""
        throw .usage("option '--widget': no widget '\(DisplayText.singleLine(name))' in \(setup.name)\(ambiguous)\(hint); allowed: \(labels.joined(separator: ", "))")
    }
}

extension ScenarioDocument {
    /// Applies `change` to the base and every variant (a command-line override).
    mutating func override(_ change: (inout SimulationSetup) -> Void) {
        change(&base)
        for index in variants.indices { change(&variants[index].setup) }
    }
}

/// Writes reports, mapping failures to sysexits codes.
func writeReports(_ files: [ReportFile], to directory: String, dropping isStale: (String) -> Bool = { _ in false }) throws(CommandError) {
    do {
        try ReportDirectory.write(files, to: directory, dropping: isStale)
    } catch {
        throw CommandError(error)
    }
}

/// Refuses, before a run, a `--out` that cannot become a report directory (73).
@discardableResult
func checkReportDestination(_ directory: String) throws(CommandError) -> URL {
    do {
        return try ReportDirectory.checkDestination(directory)
    } catch {
        throw CommandError(error)
    }
}

extension CommandError {
    init(_ error: ReportWriteError) {
        switch error {
        case .cannotCreate, .cannotCreateFile, .notAReportDirectory: self.init(error.description, code: .cannotCreate)
        case .cannotWrite, .cannotReplace: self.init(error.description, code: .ioError)
        }
    }
}
