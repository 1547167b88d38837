/// Keeps what one simulated phone's widget extension and apps would have
/// logged, in the device log format (`DeviceLog`): every provider call that
/// returned a timeline, every foreground, every WidgetCenter call and every
/// App Intent run from a widget.
///
/// A call WidgetKit cut off (F22) or whose timeline it refused (F23) is not
/// logged: the observer does not learn what the provider returned then.
public struct DeviceLogRecorder: SimulationObserver {
    public private(set) var lines: [DeviceLog.Line] = []
    let device: DeviceSetup
    let calendar: CivilCalendar

    /// A recorder for `device`, whose clock is `calendar` (the scenario's,
    /// seen from the device's own offset).
    public init(device: DeviceSetup, calendar: CivilCalendar) {
        self.device = device
        self.calendar = calendar
    }

    /// A recorder for device `index` of a scenario with listed devices.
    public init(setup: SimulationSetup, device index: Int) {
        let device = setup.devices[index]
        self.init(device: device, calendar: setup.calendar(of: device))
    }

    public var log: DeviceLog { DeviceLog(lines: lines, file: "") }

    func stamp(_ t: SimTime) -> OffsetTimestamp {
        OffsetTimestamp(epochSeconds: calendar.startEpochSeconds + t, utcOffsetSeconds: calendar.utcOffsetSeconds)
    }

    public mutating func reloadStarted(_ record: ReloadRecord) {
        guard let policy = record.policy else { return }
        let widget = device.widgets[record.widget]
        let name: DeviceLog.TimelinePolicyName
        var reloadAfter: SimTime?
        switch policy {
        case .after:
            name = .after
            // The date asked for, as the simulator holds it (at the latest
            // `EventQueue.maximumTime`, so a Swift provider's far date still
            // has a timestamp).
            reloadAfter = record.nextEligible
        case .atEnd:
            name = .atEnd
            // With one entry the system picks the time itself (F3): nothing to log.
            if record.entryCount >= 2 { reloadAfter = record.nextEligible }
        case .never:
            name = .never
        }
        lines.append(DeviceLog.Line(
            time: stamp(record.time), event: .timeline, app: device.apps[widget.app].id, kind: widget.kind,
            family: widget.family.rawValue, configuration: widget.configuration ?? "", policy: name,
            reloadAfter: reloadAfter.map(stamp), entries: record.entryCount))
    }

    public mutating func appActed(_ record: AppActivityRecord) {
        let app = device.apps[record.app].id
        switch record.activity {
        case .foreground:
            lines.append(DeviceLog.Line(time: stamp(record.time), event: .foreground, app: app))
        case .reloadTimelines(let kind):
            lines.append(DeviceLog.Line(time: stamp(record.time), event: .reloadTimelines, app: app, kind: kind))
        case .reloadAllTimelines:
            lines.append(DeviceLog.Line(time: stamp(record.time), event: .reloadAllTimelines, app: app))
        case .intent(let index):
            let widget = device.widgets[index]
            lines.append(DeviceLog.Line(
                time: stamp(record.time), event: .intent, app: app, kind: widget.kind, family: widget.family.rawValue,
                configuration: widget.configuration ?? ""))
        }
    }

    public mutating func widgetViewed(_ record: ViewRecord) {}
    public mutating func reloadWithheld(_ record: WithheldRecord) {}
    public mutating func dayStarted(_ record: DayStartRecord) {}

    /// About 120 bytes a line, for the run's memory limit.
    public var keptBytes: Int { lines.count * 120 }
}

extension Simulation {
    /// What device `index` of `setup` would have logged.
    public static func deviceLog(_ setup: SimulationSetup, device index: Int, limits: RunLimits = RunLimits()) throws(RunLimitExceeded) -> DeviceLog {
        try run(setup, devices: [index], observer: DeviceLogRecorder(setup: setup, device: index), limits: limits).log
    }
}
