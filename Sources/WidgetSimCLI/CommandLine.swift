import Foundation
import WidgetSim

/// The `widgetsim` front end: picks the subcommand, runs it, and turns errors
/// into messages and sysexits codes. All logic lives in the WidgetSim library.
public enum WidgetSimCommandLine {
    static var commands: [any Command.Type] {
        [SimulateCommand.self, CompareCommand.self, SensitivityCommand.self, CalibrateCommand.self, FleetCommand.self, MergeCommand.self, CheckCommand.self, ValidateCommand.self, ListCommand.self]
    }

    static var overview: String {
        var text = """
            OVERVIEW: widgetsim simulates iOS WidgetKit's reload budget on a virtual clock.

            USAGE: widgetsim <command> [options]

            COMMANDS:

            """
        for command in commands {
            text += "  " + command.name.padded(to: 12) + command.abstract + "\n"
        }
        text += "  " + "help".padded(to: 12) + "Show help for a command.\n"
        text += "\nRun 'widgetsim help <command>' or 'widgetsim <command> --help' for a command's options.\n"
        return text
    }

    /// The whole program: widgetsim's commands, with `providers` and `apps`
    /// added to the library's examples so that scenarios can name them
    /// (`"provider": {"swift": "<name>"}`, `"apps": [{"id": ..., "swift": "<name>"}]`).
    ///
    /// It is the `main.swift` of an executable in a package of your own that
    /// depends on widgetsim; `widgetsim` itself calls it with none. Installs
    /// the interruption handlers (so reports are never left half-written),
    /// reads the process's arguments and exits with the command's code.
    public static func main(providers: [SwiftCatalog.Provider] = [], apps: [SwiftCatalog.App] = []) -> Never {
        // Test hook: a thread started before the handlers, as a package of
        // your own may start one before calling this (InterruptionTests).
        if ProcessInfo.processInfo.environment["WIDGETSIM_TEST_THREAD_BEFORE_INSTALL"] != nil {
            Thread {
                // Open to the signals whatever the mask it was started
                // with (a test runner's thread may block them).
                var signals = Interruption.interruptionSignals()
                pthread_sigmask(SIG_UNBLOCK, &signals, nil)
                while true { Thread.sleep(forTimeInterval: 3_600) }
            }.start()
            // Until it runs, so that it opens itself before `install` below.
            Thread.sleep(forTimeInterval: 0.1)
        }
        Interruption.install()
        let console = StandardConsole()
        var code = run(Array(CommandLine.arguments.dropFirst()), providers: providers, apps: apps, console: console)
        if let failure = console.outputFailure {
            // Said whatever the command's own outcome: `check` that finds a
            // broken rule exits 1 and its summary on stdout is lost all the same.
            console.err("error: standard output: \(failure); what was printed is incomplete")
            if code == .success { code = .ioError }
        }
        Interruption.exit(code.rawValue)
    }

    /// Runs the command line `arguments` (without the program name), with
    /// `providers` and `apps` added to the library's examples.
    ///
    /// A name that is empty or already taken is a programming error in the
    /// calling package, reported before any command runs (exit 70).
    public static func run(
        _ arguments: [String], providers: [SwiftCatalog.Provider] = [], apps: [SwiftCatalog.App] = [], console: Console
    ) -> ExitCode {
        let catalog: SwiftCatalog
        do {
            catalog = try SwiftCatalog.builtIn.adding(providers: providers, apps: apps)
        } catch {
            return fail(CommandError(error.description, code: .software), console: console, usage: nil)
        }
        return run(arguments, catalog: catalog, console: console)
    }

    static func run(_ arguments: [String], catalog: SwiftCatalog, console: Console) -> ExitCode {
        guard let first = arguments.first else {
            console.err(overview)
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            // "help help" and "help --help" ask about help itself: the overview says it all.
            if first == "help", arguments.count > 1, !["help", "--help", "-h"].contains(arguments[1]) {
                guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                    return fail(.usage("unknown command '\(arguments[1])'" + commandHint(arguments[1])), console: console, usage: nil)
                }
                console.out(command.help)
            } else {
                console.out(overview)
            }
            return .success
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            return fail(.usage("unknown command '\(first)'" + commandHint(first)), console: console, usage: nil)
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.help)
            return .success
        }
        do {
            let parsed = try ParsedArguments(rest, options: command.options, command: command.name)
            let instance = try command.init(parsed, catalog: catalog)
            try instance.run(console: console)
            return .success
        } catch {
            return fail(error, console: console, usage: command.usageLine)
        }
    }

    static func commandHint(_ name: String) -> String {
        let names = commands.map { $0.name } + ["help"]
        let hint = Suggestion.hint(for: name, among: names, style: .clause, quote: "'")
        return hint.isEmpty ? "; commands: \(names.joined(separator: ", "))" : hint
    }

    /// The most characters an error line shows: a message that quotes a
    /// value (a 5 MB number, a 1 MB id) keeps its start, which names the file
    /// and field, and its end, which says what is allowed.
    static let maximumMessageCharacters = 2_000

    static func shortened(_ message: String) -> String {
        guard message.count > maximumMessageCharacters else { return message }
        let kept = maximumMessageCharacters / 2
        return "\(message.prefix(kept))[… \(message.count - 2 * kept) characters cut …]\(message.suffix(kept))"
    }

    static func fail(_ error: CommandError, console: Console, usage: String?) -> ExitCode {
        // One line, always: a newline in a quoted value (a widget's kind, a
        // path) would print the rest as a line of its own, which may pass
        // for another error. Control characters are shown as escapes.
        for message in [error.message] + error.moreMessages {
            // Shortened before the escapes (a 5 MB value is not escaped
            // whole) and after them (each control character becomes several).
            console.err("error: \(shortened(DisplayText.visible(shortened(message))))")
        }
        if error.showUsage, let usage {
            console.err("usage: \(usage)\n       (see 'widgetsim help \(usage.split(separator: " ")[1])')")
        }
        return error.code
    }
}
