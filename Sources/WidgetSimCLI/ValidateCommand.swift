import WidgetSim

/// `widgetsim validate`: check a scenario file without running it.
struct ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Check a scenario file and describe it, without running it."
    static let arguments = "<scenario>... [--scenarios <dir>]"
    static let options = [ScenarioOptions.scenarios]
    static let discussion = "Exits 0 if every file is valid, 65 at the first invalid one (66 if a file is missing)."

    var scenarios: [ScenarioReference]

    init(_ arguments: ParsedArguments, catalog: SwiftCatalog) throws(CommandError) {
        guard !arguments.positionals.isEmpty else {
            throw .usage("missing <scenario>: a scenario name or a path to a .json file")
        }
        let directory = arguments.value("scenarios") ?? ScenarioReference.defaultDirectory
        scenarios = arguments.positionals.map { ScenarioReference(argument: $0, directory: directory, catalog: catalog) }
    }

    func run(console: Console) throws(CommandError) {
        for scenario in scenarios {
            let document = try scenario.loadDocument(warningsTo: console, limit: .max)
            let setup = document.base
            // What validate accepts, the run finishes: the same estimate and
            // limits, judged before the file is called valid.
            let command = setup.fleet == nil ? "simulate" : "fleet"
            try scenario.requireWithinLimits(document.all.map(\.setup), command: command, overridden: false)
            let population: String
            let listed: [(name: String, device: DeviceSetup)]
            if let fleet = setup.fleet {
                let sets = fleet.variation.widgetSets.count
                let setsText = sets > 0 ? " (\(sets) widget set\(sets == 1 ? "" : "s"), \(FixedDecimal.format(fleet.meanWidgetsPerDevice, decimals: 1)) widgets a device on average)" : ""
                population = "a fleet of \(DisplayText.counted(fleet.deviceCount, "device")), each from a template of \(DisplayText.counted(fleet.template.widgets.count, "widget"))\(setsText)"
                listed = [("fleet.device", fleet.template)]
            } else {
                let widgets = setup.devices.reduce(0) { $0 + $1.widgets.count }
                population = "\(DisplayText.counted(setup.devices.count, "device")), \(DisplayText.counted(widgets, "widget"))"
                listed = setup.devices.map { ($0.id, $0) }
            }
            console.out("\(scenario.path): valid: '\(setup.name)', \(DisplayText.counted(setup.days, "day")), \(population), budget model \(setup.scheduler.budgetModel.rawValue)")
            for (name, device) in listed {
                for widget in device.widgets {
                    console.out("  \(name)/\(widget.id): \(widget.kind), \(widget.family.rawValue), \(widget.provider.policySummary)")
                }
            }
            // Every variant was built and validated with the base: name them,
            // so a typo in a variant's name shows before a compare.
            if !document.variants.isEmpty {
                let names = document.variants.map { "'\(DisplayText.singleLine($0.name))'" }.joined(separator: ", ")
                console.out("  \(DisplayText.counted(document.variants.count, "variant")) besides '\(DisplayText.singleLine(document.baseName))', each valid: \(names)")
            }
            console.out("  estimate: \(describe(RunEstimate(setup), command: command))")
        }
    }

    func describe(_ estimate: RunEstimate, command: String) -> String {
        let events = RunLimits.count(estimate.events)
        if command == "fleet" {
            return "about \(RunLimits.count(estimate.eventsPerDevice)) events a device, \(events) in all (\(DisplayText.counted(estimate.devices, "device")) × \(DisplayText.counted(estimate.days, "day"))); fleet keeps counters, not rows"
        }
        let mib = FixedDecimal.format(estimate.simulateBytes / 1_048_576, decimals: 1)
        return "about \(events) events and \(RunLimits.count(estimate.rows)) rows (\(mib) MiB) for simulate"
    }
}
