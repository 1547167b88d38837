/// An observer that keeps every row, for the per-event CSV reports of a
/// scenario with a handful of devices.
public struct ReportCollector: SimulationObserver, Sendable {
    public private(set) var reloads: [ReloadRecord] = []
    public private(set) var views: [ViewRecord] = []
    public private(set) var withheld: [WithheldRecord] = []
    public private(set) var dayStarts: [DayStartRecord] = []

    public init() {}

    public mutating func reloadStarted(_ record: ReloadRecord) { reloads.append(record) }
    public mutating func widgetViewed(_ record: ViewRecord) { views.append(record) }
    public mutating func reloadWithheld(_ record: WithheldRecord) { withheld.append(record) }
    public mutating func dayStarted(_ record: DayStartRecord) { dayStarts.append(record) }
}

/// Runs every device of a simulation in order and collects what happened.
public enum Simulation {
    /// Runs all devices of `setup` with one collector.
    public static func run(_ setup: SimulationSetup) -> ReportCollector {
        var collector = ReportCollector()
        for index in setup.devices.indices {
            // Hand the rows over rather than share them, so appending never copies them.
            var device = DeviceSimulator(simulation: setup, deviceIndex: index, observer: consume collector)
            device.run()
            collector = device.observer
        }
        return collector
    }
}
