import Foundation
import WidgetSim

/// One subcommand: its options as properties, parsed and validated in `init`,
/// and `run`. Shaped like swift-argument-parser's `ParsableCommand`.
protocol Command {
    static var name: String { get }
    static var abstract: String { get }
    static var arguments: String { get }
    static var options: [OptionSpec] { get }
    static var discussion: String { get }

    /// Parses and validates; throws a usage error naming the option.
    /// `catalog` is the Swift code the scenarios may name: the library's
    /// examples, plus a package's own when its executable registered them.
    init(_ arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError)

    func run(console: Console) throws(CommandError)
}

extension Command {
    static var usageLine: String { "widgetsim \(name) \(arguments)".trimmingSpacesAtEnd() }

    static var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(usageLine)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nOPTIONS:\n"
        let width = (options.map(\.usage.count) + [14]).max()! + 2
        for option in options + [OptionSpec(name: "help", short: "h", valueName: nil, help: "Show this help.")] {
            text += "  " + option.usage.padded(to: width) + option.help + "\n"
        }
        return text
    }
}

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    func trimmingSpacesAtEnd() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// Options shared by commands that read a scenario.
enum ScenarioOptions {
    static let scenarios = OptionSpec(
        name: "scenarios", short: nil, valueName: "dir",
        help: "Directory where scenario names are looked up (default: Scenarios).")
    static let seed = OptionSpec(name: "seed", short: nil, valueName: "n", help: "Override the scenario's master seed.")
    static let days = OptionSpec(
        name: "days", short: nil, valueName: "n",
        help: "Override the number of simulated days (1...\(ScenarioLimits.maximumDays)).")
    static let threads = OptionSpec(
        name: "threads", short: nil, valueName: "n", help: "Worker threads (default: all cores); results do not depend on it.")
    static let out = OptionSpec(name: "out", short: "o", valueName: "dir", help: "Report directory (default: Reports/<scenario>).")
    static let quiet = OptionSpec(name: "quiet", short: "q", valueName: nil, help: "Print nothing but errors.")
    static let parameters = OptionSpec(
        name: "parameters", short: nil, valueName: "file",
        help: "Merge this parameters file's scheduler settings (from 'widgetsim calibrate', say) into the scenario's.")
}

extension ScenarioDocument {
    /// The variant `--variant` names; nil for none, or for the base's own
    /// name. Refuses an unknown name with the names there are.
    func chosenVariant(_ name: String?) throws(CommandError) -> Variant? {
        guard let name, name != baseName else { return nil }
        if let found = variants.first(where: { $0.name == name }) { return found }
        let names = all.map(\.name)
        let hint = Suggestion.hint(for: name, among: names, style: .clause, quote: "'")
        let none = variants.isEmpty ? " (it declares no variants)" : ""
        throw .usage("option '--variant': no variant '\(DisplayText.singleLine(name))' in \(base.name)\(none)\(hint); allowed: \(names.joined(separator: ", "))")
    }
}

/// Finds and loads a scenario given as a name or a path.
struct ScenarioReference {
    /// Where a scenario given by name is looked up without --scenarios.
    static let defaultDirectory = "Scenarios"

    let argument: String
    let directory: String
    /// The providers and apps a `"swift": "<name>"` may name.
    let catalog: SwiftCatalog

    /// `weather` means `<directory>/weather.json`; anything with a slash or
    /// ending in `.json` is a path.
    var path: String {
        argument.hasSuffix(".json") || argument.contains("/") ? argument : "\(directory)/\(argument).json"
    }

    /// The scenario as a report's reproducing command line names it: as
    /// given, unless it is a name looked up in another directory than
    /// Scenarios (then its path, so the line needs no --scenarios).
    var commandLineArgument: String {
        argument == path || directory == Self.defaultDirectory ? argument : path
    }

    /// The report directory name: the file's base name.
    var baseName: String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".json") ? String(file.dropLast(5)) : file
    }

    func load(parameters: String? = nil, warningsTo console: Console? = nil) throws(CommandError) -> SimulationSetup {
        try loadDocument(parameters: parameters, warningsTo: console).base
    }

    /// The most warnings a run prints before it only counts the rest: a
    /// scenario of ten thousand widgets with one mistake each would
    /// otherwise bury the run's own output. `validate` prints them all.
    static let warningsShown = 20

    /// The scenario with its variants, and `parameters` (a parameters file's
    /// path) merged into its scheduler. Its warnings go to `console`'s
    /// standard error, prefixed "warning: " (none when it is nil, as with
    /// --quiet), at most `limit` of them, then a line that counts the rest.
    func loadDocument(
        parameters: String? = nil, warningsTo console: Console? = nil, limit: Int = Self.warningsShown
    ) throws(CommandError) -> ScenarioDocument {
        let document = try loadDocumentQuietly(parameters: parameters)
        for warning in document.warnings.prefix(limit) { console?.err("warning: \(warning)") }
        let hidden = document.warnings.count - limit
        if hidden > 0 {
            // `validate` takes no parameters file, so it prints the scenario's
            // own warnings, not those a file's values bring (a longer spacing).
            let all = parameters == nil
                ? "'widgetsim validate \(path)' prints them all"
                : "'widgetsim validate \(path)' prints those of the scenario without \(parameters!)"
            console?.err("warning: \(path): \(hidden) more warning\(hidden == 1 ? "" : "s") not shown; \(all)")
        }
        return document
    }

    private func loadDocumentQuietly(parameters: String?) throws(CommandError) -> ScenarioDocument {
        var file: ParametersFile?
        if let parameters {
            do {
                file = try ParametersFile.load(path: parameters)
            } catch {
                throw CommandError(error.description, code: Self.exitCode(for: error))
            }
        }
        do {
            return try ScenarioLoader.loadDocument(path: path, catalog: catalog, parameters: file)
        } catch {
            var isDirectory: ObjCBool = false
            if case .fileNotFound = error, !argument.contains("/"), !argument.hasSuffix(".json"),
               FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                // A directory named where a scenario goes ("Scenarios"): a
                // bare word is a name, but this one is plainly meant as a path.
                throw CommandError(
                    "\(argument): it is a directory, not a scenario; give a scenario's name (as in 'weather', looked up in \(directory)/) or the path of its .json file",
                    code: .noInput)
            }
            if case .fileNotFound(let file, nil, _) = error, argument.hasSuffix(".json"), !argument.contains("/"),
               FileManager.default.fileExists(atPath: "\(directory)/\(argument)") {
                // "weather.json" is a path, so it is looked for here; the scenario is in the scenario directory.
                throw CommandError(
                    "\(file): no such scenario file; did you mean '\(directory)/\(argument)', or the name '\(argument.dropLast(5))'?",
                    code: .noInput)
            }
            if case .fileNotFound(let file, let suggestion, _) = error, !argument.contains("/"), !argument.hasSuffix(".json") {
                // A bare name: suggest among the known scenario names rather than file paths.
                let names = ScenarioLoader.scenarioNames(in: directory)
                var hint = Suggestion.hint(for: argument, among: names, style: .clause, quote: "'")
                if hint.isEmpty && !names.isEmpty { hint = "; known scenarios: \(names.joined(separator: ", "))" }
                if names.isEmpty {
                    // Run away from the checkout, a name finds nothing: say
                    // where names are looked up and how to look elsewhere.
                    hint = directory == Self.defaultDirectory
                        ? "; a name is looked up in \(directory)/ under the current directory, which holds no scenarios: run from the directory that holds Scenarios/ (the widgetsim checkout, or a package of your own), or give --scenarios <dir> or the path of a .json file"
                        : "; a name is looked up in \(directory)/ (option '--scenarios'), which holds no scenarios: give the path of a .json file instead"
                }
                _ = suggestion
                throw CommandError("\(file): no scenario named '\(argument)'\(hint)", code: .noInput)
            }
            throw CommandError(lines: error.lines, code: Self.exitCode(for: error))
        }
    }

    /// Warns on stderr (as `fleet` does for its moments) when `--days` ends
    /// `setup`'s run before some of its fixed instants: the run leaves them
    /// out without an error, since the scenario itself is valid.
    func warnOfInstantsAfterEnd(_ setup: SimulationSetup, console: Console) {
        let counts = setup.instantsAfterEnd
        guard let counted = Self.instantsAfterEndText(counts) else { return }
        console.err("warning: \(path): the \(setup.days)-day run ends before \(counted) of the scenario's; the report leaves them out\(Self.neverAddedNote(counts))")
    }

    /// The same for every run of `document`: the base's, then each variant
    /// whose own script or scheduled changes lose a different number (a
    /// variant may replace the script, so it may lose more or fewer).
    func warnOfInstantsAfterEnd(_ document: ScenarioDocument, console: Console) {
        warnOfInstantsAfterEnd(document.base, console: console)
        let baseCounts = document.base.instantsAfterEnd
        for variant in document.variants {
            let counts = variant.setup.instantsAfterEnd
            guard counts != baseCounts, let counted = Self.instantsAfterEndText(counts) else { continue }
            console.err(
                "warning: \(path): the \(variant.setup.days)-day run ends before \(counted) of variant '\(variant.name)'; its results leave them out\(Self.neverAddedNote(counts))")
        }
    }

    /// "2 scripted actions and 1 scheduled truth change", or with a widget
    /// added too late "2 scripted actions, 1 scheduled truth change and 1
    /// widget addition (addedAt)"; nil for none.
    static func instantsAfterEndText(_ counts: (scriptedActions: Int, scheduledChanges: Int, widgetsAdded: Int)) -> String? {
        let (actions, changes, widgets) = counts
        let parts = [
            actions > 0 ? DisplayText.counted(actions, "scripted action") : nil,
            changes > 0 ? DisplayText.counted(changes, "scheduled truth change") : nil,
            widgets > 0 ? DisplayText.counted(widgets, "widget addition") + " (addedAt)" : nil,
        ].compactMap { $0 }
        guard let last = parts.last else { return nil }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }

    /// Unlike an action left out, a widget never added stays in the reports,
    /// so the reader of its empty rows is told why.
    static func neverAddedNote(_ counts: (scriptedActions: Int, scheduledChanges: Int, widgetsAdded: Int)) -> String {
        counts.widgetsAdded > 0 ? ": a widget never added has no reloads and no views" : ""
    }

    /// Refuses, before it starts, a run past `RunLimits`: with the estimate,
    /// the field to change, and exit 65 (64 when a command-line override,
    /// such as --days or --devices, made it too large).
    func requireWithinLimits(_ setups: [SimulationSetup], command: String, threads: Int = 1, overridden: Bool) throws(CommandError) {
        for setup in setups {
            if let refusal = RunLimits.refusal(RunEstimate(setup), command: command, threads: threads) {
                throw CommandError("\(path): \(refusal)", code: overridden ? .usage : .dataError)
            }
        }
    }

    /// Refuses, before it starts, an analysis whose runs together would
    /// simulate more than `RunLimits.maximumEventsPerAnalysis` events (each
    /// run may pass the per-run limits, and a hundred thousand of them would
    /// not end for days): with the estimate and the options that shrink it,
    /// and exit 65 (64 when the options given made it too large: `overridden`
    /// is asked only then, and says whether it would run with the defaults).
    func requireAnalysisWithinLimit(
        _ work: (runs: Int, events: Double), analysis: String, shrinkWith options: String, overridden: @autoclosure () -> Bool
    ) throws(CommandError) {
        let limit = RunLimits.maximumEventsPerAnalysis
        guard work.events > limit else { return }
        throw CommandError(
            "\(path): \(analysis) would make \(RunLimits.count(Double(work.runs))) runs, about \(RunLimits.count(work.events)) events in all, more than the \(RunLimits.count(limit)) one analysis may; use \(options)",
            code: overridden() ? .usage : .dataError)
    }

    /// The files a run reads, the scenario and a `--parameters` file, which
    /// no file it writes (a partial result, a device log) may replace.
    func inputFiles(parameters: String?) -> [String] { [path] + (parameters.map { [$0] } ?? []) }

    /// A run that passed `RunLimits` while running: its reports are not written.
    static func stopped(_ error: RunLimitExceeded) -> CommandError {
        CommandError("\(error.description); no reports were written and earlier ones are unchanged", code: .dataError)
    }

    /// Fleet scenarios run with `widgetsim fleet`.
    func requireDeviceList(_ setup: SimulationSetup) throws(CommandError) {
        guard setup.fleet == nil else {
            throw CommandError("\(path) describes a fleet; run 'widgetsim fleet \(argument)'", code: .usage)
        }
    }

    static func exitCode(for error: ScenarioError) -> ExitCode {
        switch error {
        case .fileNotFound, .unreadable: return .noInput
        default: return .dataError
        }
    }
}

extension ScenarioReference {
    /// The single `<scenario>` that simulate, compare and fleet take, looked up
    /// in `--scenarios` (default `Scenarios/`).
    init(single arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError) {
        guard arguments.positionals.count == 1 else {
            throw .usage(arguments.positionals.isEmpty
                ? "missing <scenario>: a scenario name or a path to a .json file"
                : "expected one <scenario>, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
        }
        self.init(argument: arguments.positionals[0], directory: arguments.value("scenarios") ?? ScenarioReference.defaultDirectory, catalog: catalog)
    }
}
