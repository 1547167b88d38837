import WidgetSim

/// `widgetsim simulate`: run a scenario and write its reports.
struct SimulateCommand: Command {
    static let name = "simulate"
    static let abstract = "Run a scenario and write its reports."
    static let arguments = "<scenario> [--seed <n>] [--days <n>] [--out <dir>]"
    static let options = [
        ScenarioOptions.seed,
        ScenarioOptions.days,
        ScenarioOptions.out,
        OptionSpec(name: "trace", short: nil, valueName: nil, help: "Also write trace.json (Chrome trace events; open in ui.perfetto.dev)."),
        ScenarioOptions.parameters,
        ScenarioOptions.scenarios,
        ScenarioOptions.quiet,
    ]
    static let discussion = """
        <scenario> is a name looked up as Scenarios/<name>.json, or a path to a
        scenario file. The reports (reloads.csv, views.csv, daily.csv, summary.md
        and its SVG charts) are written to a temporary directory and moved into
        place only when all are complete, so a failed run leaves the previous
        reports as they were.
        """

    var scenario: ScenarioReference
    var seed: UInt64?
    var days: Int?
    var outputDirectory: String
    var quiet: Bool
    var trace: Bool
    var parameters: String?

    init(_ arguments: ParsedArguments) throws(CommandError) {
        scenario = try ScenarioReference(single: arguments)
        seed = try arguments.seed("seed")
        days = try arguments.integer("days", in: 1...ScenarioLimits.maximumDays)
        outputDirectory = arguments.value("out") ?? "Reports/\(scenario.baseName)"
        guard !outputDirectory.isEmpty else { throw .usage("option '--out' needs a directory") }
        quiet = arguments.has("quiet")
        trace = arguments.has("trace")
        parameters = arguments.value("parameters")
    }

    func run(console: Console) throws(CommandError) {
        var setup = try scenario.load(parameters: parameters)
        try scenario.requireDeviceList(setup)
        if let seed { setup.seed = seed }
        if let days { setup.days = days }
        try scenario.requireWithinLimits([setup], command: "simulate", overridden: days != nil)
        try checkReportDestination(outputDirectory)
        let collector: ReportCollector
        do {
            collector = try Simulation.run(setup)
        } catch {
            throw ScenarioReference.stopped(error)
        }
        let files = ReportWriter(setup: setup, collector: collector).files(trace: trace)
        try writeReports(files, to: outputDirectory)
        guard !quiet else { return }
        let widgets = setup.devices.reduce(0) { $0 + $1.widgets.count }
        console.out("\(setup.name): \(setup.days) days, \(setup.devices.count) device(s), \(widgets) widget(s), seed \(setup.seed)")
        console.out("  \(collector.reloads.count) provider calls, \(collector.views.count) views, \(collector.withheld.reduce(0) { $0 + $1.requests }) withheld requests")
        console.out("  wrote \(files.map(\.name).joined(separator: ", ")) to \(outputDirectory)/")
    }
}
