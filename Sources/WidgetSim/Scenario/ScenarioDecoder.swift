/// Limits on what a scenario may ask for, so a typo fails fast instead of
/// running for hours.
public enum ScenarioLimits {
    /// The longest run: a year. A year of one device already takes seconds.
    public static let maximumDays = 366
    public static let maximumDevices = 1_000
    public static let maximumWidgetsPerDevice = 200
    /// Places a widget can sit (home-screen pages, Today View, Lock Screen,
    /// StandBy) and apps: a phone has a handful of each that hold widgets,
    /// and every one costs the simulator state and work per view.
    public static let maximumPagesPerDevice = 200
    public static let maximumAppsPerDevice = 200
    public static let maximumVariants = 64
}

/// Turns a scenario file's JSON into a `SimulationSetup`, with defaults for
/// every optional field and a `ScenarioError` for anything wrong.
///
/// One file per concern (`ScenarioDecoder+Scheduler.swift`, `+Device`,
/// `+Widget`, `+Fleet`, `+Script`, `+Time`, `+Distributions`), each with the
/// list of fields it accepts beside the code that reads them: those lists are
/// what "unknown field" errors print. The README ("Scenario files") lists the
/// same fields, their defaults and their ranges.
struct ScenarioDecoder {
    static let topFields = ["name", "description", "seed", "days", "start", "utcOffset", "scheduler", "measureDuring", "devices", "fleet", "baseName", "variants"]

    static var maximumDays: Int { ScenarioLimits.maximumDays }
    static var maximumDevices: Int { ScenarioLimits.maximumDevices }
    static var maximumWidgetsPerDevice: Int { ScenarioLimits.maximumWidgetsPerDevice }

    let file: String
    /// The Swift providers and apps the scenario may name.
    var catalog: SwiftCatalog = .builtIn
    /// The scenario's own calendar, for instants written as local dates
    /// (known once the top level is read).
    var calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 0)
    /// Where warnings go; nil to drop them.
    var warnings: ScenarioWarningLog? = nil
    /// The kind warnings' hints, shared with the file's other decodings.
    var kindHints = KindHints()
    /// The scenario's minimum spacing (F13), known once the scheduler is
    /// read, for warning about an `after` interval WidgetKit will not honour.
    var minimumSpacing = SchedulerParameters().minimumSpacing

    func decode(_ root: JSONNode) throws(ScenarioError) -> SimulationSetup {
        var decoder = self
        return try decoder.decodeTop(root)
    }

    private mutating func decodeTop(_ root: JSONNode) throws(ScenarioError) -> SimulationSetup {
        let top = try ValueReader(node: root, path: "", file: file, warnings: warnings).object()
        try top.rejectUnknownFields(ScenarioDecoder.topFields)
        let name = try top.required("name").identifier()
        let description = try top.optional("description")?.string() ?? ""
        let seed = try top.optional("seed")?.uint64() ?? 1
        let days = try top.optional("days")?.int(in: 1...ScenarioDecoder.maximumDays) ?? 7
        let start = try top.optional("start").map { value throws(ScenarioError) in try decodeStart(value) }
            ?? CivilDateTime(year: 2026, month: 3, day: 2)
        let offset = try top.optional("utcOffset").map { value throws(ScenarioError) in try decodeOffset(value) } ?? 0
        calendar = CivilCalendar(localStart: start, utcOffsetSeconds: offset)
        let scheduler = try top.optional("scheduler").map { value throws(ScenarioError) in try decodeScheduler(value) }
            ?? SchedulerParameters()
        minimumSpacing = scheduler.minimumSpacing
        let measuredHours = try top.optional("measureDuring").map { value throws(ScenarioError) in try decodeMeasuredHours(value) }
            ?? MeasuredHours()
        if let fleetValue = top.optional("fleet") {
            if let devices = top.optional("devices") {
                throw devices.invalid("a scenario has either \"devices\" or \"fleet\"", allowed: "one of the two")
            }
            // The fleet report's staleness counts every view, in the hot
            // path of a million devices; `compare`, which ranks on the
            // measured hours, runs listed devices only.
            if let measured = top.optional("measureDuring") {
                throw measured.invalid(
                    "a fleet's report counts every view; measured hours are for `compare`, `sensitivity` and `simulate`, which run listed devices",
                    allowed: "\"measureDuring\" in a scenario with \"devices\" (a fleet's device as one listed device, to compare policies on those hours)")
            }
            return SimulationSetup(
                name: name, description: description, seed: seed, days: days, start: start, utcOffsetSeconds: offset,
                scheduler: scheduler, population: .fleet(try decodeFleet(fleetValue, days: days)))
        }
        let deviceList = try top.required("devices").array()
        guard !deviceList.isEmpty else {
            throw try top.required("devices").invalid("the list is empty", allowed: "at least one device")
        }
        guard deviceList.count <= ScenarioDecoder.maximumDevices else {
            throw try top.required("devices").invalid(
                "\(deviceList.count) devices", allowed: "1...\(ScenarioDecoder.maximumDevices) devices per scenario")
        }
        // Devices do not depend on each other: each one's errors are reported.
        var errors = ScenarioErrorList()
        let devices = Self.decodeEach(deviceList, key: "id", duplicate: "device id", allowed: "ids unique within the scenario", errors: &errors) {
            value throws(ScenarioError) in try decodeDevice(value, days: days)
        }
        try errors.throwIfAny()
        var setup = SimulationSetup(
            name: name, description: description, seed: seed, days: days, start: start, utcOffsetSeconds: offset,
            scheduler: scheduler, devices: devices)
        setup.measuredHours = measuredHours
        return setup
    }

    /// `measureDuring`: a list of windows, each as a truth's `activeHours`
    /// (`{"days": [...], "from": "HH:MM", "to": "HH:MM"}`).
    func decodeMeasuredHours(_ value: ValueReader) throws(ScenarioError) -> MeasuredHours {
        let decoded = try decodeWindowList(value, leaveOut: "every view, at any hour") { item throws(ScenarioError) in
            try decodeActiveWindow(item)
        }
        // A window every day from 00:00 to 24:00 holds every view; one
        // written twice holds no more than once.
        if decoded.contains(where: { !$0.weekdays.contains(false) && $0.length == Seconds.day }) { return MeasuredHours() }
        var windows: [ActiveWindow] = []
        for window in decoded where !windows.contains(window) { windows.append(window) }
        return MeasuredHours(windows)
    }

    /// A non-empty list of at most `MeasuredHours.maximumWindows` windows
    /// (`measureDuring`, `randomChangesDuring`, `viewsDuring`), each decoded
    /// by `decode`; windows do not depend on each other, so each one's
    /// errors are reported.
    func decodeWindowList<Window>(
        _ value: ValueReader, leaveOut meaning: String, _ decode: (ValueReader) throws(ScenarioError) -> Window
    ) throws(ScenarioError) -> [Window] {
        let list = try ScenarioDecoder.nonEmpty(value, leaveOut: meaning)
        guard list.count <= MeasuredHours.maximumWindows else {
            throw value.invalid("\(list.count) windows", allowed: "1...\(MeasuredHours.maximumWindows) windows")
        }
        var errors = ScenarioErrorList()
        let windows = list.compactMap { item in errors.collect { () throws(ScenarioError) in try decode(item) } }
        try errors.throwIfAny()
        return windows
    }

    /// Each item of a list whose items do not depend on each other, decoded
    /// with every item's errors kept in `errors` (a failed item is left out).
    /// An item whose `key` repeats an earlier item's is refused as a
    /// `duplicate`: the key is read before the item is decoded, so an item
    /// that fails elsewhere still claims it, and its duplicate is reported
    /// in the same run.
    static func decodeEach<Item>(
        _ items: [ValueReader], key: String, duplicate: String, allowed: String, errors: inout ScenarioErrorList,
        _ decode: (ValueReader) throws(ScenarioError) -> Item
    ) -> [Item] {
        var decoded: [Item] = []
        var claimed: [String] = []
        for item in items {
            if let keyValue = try? item.object().optional(key), let name = try? keyValue.identifier() {
                if claimed.contains(name) {
                    errors.append(keyValue.invalid("duplicate \(duplicate) \"\(name)\"", allowed: allowed))
                    continue
                }
                claimed.append(name)
            }
            if let value = errors.collect({ () throws(ScenarioError) in try decode(item) }) { decoded.append(value) }
        }
        return decoded
    }

    /// The index of a name in `names`, or an error listing the names.
    func reference(_ value: ValueReader?, to names: [String], what: String) throws(ScenarioError) -> Int? {
        guard let value else { return nil }
        let name = try value.string()
        if let index = names.firstIndex(of: name) { return index }
        let hint = Suggestion.hint(for: name, among: names, style: .parenthesized)
        throw value.invalid("no \(what) named \"\(name)\" on this device\(hint)", allowed: names.map { "\"\($0)\"" }.joined(separator: ", "))
    }
}
