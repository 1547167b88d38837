/// A population of devices: one device template and how devices differ.
///
/// Promised: device `i` is the same whatever other devices are simulated, on
/// whatever thread or shard: its profile is drawn from a stream derived from
/// the master seed and `i` alone, and its simulation streams from its id `d<i>`.
public struct FleetSetup: Sendable {
    /// Number of devices, 1...`FleetSetup.maximumDevices`.
    public var deviceCount: Int
    /// The device every member starts from.
    public var template: DeviceSetup
    public var variation: FleetVariation
    /// Days simulated before the measured days and not counted: devices that
    /// have just added their widgets have no viewing history yet, so the first
    /// hours are a start-up transient, not the fleet's steady state.
    public var warmUpDays = 1
    /// Instants that hit a share of the fleet at once (a goal pushed to every
    /// fan, a daylight-saving switch), in the order of the scenario file.
    public var moments: [FleetMoment] = []

    public static let maximumDevices = 10_000_000

    public init(deviceCount: Int, template: DeviceSetup, variation: FleetVariation = FleetVariation()) {
        self.deviceCount = deviceCount
        self.template = template
        self.variation = variation
    }

    /// Device `index` of the fleet.
    public func device(_ index: Int, master: StreamSeed) -> DeviceSetup {
        var random = master.derived("fleet").derived(UInt64(index)).stream()
        var device = template
        device.id = "d\(index)"
        variation.apply(to: &device, random: &random)
        // A stream of its own, so moments move none of the profile's draws;
        // each moment takes two draws whether or not it hits the device, so
        // adding a moment never changes who an earlier one hits.
        var momentRandom = master.derived("fleet-moments").derived(UInt64(index)).stream()
        for moment in moments {
            let hits = momentRandom.nextUnit() < moment.share
            let delay = momentRandom.nextInt(below: moment.spread + 1)
            if hits { device.script.append(ScriptedAction(at: moment.at + delay, moment.action)) }
        }
        return device
    }

    /// Widgets per device, averaged over the widget sets' weights.
    public var meanWidgetsPerDevice: Double {
        guard !variation.widgetSets.isEmpty else { return Double(template.widgets.count) }
        let total = variation.widgetSets.reduce(0) { $0 + $1.weight }
        return variation.widgetSets.reduce(0) { $0 + $1.weight * Double($1.widgets.count) } / total
    }
}

/// How fleet devices differ from the template. Every field is optional; a
/// field left out leaves the template's value.
public struct FleetVariation: Sendable {
    /// Offsets from UTC and their weights (F25: devices in zones whose offsets
    /// differ by whole hours reach the wall-clock hour at the same instant).
    public var utcOffsets: [(seconds: Int, weight: Double)] = []
    /// Wake and sleep times drawn uniformly from these clock ranges (seconds
    /// after midnight; a range may run past midnight).
    public var wake: ClosedRange<Int>?
    public var sleep: ClosedRange<Int>?
    /// Multiplies every page's views per day.
    public var viewsScale: ValueDistribution = .fixed(1)
    /// Multiplies every app's sessions per day.
    public var sessionsScale: ValueDistribution = .fixed(1)
    /// Subsets of the template's widgets (indices) and their weights.
    public var widgetSets: [(widgets: [Int], weight: Double)] = []
    /// Each device adds its widgets at a uniform time in `0..<addedWithin`
    /// seconds: a fleet's users did not all add the widget at the same
    /// instant, and their first reloads must not pile into one minute.
    public var addedWithin = Seconds.hour

    public init() {}

    func apply(to device: inout DeviceSetup, random: inout RandomStream) {
        // Each draw happens whether or not its field is set, so adding one kind
        // of variation never moves the draws of another.
        let zoneDraw = random.nextUnit()
        let wakeDraw = random.nextUnit()
        let sleepDraw = random.nextUnit()
        let setDraw = random.nextUnit()
        if let zone = FleetVariation.pickIndex(weights: utcOffsets, { $0.weight }, draw: zoneDraw) {
            device.utcOffsetSeconds = utcOffsets[zone].seconds
        }
        if let wake {
            device.user.wakeSecond = wake.lowerBound + Int(Double(wake.upperBound - wake.lowerBound + 1) * wakeDraw)
        }
        if let sleep {
            device.user.sleepSecond = sleep.lowerBound + Int(Double(sleep.upperBound - sleep.lowerBound + 1) * sleepDraw)
        }
        // Both as seconds of a day, then sleep after wake: a range across
        // midnight ("23:00" to "01:00") draws past 24:00, and a wake at or
        // past it with a sleep of 00:00 left no waking time at all.
        device.user.wakeSecond %= Seconds.day
        device.user.sleepSecond %= Seconds.day
        if device.user.sleepSecond <= device.user.wakeSecond { device.user.sleepSecond += Seconds.day }
        let views = viewsScale.draw(using: &random)
        for page in device.pages.indices { device.pages[page].viewsPerDay *= views }
        let sessions = sessionsScale.draw(using: &random)
        for app in device.apps.indices { device.apps[app].sessionsPerDay *= sessions }
        if let set = FleetVariation.pickIndex(weights: widgetSets, { $0.weight }, draw: setDraw) {
            let chosen = widgetSets[set].widgets
            let template = device.widgets
            device.widgets = chosen.map { template[$0] }
            if !device.script.isEmpty || !device.repeatingScript.isEmpty {
                FleetVariation.renumberScript(of: &device, keeping: chosen, of: template.count)
            }
        }
        let added = addedWithin > 0 ? random.nextInt(below: addedWithin) : 0
        for widget in device.widgets.indices { device.widgets[widget].addedAt += added }
    }

    /// Script actions name widgets by their template index: each follows its
    /// widget to the index it has among the `kept` ones, and one on a widget
    /// the device lacks is dropped (a tap on a widget it does not have never happens).
    static func renumberScript(of device: inout DeviceSetup, keeping kept: [Int], of templateCount: Int) {
        var newIndex = [Int?](repeating: nil, count: templateCount)
        for (index, widget) in kept.enumerated() { newIndex[widget] = index }
        device.script = device.script.compactMap { scripted in
            scripted.action.renumberingWidgets(newIndex).map { ScriptedAction(at: scripted.at, $0) }
        }
        device.repeatingScript = device.repeatingScript.compactMap { repeating in
            repeating.action.renumberingWidgets(newIndex).map { action in
                var renumbered = repeating
                renumbered.action = action
                return renumbered
            }
        }
    }

    /// The index of the option a uniform `draw` in [0, 1) falls on, by
    /// `weight`; nil when there are no options. Read in place rather than
    /// from a copy of the options: every fleet device picks twice (README, "Speed").
    static func pickIndex<Option>(weights options: [Option], _ weight: (Option) -> Double, draw: Double) -> Int? {
        guard !options.isEmpty else { return nil }
        let total = options.reduce(0) { $0 + weight($1) }
        var threshold = draw * total
        for index in options.indices {
            if threshold < weight(options[index]) { return index }
            threshold -= weight(options[index])
        }
        // Rounding left the draw past every option (a draw just below 1):
        // the last option with any weight, never one the scenario weighted 0.
        return options.lastIndex { weight($0) > 0 } ?? options.count - 1
    }
}

/// An instant that reaches a share of the fleet's devices together: a goal
/// pushed to every fan in the same second (F19), a breaking story, or a
/// locale, time-zone or daylight-saving change that gives every widget of a
/// device a free reload at once (F17).
///
/// Promised: whether device `i` is hit, and its delay, are drawn from a
/// stream of the master seed and `i` alone, so shards and threads agree.
public struct FleetMoment: Equatable, Sendable {
    /// Seconds from the start of the measured run.
    public var at: SimTime
    /// The probability that a device is hit, 0...1.
    public var share: Double
    /// A device hit gets the action a uniform 0...`spread` seconds after
    /// `at` (a server that sends its pushes over a few minutes); 0 means
    /// every device in the same second.
    public var spread: Int
    public var action: ScriptedAction.Action
    /// Says what happens, for reports ("push news to 60 % of devices").
    public var label: String

    public init(at: SimTime, share: Double, spread: Int = 0, action: ScriptedAction.Action, label: String) {
        self.at = at
        self.share = share
        self.spread = spread
        self.action = action
        self.label = label
    }
}
