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
            console.out("  scheduler: \(ValidateCommand.schedulerChanges(setup.scheduler))")
            if !setup.measuredHours.isWholeDay {
                console.out("  measured hours: \(setup.measuredHours.summary) (compare and sensitivity rank on the views in them)")
            }
            for (name, device) in listed {
                console.out("  \(name): \(ValidateCommand.behaviour(of: device, variation: setup.fleet?.variation))")
                for (index, widget) in device.widgets.enumerated() {
                    let scripted = device.script.contains { $0.action == .truthChange(widget: index) }
                        || device.repeatingScript.contains { $0.action == .truthChange(widget: index) }
                    console.out("  \(name)/\(widget.id): \(widget.kind), \(widget.family.rawValue), \(widget.provider.policySummary); \(ValidateCommand.contentSummary(widget.truth, scripted: scripted))")
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

    /// What the widget's content does, in a few words: how often it
    /// changes, whether the changes can be foreseen, and what happens at an
    /// unforeseen one (a push, F19; the app told, F16), and whether the
    /// script changes it, so that a scenario that pushes shows as one
    /// before a run (a newcomer could not confirm theirs from validate's
    /// output).
    static func contentSummary(_ truth: TruthSetup, scripted: Bool = false) -> String {
        var parts: [String] = []
        if let periodic = truth.periodic {
            parts.append("content changes every \(DurationText.format(Double(periodic.period)))\(periodic.window == nil ? "" : " in its active hours")")
        }
        let reaction: String
        switch truth.reaction {
        case .none: reaction = ""
        case .push: reaction = ", each pushed"
        case .reloadKind, .reloadAll: reaction = ", each telling the app"
        }
        // The reaction once, after the last kind of unforeseen change.
        let bursts = !truth.randomChangesDuring.isEmpty
        if truth.randomChangesPerDay > 0 {
            let count = truth.randomChangesPerDay
            parts.append("\(DurationText.plain(count)) unforeseen change\(count == 1 ? "" : "s") a day\(bursts ? "" : reaction)")
        }
        if bursts {
            let windows = MeasuredHours(truth.randomChangesDuring.map(\.window)).summary
            parts.append("bursts of unforeseen changes in \(windows) (\(FixedDecimal.format(truth.windowChangesPerDay, decimals: 1)) a day on average)\(reaction)")
        }
        if !truth.scheduledChanges.isEmpty { parts.append(DisplayText.counted(truth.scheduledChanges.count, "scheduled change")) }
        if truth.forecastHorizonMean > 0 { parts.append("forecast about \(DurationText.format(truth.forecastHorizonMean)) ahead") }
        if truth.changesWithLocation { parts.append("follows the location") }
        if scripted { parts.append("changed by the script") }
        return parts.isEmpty ? "content never changes" : parts.joined(separator: ", ")
    }

    /// The scheduler settings the scenario changes, each beside its default
    /// ("learningDays 0.0 (default 3.0)"), or "the defaults": what a
    /// `"scheduler"` section does shows before a run, as the README's table
    /// of every parameter gives the rest.
    static func schedulerChanges(_ scheduler: SchedulerParameters) -> String {
        let defaults = SchedulerParameters()
        let changed = SchedulerParameters.catalogue.compactMap { parameter -> String? in
            let value = parameter.value(scheduler), standard = parameter.value(defaults)
            return value == standard ? nil : "\(parameter.name) \(value) (default \(standard))"
        }
        return changed.isEmpty ? "the defaults" : changed.joined(separator: ", ")
    }

    /// What the device's user does, in a line: when they are awake, how
    /// often they look at each page and open each app, and how often the
    /// phone moves or changes a system setting (F6, F9, F17). A slip in the
    /// behaviour (a wake time in the evening, views per day on the wrong
    /// page) then shows before a run. For a fleet's template, the fields
    /// each device draws for itself are named as drawn.
    static func behaviour(of device: DeviceSetup, variation: FleetVariation?) -> String {
        let user = device.user
        // A sleep past midnight is kept as a second past 24:00; it reads as
        // the scenario wrote it, and a sleep at the wake time as a whole day.
        func clock(_ second: Int) -> String { DurationText.clock(second % Seconds.day) }
        let nextDay = user.sleepSecond >= Seconds.day ? " the next day" : ""
        let jitter = user.dayJitter > 0 ? " (±\(DurationText.format(Double(user.dayJitter))))" : ""
        var awake = "awake \(clock(user.wakeSecond)) to \(clock(user.sleepSecond))\(nextDay)\(jitter)"
        if let variation, variation.wake != nil || variation.sleep != nil {
            func range(_ drawn: ClosedRange<Int>?, _ fixed: Int) -> String {
                drawn.map { "\(clock($0.lowerBound))–\(clock($0.upperBound))" } ?? clock(fixed)
            }
            awake = "awake \(range(variation.wake, user.wakeSecond)) to \(range(variation.sleep, user.sleepSecond))\(jitter), drawn for each device"
        }
        if Set(user.weekdayActivity).count > 1 { awake += ", a weekly rhythm" }
        if user.hourlyActivity != UserProfile.defaultHourlyActivity { awake += ", its own hours" }
        let scaledPerDevice = variation.map { $0.viewsScale != .fixed(1) } ?? false
        let views = device.pages.map { page in
            let bursts = page.viewsDuring.isEmpty
                ? "" : " (+ bursts in \(MeasuredHours(page.viewsDuring.map(\.window)).summary), \(FixedDecimal.format(BurstWindow.perDay(page.viewsDuring), decimals: 1)) a day on average)"
            return "\(DisplayText.singleLine(page.name)) \(DurationText.plain(page.viewsPerDay))\(bursts)"
        }.joined(separator: ", ")
        var parts = [awake, "views a day: \(views)\(scaledPerDevice ? ", scaled for each device" : "")"]
        let sessionsScaled = variation.map { $0.sessionsScale != .fixed(1) } ?? false
        let apps = device.apps.filter { $0.sessionsPerDay > 0 || $0.mediaSessionsPerDay > 0 }.map { app in
            let media = "\(DurationText.plain(app.mediaSessionsPerDay)) media"
            let sessions = app.mediaSessionsPerDay == 0 ? DurationText.plain(app.sessionsPerDay)
                : app.sessionsPerDay == 0 ? media : "\(DurationText.plain(app.sessionsPerDay)) and \(media)"
            return "\(DisplayText.singleLine(app.id)) \(sessions)"
        }
        if !apps.isEmpty { parts.append("app sessions a day: \(apps.joined(separator: ", "))\(sessionsScaled ? ", scaled for each device" : "")") }
        parts.append("\(DurationText.plain(user.locationChangesPerDay)) location and \(DurationText.plain(user.systemChangesPerDay)) system changes a day")
        return parts.joined(separator: "; ")
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
