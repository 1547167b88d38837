import Testing
@testable import WidgetSim

/// A small world for testing one rule at a time: one device whose user does
/// nothing unless scripted, and a scheduler whose random delays are zero, so
/// that every reload time follows from the rule under test.
struct Fixture {
    var scheduler = SchedulerParameters.exact
    var pages = [PageSetup(name: "home", viewsPerDay: 0)]
    var apps = [AppSetup(id: "app")]
    var user = UserProfile.quiet
    var widgets: [WidgetSetup]
    var script: [ScriptedAction] = []
    var days = 1
    var seed: UInt64 = 1
    var start = CivilDateTime(year: 2026, month: 3, day: 2)  // a Monday

    init(widgets: [WidgetSetup]) {
        self.widgets = widgets
    }

    init(_ widget: WidgetSetup) {
        self.widgets = [widget]
    }

    var setup: SimulationSetup {
        SimulationSetup(
            name: "fixture", seed: seed, days: days, start: start, utcOffsetSeconds: 0, scheduler: scheduler,
            devices: [DeviceSetup(id: "phone", pages: pages, apps: apps, widgets: widgets, script: script)])
    }

    /// Fixtures are small: a run that passes the run limits is a broken test.
    func run() -> ReportCollector {
        do {
            return try Simulation.run(setup)
        } catch {
            Issue.record("the fixture's run stopped: \(error)")
            return ReportCollector()
        }
    }
}

extension SchedulerParameters {
    /// The published rules with every random delay set to zero and the
    /// [gap] rules that would blur a schedule (coalescing, visibility,
    /// engagement, pacing) turned off: the plain rolling window. Tests of
    /// those rules turn them back on.
    static var exact: SchedulerParameters {
        var parameters = SchedulerParameters()
        parameters.budgetModel = .rollingWindow
        parameters.schedulingDelay = .fixed(0)
        parameters.coalescingWindow = 0
        parameters.deferWhenUnseenFor = 0
        parameters.frequentViewsPerDay = 0
        parameters.pushDeliveryDelay = .fixed(0)
        parameters.foregroundReloadDelay = .fixed(0)
        parameters.interactionReloadDelay = .fixed(0)
        parameters.systemReloadDelay = .fixed(0)
        parameters.singleEntryAtEndDelay = .fixed(30 * Seconds.minute)
        parameters.dailyBudgetMin = 50
        parameters.dailyBudgetMax = 50
        parameters.learningDays = 0
        return parameters
    }
}

extension UserProfile {
    /// A user who causes nothing by themselves.
    static var quiet: UserProfile {
        var user = UserProfile()
        user.locationChangesPerDay = 0
        user.systemChangesPerDay = 0
        return user
    }
}

extension WidgetSetup {
    /// A widget with the built-in provider: instant, never failing network.
    static func configured(
        _ id: String, kind: String? = nil, policy: ConfiguredProvider.Policy, entries: Int = 1, spacing: Int = Seconds.hour,
        latency: Int = 0, page: Int = 0, app: Int = 0, truth: TruthSetup = TruthSetup(), edit: (inout ConfiguredProvider.Settings) -> Void = { _ in }
    ) -> WidgetSetup {
        var settings = ConfiguredProvider.Settings()
        settings.policy = policy
        settings.entryCount = entries
        settings.entrySpacing = spacing
        settings.network = NetworkModel(latency: .fixed(latency), failureRate: 0)
        edit(&settings)
        return WidgetSetup(id: id, kind: kind ?? id, app: app, page: page, provider: .configured(settings), truth: truth)
    }

    /// A widget whose provider is written in Swift.
    static func custom<Provider: TimelineProvider & SendableMetatype>(
        _ id: String, kind: String? = nil, page: Int = 0, truth: TruthSetup = TruthSetup(),
        _ make: @escaping @Sendable () -> Provider
    ) -> WidgetSetup {
        WidgetSetup(id: id, kind: kind ?? id, page: page, provider: .custom(SwiftProvider(id) { AnyTimelineProvider(make()) }), truth: truth)
    }
}

extension ReportCollector {
    /// The calls made for one widget, in order.
    func calls(_ widget: Int = 0) -> [ReloadRecord] { reloads.filter { $0.widget == widget } }

    /// Start times of one widget's calls.
    func callTimes(_ widget: Int = 0) -> [SimTime] { calls(widget).map(\.time) }

    /// One widget's budgeted calls.
    func budgeted(_ widget: Int = 0) -> [ReloadRecord] { calls(widget).filter(\.budgeted) }

    /// Withheld requests of one widget.
    func withheldRequests(_ widget: Int = 0) -> Int {
        withheld.filter { $0.widget == widget }.reduce(0) { $0 + $1.requests }
    }
}

/// An entry with a date and, optionally, when its data was fetched.
struct PlainEntry: TimelineEntry {
    var date: SimTime
    var fetched: SimTime?

    init(date: SimTime, fetched: SimTime? = nil) {
        self.date = date
        self.fetched = fetched
    }

    var dataFetchedAt: SimTime? { fetched ?? date }
}

/// A provider whose timeline is a function of the time it is asked.
struct FunctionProvider: TimelineProvider {
    let make: @Sendable (SimTime) -> Timeline<PlainEntry>
    var workSeconds = 0

    func placeholder(in context: TimelineProviderContext) -> PlainEntry { PlainEntry(date: context.now) }
    func snapshot(in context: TimelineProviderContext) -> PlainEntry { PlainEntry(date: context.now) }
    mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<PlainEntry> {
        context.work(seconds: workSeconds)
        return make(context.now)
    }
}

extension ScenarioLoader {
    /// The `error:` lines a scenario's text gets, in file order; empty when it loads.
    static func errorLines(_ text: String, file: String) -> [String] {
        do {
            _ = try decodeDocument(text, file: file)
            return []
        } catch {
            return error.lines
        }
    }
}
