import Foundation
import WidgetSim

/// `widgetsim list`: the scenarios in the scenario directory.
struct ListCommand: Command {
    static let name = "list"
    static let abstract = "List the scenarios and the question each answers."
    static let arguments = "[--scenarios <dir>]"
    static let options = [ScenarioOptions.scenarios]
    static let discussion = ""

    var directory: String
    /// True when `--scenarios` named the directory, for the message when it is missing.
    var directoryGiven: Bool
    var catalog: SwiftCatalog

    init(_ arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError) {
        guard arguments.positionals.isEmpty else {
            throw .usage("'list' takes no arguments, got: \(arguments.positionals.joined(separator: " "))")
        }
        directory = arguments.value("scenarios") ?? ScenarioReference.defaultDirectory
        directoryGiven = arguments.value("scenarios") != nil
        self.catalog = catalog
    }

    func run(console: Console) throws(CommandError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            let hint = directoryGiven
                ? "(option '--scenarios')"
                : "(the default scenario directory, relative to the current directory: run 'list' from the directory that holds Scenarios/ (the widgetsim checkout, or a package of your own), or give --scenarios <dir>)"
            if let broken = InputFile.brokenLink(directory) {
                throw CommandError("\(directory): no such directory: \(broken.reason) \(hint)", code: .noInput)
            }
            throw CommandError("\(directory): no such directory \(hint)", code: .noInput)
        }
        guard isDirectory.boolValue else {
            throw CommandError("\(directory): not a directory (option '--scenarios' names the directory that holds the scenario files)", code: .noInput)
        }
        let names = ScenarioLoader.scenarioNames(in: directory)
        guard !names.isEmpty else {
            throw CommandError("\(directory): no scenario files (*.json) found", code: .noInput)
        }
        let width = names.map(\.count).max()! + 2
        for name in names {
            let reference = ScenarioReference(argument: name, directory: directory, catalog: catalog)
            do {
                let setup = try reference.load()
                console.out(name.padded(to: width) + (setup.description.isEmpty ? "(no description)" : DisplayText.singleLine(setup.description)))
            } catch {
                // One line a scenario, of a bounded length: the first error,
                // escaped, and whether there are more ('validate' lists them).
                let first = WidgetSimCommandLine.shortened(DisplayText.visible(WidgetSimCommandLine.shortened(error.message)))
                let more = error.moreMessages.isEmpty ? "" : "; and more: see 'widgetsim validate \(name)'"
                console.out(name.padded(to: width) + "(invalid: \(first)\(more))")
            }
        }
    }
}
