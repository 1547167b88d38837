// "widgets": each widget, its provider and its truth.

extension ScenarioDecoder {
    static let widgetFields = [
        "id", "kind", "family", "app", "page", "configuration", "provider", "truth", "tapsPerView", "launchesAppPerView", "addedAt",
    ]
    static let providerFields = [
        "entries", "entryOffsets", "entrySpacing", "alignEntries", "forecasts", "policy", "after", "afterAlignment", "jitter",
        "skipInactiveHours", "schedule", "retryAfterFailure", "latency", "failureRate", "backgroundSessionProbability",
        "backgroundSessionDuration",
    ]
    static let truthFields = [
        "changeEvery", "activeHours", "scheduledChanges", "forecastHorizon", "dynamicDateText", "randomChangesPerDay",
        "randomChangesByHour", "randomChangesDuring", "onRandomChange", "changesWithLocation",
    ]
    static let activeHoursFields = ["days", "from", "to"]

    func decodeWidget(_ value: ValueReader, pages: [PageSetup], apps: [AppSetup], isPad: Bool, days: Int) throws(ScenarioError) -> WidgetSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.widgetFields)
        let id = try object.required("id").identifier()
        let kind = try object.optional("kind")?.identifier() ?? id
        let family = try object.optional("family")?.oneOf(WidgetFamily.self) ?? .systemMedium
        if family == .systemExtraLarge && !isPad {
            throw try object.required("family").invalid(
                "systemExtraLarge exists on iPad only", allowed: "an iPhone family, or \"model\": \"iPad\" on the device")
        }
        let page = try reference(object.optional("page"), to: pages.map(\.name), what: "page") ?? 0
        let app = try reference(object.optional("app"), to: apps.map(\.id), what: "app") ?? 0
        let configuration = try object.optional("configuration").map { value throws(ScenarioError) in
            let text = try value.string()
            // It is a field of the device log, which refuses longer ones: the
            // tool must read back what it writes.
            guard text.utf8.count <= DeviceLog.maximumFieldBytes else {
                throw value.invalid("\(text.utf8.count) bytes long", allowed: "at most \(DeviceLog.maximumFieldBytes) bytes")
            }
            return text
        }
        let provider = try decodeProvider(try object.required("provider"))
        let truth = try object.optional("truth").map { value throws(ScenarioError) in try decodeTruth(value, days: days) } ?? TruthSetup()
        if case .configured(let settings) = provider, let schedule = try object.required("provider").object().optional("schedule") {
            try checkSchedule(settings.schedule, in: schedule, truthWindow: truth.periodic?.window)
        }
        let taps = try object.optional("tapsPerView")?.probability() ?? 0
        let launches = try object.optional("launchesAppPerView")?.probability() ?? 0
        let addedAt = try object.optional("addedAt")?.wholeSeconds(maximum: days * Seconds.day - 1, from: "the start of the run") ?? 0
        var widget = WidgetSetup(
            id: id, kind: kind, family: family, app: app, page: page, configuration: configuration,
            provider: provider, truth: truth, tapsPerView: taps, addedAt: addedAt)
        widget.launchesAppPerView = launches
        return widget
    }

    static let swiftProviderFields = ["swift", "latency", "failureRate"]

    func decodeProvider(_ value: ValueReader) throws(ScenarioError) -> ProviderSetup {
        let object = try value.object()
        guard let swift = object.optional("swift") else {
            return .configured(try decodeConfiguredProvider(object))
        }
        try object.rejectUnknownFields(ScenarioDecoder.swiftProviderFields)
        let name = try swift.string()
        guard let entry = catalog.provider(named: name) else {
            let names = catalog.providers.map(\.name)
            let hint = Suggestion.hint(for: name, among: names, style: .parenthesized)
            throw swift.invalid("no Swift provider named \"\(name)\"\(hint)", allowed: names.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        var network = NetworkModel()
        if let latency = object.optional("latency") { network.latency = try decodeDistribution(latency) }
        if let failures = object.optional("failureRate") { network.failureRate = try failures.probability() }
        return .custom(SwiftProvider(entry.name, network: network, make: entry.make))
    }

    func decodeConfiguredProvider(_ object: ObjectReader) throws(ScenarioError) -> ConfiguredProvider.Settings {
        try object.rejectUnknownFields(ScenarioDecoder.providerFields + ["swift"])
        var settings = ConfiguredProvider.Settings()
        if let entries = object.optional("entries") {
            settings.entryCount = try entries.int(in: 1...ConfiguredProvider.Settings.maximumEntries)
        }
        if let spacing = object.optional("entrySpacing") { settings.entrySpacing = try spacing.wholeSeconds(minimum: 1, maximum: 30 * Seconds.day) }
        if let align = object.optional("alignEntries") { settings.alignEntries = try align.bool() }
        if let list = object.optional("entryOffsets") {
            for key in ["entries", "entrySpacing", "alignEntries"] {
                if let other = object.optional(key) {
                    throw other.invalid("\"\(key)\" together with \"entryOffsets\"", allowed: "either entryOffsets or entries/entrySpacing/alignEntries")
                }
            }
            let values = try list.array()
            guard !values.isEmpty, values.count <= ConfiguredProvider.Settings.maximumEntries else {
                throw list.invalid(
                    "\(values.count) entries",
                    allowed: "1...\(ConfiguredProvider.Settings.maximumEntries) entries (WidgetKit shows at most about 400, F23; see maximumReliableEntries)")
            }
            var offsets: [Int] = []
            for value in values {
                let offset = try value.wholeSeconds(maximum: 30 * Seconds.day)
                if let last = offsets.last, offset <= last {
                    throw value.invalid(
                        offset == last ? "duplicate entry at \(DurationText.format(Double(offset)))" : "entry at \(DurationText.format(Double(offset))) is out of order, after \(DurationText.format(Double(last)))",
                        allowed: "strictly increasing offsets after the fetch")
                }
                offsets.append(offset)
            }
            settings.entryOffsets = offsets
        }
        if let forecasts = object.optional("forecasts") { settings.forecasts = try forecasts.bool() }
        let policyValue = try object.required("policy")
        // An `after` interval below the minimum spacing, warned about once the alignment is known.
        var shortAfter: (value: ValueReader, interval: Int)?
        switch try policyValue.string() {
        case "atEnd": settings.policy = .atEnd
        case "never": settings.policy = .never
        case "after":
            let afterValue = try object.required("after")
            let interval = try afterValue.wholeSeconds(minimum: 1, maximum: 30 * Seconds.day)
            settings.policy = .after(interval: interval)
            shortAfter = interval < minimumSpacing ? (afterValue, interval) : nil
        default:
            let text = try policyValue.string()
            let names = ["atEnd", "after", "never"]
            let hint = Suggestion.hint(for: text, among: names, style: .parenthesized)
            throw policyValue.invalid("unknown policy \"\(text)\"\(hint)", allowed: "\"atEnd\", \"after\" (with \"after\": a duration), \"never\"")
        }
        if case .after = settings.policy {} else if let after = object.optional("after") {
            throw after.invalid(
                "\"after\" is set but the policy is \"\(try policyValue.string())\"",
                allowed: "\"after\" only with \"policy\": \"after\" (a variant removes it with \"after\": null)")
        }
        if let alignment = object.optional("afterAlignment") { settings.afterAlignment = try alignment.wholeSeconds(maximum: Seconds.day) }
        // F13: an interval below the minimum spacing cannot be honoured,
        // unless the date is rounded up to a clock multiple at least that
        // long (F25: "after the top of the next hour"), which spaces the
        // reloads by the alignment rather than by the interval.
        if let shortAfter, settings.afterAlignment < minimumSpacing {
            let asked = DurationText.format(Double(shortAfter.interval))
            let spacing = DurationText.format(Double(minimumSpacing))
            warnings?.warn(shortAfter.value, "\(asked) is shorter than the minimum spacing \(spacing) (scheduler.minimumSpacing): WidgetKit keeps a widget's reloads at least \(spacing) apart (F13), so this widget reloads at most every \(spacing), not every \(asked)")
        }
        if let jitter = object.optional("jitter") { settings.jitter = try jitter.wholeSeconds(maximum: Seconds.day) }
        if let skip = object.optional("skipInactiveHours") { settings.skipInactiveHours = try skip.bool() }
        if let schedule = object.optional("schedule") {
            settings.schedule = try ScenarioDecoder.nonEmpty(schedule, leaveOut: "the provider's own policy at all times").map(decodePolicyRule)
        }
        if let retry = object.optional("retryAfterFailure") { settings.retryAfterFailure = try retry.wholeSeconds(minimum: 1, maximum: Seconds.day) }
        if let latency = object.optional("latency") { settings.network.latency = try decodeDistribution(latency) }
        if let failures = object.optional("failureRate") { settings.network.failureRate = try failures.probability() }
        if let probability = object.optional("backgroundSessionProbability") {
            settings.backgroundSessionProbability = try probability.probability()
        }
        if let duration = object.optional("backgroundSessionDuration") { settings.backgroundSessionDuration = try decodeDistribution(duration) }
        return settings
    }

    func decodeTruth(_ value: ValueReader, days: Int) throws(ScenarioError) -> TruthSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.truthFields)
        var truth = TruthSetup()
        if let every = object.optional("changeEvery") {
            truth.periodic = PeriodicChanges(period: try every.wholeSeconds(minimum: 1, maximum: Seconds.day))
        }
        if let hours = object.optional("activeHours") {
            guard truth.periodic != nil else {
                throw hours.invalid("activeHours without changeEvery", allowed: "activeHours together with changeEvery")
            }
            // A list of windows is a natural first try (a commute, lunch, an
            // evening); say there is one, and what describes a daily shape.
            if (try? hours.array()) != nil {
                throw hours.invalid(
                    "a list of windows",
                    allowed: "one window a day, {\"from\": \"HH:MM\", \"to\": \"HH:MM\", \"days\": [...]}; for changes that come at several times of day, randomChangesByHour (weights per local hour) or script truthChange actions")
            }
            truth.periodic!.window = try decodeActiveWindow(hours)
        }
        if let list = object.optional("scheduledChanges") {
            for item in try list.array() {
                let instant = try instant(item, days: days)
                if let last = truth.scheduledChanges.last, instant <= last {
                    throw item.invalid("\(instant) s is not after the previous change at \(last) s", allowed: "changes in time order, each once")
                }
                truth.scheduledChanges.append(instant)
            }
        }
        if let horizon = object.optional("forecastHorizon") { truth.forecastHorizonMean = try horizon.seconds(maximum: 30 * Double(Seconds.day)) }
        if let live = object.optional("dynamicDateText") { truth.periodicDrawnLive = try live.bool() }
        if let rate = object.optional("randomChangesPerDay") { truth.randomChangesPerDay = try rate.double(in: 0...10_000) }
        if let shape = object.optional("randomChangesByHour") { truth.randomChangesByHour = try ScenarioDecoder.hourlyWeights(shape) }
        if let windows = object.optional("randomChangesDuring") { truth.randomChangesDuring = try decodeBurstWindows(windows, maximumExpected: 10_000) }
        if let reaction = object.optional("onRandomChange") { truth.reaction = try reaction.oneOf(TruthReaction.self) }
        if let location = object.optional("changesWithLocation") { truth.changesWithLocation = try location.bool() }
        return truth
    }

    /// `randomChangesDuring` and `viewsDuring`: windows as `activeHours`,
    /// each with the events one opening brings on average.
    func decodeBurstWindows(_ value: ValueReader, maximumExpected: Double) throws(ScenarioError) -> [BurstWindow] {
        try decodeWindowList(value, leaveOut: "no bursts") { item throws(ScenarioError) -> BurstWindow in
            let window = try decodeActiveWindow(item, alsoAllowing: ["expected"])
            let expected = try item.object().required("expected").double(in: 0...maximumExpected)
            return BurstWindow(window: window, expected: expected)
        }
    }

    func decodeActiveWindow(_ value: ValueReader, alsoAllowing extra: [String] = []) throws(ScenarioError) -> ActiveWindow {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.activeHoursFields + extra)
        let weekdays = try object.optional("days").map { value throws(ScenarioError) in try decodeWeekdays(value) } ?? Weekday.allCases
        // A window opens on one of its days, so not at that day's end.
        let from = try object.required("from").clockTime(allowingEndOfDay: false)
        let toValue = try object.required("to")
        let to = try toValue.clockTime()
        guard from != to else {
            throw toValue.invalid("the window closes as it opens", allowed: "\"to\" later than \"from\", or earlier for a window that closes the next day (\"22:00\" to \"02:00\")")
        }
        return ActiveWindow(weekdays: weekdays, fromSecond: from, toSecond: to)
    }
}
