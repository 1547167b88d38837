/// Replays one device's days on a virtual clock: the user's behaviour, the
/// widgets' providers, and WidgetKit's scheduling decisions.
///
/// Promised: the run depends only on the setup and the master seed. Every
/// random draw comes from a stream derived from the master seed by this
/// device's id and a purpose (and a widget's id), so devices are independent
/// of each other and of the order or thread they run in.
///
/// The simulator is single-threaded and holds no locks; run devices in
/// parallel by giving each its own simulator.
///
/// Not promised: value semantics. Its per-widget and per-page state lives in
/// tables that copies share (`StateTable`, for speed), so run a simulator,
/// never a copy of one alongside it.
public struct DeviceSimulator<Observer: SimulationObserver> {
    public internal(set) var observer: Observer
    let deviceIndex: Int
    let setup: DeviceSetup
    let parameters: SchedulerParameters
    /// Decides when budgeted reloads run; the simulator only acts on its decisions.
    let scheduler: ReloadScheduler
    let calendar: CivilCalendar
    let endTime: SimTime
    let seed: StreamSeed
    /// The seeds of the device's local days, one per day index.
    let daySeeds: StreamSeed.Children

    var queue = EventQueue<DeviceEvent>(reservingCapacity: 64)
    /// The current virtual time; it never moves backwards.
    public internal(set) var now: SimTime = 0
    var widgets: StateTable<WidgetRuntime>
    /// The scheduler's view of each widget (budget, last budgeted reload,
    /// pending request), by widget index: kept apart from `widgets` so the
    /// scheduler can update one in place while the simulator holds the other.
    var schedules: StateTable<WidgetSchedule>
    let widgetsOnPage: IndexLists
    /// Each widget's page, read on every scheduling decision (reading it
    /// through `widgets[i].setup` would copy the whole setup).
    let pageOfWidget: [Int]
    let widgetsOfApp: IndexLists
    /// True when some widget's truth follows significant location changes.
    let hasLocationWidgets: Bool

    // User behaviour state.
    /// The day plans of the even and the odd calendar days: today's and
    /// yesterday's, whose evening may run past midnight.
    var evenDayPlan = DayPlan(wake: 0, sleep: 0, awakeWeight: 0)
    var oddDayPlan = DayPlan(wake: 0, sleep: 0, awakeWeight: 0)
    /// The days whose plans the two fields hold.
    var evenPlanDay = Int.min
    var oddPlanDay = Int.min
    var dayRandom = RandomStream(seed: 0)
    var pageRandoms: StateTable<RandomStream>
    /// Arrivals of each page's bursts of views (`viewsDuring`); nil for a
    /// page without, and empty when no page has them.
    var viewBursts: [BurstArrivals?]
    /// Each page's view arrivals under each of the two day plans kept
    /// (slot `2·page + day parity`), prepared when the day starts.
    var viewArrivals: StateTable<PreparedArrivals>
    /// Their rates by local hour: slot `s`, hour `h` at `24·s + h`.
    var viewRates: StateTable<Double>
    /// Each page's views in the trailing day (F9).
    var pageViews: PageViewWindows
    /// The events held beside the queue, each in a slot of its own, under
    /// the order key the queue reserved when it was scheduled (`.max` when
    /// the slot is empty): each page's next view under each day's plan (two
    /// plans overlap after midnight), each widget's pending request and the
    /// completion of its call in flight, and the device's next reload batch.
    /// Views are half of all events and a reload's three events most of the
    /// rest, and a slot costs no heap insert or pop: each is ordered against
    /// queued events exactly as if it had been queued (README, "Speed").
    ///
    /// The view slots come first, two for each page with widgets
    /// (`pageViewSlots`, then day parity; a view that finds its slot taken
    /// goes into the queue), then one a widget for requests
    /// (`requestSlot`), then one a widget for completions
    /// (`completionSlot`), then one for the device's next reload batch
    /// (`batchSlot`; a batch planned while it is taken goes into the
    /// queue). Views and reload events are searched apart, so taking one
    /// searches only the slots of its own kind.
    var heldKeys: StateTable<UInt64>
    /// The page and plan day of the view held in each view slot.
    var heldViews: StateTable<HeldView>
    /// Each page's first view slot; -1 for a page without widgets, whose
    /// views are not simulated.
    let pageViewSlots: StateTable<Int>
    /// The number of view slots, and so the first request slot.
    let viewSlotCount: Int
    /// The view slot holding the earliest held view (-1 when none) and its key.
    var earliestViewSlot = -1
    var earliestViewKey = UInt64.max
    /// The slot holding the earliest held reload event (-1 when none) and its key.
    var earliestReloadSlot = -1
    var earliestReloadKey = UInt64.max
    var pageLastViewed: StateTable<SimTime?>
    /// Each app's state on the device: one table, not an array per field
    /// (README, "Speed").
    var appStates: StateTable<AppState>
    var mediaSessionCounter = 0
    /// The buffer every app event's WidgetCenter records its calls in (`send`).
    var widgetCenterRequests: [WidgetCenter.Request] = []
    var locationRandom: RandomStream
    var systemRandom: RandomStream
    /// Times of batches already planned, for coalescing (F14).
    var openBatches: [SimTime] = []

    /// Events handled so far (for throughput measurements).
    public internal(set) var eventsProcessed = 0
    /// What the run may take; the run stops with `stopped` set when it passes them.
    public var limits = RunLimits()
    /// Why the run stopped before its end, if it did.
    public internal(set) var stopped: RunLimitExceeded?

    /// Creates a simulator for device `deviceIndex` of `simulation`.
    public init(simulation: SimulationSetup, deviceIndex: Int, observer: Observer) {
        self.init(
            device: simulation.population.device(deviceIndex, master: simulation.masterSeed), of: simulation,
            deviceIndex: deviceIndex, observer: observer)
    }

    /// Creates a simulator for `device`, run under `simulation`'s clock,
    /// scheduler and seed (a fleet generates its devices one at a time).
    public init(device: DeviceSetup, of simulation: SimulationSetup, deviceIndex: Int, observer: Observer) {
        self.observer = observer
        self.deviceIndex = deviceIndex
        let deviceCalendar = simulation.calendar(of: device)
        self.calendar = deviceCalendar
        // Repeating actions become plain scripted ones on the device's own
        // clock, after the fixed ones, so the fixed ones keep their indices.
        var device = device
        device.script += device.repeatingScript.flatMap { $0.instants(before: simulation.endTime, calendar: deviceCalendar) }
        // The state tables are indexed without checks in release builds
        // (`StateTable`), so every page, app and widget a device's widgets
        // and script name is checked here, once: a scenario's loader has
        // resolved and checked each name, but a setup built in Swift may
        // hold any number.
        precondition(
            device.widgets.allSatisfy { device.pages.indices.contains($0.page) && device.apps.indices.contains($0.app) },
            "DeviceSimulator: a widget of device \(device.id) is on a page or of an app the device does not have")
        precondition(
            device.script.allSatisfy {
                $0.action.names(pagesBelow: device.pages.count, appsBelow: device.apps.count, widgetsBelow: device.widgets.count)
            },
            "DeviceSimulator: a scripted action of device \(device.id) names a page, app or widget the device does not have")
        self.setup = device
        self.parameters = simulation.scheduler
        let seed = simulation.masterSeed.derived("device", device.id)
        self.seed = seed
        daySeeds = seed.derived("day").children
        self.scheduler = ReloadScheduler(parameters: simulation.scheduler, delaySeed: seed.derived("scheduling-delay"))
        self.endTime = simulation.endTime

        pageOfWidget = device.widgets.map(\.page)
        widgetsOnPage = IndexLists(listCount: device.pages.count, grouping: pageOfWidget)
        widgetsOfApp = IndexLists(listCount: device.apps.count, count: device.widgets.count) { device.widgets[$0].app }
        hasLocationWidgets = device.widgets.contains { $0.truth.changesWithLocation }
        pageRandoms = StateTable(count: device.pages.count) { seed.derived("views", device.pages[$0].name).stream() }
        // Derived only for a page that has bursts of views: a stream of their own.
        // Empty, allocating nothing, on a device without them (a fleet's every device, most often).
        viewBursts = device.pages.contains { !$0.viewsDuring.isEmpty }
            ? device.pages.map { $0.viewsDuring.isEmpty ? nil : BurstArrivals(random: seed.derived("view-bursts", $0.name).stream()) }
            : []
        viewArrivals = StateTable(repeating: PreparedArrivals.inactive, count: 2 * device.pages.count)
        viewRates = StateTable(repeating: 0, count: 2 * device.pages.count * 24)
        let widgetsOnPage = self.widgetsOnPage
        // Room for twice the views a page with widgets gets on its busiest day (at
        // least 8, at most 4,096): the rings rarely grow, and a page seen 35
        // times a day does not clear a ring of hundreds (README, "Speed").
        // A page without widgets has its views simulated only if a script
        // names it.
        pageViews = PageViewWindows(capacities: device.pages.indices.map { page in
            guard !widgetsOnPage.isEmpty(page) else { return 0 }
            let room = 2 * device.pages[page].viewsPerDay * device.user.busiestDayActivity
            return room >= 4_096 ? 4_096 : room >= 8 ? Int(room) : 8
        })
        var viewSlotCount = 0
        pageViewSlots = StateTable(count: device.pages.count) { page in
            guard !widgetsOnPage.isEmpty(page) else { return -1 }
            defer { viewSlotCount += 2 }
            return viewSlotCount
        }
        self.viewSlotCount = viewSlotCount
        heldKeys = StateTable(repeating: .max, count: viewSlotCount + 2 * device.widgets.count + 1)
        heldViews = StateTable(repeating: HeldView(page: 0, day: 0), count: viewSlotCount)
        pageLastViewed = StateTable(repeating: nil, count: device.pages.count)
        appStates = StateTable(count: device.apps.count) { app in
            let code: any ContainingApp
            if let swift = device.apps[app].swift {
                code = swift.make()
            } else {
                let reloadAll = device.widgets.filter { $0.app == app && $0.truth.reaction == .reloadAll }.map(\.kind)
                code = ConfiguredApp(foregroundReload: device.apps[app].foregroundReload, reloadAllOnChangeOf: reloadAll)
            }
            let appSeed = seed.derived("app", device.apps[app].id)
            return AppState(
                code: code,
                sessionRandom: appSeed.derived("sessions").stream(),
                mediaRandom: appSeed.derived("media").stream(),
                centerRandom: appSeed.derived("widget-center").stream())
        }
        locationRandom = seed.derived("location").stream()
        systemRandom = seed.derived("system").stream()

        let parameters = simulation.scheduler
        let calendar = self.calendar
        widgets = StateTable(count: device.widgets.count) { index in
            let widget = device.widgets[index]
            let widgetSeed = seed.derived("widget", widget.id)
            let provider: AnyTimelineProvider
            switch widget.provider {
            case .configured(let settings): provider = AnyTimelineProvider(ConfiguredProvider(settings: settings))
            case .custom(let swift): provider = swift.make()
            }
            let truth = ContentTruth(
                periodic: widget.truth.periodic,
                scheduledChanges: widget.truth.scheduledChanges,
                periodicDrawnLive: widget.truth.periodicDrawnLive,
                forecastHorizonMean: widget.truth.forecastHorizonMean,
                forecastSeed: widgetSeed.derived("forecast"),
                calendar: calendar
            )
            return WidgetRuntime(
                setup: widget,
                provider: provider,
                callContext: TimelineProviderContext(
                    family: widget.family, isPreview: false, configuration: widget.configuration, calendar: calendar, now: 0,
                    network: widget.provider.network, random: widgetSeed.derived("provider").stream(),
                    scheduleStorage: truth.storage),
                interactionRandom: widgetSeed.derived("interaction").stream(),
                truthRandom: widgetSeed.derived("truth").stream(),
                notificationRandom: widgetSeed.derived("notifications").stream(),
                truth: truth,
                changeBursts: widget.truth.randomChangesDuring.isEmpty ? nil : BurstArrivals(random: widgetSeed.derived("truth-windows").stream()),
                launchRandom: widgetSeed.derived("launch").stream(),
                repeatRandom: widgetSeed.derived("repeats").stream()
            )
        }
        schedules = StateTable(count: device.widgets.count) { index in
            // Two fields read in place: a copy of the whole setup retained every array and string in it.
            let widgetSeed = seed.derived("widget", device.widgets[index].id)
            var budgetRandom = widgetSeed.derived("budget").stream()
            return WidgetSchedule(
                baseDailyBudget: budgetRandom.nextInt(in: parameters.dailyBudgetMin...parameters.dailyBudgetMax),
                addedAt: device.widgets[index].addedAt,
                ledger: BudgetLedger(model: parameters.budgetModel, parameters: parameters),
                schedulingRandom: widgetSeed.derived("scheduling").stream())
        }
    }

    /// Runs the device from t = 0 to the end of the simulation.
    public mutating func run() {
        for (index, widget) in setup.widgets.enumerated() where widget.addedAt < endTime {
            queue.schedule(.widgetAdded(widget: Int32(index)), at: max(0, widget.addedAt))
        }
        for (index, action) in setup.script.enumerated() where action.at < endTime {
            queue.schedule(.scripted(index: Int32(index)), at: max(0, action.at))
        }
        queue.schedule(.dayStarted(day: Int32(calendar.dayIndex(0))), at: 0)
        while true {
            // The earliest of the queue's next event and the held events, by
            // (time, insertion sequence): the order of one queue holding all.
            var key = queue.nextKey
            var heldSlot = -1
            if earliestViewKey < key {
                key = earliestViewKey
                heldSlot = earliestViewSlot
            }
            if earliestReloadKey < key {
                key = earliestReloadKey
                heldSlot = earliestReloadSlot
            }
            guard key != .max else { break }
            let time = SimTime(key >> 32)
            guard time < endTime else { break }
            #if WIDGETSIM_INTERNAL_CHECKS
            precondition(time >= now, "DeviceSimulator: time went backwards from \(now) to \(time)")
            #endif
            now = time
            eventsProcessed += 1
            if heldSlot >= 0 {
                heldKeys[heldSlot] = .max
                if heldSlot < viewSlotCount {
                    findEarliestView()
                    let view = heldViews[heldSlot]
                    viewPage(Int(view.page), day: Int(view.day))
                } else {
                    findEarliestReloadEvent()
                    handleHeldReloadEvent(heldSlot)
                }
            } else {
                handle(queue.popNext()!.payload)
            }
            _checkInvariants()
            // Every 1,024 events: one handler schedules at most a few events
            // per widget, so the queue stays far below its 2^32 bound.
            if eventsProcessed & 1_023 == 0, let reason = limitReached() {
                stopped = reason
                return
            }
        }
    }

    /// A widget's held request falls due, its call completes, or the held
    /// batch is due. Not inlined into `run`: the loop then stays small
    /// enough for Swift to inline a view's whole handling into it (README,
    /// "Speed").
    @inline(never)
    mutating func handleHeldReloadEvent(_ slot: Int) {
        if slot < viewSlotCount + widgets.count {
            // The request's wait (eligibility, spacing or budget) is over.
            advancePendingReload(slot - viewSlotCount)
        } else if slot < batchSlot {
            completeCall(slot - viewSlotCount - widgets.count)
        } else {
            runBatch()
        }
    }

    /// The limit the run has passed, if any.
    func limitReached() -> RunLimitExceeded? {
        if queue.scheduledCount >= limits.guardEventsPerDevice {
            return RunLimitExceeded(kind: .events, device: setup.id, at: now, limit: limits.guardEventsPerDevice)
        }
        if observer.keptBytes > limits.memoryBytes {
            return RunLimitExceeded(kind: .memory, device: setup.id, at: now, limit: limits.memoryBytes)
        }
        return nil
    }

    mutating func handle(_ event: DeviceEvent) {
        switch event {
        case .widgetAdded(let widget): addWidget(Int(widget))
        case .dayStarted(let day): startDay(Int(day))
        case .pageViewed(let page, let day): viewPage(Int(page), day: Int(day))
        case .pageViewedInWindow(let page, let day): viewPageInWindow(Int(page), day: Int(day))
        case .appSessionStarted(let app, let day): startAppSession(Int(app), day: Int(day))
        case .appSessionEnded(let app, let day, let scheduleNext): endAppSession(Int(app), day: Int(day), scheduleNext: scheduleNext)
        case .mediaSessionStarted(let app, let day): startMediaSession(Int(app), day: Int(day))
        case .mediaSessionEnded(let app, let day, let session, let scheduleNext):
            endMediaSession(Int(app), day: Int(day), session: Int(session), scheduleNext: scheduleNext)
        case .mediaReloadTick(let app, let session): mediaReloadTick(Int(app), session: Int(session))
        case .locationChanged(let day): changeLocation(day: Int(day))
        case .systemChanged(let day): changeSystemSettings(day: Int(day))
        case .truthChanged(let widget, let day): changeTruth(Int(widget), day: Int(day))
        case .truthChangedInWindow(let widget, let day): changeTruthInWindow(Int(widget), day: Int(day))
        case .notificationDelivered(let widget, let reaction): deliverNotification(about: Int(widget), reaction: reaction)
        case .pushDelivered(let app): deliverWidgetPush(to: Int(app))
        case .batchDue: runBatch()
        case .freeReloadDue(let widget, let trigger, let requestedAt):
            runFreeReload(Int(widget), trigger: trigger, requestedAt: Int(requestedAt))
        case .pushBudgetAvailable(let widget): releaseHeldPush(Int(widget))
        case .backgroundSessionCompleted(let widget):
            // F20: the session's events arrive and the extension asks WidgetKit
            // to reload; this is budgeted like a WidgetCenter call.
            requestBudgetedReload(Int(widget), trigger: .backgroundSession, eligibleAt: now)
        case .scripted(let index): perform(setup.script[Int(index)].action)
        }
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Keeps a page's next view in its slot, or in the queue if the slot is taken.
    @inline(__always)
    mutating func scheduleView(_ page: Int, day: Int, at time: SimTime) {
        let slot = pageViewSlots[page] + (day & 1)
        if heldKeys[slot] == .max {
            let key = queue.reserveKey(at: time)
            heldKeys[slot] = key
            heldViews[slot] = HeldView(page: Int32(page), day: Int32(day))
            if key < earliestViewKey {
                earliestViewKey = key
                earliestViewSlot = slot
            }
        } else {
            queue.schedule(.pageViewed(page: Int32(page), day: Int32(day)), at: time)
        }
    }

    /// The slot holding `widget`'s pending request.
    func requestSlot(_ widget: Int) -> Int { viewSlotCount + widget }

    /// The slot holding the completion of `widget`'s call in flight.
    func completionSlot(_ widget: Int) -> Int { viewSlotCount + widgets.count + widget }

    /// The slot holding one of the device's planned reload batches.
    var batchSlot: Int { viewSlotCount + 2 * widgets.count }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Holds a reload event in its empty slot, due at `time`, under the next
    /// order key the queue gives out.
    @inline(__always)
    mutating func holdReloadEvent(_ slot: Int, at time: SimTime) {
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(heldKeys[slot] == .max, "DeviceSimulator: held slot \(slot) is already taken")
        #endif
        let key = queue.reserveKey(at: time)
        heldKeys[slot] = key
        if key < earliestReloadKey {
            earliestReloadKey = key
            earliestReloadSlot = slot
        }
    }

    /// Drops the reload event held in `slot`, if any.
    mutating func releaseReloadEvent(_ slot: Int) {
        heldKeys[slot] = .max
        if slot == earliestReloadSlot { findEarliestReloadEvent() }
    }

    /// Finds the earliest held view again, after one was taken.
    mutating func findEarliestView() {
        (earliestViewSlot, earliestViewKey) = heldKeys.indexOfMinimum(in: 0..<viewSlotCount)
    }

    /// Finds the earliest held reload event again, after one was taken or dropped.
    mutating func findEarliestReloadEvent() {
        (earliestReloadSlot, earliestReloadKey) = heldKeys.indexOfMinimum(in: viewSlotCount..<heldKeys.count)
    }

    /// The calendar day plan for `day` (two are kept: today's and yesterday's,
    /// whose evening may run past midnight).
    func plan(for day: Int) -> DayPlan {
        day & 1 == 0 ? evenDayPlan : oddDayPlan
    }

    /// Whether day `day`'s plan is still kept: from the day after next on,
    /// its slot holds that day's.
    func holdsPlan(for day: Int) -> Bool {
        (day & 1 == 0 ? evenPlanDay : oddPlanDay) == day
    }
}

/// One app's state on a device.
struct AppState {
    /// The app's code, which answers app events with WidgetCenter calls (F16).
    var code: any ContainingApp
    /// The configured widgets the app's WidgetCenter shows (F16).
    var configurations: [WidgetInfo] = []
    /// Arrivals and lengths of the app's foreground sessions.
    var sessionRandom: RandomStream
    /// Arrivals and lengths of the app's media sessions.
    var mediaRandom: RandomStream
    /// Delays of the free reloads its WidgetCenter calls ask for (F18).
    var centerRandom: RandomStream
    /// Delivery delays of the widget pushes its script sends (F19), derived
    /// at the app's first push: most devices send none, and deriving a
    /// stream for each app cost 0.2 % of a fleet run.
    var pushRandom: RandomStream?
    /// Foreground sessions open now (F17).
    var foregroundSessions = 0
    /// When the app was last opened from a tap on its widget (F18).
    var launchedFromWidgetAt: SimTime?
    /// The media session playing now, if any (F17).
    var mediaSession: Int?
}
