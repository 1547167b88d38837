import WidgetSim

/// `widgetsim sensitivity`: how much each unknown moves a comparison.
struct SensitivityCommand: Command {
    static let name = "sensitivity"
    static let abstract = "Run a scenario's variants over the plausible range of every unknown and say what moves the answer."
    static let arguments = "<scenario> [--runs <n>] [--trajectories <n>] [--threads <n>] [--seed <n>] [--days <n>] [--parameters <file>] [--out <dir>]"
    static let options = [
        OptionSpec(name: "runs", short: "n", valueName: "n", help: "Replications per point and variant (1...100, default 5)."),
        OptionSpec(name: "trajectories", short: nil, valueName: "n", help: "Morris walks over all unknowns at once (0...100, default 8; 0: one at a time only)."),
        ScenarioOptions.seed,
        ScenarioOptions.days,
        ScenarioOptions.threads,
        ScenarioOptions.out,
        ScenarioOptions.parameters,
        ScenarioOptions.scenarios,
        ScenarioOptions.quiet,
    ]
    static var discussion: String {
        var text = """
            Writes sensitivity.md, sensitivity.csv and the tornado chart sensitivity.svg.
            Every unknown (a [gap] parameter: Apple gives no number) is moved across
            its plausible range one at a time, then all together in a Morris design.
            The report's first lines say whether the recommended variant stays best
            over every range (or which values flip it), which unknown matters most,
            and how far the headline numbers move. A variant keeps the scheduler
            settings it changes itself.

            THE PLAUSIBLE RANGES:

            """
        let width = (SchedulerParameters.plausibleRanges.map(\.name.count).max() ?? 0) + 2
        for unknown in SchedulerParameters.plausibleRanges {
            let span = unknown.isCategorical ? unknown.levels.joined(separator: ", ") : "\(unknown.describe(0)) to \(unknown.describe(1))"
            text += "  " + unknown.name.padded(to: width) + span + " (\(unknown.facts))\n"
            text += "  " + "".padded(to: width) + unknown.reason + "\n"
        }
        return text
    }

    var scenario: ScenarioReference
    var runs: Int
    var trajectories: Int
    var seed: UInt64?
    var days: Int?
    var threads: Int?
    var outputDirectory: String
    var parameters: String?
    var quiet: Bool

    init(_ arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError) {
        scenario = try ScenarioReference(single: arguments, catalog: catalog)
        runs = try arguments.integer("runs", in: 1...100) ?? 5
        trajectories = try arguments.integer("trajectories", in: 0...100) ?? 8
        seed = try arguments.seed("seed")
        days = try arguments.integer("days", in: 1...ScenarioLimits.maximumDays)
        threads = try arguments.integer("threads", in: 1...256)
        outputDirectory = try arguments.outputPath("out", of: "directory") ?? "Reports/\(scenario.baseName)"
        parameters = arguments.value("parameters")
        quiet = arguments.has("quiet")
    }

    func run(console: Console) throws(CommandError) {
        var document = try scenario.loadDocument(parameters: parameters, warningsTo: quiet ? nil : console)
        let asLoaded = document
        try scenario.requireDeviceList(document.base)
        if let seed { document.override { $0.seed = seed } }
        if let days { document.override { $0.days = days } }
        if !quiet { scenario.warnOfInstantsAfterEnd(document, console: console) }
        var options = Sensitivity.Options()
        options.runs = runs
        options.trajectories = trajectories
        if let threads { options.threads = threads }
        try scenario.requireWithinLimits(document.all.map(\.setup), command: "compare", threads: options.threads, overridden: days != nil)
        try scenario.requireAnalysisWithinLimit(
            Sensitivity.estimatedWork(document, options: options), analysis: "the sensitivity analysis",
            shrinkWith: "fewer --runs or --trajectories, or fewer --days",
            overridden: Sensitivity.estimatedWork(asLoaded, options: Sensitivity.Options()).events <= RunLimits.maximumEventsPerAnalysis)
        try checkReportDestination(outputDirectory)
        let sensitivity = try withProgress("sensitivity \(document.base.name)", quiet: quiet) { progress throws(RunLimitExceeded) in
            try Sensitivity.run(document, options: options) { done, total in progress?.update(done: done, total: total) }
        }
        let report = SensitivityReport(sensitivity, scenarioArgument: scenario.commandLineArgument, parametersArgument: parameters)
        let files = report.files()
        try writeReports(files, to: outputDirectory)
        guard !quiet else { return }
        console.out(report.terminalSummary())
        console.out("wrote \(files.map(\.name).joined(separator: ", ")) to \(DisplayText.visible(outputDirectory))/")
    }
}
