/// What a device's script and fleet moments may name (its pages, apps and
/// widgets, and each app's widget kinds), gathered once per device, not
/// once per action: a script of 100,000 actions on a device of 200 widgets
/// rebuilt these lists and searched each app's kinds at every action.
struct DeviceNames {
    let pages: [String]
    let apps: [String]
    let widgets: [String]
    /// Each app's widget kinds, once each, in widget order (for messages).
    let kindsOfApp: [[String]]
    /// The same kinds, for asking whether an app has one.
    private let kindSetOfApp: [Set<String>]

    init(pages: [PageSetup], apps: [AppSetup], widgets: [WidgetSetup]) {
        self.pages = pages.map(\.name)
        self.apps = apps.map(\.id)
        self.widgets = widgets.map(\.id)
        var kinds = [[String]](repeating: [], count: apps.count)
        var sets = [Set<String>](repeating: [], count: apps.count)
        for widget in widgets where sets.indices.contains(widget.app) && sets[widget.app].insert(widget.kind).inserted {
            kinds[widget.app].append(widget.kind)
        }
        kindsOfApp = kinds
        kindSetOfApp = sets
    }

    /// Whether one of app `app`'s widgets is of `kind`.
    func app(_ app: Int, hasKind kind: String) -> Bool {
        kindSetOfApp[app].contains(kind)
    }

    /// The "did you mean" hint for `kind` among app `app`'s kinds, worked
    /// out once for each app and kind, and for at most `maximumKindHints`
    /// of them (later ones get none): a script may name the same wrong kind
    /// thousands of times, or a hundred thousand different ones, and each
    /// new one is compared with each of up to 200 kinds.
    func kindHint(_ kind: String, ofApp app: Int) -> String {
        let key = KindHints.Key(app: app, kind: kind)
        if let known = kindHints.known[key] { return known }
        guard kindHints.known.count < DeviceNames.maximumKindHints else { return "" }
        let hint = Suggestion.hint(for: kind, among: kindsOfApp[app], style: .parenthesized)
        kindHints.known[key] = hint
        return hint
    }

    /// Hints are looked up by app and kind, never listed, so the
    /// dictionary's order reaches no output.
    private final class KindHints {
        struct Key: Hashable {
            let app: Int
            let kind: String
        }
        var known: [Key: String] = [:]
    }

    private let kindHints = KindHints()

    /// The most distinct kinds a device's warnings suggest a name for.
    static let maximumKindHints = 100
}
