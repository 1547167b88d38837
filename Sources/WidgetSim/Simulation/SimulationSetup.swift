/// Everything needed to run a simulation, resolved from a scenario file or
/// built in Swift. Indices (of pages, apps, widgets) are positions in the
/// device's arrays, so the order in the file is the order in the reports.
public struct SimulationSetup: Sendable {
    public var name: String
    public var description: String
    public var seed: UInt64
    public var days: Int
    /// Local date and time of t = 0, in the scenario's time zone.
    public var start: CivilDateTime
    public var utcOffsetSeconds: Int
    public var scheduler: SchedulerParameters
    /// The devices: listed one by one, or a fleet drawn from a template.
    public var population: Population
    /// The local hours whose views a comparison ranks on (`measureDuring`);
    /// empty for every view.
    public var measuredHours = MeasuredHours()

    public init(
        name: String,
        description: String = "",
        seed: UInt64,
        days: Int,
        start: CivilDateTime = CivilDateTime(year: 2026, month: 3, day: 2),
        utcOffsetSeconds: Int = 0,
        scheduler: SchedulerParameters = SchedulerParameters(),
        population: Population
    ) {
        self.name = name
        self.description = description
        self.seed = seed
        self.days = days
        self.start = start
        self.utcOffsetSeconds = utcOffsetSeconds
        self.scheduler = scheduler
        self.population = population
    }

    /// A setup whose devices are listed one by one.
    public init(
        name: String,
        description: String = "",
        seed: UInt64,
        days: Int,
        start: CivilDateTime = CivilDateTime(year: 2026, month: 3, day: 2),
        utcOffsetSeconds: Int = 0,
        scheduler: SchedulerParameters = SchedulerParameters(),
        devices: [DeviceSetup]
    ) {
        self.init(
            name: name, description: description, seed: seed, days: days, start: start, utcOffsetSeconds: utcOffsetSeconds,
            scheduler: scheduler, population: .devices(devices))
    }

    /// The listed devices; empty for a fleet. Setting them makes the population a list.
    public var devices: [DeviceSetup] {
        get { population.listedDevices }
        set { population = .devices(newValue) }
    }

    /// The fleet, for a fleet scenario.
    public var fleet: FleetSetup? { population.fleet }

    /// The scenario's calendar (its own time zone).
    public var calendar: CivilCalendar {
        CivilCalendar(localStart: start, utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The end of the run: nothing at or after this instant is simulated.
    public var endTime: SimTime { days * Seconds.day }

    /// What a run shorter than the scenario leaves out: the scripted actions
    /// at a fixed instant (`at`) and the truth changes scheduled in advance
    /// (`truth.scheduledChanges`) at or after `endTime`, and the widgets
    /// whose `addedAt` is at or after it (never added, so they are in the
    /// reports with no reloads and no views), over every listed device and a
    /// fleet's device template (counted once, not per device; its `addedAt`
    /// counts from the warm-up's start, so its end is that much later).
    ///
    /// Repeating ("daily") actions are not counted: a shorter run has them
    /// on fewer days, but none is cut off; nor is a fleet's `addedWithin`,
    /// which adds a different delay on each device. A scenario file's own
    /// instants all fall inside its own `days`, so only a shorter `days`
    /// (`--days`) makes these nonzero.
    public var instantsAfterEnd: (scriptedActions: Int, scheduledChanges: Int, widgetsAdded: Int) {
        let end = endTime
        var counts = (scriptedActions: 0, scheduledChanges: 0, widgetsAdded: 0)
        let warmUp = (fleet?.warmUpDays ?? 0) * Seconds.day
        for (device, addedBy) in devices.map({ ($0, end) }) + (fleet.map { [($0.template, end + warmUp)] } ?? []) {
            counts.scriptedActions += device.script.count { $0.at >= end }
            counts.widgetsAdded += device.widgets.count { $0.addedAt >= addedBy }
            for widget in device.widgets {
                counts.scheduledChanges += widget.truth.scheduledChanges.count { $0 >= end }
            }
        }
        return counts
    }

    /// `device`'s own calendar: the scenario's start, in the device's time zone.
    public func calendar(of device: DeviceSetup) -> CivilCalendar {
        calendar.withUTCOffset(device.utcOffsetSeconds ?? utcOffsetSeconds)
    }

    /// The setup as simulated: a fleet's run starts `warmUpDays` earlier and
    /// lasts that much longer (itself for devices listed one by one).
    public var warmedUp: SimulationSetup {
        guard let warmUpDays = fleet?.warmUpDays, warmUpDays > 0 else { return self }
        var simulated = self
        let (year, month, day) = CivilCalendar.civilFromDays(
            CivilCalendar.daysFromCivil(year: start.year, month: start.month, day: start.day) - warmUpDays)
        simulated.start = CivilDateTime(year: year, month: month, day: day, hour: start.hour, minute: start.minute, second: start.second)
        simulated.days += warmUpDays
        // Instants of the run (moments, scripted actions, truth changes known
        // in advance) are timed from the measured start, which the warm-up
        // moves later. Durations that set up the device (a widget's addedAt,
        // the fleet's addedWithin) count from the simulated start, so that its
        // widgets have settled by the measured one.
        let shift = warmUpDays * Seconds.day
        simulated.population.updateFleet { fleet in
            for index in fleet.moments.indices { fleet.moments[index].at += shift }
            for index in fleet.template.script.indices { fleet.template.script[index].at += shift }
            for widget in fleet.template.widgets.indices {
                for index in fleet.template.widgets[widget].truth.scheduledChanges.indices {
                    fleet.template.widgets[widget].truth.scheduledChanges[index] += shift
                }
            }
        }
        return simulated
    }

    /// The root of every random stream in the run.
    public var masterSeed: StreamSeed { StreamSeed(seed) }
}

/// The devices a simulation runs.
public enum Population: Sendable {
    /// Devices listed one by one (`simulate` and `compare` keep their rows).
    case devices([DeviceSetup])
    /// A population drawn from a template (`fleet` keeps only counters).
    case fleet(FleetSetup)

    /// How many devices there are.
    public var count: Int {
        switch self {
        case .devices(let devices): return devices.count
        case .fleet(let fleet): return fleet.deviceCount
        }
    }

    /// Device `index`; a fleet draws it from the master seed and the index alone.
    public func device(_ index: Int, master: StreamSeed) -> DeviceSetup {
        switch self {
        case .devices(let devices): return devices[index]
        case .fleet(let fleet): return fleet.device(index, master: master)
        }
    }

    /// The listed devices; empty for a fleet.
    public var listedDevices: [DeviceSetup] {
        if case .devices(let devices) = self { return devices }
        return []
    }

    /// The fleet, if the population is one.
    public var fleet: FleetSetup? {
        if case .fleet(let fleet) = self { return fleet }
        return nil
    }

    /// Changes the fleet; a listed population is left as it is.
    public mutating func updateFleet(_ change: (inout FleetSetup) -> Void) {
        guard case .fleet(var fleet) = self else { return }
        change(&fleet)
        self = .fleet(fleet)
    }
}

/// One simulated iPhone or iPad: its user, apps, Home Screen pages and widgets.
public struct DeviceSetup: Sendable {
    public var id: String
    /// The device's offset from UTC; nil means the scenario's.
    public var utcOffsetSeconds: Int?
    public var isPad: Bool
    public var user: UserProfile
    public var pages: [PageSetup]
    public var apps: [AppSetup]
    public var widgets: [WidgetSetup]
    /// Actions at fixed times, applied in addition to the random behaviour.
    public var script: [ScriptedAction]
    /// Actions at a time of day on the device's own clock, every day or on
    /// some weekdays (a morning briefing at 07:30, a match on weekdays at 18:00).
    public var repeatingScript: [RepeatingAction] = []

    public init(
        id: String,
        utcOffsetSeconds: Int? = nil,
        isPad: Bool = false,
        user: UserProfile = UserProfile(),
        pages: [PageSetup],
        apps: [AppSetup],
        widgets: [WidgetSetup],
        script: [ScriptedAction] = []
    ) {
        self.id = id
        self.utcOffsetSeconds = utcOffsetSeconds
        self.isPad = isPad
        self.user = user
        self.pages = pages
        self.apps = apps
        self.widgets = widgets
        self.script = script
    }
}

/// A Home Screen or Lock Screen page and how often the user looks at it (F9).
public struct PageSetup: Equatable, Sendable {
    public var name: String
    /// Expected views a day, spread over waking hours by the user's activity shape.
    public var viewsPerDay: Double
    /// Looks besides them in windows of the week, awake or not (a match
    /// the user follows on the widget): each opening brings its `expected`
    /// views on average. Not scaled by a fleet's `viewsScale`.
    public var viewsDuring: [BurstWindow] = []

    public init(name: String, viewsPerDay: Double) {
        self.name = name
        self.viewsPerDay = viewsPerDay
    }
}

/// A containing app and how the user uses it.
public struct AppSetup: Sendable {
    public var id: String
    /// The app's code, written in Swift; nil for the built-in `ConfiguredApp`,
    /// which does what `foregroundReload` and the widgets' truths configure.
    public var swift: SwiftApp?
    /// Foreground sessions a day, while awake.
    public var sessionsPerDay: Double = 0
    public var sessionLength: DurationDistribution = .exponential(mean: 180)
    /// The app's WidgetCenter call when it enters the foreground (free, F17).
    public var foregroundReload: ForegroundReload = .all
    /// Audio or navigation sessions a day, while awake (F17).
    public var mediaSessionsPerDay: Double = 0
    public var mediaSessionLength: DurationDistribution = .exponential(mean: 2_400)
    /// During a media session the app reloads its widgets this often (free, F17).
    public var mediaReloadInterval = 4 * Seconds.minute

    public init(id: String) {
        self.id = id
    }
}

/// A containing app written in Swift against the library's `ContainingApp`.
public struct SwiftApp: Sendable {
    /// A name for reports.
    public var name: String
    /// Builds a fresh app; called once per device run.
    public var make: @Sendable () -> any ContainingApp

    public init(_ name: String, make: @escaping @Sendable () -> any ContainingApp) {
        self.name = name
        self.make = make
    }
}

/// How the app learns that a widget's truth changed unpredictably.
public enum TruthReaction: String, Equatable, Sendable, CaseIterable {
    /// It does not: only the reload policy catches up.
    case none
    /// The server sends a widget push notification (F19).
    case push
    /// A notification wakes the app, which calls `reloadTimelines(ofKind:)` (F16, E2).
    case reloadKind
    /// A notification wakes the app, which calls `reloadAllTimelines()` (F16).
    case reloadAll
}

/// The truth behind one widget (see `ContentTruth`).
public struct TruthSetup: Equatable, Sendable {
    public var periodic: PeriodicChanges?
    /// One-off changes known in advance (a dragon's attack, a match's
    /// kick-off), as instants of the run in time order.
    public var scheduledChanges: [SimTime] = []
    public var periodicDrawnLive = false
    /// Mean predictability horizon of periodic changes, in seconds.
    public var forecastHorizonMean: Double = 0
    /// Unpredictable changes a day, at any hour.
    public var randomChangesPerDay: Double = 0
    /// How `randomChangesPerDay` is spread over the local hours (24 relative
    /// weights, as `UserProfile.hourlyActivity`); nil spreads them evenly.
    /// News is quiet at night, and a quiet hour keeps the day's total.
    public var randomChangesByHour: [Double]?
    /// Hours of the week when unforeseen changes come in bursts, besides
    /// `randomChangesPerDay`'s: each opening of a window (a match) brings
    /// its `expected` changes on average (goals and cards), at random
    /// instants within it, different in every replication. The content's
    /// own behaviour, not WidgetKit's.
    public var randomChangesDuring: [BurstWindow] = []
    public var reaction: TruthReaction = .none
    /// Significant location changes change this widget's truth (a location widget, F17, F21).
    public var changesWithLocation = false

    public init(periodic: PeriodicChanges? = nil) {
        self.periodic = periodic
    }
}

/// A window of the week whose every opening brings `expected` events on
/// average, spread evenly over it (Poisson): a match's goals
/// (`TruthSetup.randomChangesDuring`), or the looks at the score while it
/// is on (`PageSetup.viewsDuring`).
public struct BurstWindow: Equatable, Sendable {
    public var window: ActiveWindow
    public var expected: Double

    public init(window: ActiveWindow, expected: Double) {
        self.window = window
        self.expected = expected
    }
}

extension BurstWindow {
    /// The events `bursts` bring in an average day.
    public static func perDay(_ bursts: [BurstWindow]) -> Double {
        bursts.reduce(0) { $0 + $1.expected * Double($1.window.weekdays.filter { $0 }.count) / 7 }
    }
}

extension TruthSetup {
    /// The changes `randomChangesDuring` brings in an average day.
    public var windowChangesPerDay: Double { BurstWindow.perDay(randomChangesDuring) }
}

/// Where a widget's provider comes from.
public enum ProviderSetup: Sendable {
    /// The built-in provider, configured by a scenario file.
    case configured(ConfiguredProvider.Settings)
    /// A provider written in Swift.
    case custom(SwiftProvider)

    /// The simulated server the provider's `context.fetch()` talks to.
    public var network: NetworkModel {
        switch self {
        case .configured(let settings): return settings.network
        case .custom(let provider): return provider.network
        }
    }
}

/// A provider written in Swift against the library's `TimelineProvider`.
public struct SwiftProvider: Sendable {
    /// A name for reports.
    public var name: String
    /// The simulated server behind `context.fetch()`.
    public var network: NetworkModel
    /// Builds a fresh provider; called once per device run, so every run
    /// starts from the same provider state.
    public var make: @Sendable () -> AnyTimelineProvider

    public init(_ name: String, network: NetworkModel = NetworkModel(), make: @escaping @Sendable () -> AnyTimelineProvider) {
        self.name = name
        self.network = network
        self.make = make
    }
}

/// One widget instance on a device (F7, F26).
public struct WidgetSetup: Sendable {
    public var id: String
    public var kind: String
    public var family: WidgetFamily
    /// Index of the containing app in `DeviceSetup.apps`.
    public var app: Int
    /// Index of the page in `DeviceSetup.pages`.
    public var page: Int
    public var configuration: String?
    public var provider: ProviderSetup
    public var truth: TruthSetup
    /// Probability that a view ends with a tap on an App Intent button (F17, F18).
    public var tapsPerView: Double
    /// Probability that a view ends with a tap on the widget that opens its
    /// app; the app's reload calls are then ignored for a while (F18).
    public var launchesAppPerView: Double = 0
    /// When the user adds the widget.
    public var addedAt: SimTime

    /// The days of a run of `days` days, counted from its start, on which
    /// the widget exists: from the day it is added (that day counts whole,
    /// as daily.csv gives it a row) to the end; none if it is never added.
    /// Rates per widget-day divide by these, not by the run's days: a
    /// widget added on the last day withholds its requests on that one day.
    public func daysInRun(of days: Int) -> Int { Self.daysInRun(of: days, addedAt: addedAt) }

    /// `daysInRun(of:)` of a widget added at `addedAt` seconds from the start.
    public static func daysInRun(of days: Int, addedAt: SimTime) -> Int {
        let added = max(0, addedAt)
        return added >= days * Seconds.day ? 0 : days - added / Seconds.day
    }

    public init(
        id: String,
        kind: String,
        family: WidgetFamily = .systemMedium,
        app: Int = 0,
        page: Int = 0,
        configuration: String? = nil,
        provider: ProviderSetup,
        truth: TruthSetup = TruthSetup(),
        tapsPerView: Double = 0,
        addedAt: SimTime = 0
    ) {
        self.id = id
        self.kind = kind
        self.family = family
        self.app = app
        self.page = page
        self.configuration = configuration
        self.provider = provider
        self.truth = truth
        self.tapsPerView = tapsPerView
        self.addedAt = addedAt
    }
}

/// Something that happens at a fixed time, whatever the random behaviour does.
public struct ScriptedAction: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// The user looks at a page.
        case view(page: Int)
        /// The app, in whatever state it is, calls `reloadTimelines(ofKind:)`.
        case reloadTimelines(app: Int, kind: String)
        /// The app calls `reloadAllTimelines()`.
        case reloadAllTimelines(app: Int)
        /// A widget push notification reaches the app's widgets (F19).
        case push(app: Int)
        /// The user opens the app for `length` seconds.
        case appSession(app: Int, length: Int)
        /// The app plays audio or navigates for `length` seconds (F17).
        case mediaSession(app: Int, length: Int)
        /// The user taps an App Intent button in the widget (F17, F18).
        case tap(widget: Int)
        /// The widget's truth changes unpredictably, with its usual reaction.
        case truthChange(widget: Int)
        case locationChange
        case systemChange

        /// True for a widget push, which is delivered `pushDeliveryDelay`
        /// after it is sent and counts against the push budget (F19).
        var isPush: Bool {
            if case .push = self { return true }
            return false
        }

        /// True when every page, app and widget the action names is one of
        /// `pages` pages, `apps` apps and `widgets` widgets.
        func names(pagesBelow pages: Int, appsBelow apps: Int, widgetsBelow widgets: Int) -> Bool {
            switch self {
            case .view(let page): return (0..<pages).contains(page)
            case .reloadTimelines(let app, _), .reloadAllTimelines(let app), .push(let app),
                 .appSession(let app, _), .mediaSession(let app, _):
                return (0..<apps).contains(app)
            case .tap(let widget), .truthChange(let widget): return (0..<widgets).contains(widget)
            case .locationChange, .systemChange: return true
            }
        }

        /// The action once the device's widgets are renumbered (`newIndex[old]`,
        /// nil for a widget the device no longer has); nil when it acts on a
        /// widget that is gone (see `FleetVariation.renumberScript`).
        func renumberingWidgets(_ newIndex: [Int?]) -> Action? {
            switch self {
            case .tap(let widget): return newIndex[widget].map { .tap(widget: $0) }
            case .truthChange(let widget): return newIndex[widget].map { .truthChange(widget: $0) }
            default: return self
            }
        }
    }

    public var at: SimTime
    public var action: Action

    public init(at: SimTime, _ action: Action) {
        self.at = at
        self.action = action
    }
}

/// A scripted action repeated at one local time of day, on chosen weekdays.
///
/// Promised: the instants follow the device's own calendar (a fleet device's
/// 07:30 is its own local 07:30), one per chosen day, within the run.
public struct RepeatingAction: Equatable, Sendable {
    /// Seconds after local midnight, 0..<86 400.
    public var secondOfDay: Int
    /// Which weekdays the action happens on, indexed by `Weekday.rawValue`.
    public var weekdays: [Bool]
    public var action: ScriptedAction.Action

    public init(secondOfDay: Int, weekdays: [Weekday] = Weekday.allCases, _ action: ScriptedAction.Action) {
        var chosen = Array(repeating: false, count: 7)
        for day in weekdays { chosen[day.rawValue] = true }
        self.secondOfDay = secondOfDay
        self.weekdays = chosen
        self.action = action
    }

    /// The action's instants in `0..<end`, in time order.
    func instants(before end: SimTime, calendar: CivilCalendar) -> [ScriptedAction] {
        var actions: [ScriptedAction] = []
        forEachInstant(before: end, calendar: calendar) { actions.append(ScriptedAction(at: $0, action)) }
        return actions
    }

    /// How many instants `instants(before:calendar:)` gives, without making them.
    func count(before end: SimTime, calendar: CivilCalendar) -> Int {
        var count = 0
        forEachInstant(before: end, calendar: calendar) { _ in count += 1 }
        return count
    }

    private func forEachInstant(before end: SimTime, calendar: CivilCalendar, _ body: (SimTime) -> Void) {
        guard end > 0 else { return }
        for day in calendar.dayIndex(0)...calendar.dayIndex(end - 1) {
            let dayStart = calendar.startOfDay(day)
            let t = dayStart + secondOfDay
            if t >= 0 && t < end && weekdays[calendar.weekday(dayStart).rawValue] { body(t) }
        }
    }
}
