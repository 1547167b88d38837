// "script": actions at fixed times, at a list of times (a fixture list), or
// repeated at a local time of day ("daily", on "days" of the week).

extension ScenarioDecoder {
    static let scriptFields = ["at", "daily", "days", "action", "page", "app", "kind", "widget", "length"]
    static let scriptActions = [
        "view", "reloadTimelines", "reloadAllTimelines", "push", "appSession", "mediaSession", "tap", "truthChange",
        "locationChange", "systemChange",
    ]

    /// What one "script" element becomes.
    enum ScriptEntry {
        /// One action per listed instant, in time order.
        case once([ScriptedAction])
        case repeating(RepeatingAction)
    }

    func decodeScriptEntry(_ value: ValueReader, names: DeviceNames, days: Int) throws(ScenarioError) -> ScriptEntry {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.scriptFields)
        let action = try decodeAction(object, names: names, allowed: ScenarioDecoder.scriptActions)
        let whenAllowed = "either \"at\" (an instant, or a list of instants) or \"daily\" (a local time \"HH:MM[:SS]\", with \"days\" for some weekdays)"
        switch (object.optional("at"), object.optional("daily")) {
        case (let at?, nil):
            if let extra = object.optional("days") {
                throw extra.invalid("\"days\" without \"daily\"", allowed: "\"days\" together with \"daily\"")
            }
            guard case .array = at.node.value else {
                // One instant, read as each instant of a list is read.
                return .once([ScriptedAction(at: try instant(at, days: days), action)])
            }
            // A fixture list: each instant a duration since the start or a local date and time.
            var actions: [ScriptedAction] = []
            for item in try ScenarioDecoder.nonEmpty(at, leaveOut: "nothing: give one instant instead of a list") {
                let instant = try instant(item, days: days)
                if let last = actions.last?.at, instant <= last {
                    throw item.invalid("\(instant) s is not after the previous instant at \(last) s", allowed: "instants in time order, each once")
                }
                actions.append(ScriptedAction(at: instant, action))
            }
            return .once(actions)
        case (nil, let daily?):
            let second = try daily.clockTime(allowingEndOfDay: false)
            let weekdays = try object.optional("days").map { value throws(ScenarioError) in try decodeWeekdays(value) } ?? Weekday.allCases
            return .repeating(RepeatingAction(secondOfDay: second, weekdays: weekdays, action))
        case (let at?, _?):
            throw at.invalid("both \"at\" and \"daily\"", allowed: whenAllowed)
        case (nil, nil):
            throw value.invalid("no \"at\" or \"daily\"", allowed: whenAllowed)
        }
    }

    /// A non-empty list of distinct weekday names ("mon" ... "sun").
    func decodeWeekdays(_ value: ValueReader) throws(ScenarioError) -> [Weekday] {
        var weekdays: [Weekday] = []
        for day in try ScenarioDecoder.nonEmpty(value, leaveOut: "every day of the week") {
            let name = try day.string()
            guard let weekday = Weekday.allCases.first(where: { $0.shortName == name }) else {
                let names = Weekday.allCases.map(\.shortName)
                let hint = Suggestion.hint(for: name, among: names, style: .parenthesized)
                throw day.invalid("unknown weekday \"\(name)\"\(hint)", allowed: names.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            guard !weekdays.contains(weekday) else {
                throw day.invalid("weekday \"\(name)\" listed twice", allowed: "each weekday at most once")
            }
            weekdays.append(weekday)
        }
        return weekdays
    }

    /// The "action" of a script element or a fleet moment, among `allowed`.
    func decodeAction(_ object: ObjectReader, names: DeviceNames, allowed: [String]) throws(ScenarioError) -> ScriptedAction.Action {
        let actionValue = try object.required("action")
        let name = try actionValue.string()
        func app() throws(ScenarioError) -> Int {
            try reference(object.optional("app"), to: names.apps, what: "app") ?? 0
        }
        func widget() throws(ScenarioError) -> Int {
            try reference(try object.required("widget"), to: names.widgets, what: "widget")!
        }
        guard allowed.contains(name) else {
            let hint = Suggestion.hint(for: name, among: allowed, style: .parenthesized)
            throw actionValue.invalid("unknown action \"\(name)\"\(hint)", allowed: allowed.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        switch name {
        case "view": return .view(page: try reference(object.required("page"), to: names.pages, what: "page")!)
        case "reloadTimelines":
            let kindValue = try object.required("kind")
            let (owner, kind) = (try app(), try kindValue.string())
            warnIfNoWidget(ofApp: owner, hasKind: kind, names: names, at: kindValue)
            return .reloadTimelines(app: owner, kind: kind)
        case "reloadAllTimelines": return .reloadAllTimelines(app: try app())
        case "push": return .push(app: try app())
        case "appSession":
            return .appSession(app: try app(), length: try object.optional("length")?.wholeSeconds(minimum: 1, maximum: Seconds.day) ?? 180)
        case "mediaSession":
            return .mediaSession(app: try app(), length: try object.optional("length")?.wholeSeconds(minimum: 1, maximum: Seconds.day) ?? 1_800)
        case "tap": return .tap(widget: try widget())
        case "truthChange": return .truthChange(widget: try widget())
        case "locationChange": return .locationChange
        default: return .systemChange
        }
    }
}
