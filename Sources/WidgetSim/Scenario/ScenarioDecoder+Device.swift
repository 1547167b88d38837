// "devices": each device, its user, pages and apps.

extension ScenarioDecoder {
    static let deviceFields = ["id", "model", "utcOffset", "user", "pages", "apps", "widgets", "script"]
    static let userFields = ["wake", "sleep", "dayJitter", "hourlyActivity", "weekdayActivity", "locationChangesPerDay", "systemChangesPerDay"]
    static let pageFields = ["name", "viewsPerDay", "viewsDuring"]
    static let appFields = [
        "id", "swift", "sessionsPerDay", "sessionLength", "foregroundReload", "mediaSessionsPerDay", "mediaSessionLength",
        "mediaReloadInterval",
    ]

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
        if let pageList, pageList.count > ScenarioLimits.maximumPagesPerDevice {
            throw try object.required("pages").invalid(
                "\(pageList.count) pages", allowed: "1...\(ScenarioLimits.maximumPagesPerDevice) pages per device")
        }
        // Pages, apps and widgets: each item's errors are reported, the
        // widgets' only when every page and app they may name decoded.
        var errors = ScenarioErrorList()
        var pages = Self.decodeEach(pageList ?? [], key: "name", duplicate: "page name", allowed: "names unique within the device", errors: &errors) {
            page throws(ScenarioError) in try decodePage(page)
        }
        if pageList == nil { pages = [PageSetup(name: "home", viewsPerDay: 40)] }
        guard !pages.isEmpty || !errors.isEmpty else {
            throw try object.required("pages").invalid("the list is empty", allowed: "at least one page")
        }

        let appList = try object.optional("apps")?.array()
        if let appList, appList.count > ScenarioLimits.maximumAppsPerDevice {
            throw try object.required("apps").invalid(
                "\(appList.count) apps", allowed: "1...\(ScenarioLimits.maximumAppsPerDevice) apps per device")
        }
        var apps = Self.decodeEach(appList ?? [], key: "id", duplicate: "app id", allowed: "ids unique within the device", errors: &errors) {
            app throws(ScenarioError) in try decodeApp(app)
        }
        if appList == nil { apps = [AppSetup(id: "app")] }
        guard !apps.isEmpty || !errors.isEmpty else {
            // Every widget belongs to an app (F1); an empty list is a mistake, not "no apps".
            throw try object.required("apps").invalid("the list is empty", allowed: "at least one app, or leave \"apps\" out for one default app")
        }

        // A widget names its page and app: with one of them missing, its
        // errors could only follow from that one.
        try errors.throwIfAny()
        let widgetList = try object.required("widgets").array()
        guard !widgetList.isEmpty else {
            throw try object.required("widgets").invalid("the list is empty", allowed: "at least one widget")
        }
        guard widgetList.count <= ScenarioDecoder.maximumWidgetsPerDevice else {
            throw try object.required("widgets").invalid(
                "\(widgetList.count) widgets", allowed: "1...\(ScenarioDecoder.maximumWidgetsPerDevice) widgets per device")
        }
        let widgets = Self.decodeEach(widgetList, key: "id", duplicate: "widget id", allowed: "ids unique within the device", errors: &errors) {
            widget throws(ScenarioError) in try decodeWidget(widget, pages: pages, apps: apps, isPad: isPad, days: days)
        }
        // The script names widgets: with one missing, its errors could follow from that one.
        try errors.throwIfAny()
        let names = DeviceNames(pages: pages, apps: apps, widgets: widgets, hints: kindHints)
        for (index, app) in (appList ?? []).enumerated() {
            if case .kind(let kind) = apps[index].foregroundReload, let reload = try app.object().optional("foregroundReload") {
                warnIfNoWidget(ofApp: index, hasKind: kind, names: names, at: reload)
            }
        }
        var script: [ScriptedAction] = []
        var repeating: [RepeatingAction] = []
        for action in try object.optional("script")?.array() ?? [] {
            switch try decodeScriptEntry(action, names: names, days: days) {
            case .once(let actions): script += actions
            case .repeating(let action): repeating.append(action)
            }
        }
        var device = DeviceSetup(
            id: id, utcOffsetSeconds: offset, isPad: isPad, user: user, pages: pages, apps: apps, widgets: widgets,
            script: script)
        device.repeatingScript = repeating
        return device
    }

    /// Warns when none of app `app`'s widgets is of `kind`: a reload of that
    /// kind reaches no widget (F16), so the name is most likely a typo, and
    /// the reloads would vanish without a word.
    /// The message names at most `listedKinds` of the app's kinds (the
    /// hint names the nearest, for the first `KindHints.maximum` kinds so
    /// named in the file), so that a script of many such reloads on an app
    /// of 200 kinds does not print and keep 200 names for each.
    func warnIfNoWidget(ofApp app: Int, hasKind kind: String, names: DeviceNames, at value: ValueReader) {
        guard !names.app(app, hasKind: kind) else { return }
        let kinds = names.kindsOfApp[app]
        let owner = "app \"\(names.apps[app])\""
        let listed = kinds.prefix(ScenarioDecoder.listedKinds).map { "\"\($0)\"" }.joined(separator: ", ")
        let more = kinds.count > ScenarioDecoder.listedKinds ? " and \(kinds.count - ScenarioDecoder.listedKinds) more" : ""
        let known = kinds.isEmpty ? "it has no widgets" : "its widgets' kinds are \(listed)\(more)"
        let hint = names.kindHint(kind, ofApp: app)
        warnings?.warn(value, "no widget of \(owner) is of kind \"\(kind)\"\(hint): \(known), so this reload reaches no widget (F16)")
    }

    /// The most kinds a "no widget of kind" warning lists.
    static let listedKinds = 10

    func decodeUser(_ value: ValueReader) throws(ScenarioError) -> UserProfile {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.userFields)
        var user = UserProfile()
        if let wake = object.optional("wake") { user.wakeSecond = try wake.clockTime() }
        // Waking at 24:00 is waking at midnight, as 00:00: otherwise a sleep
        // of 00:00 after it (moved a day on, below) left no waking time at all.
        if user.wakeSecond == Seconds.day { user.wakeSecond = 0 }
        if let sleep = object.optional("sleep") { user.sleepSecond = try sleep.clockTime() }
        // A sleep time before the wake time means after midnight.
        if user.sleepSecond <= user.wakeSecond {
            let sleepClock = DurationText.clock(user.sleepSecond)
            user.sleepSecond += Seconds.day
            // A night that ends after midnight is common ("01:30"); a waking
            // day of more than 20 hours more likely has wake and sleep swapped
            // (a fleet's ranges are warned of alike, `warnOfWakeMeetingSleep`).
            let awake = user.sleepSecond - user.wakeSecond
            if awake > 20 * Seconds.hour, let field = object.optional("sleep") ?? object.optional("wake") {
                warnings?.warn(
                    field,
                    "sleep \(sleepClock) comes at or before wake \(DurationText.clock(user.wakeSecond)), so it is the next day's: the user is awake \(DurationText.format(Double(awake))) a day; if that is not meant, check wake and sleep")
            }
        }
        if let jitter = object.optional("dayJitter") { user.dayJitter = try jitter.wholeSeconds(maximum: 6 * Seconds.hour) }
        if let shape = object.optional("hourlyActivity") { user.hourlyActivity = try ScenarioDecoder.hourlyWeights(shape) }
        if let shape = object.optional("weekdayActivity") { user.weekdayActivity = try ScenarioDecoder.weekdayWeights(shape) }
        if let rate = object.optional("locationChangesPerDay") { user.locationChangesPerDay = try rate.double(in: 0...1_000) }
        if let rate = object.optional("systemChangesPerDay") { user.systemChangesPerDay = try rate.double(in: 0...100) }
        return user
    }

    /// The smallest positive hourly weight: a trillionth of the largest
    /// allowed, far below any shape a user means, and far above where the
    /// rate's division overflows.
    static let smallestHourlyWeight = 1e-9

    /// Seven weights by weekday name ("mon" ... "sun"), each from 0 to 10,
    /// a day left out being 1, at least one of them positive.
    static func weekdayWeights(_ shape: ValueReader) throws(ScenarioError) -> [Double] {
        let object = try shape.object()
        let names = Weekday.allCases.map(\.shortName)
        try object.rejectUnknownFields(names)
        var weights = [Double](repeating: 1, count: 7)
        for (index, name) in names.enumerated() {
            guard let value = object.optional(name) else { continue }
            let weight = try value.double(in: 0...10)
            if weight > 0 && weight < ScenarioDecoder.smallestHourlyWeight {
                throw value.invalid("\(weight) is too small a weight", allowed: "0, or a number from 1e-9 to 10 (1 is an ordinary day)")
            }
            weights[index] = weight
        }
        guard weights.contains(where: { $0 > 0 }) else {
            throw shape.invalid("every day is 0", allowed: "at least one day above 0 (a day left out is 1)")
        }
        return weights
    }

    /// 24 relative weights, one per local hour from 00–01, at least one of them positive.
    static func hourlyWeights(_ shape: ValueReader) throws(ScenarioError) -> [Double] {
        let values = try shape.array()
        guard values.count == 24 else {
            throw shape.invalid("\(values.count) values", allowed: "exactly 24 non-negative numbers, one per local hour")
        }
        let weights = try values.map { value throws(ScenarioError) in try value.double(in: 0...1_000) }
        // A positive weight the arithmetic cannot carry (5e-324 alone gives a
        // rate of infinity and then no arrival at all) is refused, not run.
        if let index = weights.firstIndex(where: { $0 > 0 && $0 < ScenarioDecoder.smallestHourlyWeight }) {
            throw values[index].invalid(
                "\(weights[index]) is too small a weight", allowed: "0, or a number from 1e-9 to 1000 (the weights are relative)")
        }
        guard weights.contains(where: { $0 > 0 }) else {
            throw shape.invalid("every value is 0", allowed: "at least one positive value")
        }
        return weights
    }

    func decodePage(_ value: ValueReader) throws(ScenarioError) -> PageSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.pageFields)
        var page = PageSetup(
            name: try object.required("name").identifier(),
            viewsPerDay: try object.optional("viewsPerDay")?.double(in: 0...5_000) ?? 40)
        if let bursts = object.optional("viewsDuring") { page.viewsDuring = try decodeBurstWindows(bursts, maximumExpected: 5_000) }
        return page
    }

    func decodeApp(_ value: ValueReader) throws(ScenarioError) -> AppSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.appFields)
        var app = AppSetup(id: try object.required("id").identifier())
        if let swift = object.optional("swift") {
            let name = try swift.string()
            guard let entry = catalog.app(named: name) else {
                let names = catalog.apps.map(\.name)
                let hint = Suggestion.hint(for: name, among: names, style: .parenthesized)
                throw swift.invalid("no Swift app named \"\(name)\"\(hint)", allowed: names.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            if let reload = object.optional("foregroundReload") {
                throw reload.invalid(
                    "\"foregroundReload\" together with a Swift app", allowed: "one of the two: a Swift app decides its own WidgetCenter calls")
            }
            app.swift = SwiftApp(entry.name, make: entry.make)
        }
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
}
