// "script": actions at fixed times.

extension ScenarioDecoder {
    static let scriptFields = ["at", "action", "page", "app", "kind", "widget", "length"]
    static let scriptActions = [
        "view", "reloadTimelines", "reloadAllTimelines", "push", "appSession", "mediaSession", "tap", "truthChange",
        "locationChange", "systemChange",
    ]

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
