/// An observer that keeps every row, for the per-event CSV reports of a
/// scenario with a handful of devices.
public struct ReportCollector: SimulationObserver, Sendable {
    public private(set) var reloads: [ReloadRecord] = []
    public private(set) var views: [ViewRecord] = []
    public private(set) var withheld: [WithheldRecord] = []
    public private(set) var dayStarts: [DayStartRecord] = []
    public private(set) var contentChanges: [ContentChangeRecord] = []

    public init() {}

    public mutating func reloadStarted(_ record: ReloadRecord) { reloads.append(record) }
    public mutating func widgetViewed(_ record: ViewRecord) { views.append(record) }
    public mutating func reloadWithheld(_ record: WithheldRecord) { withheld.append(record) }
    public mutating func dayStarted(_ record: DayStartRecord) { dayStarts.append(record) }
    public mutating func contentChanged(_ record: ContentChangeRecord) { contentChanges.append(record) }

    public var keptBytes: Int {
        (reloads.count + views.count + withheld.count + dayStarts.count + contentChanges.count) * Int(RunEstimate.bytesPerRow)
    }

    /// Orders rows by (time, device), keeping the order of equal keys explicit
    /// rather than trusting the sort to be stable.
    mutating func sortRows() {
        func ordered<Row>(_ rows: [Row], key: (Row) -> (Int, Int)) -> [Row] {
            rows.enumerated().sorted { a, b in
                let (left, right) = (key(a.element), key(b.element))
                return left != right ? left < right : a.offset < b.offset
            }.map(\.element)
        }
        reloads = ordered(reloads) { ($0.time, $0.device) }
        views = ordered(views) { ($0.time, $0.device) }
        withheld = ordered(withheld) { ($0.time, $0.device) }
        contentChanges = ordered(contentChanges) { ($0.time, $0.device) }
    }
}
