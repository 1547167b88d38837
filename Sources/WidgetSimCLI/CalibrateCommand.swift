import WidgetSim

/// `widgetsim calibrate`: estimate the unknowns from a real phone's device log.
struct CalibrateCommand: Command {
    static let name = "calibrate"
    static let abstract = "Find the unknowns a real phone's device log can identify, and write a parameters file."
    static let arguments = "<device-log.csv> --scenario <scenario> [--variant <name>] [--device <id>] [--replications <n>] [--grid <n>] [--only <fields>] [--seed <n>] [--threads <n>] [--parameters <file>] [--out <dir>]"
    static let options = [
        OptionSpec(name: "scenario", short: nil, valueName: "scenario", help: "The scenario that describes the phone: its widgets, apps and user (required)."),
        OptionSpec(name: "variant", short: nil, valueName: "name",
                   help: "Describe the phone by this variant of the scenario (as 'compare' names it) instead of the base: the one whose widget asks for reloads as the log's does."),
        OptionSpec(name: "device", short: nil, valueName: "id", help: "The scenario's device that is the phone (default: its first)."),
        OptionSpec(name: "replications", short: "n", valueName: "n", help: "Simulated logs per value tried (4...200, default 16)."),
        OptionSpec(name: "grid", short: nil, valueName: "n", help: "Values tried over each unknown's range (3...50, default 9), before 5 more within the interval."),
        OptionSpec(name: "only", short: nil, valueName: "fields", help: "Fit only these unknowns, comma-separated (default: all; the unknowns are listed above)."),
        // Calibration's runs follow a seed of their own
        // (`Calibration.Options.seed`, default 1), not the scenario's, so the
        // shared help ("override the scenario's master seed") would mislead.
        OptionSpec(name: "seed", short: nil, valueName: "n", help: "The master seed of the calibration's runs (default 1; the scenario's own seed is not used)."),
        ScenarioOptions.threads,
        OptionSpec(name: "out", short: "o", valueName: "dir", help: "Report directory (default: Reports/<scenario>-calibrated, or Reports/<scenario>-<variant>-calibrated)."),
        ScenarioOptions.parameters,
        ScenarioOptions.scenarios,
        ScenarioOptions.quiet,
    ]
    static var discussion: String {
        var text = """
            Reads a device log (README: "Calibrating from your phone"; `widgetsim
            simulate --device-log` writes one) and writes calibration.md,
            calibration.csv and parameters.json to --out. Each unknown is fitted by
            simulating the scenario's phone over the unknown's range and matching a
            statistic of the simulated logs to the real one (simulated method of
            moments), with a 95 % interval from inverting the test at each value.
            An unknown the log cannot move is reported as not identifiable, and
            parameters.json holds only the fitted ones (identified, or bounded
            where the scenario's value lies outside the bound): pass it to simulate,
            compare or sensitivity with --parameters. The log should start when the
            widget was added (the learning days, F11, are left out of the daily
            count). Exits 65 for a bad log, naming its line and field.

            The unknowns are fitted to the scenario's widgets, so each must ask
            for reloads as the log's does (F2). Widget by widget, with 20 calls
            or more in the log: when the policy most of one side's calls return
            is one under a tenth of the other side's calls return, or either
            side's median wait (reload_after - the call) lies outside the other's
            central 80 % by more than a tenth (at least a minute), calibrate
            warns, and calibration.md opens with "Check the scenario first".
            Describe the widget in the scenario, or name the variant that does
            with --variant.

            THE UNKNOWNS:

            """
        let width = (CalibrationKnob.all.map(\.field.count).max() ?? 0) + 2
        for knob in CalibrationKnob.all {
            text += "  " + knob.field.padded(to: width) + "\(knob.format(knob.low)) to \(knob.format(knob.high)) (\(knob.facts)): \(knob.meaning)\n"
            text += "  " + "".padded(to: width) + "statistic: \(knob.statistic.label); needs \(knob.needs)\n"
        }
        return text
    }

    var logPath: String
    var scenario: ScenarioReference
    var variant: String?
    var deviceID: String?
    var options = Calibration.Options()
    var outputDirectory: String
    var parameters: String?
    var quiet: Bool

    init(_ arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError) {
        guard arguments.positionals.count == 1 else {
            if arguments.positionals.isEmpty { throw .usage("missing <device-log.csv>: the phone's log") }
            // Every other command takes the scenario as an argument, so a
            // second one is most likely the scenario, given without its option.
            // The log is the one that names a CSV file, when one does.
            var given = arguments.positionals
            if given.count == 2 && !given[0].lowercased().hasSuffix(".csv") && given[1].lowercased().hasSuffix(".csv") { given.swapAt(0, 1) }
            let scenarioHint = given.count == 2 && arguments.value("scenario") == nil
                ? "; the scenario goes after --scenario: widgetsim calibrate \(DisplayText.shellQuoted(given[0])) --scenario \(DisplayText.shellQuoted(given[1]))"
                : ""
            throw .usage("expected one <device-log.csv>, got \(arguments.positionals.count)\(scenarioHint)")
        }
        logPath = arguments.positionals[0]
        guard let scenarioName = arguments.value("scenario"), !scenarioName.isEmpty else {
            throw .usage("missing --scenario <scenario>: the scenario that describes the phone (its widgets, apps and user)")
        }
        scenario = ScenarioReference(argument: scenarioName, directory: arguments.value("scenarios") ?? ScenarioReference.defaultDirectory, catalog: catalog)
        variant = arguments.value("variant")
        if variant?.isEmpty == true { throw .usage("option '--variant' needs a variant name") }
        deviceID = arguments.value("device")
        options.replications = try arguments.integer("replications", in: 4...200) ?? options.replications
        options.gridPoints = try arguments.integer("grid", in: 3...50) ?? options.gridPoints
        if let seed = try arguments.seed("seed") { options.seed = seed }
        if let threads = try arguments.integer("threads", in: 1...256) { options.threads = threads }
        if let only = arguments.value("only") {
            let fields = only.split(separator: ",").map { String($0) }
            let known = CalibrationKnob.all.map(\.field)
            for field in fields where !known.contains(field) {
                throw .usage("option '--only': '\(DisplayText.singleLine(field))' is not an unknown calibrate fits; allowed: \(known.joined(separator: ", "))")
            }
            guard !fields.isEmpty else { throw .usage("option '--only' needs at least one of: \(known.joined(separator: ", "))") }
            options.knobs = fields
        }
        outputDirectory = try arguments.outputPath("out", of: "directory") ?? "Reports/\(scenario.baseName)\(variant.map { "-\($0)" } ?? "")-calibrated"
        parameters = arguments.value("parameters")
        quiet = arguments.has("quiet")
    }

    func run(console: Console) throws(CommandError) {
        let document = try scenario.loadDocument(parameters: parameters, warningsTo: quiet ? nil : console)
        let chosen = try document.chosenVariant(variant)
        let setup = chosen?.setup ?? document.base
        try scenario.requireDeviceList(setup)
        let ids = setup.devices.map(\.id)
        var device = 0
        if let deviceID {
            guard let found = ids.firstIndex(of: deviceID) else {
                throw .usage("option '--device': no device '\(DisplayText.singleLine(deviceID))' in \(setup.name); allowed: \(ids.joined(separator: ", "))")
            }
            device = found
        }
        let log = try CalibrateCommand.readLog(logPath)
        guard log.lines.contains(where: { $0.event == .timeline }) else {
            throw CommandError("\(logPath): the log has no timeline lines; nothing to calibrate from", code: .dataError)
        }
        // Each calibration run simulates the log's days, not the scenario's:
        // judged by the same limits as a compare replication on those days
        // (calibration keeps no report rows).
        let analysis = DeviceLogAnalysis(log, options: options.analysis)
        try requireSamePhone(analysis, setup: setup, device: device, console: console)
        if !quiet, let start = Calibration.startWeekdays(of: log, setup: setup, device: device), start.log != start.scenario {
            console.err("warning: \(logPath): the log starts on a \(start.log.name), the scenario on a \(start.scenario.name); calibrate replays the scenario's days from its start and reads no dates from the log, so whatever follows the weekday (weekend habits, a script's days, scheduled changes) falls on other days than the phone's: set the scenario's start to the log's first day")
        }
        var simulated = setup
        simulated.days = Calibration.simulatedDays(analysis)
        let estimate = RunEstimate(simulated)
        if let refusal = RunLimits.refusal(estimate, command: "calibrate", threads: options.threads) {
            throw CommandError(
                "\(scenario.path): calibrating against \(logPath) simulates \(DisplayText.counted(simulated.days, "day")), as long as the log: \(refusal)", code: .dataError)
        }
        let runs = Calibration.maximumRuns(options: options)
        if estimate.events * Double(runs) > RunLimits.maximumEventsPerAnalysis {
            let total = RunLimits.count(estimate.events * Double(runs))
            throw CommandError(
                "\(scenario.path): calibrating against \(logPath) would simulate up to \(DisplayText.grouped(runs)) runs of \(DisplayText.counted(simulated.days, "day")) (as long as the log), about \(RunLimits.count(estimate.events)) events each, \(total) in all, more than the \(RunLimits.count(RunLimits.maximumEventsPerAnalysis)) one calibration may; use --only, fewer --replications or --grid points, or a shorter log",
                code: .dataError)
        }
        try checkReportDestination(outputDirectory)
        let calibration: Calibration
        calibration = try withProgress("calibrate \(setup.name)", quiet: quiet) { progress throws(RunLimitExceeded) in
            try Calibration.run(analysis: analysis, of: log.file, setup: setup, device: device, options: options) { done in
                progress?.update(done: done, total: runs)
            }
        }
        let report = CalibrationReport(
            calibration, scenarioArgument: scenario.commandLineArgument, variant: chosen?.name, parameters: document.parameters,
            variantFields: chosen?.schedulerFields ?? [], baseMinimumDailyBudget: document.base.scheduler.minimumDailyBudget)
        let files = report.files()
        try writeReports(files, to: outputDirectory)
        guard !quiet else { return }
        if let warning = report.policyWarning { console.err("warning: \(logPath): \(warning)") }
        if let warning = report.variantOverrideWarning { console.err("warning: \(scenario.path): \(warning)") }
        if let warning = report.misfitWarning { console.err("warning: \(logPath): \(warning)") }
        for estimate in calibration.estimates {
            let value = estimate.knob.format(estimate.value)
            switch estimate.status {
            case .identified:
                let interval = estimate.interval.map { " (95 % interval \(estimate.knob.format($0.lowerBound)) – \(estimate.knob.format($0.upperBound)))" } ?? ""
                console.out("  \(estimate.knob.field): \(value)\(interval)")
            case .notIdentifiable: console.out("  \(estimate.knob.field): not identifiable from this log; it needs \(estimate.knob.needs)")
            case .noData: console.out("  \(estimate.knob.field): no data in this log")
            case .outsideRange:
                console.out("  \(estimate.knob.field): outside its range: no value from \(estimate.knob.format(estimate.knob.low)) to \(estimate.knob.format(estimate.knob.high)) reproduces the log; \(value) came closest")
            case .bounded:
                console.out("  \(estimate.knob.field): \(CalibrationReport.boundText(estimate, replications: calibration.options.replications))")
            }
        }
        console.out("wrote \(files.map(\.name).joined(separator: ", ")) to \(DisplayText.visible(outputDirectory))/")
    }

    /// Refuses a log none of whose widgets is on the scenario's device: the
    /// fit would describe some other phone, with confidence. Widgets of the
    /// log that the device lacks are named in a warning: the log's statistics
    /// pool every widget, the simulated logs' only the scenario's.
    func requireSamePhone(_ analysis: DeviceLogAnalysis, setup: SimulationSetup, device: Int, console: Console) throws(CommandError) {
        let phone = setup.devices[device]
        let scenarioKeys = Set(phone.widgets.map(DeviceLog.widgetKey(of:)))
        let missing = analysis.widgets.map(\.key).filter { !scenarioKeys.contains($0) }
        guard !missing.isEmpty else { return }
        let theirs = phone.widgets.map(DeviceLog.widgetKey(of:)).map { "'\(DisplayText.singleLine($0))'" }.joined(separator: ", ")
        let named = missing.prefix(5).map { "'\(DisplayText.singleLine($0))'" }.joined(separator: ", ") + (missing.count > 5 ? " and \(missing.count - 5) more" : "")
        if missing.count == analysis.widgets.count {
            throw CommandError(
                "\(logPath): none of the log's widgets (\(named)) is on device '\(phone.id)' of \(scenario.path) (\(theirs)); give the scenario, and --device, that describe the phone the log comes from",
                code: .dataError)
        }
        if !quiet {
            console.err("warning: \(logPath): the log's widgets \(named) are not on device '\(phone.id)' of \(scenario.path); their calls count in the log's statistics but not in the simulated logs', which skews the fit: add them to the scenario")
        }
    }

    /// A device log, or an error naming its line and field (65), or why it cannot be read (66).
    static func readLog(_ path: String) throws(CommandError) -> DeviceLog {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.bytes(at: path, limit: DeviceLog.maximumFileBytes)
        } catch {
            // A scenario's name where the log goes ("calibrate weather --scenario weather").
            let isLetter = { (scalar: Unicode.Scalar) in ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
            let namesAScenario = error == .missing(path: path) && path.unicodeScalars.contains(where: isLetter)
                && path.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
            let hint = namesAScenario ? "; a device log is the CSV file the phone wrote (README, \"Calibrating from your phone\"), not a scenario" : ""
            throw CommandError(error.description + hint, code: error.isDataError ? .dataError : .noInput)
        }
        if LogFormat(header: bytes) == .reloadsLog {
            throw CommandError(
                "\(path): a report's reloads log (the simulator's rows), not a device log (what a phone records: README, \"Calibrating from your phone\"); 'widgetsim check --reloads \(DisplayText.shellQuoted(path))' audits it",
                code: .dataError)
        }
        if bytes.first(where: { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0) }) == UInt8(ascii: "{") {
            throw CommandError(
                "\(path): a JSON file (a scenario, or a parameters file?), not a device log: the log is the CSV file the phone wrote (README, \"Calibrating from your phone\"), and the scenario goes after --scenario",
                code: .dataError)
        }
        do {
            return try DeviceLog.parse(bytes, file: path)
        } catch {
            throw CommandError(error.description, code: .dataError)
        }
    }
}
