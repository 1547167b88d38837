import Foundation
import WidgetSim

/// `widgetsim simulate`: run a scenario and write its reports.
struct SimulateCommand: Command {
    static let name = "simulate"
    static let abstract = "Run a scenario and write its reports."
    static let arguments = "<scenario> [--variant <name>] [--seed <n>] [--days <n>] [--parameters <file>] [--out <dir>] [--trace] [--device-log <file> [--device <id>]] [--quiet]"
    static let options = [
        OptionSpec(name: "variant", short: nil, valueName: "name",
                   help: "Run this variant of the scenario (as 'compare' names it) instead of the base (default --out: Reports/<scenario>-<name>)."),
        ScenarioOptions.seed,
        ScenarioOptions.days,
        ScenarioOptions.out,
        OptionSpec(name: "trace", short: nil, valueName: nil, help: "Also write trace.json (Chrome trace events; open in ui.perfetto.dev)."),
        OptionSpec(name: "device-log", short: nil, valueName: "file", help: "Also write what the simulated phone would have logged, in the device log format (README: Calibrating from your phone); an existing file there must be an earlier device log, or empty."),
        OptionSpec(name: "device", short: nil, valueName: "id", help: "The device whose log --device-log writes (default: the scenario's first)."),
        ScenarioOptions.parameters,
        ScenarioOptions.scenarios,
        ScenarioOptions.quiet,
    ]
    static let discussion = """
        <scenario> is a name looked up as Scenarios/<name>.json, or a path to a
        scenario file. The reports (reloads.csv, views.csv, daily.csv, parameters.csv,
        summary.md and its SVG charts) are written to a temporary directory and moved into
        place only when all are complete, so a failed run leaves the previous
        reports as they were. --device-log writes one phone's log: a line per
        provider call that returned a timeline, per app foreground, per
        WidgetCenter call and per App Intent run from a widget's button, as a
        real phone's extension and app can log them;
        `widgetsim calibrate` and `widgetsim check --device-log` read it.
        --variant <name> runs one of the scenario's variants (the one compare
        recommends, say) and writes its full reports, so its day can be read
        row by row; the scenario's "baseName" ("base" unless it names one) runs
        the base.
        """

    var scenario: ScenarioReference
    var seed: UInt64?
    var days: Int?
    var outputDirectory: String
    var quiet: Bool
    var trace: Bool
    var parameters: String?
    var deviceLog: String?
    var deviceID: String?
    var variant: String?

    init(_ arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError) {
        scenario = try ScenarioReference(single: arguments, catalog: catalog)
        seed = try arguments.seed("seed")
        days = try arguments.integer("days", in: 1...ScenarioLimits.maximumDays)
        variant = arguments.value("variant")
        if variant?.isEmpty == true { throw .usage("option '--variant' needs a variant name") }
        // A variant's reports must not replace the base's in the scenario's own directory.
        let baseName = scenario.baseName
        outputDirectory = try arguments.outputPath("out", of: "directory") ?? variant.map { "Reports/\(baseName)-\($0)" } ?? "Reports/\(baseName)"
        quiet = arguments.has("quiet")
        trace = arguments.has("trace")
        parameters = arguments.value("parameters")
        deviceLog = try arguments.outputPath("device-log", of: "file")
        deviceID = arguments.value("device")
        if deviceLog?.isEmpty == true { throw .usage("option '--device-log' needs a file") }
        if deviceID != nil && deviceLog == nil { throw .usage("option '--device' chooses whose --device-log to write; give --device-log <file> too") }
    }

    func run(console: Console) throws(CommandError) {
        let document = try scenario.loadDocument(parameters: parameters, warningsTo: quiet ? nil : console)
        var setup = try chosenSetup(document)
        try scenario.requireDeviceList(setup)
        if let seed { setup.seed = seed }
        if let days { setup.days = days }
        if !quiet { scenario.warnOfInstantsAfterEnd(setup, console: console) }
        try scenario.requireWithinLimits([setup], command: "simulate", overridden: days != nil)
        let reports = try checkReportDestination(outputDirectory)
        var logged: (device: Int, path: String)?
        if let deviceLog {
            let ids = setup.devices.map(\.id)
            let index: Int
            if let deviceID {
                guard let found = ids.firstIndex(of: deviceID) else {
                    throw .usage("option '--device': no device '\(DisplayText.singleLine(deviceID))' in \(setup.name); allowed: \(ids.joined(separator: ", "))")
                }
                index = found
            } else {
                index = 0
            }
            let file: URL
            do {
                file = try ReportDirectory.checkDeviceLogDestination(deviceLog, inputs: scenario.inputFiles(parameters: parameters))
            } catch {
                throw CommandError(error)
            }
            try refuseDeviceLog(at: file, inside: reports)
            logged = (index, deviceLog)
        }
        let collector: ReportCollector
        var log: DeviceLog?
        do {
            collector = try Simulation.run(setup)
            // The same run again, device by device: deterministic, so the log
            // is the very phone whose reports are written.
            if let logged { log = try Simulation.deviceLog(setup, device: logged.device) }
        } catch {
            throw ScenarioReference.stopped(error)
        }
        let files = ReportWriter(setup: setup, collector: collector).files(trace: trace)
        // The log first: the report directory's swap is the run's last act,
        // so an interruption after it never leaves the log unwritten.
        if let logged, let log {
            do {
                // Once more: a run leaves time for another file to appear there.
                try ReportDirectory.checkDeviceLogDestination(logged.path, inputs: scenario.inputFiles(parameters: parameters))
                try ReportDirectory.writeFile(log.render(), to: logged.path, completesRun: false)
            } catch {
                throw CommandError(error)
            }
        }
        // An earlier run's trace, or timeline of a widget this run does not
        // have, would sit beside this run's reports as if it were this run's.
        try writeReports(files, to: outputDirectory) { name in
            name == "trace.json" || (name.hasPrefix("timeline-") && name.hasSuffix(".svg"))
        }
        guard !quiet else { return }
        let widgets = setup.devices.reduce(0) { $0 + $1.widgets.count }
        console.out("\(setup.name): \(DisplayText.counted(setup.days, "day")), \(DisplayText.counted(setup.devices.count, "device")), \(DisplayText.counted(widgets, "widget")), seed \(setup.seed)")
        console.out("  \(collector.reloads.count) provider calls, \(collector.views.count) views, \(collector.withheld.reduce(0) { $0 + $1.requests }) withheld requests")
        console.out("  wrote \(files.map(\.name).joined(separator: ", ")) to \(DisplayText.visible(outputDirectory))/")
        if let logged, let log {
            console.out("  wrote \(logged.path): the device log of \(setup.devices[logged.device].id), \(log.lines.count) lines")
        }
    }
}

extension SimulateCommand {
    /// Refuses a `--device-log` at or below the `--out` directory (both as
    /// the system resolves them, links and "." included): the log is written
    /// first and the report directory's swap then replaces that directory
    /// whole, so the log would be lost, or replaced by a report's file of
    /// the same name, after the run said it was written.
    func refuseDeviceLog(at file: URL, inside reports: URL) throws(CommandError) {
        let directory = reports.path == "/" ? "/" : reports.path + "/"
        guard file.path == reports.path || file.path.hasPrefix(directory) else { return }
        let log = DisplayText.singleLine(deviceLog ?? file.path), out = DisplayText.singleLine(outputDirectory)
        throw .usage(
            "option '--device-log': '\(log)' is inside '\(out)', the report directory of option '--out', which the reports replace whole, so the log would be lost; allowed: a file outside '\(out)'")
    }

    /// The base, or the variant `--variant` names, whose summary says whose day it shows.
    func chosenSetup(_ document: ScenarioDocument) throws(CommandError) -> SimulationSetup {
        guard let found = try document.chosenVariant(variant) else { return document.base }
        // summary.md should say whose day it shows; the name stays the scenario's, as reports and traces use it.
        var setup = found.setup
        let what = found.description.isEmpty ? "" : ": \(found.description)"
        setup.description = "Variant '\(found.name)'\(what). The scenario: \(setup.description)"
        return setup
    }
}
