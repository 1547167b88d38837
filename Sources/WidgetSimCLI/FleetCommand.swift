import Foundation
import WidgetSim

/// `widgetsim fleet`: simulate a population of devices and report server load.
struct FleetCommand: Command {
    static let name = "fleet"
    static let abstract = "Simulate a fleet scenario's devices and report server load, reloads and staleness."
    static let arguments = "<scenario> [--devices <n>] [--seed <n>] [--days <n>] [--parameters <file>] [--threads <n>] [[--shard <i/n>] --partial <file> | --out <dir>]"
    static let options = [
        OptionSpec(name: "devices", short: nil, valueName: "n", help: "Override the number of devices (1...\(FleetSetup.maximumDevices))."),
        ScenarioOptions.seed,
        ScenarioOptions.days,
        ScenarioOptions.threads,
        OptionSpec(name: "shard", short: nil, valueName: "i/n", help: "Simulate only shard i of n (devices whose index mod n is i-1); needs --partial."),
        OptionSpec(name: "partial", short: nil, valueName: "file", help: "Write the (partial) result to this file for 'widgetsim merge' instead of a report (so not with --out); an existing file there must be an earlier partial result, or empty."),
        ScenarioOptions.out,
        ScenarioOptions.parameters,
        ScenarioOptions.scenarios,
        ScenarioOptions.quiet,
    ]
    static let discussion = """
        Runs the base and every variant over the same devices and writes fleet.md,
        fleet.csv, server_load.csv, reloads_per_device_day.csv, load.svg and
        load-peak.svg. Memory does not grow with the number of devices.

        To spread a run over machines, run each shard with --shard i/n --partial
        part-i.txt, then 'widgetsim merge part-*.txt'; the merged report is
        byte-identical to an unsharded run.
        """

    var scenario: ScenarioReference
    var devices: Int?
    var seed: UInt64?
    var days: Int?
    var threads: Int?
    var shard: FleetRun.Shard
    var parameters: String?
    var partial: String?
    var outputDirectory: String
    var quiet: Bool

    init(_ arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError) {
        scenario = try ScenarioReference(single: arguments, catalog: catalog)
        devices = try arguments.integer("devices", in: 1...FleetSetup.maximumDevices)
        seed = try arguments.seed("seed")
        days = try arguments.integer("days", in: 1...ScenarioLimits.maximumDays)
        threads = try arguments.integer("threads", in: 1...256)
        shard = .whole
        if let text = arguments.value("shard") {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 100_000,
                  index >= 1, index <= count else {
                throw .usage("option '--shard' must be i/n with 1 ≤ i ≤ n ≤ 100000, got '\(text)'")
            }
            shard = FleetRun.Shard(index: index - 1, count: count)
            guard arguments.value("partial") != nil else {
                throw .usage("'--shard' needs '--partial <file>': a shard's result is merged later with 'widgetsim merge'")
            }
        }
        partial = try arguments.outputPath("partial", of: "file")
        if partial != nil && arguments.value("out") != nil {
            // A partial result is written instead of a report: the report comes from merging the partials.
            throw .usage("'--out' and '--partial' cannot be combined: with '--partial' no report is written; give '--out' to 'widgetsim merge <partial>...', which writes the report")
        }
        parameters = arguments.value("parameters")
        outputDirectory = try arguments.outputPath("out", of: "directory") ?? "Reports/\(scenario.baseName)"
        quiet = arguments.has("quiet")
    }

    /// Refuses, before it starts, a run (or shard) whose variants together
    /// would simulate more than `RunLimits.maximumEventsPerFleetRun` events,
    /// naming the shards that would bring each under it: 64 when `--devices`
    /// or `--days` made it too large (`asWritten`, the scenario's own, is
    /// within the limit), 65 when the scenario is.
    func requireFleetWithinLimit(_ document: ScenarioDocument, asWritten: ScenarioDocument) throws(CommandError) {
        func events(_ document: ScenarioDocument) -> Double {
            let fleetDevices = document.base.fleet?.deviceCount ?? 0
            guard fleetDevices > 0 else { return 0 }
            let mine = Double(shard.devices(of: fleetDevices).underestimatedCount)
            return document.all.reduce(0.0) { $0 + RunEstimate($1.setup).events } * mine / Double(fleetDevices)
        }
        let limit = RunLimits.maximumEventsPerFleetRun
        let planned = events(document)
        guard planned > limit else { return }
        let needed = (planned * Double(shard.count) / limit).rounded(.up)
        let split = needed <= Double(FleetPartialFile.maximumShards)
            ? "split it into at least \(Int(needed)) shards with --shard i/\(Int(needed)) --partial <file> and merge them (README, \"Fleets\"), or lower --devices or --days"
            : "even \(FleetPartialFile.maximumShards) shards, the most a run may have, would each pass it: lower --devices or --days"
        throw CommandError(
            "\(scenario.path): \(shard.count > 1 ? "this shard" : "this fleet run") would simulate about \(RunLimits.count(planned)) events over its \(DisplayText.counted(document.all.count, "variant")), more than the \(RunLimits.count(limit)) one fleet process may (at most about two hours on 2 cores, the estimate being an upper bound); \(split)",
            code: events(asWritten) > limit ? .dataError : .usage)
    }

    func run(console: Console) throws(CommandError) {
        var document = try scenario.loadDocument(parameters: parameters, warningsTo: quiet ? nil : console)
        guard document.base.fleet != nil else {
            throw CommandError("\(scenario.path) lists its devices one by one; run 'widgetsim simulate \(scenario.argument)' or 'widgetsim compare \(scenario.argument)', or describe a population with a \"fleet\" section instead of \"devices\" (README, \"Fleets\"; Scenarios/fleet-weather.json is one)", code: .usage)
        }
        // The scenario's own size, to tell a run too large as written from one --devices or --days made so.
        let asWritten = document
        if let devices { document.override { $0.population.updateFleet { $0.deviceCount = devices } } }
        if let seed { document.override { $0.seed = seed } }
        if let days { document.override { $0.days = days } }
        if !quiet { scenario.warnOfInstantsAfterEnd(document, console: console) }
        let beyondEnd = (document.base.fleet?.moments.count ?? 0) - FleetResult.momentsWithin(document.base).count
        if beyondEnd > 0 && !quiet {
            console.err("warning: \(scenario.path): \(beyondEnd) of the fleet's moments fall after the \(document.base.days)-day run ends; the report leaves them out")
        }
        var options = FleetRun.Options()
        if let threads { options.threads = threads }
        options.shard = shard
        try FleetMemory.check(document, threads: options.threads, file: scenario.path, overridden: days != nil || threads != nil)
        try scenario.requireWithinLimits(document.all.map(\.setup), command: "fleet", threads: options.threads, overridden: days != nil || devices != nil)
        try requireFleetWithinLimit(document, asWritten: asWritten)
        if let partial {
            do {
                try ReportDirectory.checkPartialDestination(partial, inputs: scenario.inputFiles(parameters: parameters))
            } catch {
                throw CommandError(error)
            }
        } else {
            try checkReportDestination(outputDirectory)
        }

        let deviceTotal = shard.devices(of: document.base.fleet!.deviceCount).underestimatedCount
        let variants = document.all.count
        var result = try withProgress("fleet \(document.base.name)", quiet: quiet) { progress throws(RunLimitExceeded) in
            try FleetResult.run(document, fingerprint: document.fingerprint, options: options) { variant, done in
                progress?.update(done: variant * deviceTotal + done, total: variants * deviceTotal, unit: "device runs (devices × variants)")
            }
        }
        if let partial {
            // So that merge writes the report where this run would have (a
            // name no directory can take is left out: merge then needs --out).
            result.reportName = FleetPartialFile.isReportName(scenario.baseName) ? scenario.baseName : nil
            try writePartial(FleetPartialFile.render(result), to: partial, inputs: scenario.inputFiles(parameters: parameters))
            if !quiet { console.out("wrote shard \(shard) of '\(result.scenario)' (\(DisplayText.counted(deviceTotal, "device"))) to \(DisplayText.visible(partial))") }
            return
        }
        let files = FleetReport(result).files()
        try writeReports(files, to: outputDirectory)
        guard !quiet else { return }
        console.out(summaryLine(result))
        console.out("wrote \(files.map(\.name).joined(separator: ", ")) to \(DisplayText.visible(outputDirectory))/")
    }

    func summaryLine(_ result: FleetResult) -> String {
        // Each variant's own counts: variants differ in events (a policy that
        // reloads less handles fewer), and may differ in widget-days.
        let events = result.variants.reduce(0) { $0 + $1.aggregate.events }
        var text = "\(result.scenario): \(DisplayText.counted(result.deviceCount, "device")) × \(DisplayText.counted(result.days, "day")), \(events) events in all"
        for variant in result.variants {
            text += "\n  \(variant.name): peak \(variant.aggregate.requestsPerMinute.max() ?? 0) requests/minute, \(variant.aggregate.requests) requests, \(variant.aggregate.widgetDays) widget-days, \(variant.aggregate.events) events"
        }
        return text
    }
}

/// `widgetsim merge`: combine partial fleet results into one report.
struct MergeCommand: Command {
    static let name = "merge"
    static let abstract = "Merge the partial results of a sharded fleet run into its report."
    static let arguments = "<partial>... [--out <dir>]"
    static let options = [
        OptionSpec(name: "out", short: "o", valueName: "dir", help: "Report directory (default: Reports/<file name>, the scenario file's base name the partial files record)."),
        ScenarioOptions.quiet,
    ]
    static let discussion = """
        Every shard of the run must be given exactly once. The report is
        byte-identical to an unsharded run's, and without --out it goes where
        the unsharded run's goes: Reports/<file name>, the scenario file's base
        name, which each partial file records. Partial files that do not
        record it (written by an older widgetsim), or that name different
        reports, need --out.
        """

    var files: [String]
    var outputDirectory: String?
    var quiet: Bool

    // Partial files hold counters, not providers, so the catalog goes unused.
    init(_ arguments: ParsedArguments, catalog _: SwiftCatalog) throws(CommandError) {
        guard !arguments.positionals.isEmpty else { throw .usage("missing <partial> files") }
        files = arguments.positionals
        outputDirectory = try arguments.outputPath("out", of: "directory")
        quiet = arguments.has("quiet")
    }

    func run(console: Console) throws(CommandError) {
        if let outputDirectory { try checkReportDestination(outputDirectory) }
        // One partial at a time, added as it is read: memory stays that of one
        // result whatever the number of shards.
        var merged: FleetResult?
        // The first file without a report name, or naming another than the first file's.
        var unnamed: String?
        var otherReport: (file: String, name: String)?
        for file in files {
            let text: String
            do {
                text = try InputFile.text(at: file, limit: FleetPartialFile.maximumFileBytes)
            } catch {
                throw CommandError("\(error.path): cannot read the partial result: \(error.reason)", code: error.isDataError ? .dataError : .noInput)
            }
            do {
                let part = try FleetPartialFile.parse(text, file: file)
                if part.reportName == nil { unnamed = unnamed ?? file }
                if let name = part.reportName, let first = merged?.reportName, name != first { otherReport = otherReport ?? (file, name) }
                if merged == nil { merged = part } else { try merged!.absorb(part) }
            } catch {
                // Which file could not join: the first one read sets the run.
                let joining = merged == nil || error.file != nil
                    ? "" : "\(file) does not join \(files[0]): "
                throw CommandError(joining + error.description, code: .dataError)
            }
        }
        guard let merged else { throw CommandError("missing <partial> files", code: .usage) }
        do {
            try merged.requireComplete()
        } catch {
            throw CommandError(error.description, code: .dataError)
        }
        let directory: String
        if let outputDirectory {
            directory = outputDirectory
        } else if let unnamed {
            // The scenario's name field is not the file name the unsharded run's
            // report went under: guessing could replace another scenario's report.
            throw .usage("\(unnamed) does not record which report it belongs to as a plain name (it was written by an older widgetsim, or its 'report' line names a path or is not a name); give --out <dir>, such as Reports/<scenario file name>")
        } else if let otherReport {
            throw .usage("\(files[0]) and \(otherReport.file) belong to different reports ('\(DisplayText.singleLine(merged.reportName ?? ""))' and '\(DisplayText.singleLine(otherReport.name))': their shards ran from scenario files of different names); give --out <dir>")
        } else {
            directory = "Reports/\(merged.reportName ?? merged.scenario)"
        }
        let files = FleetReport(merged).files()
        try writeReports(files, to: directory)
        if !quiet { console.out("merged \(self.files.count) partial results of '\(merged.scenario)' into \(DisplayText.visible(directory))/") }
    }
}

/// Refuses fleet runs that would need more memory than the machine has, before starting.
enum FleetMemory {
    static func estimate(days: Int, variants: Int, threads: Int) -> Int {
        // One aggregate per thread while running.
        FleetAggregate.plannedBytes(days: days, variants: variants, inFlight: threads)
    }

    /// Refuses, naming the scenario `file` as every refusal of a run does,
    /// with exit 65, or 64 when a command-line option (`--days`,
    /// `--threads`) made the run too large, as `requireWithinLimits` does.
    static func check(_ document: ScenarioDocument, threads: Int, file: String, overridden: Bool) throws(CommandError) {
        let bytes = estimate(days: document.base.days, variants: document.all.count, threads: threads)
        if bytes > RunLimits.memoryLimitBytes {
            throw CommandError(
                "\(file): this fleet run (\(DisplayText.counted(document.base.days, "day")) × \(document.all.count) variants × \(threads) threads) would need about \(RunLimits.gib(Double(bytes))) GiB of memory; the limit on this machine is \(RunLimits.gib(Double(RunLimits.memoryLimitBytes))) GiB. Use fewer threads, variants or days",
                code: overridden ? .usage : .dataError)
        }
    }
}

/// Writes a partial result atomically (temporary file, then rename), once
/// more checking that it replaces nothing but an earlier partial result (or an empty file)
/// (a long run leaves time for a file to appear there).
func writePartial(_ text: String, to path: String, inputs: [String]) throws(CommandError) {
    do {
        try ReportDirectory.checkPartialDestination(path, inputs: inputs)
        try ReportDirectory.writeFile(text, to: path)
    } catch {
        // The same codes as a report directory's: 73 when it cannot be created, 74 when it cannot be written.
        throw CommandError(error)
    }
}
