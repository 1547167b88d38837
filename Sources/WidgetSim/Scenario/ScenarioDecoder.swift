/// Turns a scenario file's JSON into a `SimulationSetup`, with defaults for
/// every optional field and a `ScenarioError` for anything wrong.
///
/// The accepted fields, their defaults and their ranges are listed in the
/// README ("Scenario files"); the lists of allowed fields below are what
/// "unknown field" errors print.
/// Limits on what a scenario may ask for, so a typo fails fast instead of
/// running for hours.
public enum ScenarioLimits {
    /// The longest run: a year. A year of one device already takes seconds.
    public static let maximumDays = 366
    public static let maximumDevices = 1_000
    public static let maximumWidgetsPerDevice = 200
}

struct ScenarioDecoder {
    static let topFields = ["name", "description", "seed", "days", "start", "utcOffset", "scheduler", "devices", "fleet", "baseName", "variants"]
    static let schedulerFields = [
        "budgetModel", "dailyBudget", "frequentViewsPerDay", "minimumDailyBudget", "learningDays", "learningMultiplier",
        "minimumSpacing", "tokenBucketBurst", "coalescingWindow", "schedulingDelay", "maximumSchedulingDelay", "deferWhenUnseenFor",
        "singleEntryAtEndDelay", "providerTimeLimit", "pushBudget", "pushDeliveryDelay", "foregroundReloadDelay",
        "interactionReloadDelay", "systemReloadDelay",
    ]
    static let deviceFields = ["id", "model", "utcOffset", "user", "pages", "apps", "widgets", "script"]
    static let fleetFields = ["devices", "device", "utcOffsets", "wake", "sleep", "viewsScale", "sessionsScale", "widgetSets", "addedWithin", "warmUpDays"]
    static let userFields = ["wake", "sleep", "dayJitter", "hourlyActivity", "locationChangesPerDay", "systemChangesPerDay"]
    static let pageFields = ["name", "viewsPerDay"]
    static let appFields = [
        "id", "sessionsPerDay", "sessionLength", "foregroundReload", "mediaSessionsPerDay", "mediaSessionLength",
        "mediaReloadInterval",
    ]
    static let widgetFields = ["id", "kind", "family", "app", "page", "configuration", "provider", "truth", "tapsPerView", "addedAt"]
    static let providerFields = [
        "entries", "entryOffsets", "entrySpacing", "alignEntries", "forecasts", "policy", "after", "afterAlignment", "jitter",
        "skipInactiveHours", "retryAfterFailure", "latency", "failureRate", "backgroundSessionProbability",
        "backgroundSessionDuration",
    ]
    static let truthFields = [
        "changeEvery", "activeHours", "forecastHorizon", "dynamicDateText", "randomChangesPerDay", "onRandomChange",
        "changesWithLocation",
    ]
    static let activeHoursFields = ["days", "from", "to"]
    static let scriptFields = ["at", "action", "page", "app", "kind", "widget", "length"]
    static let scriptActions = [
        "view", "reloadTimelines", "reloadAllTimelines", "push", "appSession", "mediaSession", "tap", "truthChange",
        "locationChange", "systemChange",
    ]

    static var maximumDays: Int { ScenarioLimits.maximumDays }
    static var maximumDevices: Int { ScenarioLimits.maximumDevices }
    static var maximumWidgetsPerDevice: Int { ScenarioLimits.maximumWidgetsPerDevice }

    let file: String

    func decode(_ root: JSONNode) throws(ScenarioError) -> SimulationSetup {
        let top = try ValueReader(node: root, path: "", file: file).object()
        try top.rejectUnknownFields(ScenarioDecoder.topFields)
        let name = try top.required("name").identifier()
        let description = try top.optional("description")?.string() ?? ""
        let seed = try top.optional("seed")?.uint64() ?? 1
        let days = try top.optional("days")?.int(in: 1...ScenarioDecoder.maximumDays) ?? 7
        let start = try top.optional("start").map { value throws(ScenarioError) in try decodeStart(value) }
            ?? CivilDateTime(year: 2026, month: 3, day: 2)
        let offset = try top.optional("utcOffset").map { value throws(ScenarioError) in try decodeOffset(value) } ?? 0
        let scheduler = try top.optional("scheduler").map { value throws(ScenarioError) in try decodeScheduler(value) }
            ?? SchedulerParameters()
        if let fleetValue = top.optional("fleet") {
            if let devices = top.optional("devices") {
                throw devices.invalid("a scenario has either \"devices\" or \"fleet\"", allowed: "one of the two")
            }
            return SimulationSetup(
                name: name, description: description, seed: seed, days: days, start: start, utcOffsetSeconds: offset,
                scheduler: scheduler, devices: [], fleet: try decodeFleet(fleetValue, days: days))
        }
        let deviceList = try top.required("devices").array()
        guard !deviceList.isEmpty else {
            throw try top.required("devices").invalid("the list is empty", allowed: "at least one device")
        }
        guard deviceList.count <= ScenarioDecoder.maximumDevices else {
            throw try top.required("devices").invalid(
                "\(deviceList.count) devices", allowed: "1...\(ScenarioDecoder.maximumDevices) devices per scenario")
        }
        var devices: [DeviceSetup] = []
        for value in deviceList {
            let device = try decodeDevice(value, days: days)
            if devices.contains(where: { $0.id == device.id }) {
                throw try value.object().required("id").invalid("duplicate device id \"\(device.id)\"", allowed: "ids unique within the scenario")
            }
            devices.append(device)
        }
        return SimulationSetup(
            name: name, description: description, seed: seed, days: days, start: start, utcOffsetSeconds: offset,
            scheduler: scheduler, devices: devices)
    }

    // MARK: Time

    func decodeStart(_ value: ValueReader) throws(ScenarioError) -> CivilDateTime {
        guard let civil = ScenarioDecoder.parseLocalDateTime(try value.string()), civil.isValid else {
            throw value.invalid("\"\(try value.string())\" is not a valid local date and time",
                                allowed: "\"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM[:SS]\" (local time, no offset; see utcOffset)")
        }
        return civil
    }

    /// "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM" or "YYYY-MM-DDTHH:MM:SS".
    static func parseLocalDateTime(_ text: String) -> CivilDateTime? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
              let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]) else { return nil }
        var civil = CivilDateTime(year: year, month: month, day: day)
        if parts.count == 2 {
            let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(time.count), time.allSatisfy({ $0.count == 2 }),
                  let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
            civil.hour = hour
            civil.minute = minute
            if time.count == 3 {
                guard let second = Int(time[2]) else { return nil }
                civil.second = second
            }
        }
        return civil
    }

    func decodeOffset(_ value: ValueReader) throws(ScenarioError) -> Int {
        let text = try value.string()
        let allowed = "\"+HH:MM\" or \"-HH:MM\" from \"-12:00\" to \"+14:00\" (\"Z\" for UTC)"
        if text == "Z" { return 0 }
        let characters = Array(text)
        guard characters.count == 6, characters[0] == "+" || characters[0] == "-", characters[3] == ":",
              let hours = Int(String(characters[1...2])), let minutes = Int(String(characters[4...5])),
              minutes < 60 else {
            throw value.invalid("\"\(text)\" is not a UTC offset", allowed: allowed)
        }
        let seconds = (characters[0] == "-" ? -1 : 1) * (hours * Seconds.hour + minutes * Seconds.minute)
        guard seconds >= -12 * Seconds.hour && seconds <= 14 * Seconds.hour else {
            throw value.invalid("\"\(text)\" is out of range", allowed: allowed)
        }
        return seconds
    }

    // MARK: Scheduler

    func decodeScheduler(_ value: ValueReader) throws(ScenarioError) -> SchedulerParameters {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.schedulerFields)
        var parameters = SchedulerParameters()
        if let model = object.optional("budgetModel") { parameters.budgetModel = try model.oneOf(BudgetModel.self) }
        if let range = object.optional("dailyBudget") {
            let bounds = try range.object()
            try bounds.rejectUnknownFields(["min", "max"])
            parameters.dailyBudgetMin = try bounds.optional("min")?.int(in: 1...10_000) ?? parameters.dailyBudgetMin
            parameters.dailyBudgetMax = try bounds.optional("max")?.int(in: 1...10_000) ?? parameters.dailyBudgetMax
            guard parameters.dailyBudgetMin <= parameters.dailyBudgetMax else {
                throw range.invalid(
                    "min \(parameters.dailyBudgetMin) is above max \(parameters.dailyBudgetMax)", allowed: "min ≤ max")
            }
        }
        if let views = object.optional("frequentViewsPerDay") { parameters.frequentViewsPerDay = try views.double(in: 0...10_000) }
        if let floor = object.optional("minimumDailyBudget") {
            parameters.minimumDailyBudget = try floor.int(in: 1...10_000)
            guard parameters.minimumDailyBudget <= parameters.dailyBudgetMin else {
                throw floor.invalid(
                    "\(parameters.minimumDailyBudget) is above dailyBudget.min \(parameters.dailyBudgetMin)",
                    allowed: "1...dailyBudget.min")
            }
        } else {
            parameters.minimumDailyBudget = min(parameters.minimumDailyBudget, parameters.dailyBudgetMin)
        }
        if let learning = object.optional("learningDays") { parameters.learningDays = try learning.double(in: 0...365) }
        if let multiplier = object.optional("learningMultiplier") { parameters.learningMultiplier = try multiplier.double(in: 1...10) }
        if let spacing = object.optional("minimumSpacing") { parameters.minimumSpacing = try spacing.wholeSeconds(maximum: Seconds.day) }
        if let burst = object.optional("tokenBucketBurst") { parameters.tokenBucketBurst = try burst.double(in: 0.001...1) }
        if let window = object.optional("coalescingWindow") { parameters.coalescingWindow = try window.wholeSeconds(maximum: Seconds.day) }
        if let delay = object.optional("schedulingDelay") { parameters.schedulingDelay = try decodeDistribution(delay) }
        if let cap = object.optional("maximumSchedulingDelay") { parameters.maximumSchedulingDelay = try cap.wholeSeconds(maximum: Seconds.day) }
        if let deferral = object.optional("deferWhenUnseenFor") { parameters.deferWhenUnseenFor = try deferral.wholeSeconds(maximum: 30 * Seconds.day) }
        if let delay = object.optional("singleEntryAtEndDelay") { parameters.singleEntryAtEndDelay = try decodeDistribution(delay) }
        if let limit = object.optional("providerTimeLimit") {
            parameters.providerTimeLimit = try limit.wholeSeconds(minimum: 1, maximum: Seconds.hour)
        }
        if let push = object.optional("pushBudget") { parameters.pushBudget = try push.oneOf(PushBudget.self) }
        if let delay = object.optional("pushDeliveryDelay") { parameters.pushDeliveryDelay = try decodeDistribution(delay) }
        if let delay = object.optional("foregroundReloadDelay") { parameters.foregroundReloadDelay = try decodeDistribution(delay) }
        if let delay = object.optional("interactionReloadDelay") { parameters.interactionReloadDelay = try decodeDistribution(delay) }
        if let delay = object.optional("systemReloadDelay") { parameters.systemReloadDelay = try decodeDistribution(delay) }
        return parameters
    }

    /// A duration distribution: a duration (fixed) or
    /// `{"distribution": "fixed|uniform|exponential|logNormal", ...}`.
    func decodeDistribution(_ value: ValueReader) throws(ScenarioError) -> DurationDistribution {
        if case .object = value.node.value {} else {
            return .fixed(try value.wholeSeconds())
        }
        let object = try value.object()
        let kind = try object.required("distribution").string()
        switch kind {
        case "fixed":
            try object.rejectUnknownFields(["distribution", "value"])
            return .fixed(try object.required("value").wholeSeconds())
        case "uniform":
            try object.rejectUnknownFields(["distribution", "min", "max"])
            let low = try object.required("min").wholeSeconds()
            let high = try object.required("max").wholeSeconds()
            guard low <= high else {
                throw value.invalid("min \(DurationText.format(Double(low))) is above max \(DurationText.format(Double(high)))", allowed: "min ≤ max")
            }
            return .uniform(min: low, max: high)
        case "exponential":
            try object.rejectUnknownFields(["distribution", "mean"])
            return .exponential(mean: try object.required("mean").seconds(minimum: 0))
        case "logNormal":
            try object.rejectUnknownFields(["distribution", "median", "p95"])
            let median = try object.required("median").seconds(minimum: 0.001)
            let p95Value = try object.required("p95")
            let p95 = try p95Value.seconds(minimum: 0.001)
            guard p95 >= median else {
                throw p95Value.invalid("p95 \(DurationText.format(p95)) is below the median \(DurationText.format(median))", allowed: "p95 ≥ median")
            }
            return .logNormal(median: median, p95: p95)
        default:
            let names = ["fixed", "uniform", "exponential", "logNormal"]
            let hint = Suggestion.hint(for: kind, among: names, style: .parenthesized)
            throw try object.required("distribution").invalid(
                "unknown distribution \"\(kind)\"\(hint)", allowed: names.map { "\"\($0)\"" }.joined(separator: ", "))
        }
    }

    // MARK: Fleets

    func decodeFleet(_ value: ValueReader, days: Int) throws(ScenarioError) -> FleetSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.fleetFields)
        let count = try object.required("devices").int(in: 1...FleetSetup.maximumDevices)
        let template = try decodeDevice(try object.required("device"), days: days, idRequired: false)
        var variation = FleetVariation()
        if let zones = object.optional("utcOffsets") {
            for zone in try zones.array() {
                let fields = try zone.object()
                try fields.rejectUnknownFields(["offset", "weight"])
                variation.utcOffsets.append((
                    try decodeOffset(try fields.required("offset")), try fields.optional("weight")?.double(in: 0...1e9) ?? 1))
            }
        }
        if let wake = object.optional("wake") { variation.wake = try decodeClockRange(wake) }
        if let sleep = object.optional("sleep") { variation.sleep = try decodeClockRange(sleep) }
        if let scale = object.optional("viewsScale") { variation.viewsScale = try decodeValueDistribution(scale) }
        if let scale = object.optional("sessionsScale") { variation.sessionsScale = try decodeValueDistribution(scale) }
        if let within = object.optional("addedWithin") { variation.addedWithin = try within.wholeSeconds(maximum: days * Seconds.day) }
        if let sets = object.optional("widgetSets") {
            let ids = template.widgets.map(\.id)
            for set in try sets.array() {
                let fields = try set.object()
                try fields.rejectUnknownFields(["widgets", "weight"])
                var members: [Int] = []
                for member in try fields.required("widgets").array() {
                    let index = try reference(member, to: ids, what: "widget")!
                    guard !members.contains(index) else {
                        throw member.invalid("widget listed twice", allowed: "each widget at most once per set")
                    }
                    members.append(index)
                }
                variation.widgetSets.append((members.sorted(), try fields.optional("weight")?.double(in: 0...1e9) ?? 1))
            }
        }
        var fleet = FleetSetup(deviceCount: count, template: template, variation: variation)
        if let warmUp = object.optional("warmUpDays") { fleet.warmUpDays = try warmUp.int(in: 0...30) }
        return fleet
    }

    /// {"from": "HH:MM", "to": "HH:MM"}; "to" before "from" runs past midnight.
    func decodeClockRange(_ value: ValueReader) throws(ScenarioError) -> ClosedRange<Int> {
        let object = try value.object()
        try object.rejectUnknownFields(["from", "to"])
        let from = try object.required("from").clockTime()
        var to = try object.required("to").clockTime()
        if to < from { to += Seconds.day }
        return from...to
    }

    /// A number (fixed) or {"distribution": "uniform", "min", "max"} or
    /// {"distribution": "logNormal", "median", "p95"}.
    func decodeValueDistribution(_ value: ValueReader) throws(ScenarioError) -> ValueDistribution {
        if case .number = value.node.value { return .fixed(try value.double(in: 0...1e6)) }
        let object = try value.object()
        let kindValue = try object.required("distribution")
        switch try kindValue.string() {
        case "uniform":
            try object.rejectUnknownFields(["distribution", "min", "max"])
            let low = try object.required("min").double(in: 0...1e6)
            let high = try object.required("max").double(in: 0...1e6)
            guard low <= high else { throw value.invalid("min \(low) is above max \(high)", allowed: "min ≤ max") }
            return .uniform(min: low, max: high)
        case "logNormal":
            try object.rejectUnknownFields(["distribution", "median", "p95"])
            let median = try object.required("median").double(in: 0.000_001...1e6)
            let p95 = try object.required("p95").double(in: 0.000_001...1e6)
            guard p95 >= median else { throw value.invalid("p95 \(p95) is below the median \(median)", allowed: "p95 ≥ median") }
            return .logNormal(median: median, p95: p95)
        default:
            throw kindValue.invalid("unknown distribution \"\(try kindValue.string())\"", allowed: "a number, \"uniform\" (min, max), \"logNormal\" (median, p95)")
        }
    }

    // MARK: Devices

    func decodeDevice(_ value: ValueReader, days: Int, idRequired: Bool = true) throws(ScenarioError) -> DeviceSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.deviceFields)
        let id = idRequired ? try object.required("id").identifier() : try object.optional("id")?.identifier() ?? "template"
        var isPad = false
        if let model = object.optional("model") {
            switch try model.string() {
            case "iPhone": isPad = false
            case "iPad": isPad = true
            default: throw model.invalid("unknown model \"\(try model.string())\"", allowed: "\"iPhone\", \"iPad\"")
            }
        }
        let offset = try object.optional("utcOffset").map { value throws(ScenarioError) in try decodeOffset(value) }
        let user = try object.optional("user").map { value throws(ScenarioError) in try decodeUser(value) } ?? UserProfile()

        let pageList = try object.optional("pages")?.array()
        var pages: [PageSetup] = []
        for page in pageList ?? [] {
            let decoded = try decodePage(page)
            if pages.contains(where: { $0.name == decoded.name }) {
                throw try page.object().required("name").invalid("duplicate page name \"\(decoded.name)\"", allowed: "names unique within the device")
            }
            pages.append(decoded)
        }
        if pageList == nil { pages = [PageSetup(name: "home", viewsPerDay: 40)] }
        guard !pages.isEmpty else {
            throw try object.required("pages").invalid("the list is empty", allowed: "at least one page")
        }

        let appList = try object.optional("apps")?.array()
        var apps: [AppSetup] = []
        for app in appList ?? [] {
            let decoded = try decodeApp(app)
            if apps.contains(where: { $0.id == decoded.id }) {
                throw try app.object().required("id").invalid("duplicate app id \"\(decoded.id)\"", allowed: "ids unique within the device")
            }
            apps.append(decoded)
        }
        if appList == nil || apps.isEmpty { apps = [AppSetup(id: "app")] }

        let widgetList = try object.required("widgets").array()
        guard !widgetList.isEmpty else {
            throw try object.required("widgets").invalid("the list is empty", allowed: "at least one widget")
        }
        guard widgetList.count <= ScenarioDecoder.maximumWidgetsPerDevice else {
            throw try object.required("widgets").invalid(
                "\(widgetList.count) widgets", allowed: "1...\(ScenarioDecoder.maximumWidgetsPerDevice) widgets per device")
        }
        var widgets: [WidgetSetup] = []
        for widget in widgetList {
            let decoded = try decodeWidget(widget, pages: pages, apps: apps, isPad: isPad, days: days)
            if widgets.contains(where: { $0.id == decoded.id }) {
                throw try widget.object().required("id").invalid("duplicate widget id \"\(decoded.id)\"", allowed: "ids unique within the device")
            }
            widgets.append(decoded)
        }
        var script: [ScriptedAction] = []
        for action in try object.optional("script")?.array() ?? [] {
            script.append(try decodeScriptedAction(action, pages: pages, apps: apps, widgets: widgets, days: days))
        }
        return DeviceSetup(
            id: id, utcOffsetSeconds: offset, isPad: isPad, user: user, pages: pages, apps: apps, widgets: widgets,
            script: script)
    }

    func decodeUser(_ value: ValueReader) throws(ScenarioError) -> UserProfile {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.userFields)
        var user = UserProfile()
        if let wake = object.optional("wake") { user.wakeSecond = try wake.clockTime() }
        if let sleep = object.optional("sleep") { user.sleepSecond = try sleep.clockTime() }
        // A sleep time before the wake time means after midnight.
        if user.sleepSecond <= user.wakeSecond { user.sleepSecond += Seconds.day }
        if let jitter = object.optional("dayJitter") { user.dayJitter = try jitter.wholeSeconds(maximum: 6 * Seconds.hour) }
        if let shape = object.optional("hourlyActivity") {
            let values = try shape.array()
            guard values.count == 24 else {
                throw shape.invalid("\(values.count) values", allowed: "exactly 24 non-negative numbers, one per local hour")
            }
            user.hourlyActivity = try values.map { value throws(ScenarioError) in try value.double(in: 0...1_000) }
            guard user.hourlyActivity.contains(where: { $0 > 0 }) else {
                throw shape.invalid("every value is 0", allowed: "at least one positive value")
            }
        }
        if let rate = object.optional("locationChangesPerDay") { user.locationChangesPerDay = try rate.double(in: 0...1_000) }
        if let rate = object.optional("systemChangesPerDay") { user.systemChangesPerDay = try rate.double(in: 0...100) }
        return user
    }

    func decodePage(_ value: ValueReader) throws(ScenarioError) -> PageSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.pageFields)
        return PageSetup(
            name: try object.required("name").identifier(),
            viewsPerDay: try object.optional("viewsPerDay")?.double(in: 0...5_000) ?? 40)
    }

    func decodeApp(_ value: ValueReader) throws(ScenarioError) -> AppSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.appFields)
        var app = AppSetup(id: try object.required("id").identifier())
        if let rate = object.optional("sessionsPerDay") { app.sessionsPerDay = try rate.double(in: 0...500) }
        if let length = object.optional("sessionLength") { app.sessionLength = try decodeDistribution(length) }
        if let reload = object.optional("foregroundReload") {
            let text = try reload.string()
            switch text {
            case "none": app.foregroundReload = .none
            case "all": app.foregroundReload = .all
            default:
                guard text.hasPrefix("kind:"), text.count > 5 else {
                    throw reload.invalid("unknown value \"\(text)\"", allowed: "\"none\", \"all\", \"kind:<widget kind>\"")
                }
                app.foregroundReload = .kind(String(text.dropFirst(5)))
            }
        }
        if let rate = object.optional("mediaSessionsPerDay") { app.mediaSessionsPerDay = try rate.double(in: 0...100) }
        if let length = object.optional("mediaSessionLength") { app.mediaSessionLength = try decodeDistribution(length) }
        if let interval = object.optional("mediaReloadInterval") {
            app.mediaReloadInterval = try interval.wholeSeconds(minimum: 1, maximum: Seconds.day)
        }
        return app
    }

    // MARK: Widgets

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
        let configuration = try object.optional("configuration")?.string()
        let provider = try decodeProvider(try object.required("provider"))
        let truth = try object.optional("truth").map { value throws(ScenarioError) in try decodeTruth(value) } ?? TruthSetup()
        let taps = try object.optional("tapsPerView")?.probability() ?? 0
        let addedAt = try object.optional("addedAt")?.wholeSeconds(maximum: days * Seconds.day - 1) ?? 0
        return WidgetSetup(
            id: id, kind: kind, family: family, app: app, page: page, configuration: configuration,
            provider: provider, truth: truth, tapsPerView: taps, addedAt: addedAt)
    }

    /// The index of a name in `names`, or an error listing the names.
    func reference(_ value: ValueReader?, to names: [String], what: String) throws(ScenarioError) -> Int? {
        guard let value else { return nil }
        let name = try value.string()
        if let index = names.firstIndex(of: name) { return index }
        let hint = Suggestion.hint(for: name, among: names, style: .parenthesized)
        throw value.invalid("no \(what) named \"\(name)\" on this device\(hint)", allowed: names.map { "\"\($0)\"" }.joined(separator: ", "))
    }

    static let swiftProviderFields = ["swift", "latency", "failureRate"]

    func decodeProvider(_ value: ValueReader) throws(ScenarioError) -> ProviderSetup {
        let object = try value.object()
        guard let swift = object.optional("swift") else {
            return .configured(try decodeConfiguredProvider(object))
        }
        try object.rejectUnknownFields(ScenarioDecoder.swiftProviderFields)
        let name = try swift.string()
        guard let entry = ProviderCatalog.entry(named: name) else {
            let names = ProviderCatalog.entries.map(\.name)
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
                    allowed: "1...\(ConfiguredProvider.Settings.maximumEntries) entries (timelines of about 400 entries were seen to stop updating, F23)")
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
        switch try policyValue.string() {
        case "atEnd": settings.policy = .atEnd
        case "never": settings.policy = .never
        case "after":
            let interval = try object.required("after").wholeSeconds(minimum: 1, maximum: 30 * Seconds.day)
            settings.policy = .after(interval: interval)
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
        if let jitter = object.optional("jitter") { settings.jitter = try jitter.wholeSeconds(maximum: Seconds.day) }
        if let skip = object.optional("skipInactiveHours") { settings.skipInactiveHours = try skip.bool() }
        if let retry = object.optional("retryAfterFailure") { settings.retryAfterFailure = try retry.wholeSeconds(minimum: 1, maximum: Seconds.day) }
        if let latency = object.optional("latency") { settings.network.latency = try decodeDistribution(latency) }
        if let failures = object.optional("failureRate") { settings.network.failureRate = try failures.probability() }
        if let probability = object.optional("backgroundSessionProbability") {
            settings.backgroundSessionProbability = try probability.probability()
        }
        if let duration = object.optional("backgroundSessionDuration") { settings.backgroundSessionDuration = try decodeDistribution(duration) }
        return settings
    }

    func decodeTruth(_ value: ValueReader) throws(ScenarioError) -> TruthSetup {
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
            truth.periodic!.window = try decodeActiveWindow(hours)
        }
        if let horizon = object.optional("forecastHorizon") { truth.forecastHorizonMean = try horizon.seconds(maximum: 30 * Double(Seconds.day)) }
        if let live = object.optional("dynamicDateText") { truth.periodicDrawnLive = try live.bool() }
        if let rate = object.optional("randomChangesPerDay") { truth.randomChangesPerDay = try rate.double(in: 0...10_000) }
        if let reaction = object.optional("onRandomChange") { truth.reaction = try reaction.oneOf(TruthReaction.self) }
        if let location = object.optional("changesWithLocation") { truth.changesWithLocation = try location.bool() }
        return truth
    }

    func decodeActiveWindow(_ value: ValueReader) throws(ScenarioError) -> ActiveWindow {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.activeHoursFields)
        var weekdays = Weekday.allCases
        if let list = object.optional("days") {
            weekdays = []
            for day in try list.array() {
                let name = try day.string()
                guard let weekday = Weekday.allCases.first(where: { $0.shortName == name }) else {
                    throw day.invalid("unknown weekday \"\(name)\"", allowed: Weekday.allCases.map { "\"\($0.shortName)\"" }.joined(separator: ", "))
                }
                weekdays.append(weekday)
            }
        }
        let from = try object.required("from").clockTime()
        let toValue = try object.required("to")
        let to = try toValue.clockTime()
        guard from < to else {
            throw toValue.invalid("the window closes before it opens", allowed: "\"to\" later than \"from\" on the same day")
        }
        return ActiveWindow(weekdays: weekdays, fromSecond: from, toSecond: to)
    }

    // MARK: Script

    func decodeScriptedAction(
        _ value: ValueReader, pages: [PageSetup], apps: [AppSetup], widgets: [WidgetSetup], days: Int
    ) throws(ScenarioError) -> ScriptedAction {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.scriptFields)
        let at = try object.required("at").wholeSeconds(maximum: days * Seconds.day - 1)
        let actionValue = try object.required("action")
        let name = try actionValue.string()
        func app() throws(ScenarioError) -> Int {
            try reference(object.optional("app"), to: apps.map(\.id), what: "app") ?? 0
        }
        func widget() throws(ScenarioError) -> Int {
            try reference(try object.required("widget"), to: widgets.map(\.id), what: "widget")!
        }
        let action: ScriptedAction.Action
        switch name {
        case "view": action = .view(page: try reference(object.required("page"), to: pages.map(\.name), what: "page")!)
        case "reloadTimelines": action = .reloadTimelines(app: try app(), kind: try object.required("kind").string())
        case "reloadAllTimelines": action = .reloadAllTimelines(app: try app())
        case "push": action = .push(app: try app())
        case "appSession":
            action = .appSession(app: try app(), length: try object.optional("length")?.wholeSeconds(minimum: 1, maximum: Seconds.day) ?? 180)
        case "mediaSession":
            action = .mediaSession(app: try app(), length: try object.optional("length")?.wholeSeconds(minimum: 1, maximum: Seconds.day) ?? 1_800)
        case "tap": action = .tap(widget: try widget())
        case "truthChange": action = .truthChange(widget: try widget())
        case "locationChange": action = .locationChange
        case "systemChange": action = .systemChange
        default:
            let hint = Suggestion.hint(for: name, among: ScenarioDecoder.scriptActions, style: .parenthesized)
            throw actionValue.invalid("unknown action \"\(name)\"\(hint)", allowed: ScenarioDecoder.scriptActions.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return ScriptedAction(at: at, action)
    }
}
