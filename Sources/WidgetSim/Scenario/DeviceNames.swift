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
    /// Each app's list of kinds as the file's hints know it.
    private let kindListOfApp: [Int]
    private let hints: KindHints

    init(pages: [PageSetup], apps: [AppSetup], widgets: [WidgetSetup], hints: KindHints) {
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
        kindListOfApp = kinds.map { hints.listID($0) }
        self.hints = hints
    }

    /// Whether one of app `app`'s widgets is of `kind`.
    func app(_ app: Int, hasKind kind: String) -> Bool {
        kindSetOfApp[app].contains(kind)
    }

    /// The "did you mean" hint for `kind` among app `app`'s kinds (see `KindHints`).
    func kindHint(_ kind: String, ofApp app: Int) -> String {
        hints.hint(for: kind, among: kindsOfApp[app], list: kindListOfApp[app])
    }
}

/// "Did you mean" hints for kinds that none of an app's widgets has, shared
/// by every decoding of one file (its scenario as written, each variant,
/// which decodes the whole file again, and each fleet moment): a hint is
/// worked out once for each list of kinds and kind, and for at most
/// `maximum` of them in the file (later ones get none). A script may name
/// the same wrong kind thousands of times, or a hundred thousand different
/// ones, each to be compared with up to 200 kinds, and 64 variants would
/// do it all 65 times.
///
/// Hints are looked up, never listed, so the dictionaries' order reaches no
/// output; a variant meets the hints the scenario as written met, so its
/// copies of the same warnings are the same and are dropped as such.
final class KindHints {
    private struct Key: Hashable {
        let list: Int
        let kind: String
    }
    private var lists: [[String]: Int] = [:]
    private var known: [Key: String] = [:]

    /// The most distinct kinds a file's warnings suggest a name for.
    static let maximum = 100

    /// Counts the hints worked out in a task (nil: not counted), so that a
    /// test can check the work without timing it (as
    /// `ScenarioWarning.equalityTests` does).
    @TaskLocal static var workedOut: OperationCount?

    /// A number for `kinds`, the same for an equal list.
    func listID(_ kinds: [String]) -> Int {
        if let id = lists[kinds] { return id }
        let id = lists.count
        lists[kinds] = id
        return id
    }

    func hint(for kind: String, among kinds: [String], list: Int) -> String {
        let key = Key(list: list, kind: kind)
        if let hint = known[key] { return hint }
        guard known.count < KindHints.maximum else { return "" }
        KindHints.workedOut?.add()
        let hint = Suggestion.hint(for: kind, among: kinds, style: .parenthesized)
        known[key] = hint
        return hint
    }
}
