// The user's side of a device: days, views, app and media sessions, location
// and system changes, and changes in the truth behind each widget. Each
// process draws from its own stream and schedules only its next event, so
// the queue stays small and a process never shifts another's draws.

extension DeviceSimulator {
    // MARK: Widgets and days

    mutating func addWidget(_ widget: Int) {
        widgets[widget].added = true
        updateConfigurations(of: widgets[widget].setup.app)
        // F5: the gallery snapshot and the first-display placeholder are not reloads.
        _ = widgets[widget].provider.snapshot(in: providerContext(widget, isPreview: true))
        _ = widgets[widget].provider.placeholder(in: providerContext(widget, isPreview: false))
        reportDayStart(widget, day: calendar.dayIndex(now))
        startCall(widget, trigger: .initial, budgeted: false, waited: 0)
    }

    /// Tells the observer the widget's limit as a local day begins (once per day).
    mutating func reportDayStart(_ widget: Int, day: Int) {
        guard day > widgets[widget].lastReportedDay else { return }
        widgets[widget].lastReportedDay = day
        observer.dayStarted(DayStartRecord(
            time: now, day: day, device: deviceIndex, widget: widget, budgetLimit: dailyLimitNow(widget)))
    }

    mutating func startDay(_ day: Int) {
        var random = daySeeds.seed(UInt64(bitPattern: Int64(day))).stream()
        let plan = DayPlan.draw(day: day, profile: setup.user, calendar: calendar, random: &random)
        if day & 1 == 0 {
            evenDayPlan = plan
            evenPlanDay = day
        } else {
            oddDayPlan = plan
            oddPlanDay = day
        }
        for widget in widgets.indices where widgets[widget].added {
            reportDayStart(widget, day: day)
        }
        // Processes that can affect no widget are not simulated at all: a view
        // of a page without widgets, a session of an app without widgets, or a
        // location change when no widget follows location changes nothing, and
        // each process has its own stream, so skipping it moves no other draw.
        for page in setup.pages.indices where !widgetsOnPage.isEmpty(page) {
            // The plan's slot is replaced with the plan, so a view drawn later
            // under this day's parity reads the plan that `plan(for:)` returns.
            let slot = 2 * page + (day & 1)
            let arrivals = PreparedArrivals(
                start: plan.wake, end: plan.sleep, expected: setup.pages[page].viewsPerDay * plan.activity, totalWeight: plan.awakeWeight)
            viewArrivals[slot] = arrivals
            for hour in 0..<24 { viewRates[24 * slot + hour] = arrivals.hourlyRate(shape: setup.user.hourlyActivity[hour]) }
            scheduleNextView(page, day: day, after: max(now, plan.wake) - 1)
        }
        for page in viewBursts.indices where viewBursts[page] != nil && !widgetsOnPage.isEmpty(page) {
            scheduleNextWindowView(page, day: day, start: now)
        }
        for app in setup.apps.indices where !widgetsOfApp.isEmpty(app) {
            scheduleNextAppSession(app, day: day, after: max(now, plan.wake) - 1)
            scheduleNextMediaSession(app, day: day, after: max(now, plan.wake) - 1)
        }
        if hasLocationWidgets, let next = Self.awakeArrival(
            plan, after: max(now, plan.wake) - 1, perDay: setup.user.locationChangesPerDay, shape: setup.user.hourlyActivity,
            calendar: calendar, random: &locationRandom) {
            queue.schedule(.locationChanged(day: Int32(day)), at: next)
        }
        if let next = Self.allDayArrival(
            day: day, after: now - 1, perDay: setup.user.systemChangesPerDay, calendar: calendar, random: &systemRandom) {
            queue.schedule(.systemChanged(day: Int32(day)), at: next)
        }
        for widget in widgets.indices {
            scheduleNextTruthChange(widget, day: day, after: now - 1)
            if widgets[widget].changeBursts != nil { scheduleNextWindowChange(widget, day: day, start: now) }
        }
        let tomorrow = calendar.startOfDay(day + 1)
        if tomorrow < endTime {
            queue.schedule(.dayStarted(day: Int32(day + 1)), at: tomorrow)
        }
    }

    // The two helpers below are static on purpose: called as methods of the
    // simulator with an `inout` stream that lives in the simulator, they would
    // make Swift copy the whole simulator to keep the accesses exclusive.

    /// The next arrival within `plan`'s waking hours, shaped by the user's
    /// hourly activity, at `perDay` times the day's weekday activity.
    static func awakeArrival(
        _ plan: DayPlan, after: SimTime, perDay: Double, shape: [Double], calendar: CivilCalendar, random: inout RandomStream
    ) -> SimTime? {
        ArrivalProcess.nextArrival(
            after: after, start: plan.wake, end: plan.sleep, expected: perDay * plan.activity, totalWeight: plan.awakeWeight,
            shape: shape, calendar: calendar, random: &random)
    }

    /// The next arrival at any hour of local day `day`, evenly spread.
    static func allDayArrival(
        day: Int, after: SimTime, perDay: Double, calendar: CivilCalendar, random: inout RandomStream
    ) -> SimTime? {
        let start = calendar.startOfDay(day)
        return ArrivalProcess.nextArrival(
            after: after, start: start, end: start + Seconds.day, expected: perDay, totalWeight: Double(Seconds.day),
            shape: nil, calendar: calendar, random: &random)
    }

    // MARK: Views (F1, F6, F9)

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    mutating func scheduleNextView(_ page: Int, day: Int, after: SimTime) {
        // Drawn as `awakeArrival` draws (F1, F6), from rates prepared at the day's start.
        let slot = 2 * page + (day & 1)
        let rates = viewRates.borrowed
        if let next = viewArrivals[slot].next(
            after: after, calendar: calendar, random: &pageRandoms[page], rate: { rates[24 * slot + $0] }) {
            scheduleView(page, day: day, at: next)
        }
    }

    // Inlined into the run loop, always: a view is half of all events
    // (README, "Speed"). `@inline(__always)` is only a hint to Swift 6.3's
    // inliner for a specialized generic method, and it declined it ("not
    // profitable", `-Rpass-missed=sil-inliner`) as soon as the run loop grew
    // a little, each time moving a fleet run's cost by about 1 %; a
    // transparent function is always inlined. The same holds for
    // `lookAtPage` and `recordView` below.
    @_transparent
    mutating func viewPage(_ page: Int, day: Int) {
        lookAtPage(page)
        scheduleNextView(page, day: day, after: now)
    }

    // Always inlined, as `viewPage` above.
    /// The user looks at a page: every widget on it is seen.
    @_transparent
    mutating func lookAtPage(_ page: Int) {
        pageViews.record(page: page, at: now)
        pageLastViewed[page] = now
        for position in widgetsOnPage.positions(of: page) {
            let widget = widgetsOnPage.member(at: position)
            guard widgets[widget].added else { continue }
            recordView(widget)
            if widgets[widget].waitingForView {
                // F9: a deferred reload may run when its page becomes visible.
                advancePendingReload(widget)
            }
            if widgets[widget].locationReloadOnNextView {
                // F17: a significant location change reloads when the widget is viewed.
                widgets[widget].locationReloadOnNextView = false
                requestFreeReload(widget, trigger: .location, at: now)
            }
            let tapRate = widgets[widget].setup.tapsPerView
            if tapRate > 0 && widgets[widget].interactionRandom.nextBool(probability: tapRate) {
                tap(widget)
            }
            let launchRate = widgets[widget].setup.launchesAppPerView
            if launchRate > 0 && widgets[widget].launchRandom.nextBool(probability: launchRate) {
                launchApp(from: widget)
            }
        }
    }

    // Always inlined, as `viewPage` above.
    /// Records what the widget shows now against the truth.
    ///
    /// What the widget shows changes only when the next entry's date comes,
    /// the truth records an unpredictable change, or a timeline is
    /// installed, and a page is viewed several times between two of those:
    /// so it is worked out then (`refreshShown`, out of line) and a view
    /// only compares its time with the stale instant (README, "Speed").
    @_transparent
    mutating func recordView(_ widget: Int) {
        if now >= widgets[widget].shown.validUntil
            || widgets[widget].shown.changeCount != widgets[widget].truth.unpredictableChangeCount {
            refreshShown(widget)
        }
        let shown = widgets[widget].shown
        // A change in the very second of the view is not yet visible at
        // one-second resolution, so stale means "changed before this view".
        let isStale = shown.hasNoData || shown.staleFrom < now
        observer.widgetViewed(ViewRecord(
            time: now, device: deviceIndex, widget: widget, shownEntryDate: shown.entryDate, dataAsOf: shown.dataAsOf,
            staleness: isStale ? now - shown.staleFrom : 0, isStale: isStale))
    }

    /// Works out what the widget shows now, and until when.
    @inline(never)
    mutating func refreshShown(_ widget: Int) {
        let changes = widgets[widget].truth.unpredictableChangeCount
        let count = widgets[widget].entries.count
        guard widgets[widget].hasTimeline, count > 0 else {
            // The placeholder (F5) shows no data at all, until a timeline is installed.
            widgets[widget].shown = ShownData(
                validUntil: .max, changeCount: changes, hasNoData: true, staleFrom: schedules[widget].addedAt,
                entryDate: nil, dataAsOf: nil)
            return
        }
        // F1: each entry shows from its date on; before the first, the first
        // shows. Views come in time order, so the shown entry only moves
        // forward until the next timeline is installed.
        var shown = widgets[widget].shownEntry
        while shown + 1 < count && widgets[widget].entries[shown + 1].date <= now { shown += 1 }
        widgets[widget].shownEntry = shown
        let entry = widgets[widget].entries[shown]
        let validUntil = shown + 1 < count ? widgets[widget].entries[shown + 1].date : SimTime.max
        guard let fetchedAt = entry.dataFetchedAt else {
            // An entry with no data (the provider never got any) shows what
            // the placeholder shows: stale since the widget was added.
            widgets[widget].shown = ShownData(
                validUntil: validUntil, changeCount: changes, hasNoData: true, staleFrom: schedules[widget].addedAt,
                entryDate: entry.date, dataAsOf: nil)
            return
        }
        // The entry's first mismatch depends only on the entry and on the
        // unpredictable changes so far.
        let mismatch = widgets[widget].truth.firstMismatch(fetchedAt: fetchedAt, date: entry.date, isForecast: entry.isForecast)
        widgets[widget].shown = ShownData(
            validUntil: validUntil, changeCount: changes, hasNoData: false, staleFrom: mismatch ?? .max,
            entryDate: entry.date, dataAsOf: entry.isForecast ? max(entry.date, fetchedAt) : fetchedAt)
    }

    /// The user taps the widget itself, which opens its app (a widget URL).
    /// The app comes to the foreground, but WidgetKit ignores its reload
    /// calls for `reloadsIgnoredAfterWidgetLaunch` (F18).
    mutating func launchApp(from widget: Int) {
        let app = widgets[widget].setup.app
        let length = max(1, setup.apps[app].sessionLength.draw(using: &widgets[widget].launchRandom))
        appStates[app].launchedFromWidgetAt = now
        enterForeground(app)
        queue.schedule(.appSessionEnded(app: Int32(app), day: Int32(calendar.dayIndex(now)), scheduleNext: false), at: now + length)
    }

    /// The user taps an App Intent button: the action changes the data and the
    /// tapped widget reloads at once, free (F17, F18).
    mutating func tap(_ widget: Int) {
        observer.appActed(AppActivityRecord(time: now, device: deviceIndex, app: widgets[widget].setup.app, activity: .intent(widget: widget)))
        recordContentChange(of: widget)
        let delay = parameters.interactionReloadDelay.draw(using: &widgets[widget].interactionRandom)
        requestFreeReload(widget, trigger: .interaction, at: now + delay)
    }

    // MARK: App and media sessions (F17)

    // scheduleNextAppSession and scheduleNextMediaSession call the static
    // awakeArrival directly, on purpose: a shared instance helper taking one
    // of the simulator's own streams `inout` makes Swift copy the simulator.
    mutating func scheduleNextAppSession(_ app: Int, day: Int, after: SimTime) {
        // A session that ends once the day after next has begun (a long
        // session late in the day) ends its day's chain: that day is over,
        // and its plan's slot holds the later day's, which would start a
        // second chain beside that day's own.
        guard holdsPlan(for: day) else { return }
        if let next = Self.awakeArrival(
            plan(for: day), after: after, perDay: setup.apps[app].sessionsPerDay, shape: setup.user.hourlyActivity,
            calendar: calendar, random: &appStates[app].sessionRandom) {
            queue.schedule(.appSessionStarted(app: Int32(app), day: Int32(day)), at: next)
        }
    }

    mutating func startAppSession(_ app: Int, day: Int) {
        let length = max(1, setup.apps[app].sessionLength.draw(using: &appStates[app].sessionRandom))
        enterForeground(app)
        queue.schedule(.appSessionEnded(app: Int32(app), day: Int32(day), scheduleNext: true), at: now + length)
    }

    /// The app comes to the foreground; the calls its code makes now are free (F17).
    mutating func enterForeground(_ app: Int) {
        appStates[app].foregroundSessions += 1
        observer.appActed(AppActivityRecord(time: now, device: deviceIndex, app: app, activity: .foreground))
        send(.becameActive, to: app)
    }

    mutating func endAppSession(_ app: Int, day: Int, scheduleNext: Bool) {
        appStates[app].foregroundSessions -= 1
        if scheduleNext { scheduleNextAppSession(app, day: day, after: now) }
    }

    mutating func scheduleNextMediaSession(_ app: Int, day: Int, after: SimTime) {
        // As for app sessions above.
        guard holdsPlan(for: day) else { return }
        if let next = Self.awakeArrival(
            plan(for: day), after: after, perDay: setup.apps[app].mediaSessionsPerDay, shape: setup.user.hourlyActivity,
            calendar: calendar, random: &appStates[app].mediaRandom) {
            queue.schedule(.mediaSessionStarted(app: Int32(app), day: Int32(day)), at: next)
        }
    }

    mutating func startMediaSession(_ app: Int, day: Int) {
        let length = max(1, setup.apps[app].mediaSessionLength.draw(using: &appStates[app].mediaRandom))
        beginMediaSession(app, length: length, day: day, scheduleNext: true)
    }

    /// An audio or navigation session starts: the app's WidgetCenter calls are
    /// free until it ends (F17), and it reloads its widgets as it plays.
    mutating func beginMediaSession(_ app: Int, length: Int, day: Int, scheduleNext: Bool) {
        mediaSessionCounter += 1
        appStates[app].mediaSession = mediaSessionCounter
        send(.mediaSessionTick, to: app)
        queue.schedule(.mediaReloadTick(app: Int32(app), session: Int32(mediaSessionCounter)), at: now + setup.apps[app].mediaReloadInterval)
        queue.schedule(.mediaSessionEnded(app: Int32(app), day: Int32(day), session: Int32(mediaSessionCounter), scheduleNext: scheduleNext), at: now + length)
    }

    mutating func mediaReloadTick(_ app: Int, session: Int) {
        guard appStates[app].mediaSession == session else { return }
        send(.mediaSessionTick, to: app)
        queue.schedule(.mediaReloadTick(app: Int32(app), session: Int32(session)), at: now + setup.apps[app].mediaReloadInterval)
    }

    mutating func endMediaSession(_ app: Int, day: Int, session: Int, scheduleNext: Bool) {
        if appStates[app].mediaSession == session { appStates[app].mediaSession = nil }
        if scheduleNext { scheduleNextMediaSession(app, day: day, after: now) }
    }

    // MARK: Location and system changes (F17, F21)

    mutating func changeLocation(day: Int) {
        applyLocationChange()
        if let next = Self.awakeArrival(
            plan(for: day), after: now, perDay: setup.user.locationChangesPerDay, shape: setup.user.hourlyActivity,
            calendar: calendar, random: &locationRandom) {
            queue.schedule(.locationChanged(day: Int32(day)), at: next)
        }
    }

    /// A location widget's truth changes now. It reloads at once, free, if it
    /// was seen within `locationAccessAfterView` (F21: the widget may get
    /// location up to 15 minutes after it was last viewed); otherwise the
    /// reload waits for its next view (F17).
    mutating func applyLocationChange() {
        for widget in widgets.indices where widgets[widget].added && widgets[widget].setup.truth.changesWithLocation {
            recordContentChange(of: widget)
            let seen = pageLastViewed[pageOfWidget[widget]] ?? schedules[widget].addedAt
            if now - seen <= parameters.locationAccessAfterView {
                requestFreeReload(widget, trigger: .location, at: now)
            } else {
                widgets[widget].locationReloadOnNextView = true
            }
        }
    }

    mutating func changeSystemSettings(day: Int) {
        applySystemChange()
        if let next = Self.allDayArrival(
            day: day, after: now, perDay: setup.user.systemChangesPerDay, calendar: calendar, random: &systemRandom) {
            queue.schedule(.systemChanged(day: Int32(day)), at: next)
        }
    }

    /// Locale, accessibility, time or account changed: every widget reloads, free (F17).
    mutating func applySystemChange() {
        let delay = parameters.systemReloadDelay.draw(using: &systemRandom)
        for widget in widgets.indices where widgets[widget].added {
            requestFreeReload(widget, trigger: .system, at: now + delay)
        }
    }

    // MARK: Truth changes and notifications (F16, F19)

    mutating func scheduleNextTruthChange(_ widget: Int, day: Int, after: SimTime) {
        let truth = widgets[widget].setup.truth
        let next: SimTime?
        if let shape = truth.randomChangesByHour {
            next = Self.shapedAllDayArrival(
                day: day, after: after, perDay: truth.randomChangesPerDay, shape: shape, calendar: calendar,
                random: &widgets[widget].truthRandom)
        } else {
            next = Self.allDayArrival(
                day: day, after: after, perDay: truth.randomChangesPerDay, calendar: calendar, random: &widgets[widget].truthRandom)
        }
        if let next {
            queue.schedule(.truthChanged(widget: Int32(widget), day: Int32(day)), at: next)
        }
    }

    /// The next arrival within local day `day`, spread over its hours by
    /// `shape`; the day's expected total stays `perDay`.
    static func shapedAllDayArrival(
        day: Int, after: SimTime, perDay: Double, shape: [Double], calendar: CivilCalendar, random: inout RandomStream
    ) -> SimTime? {
        let start = calendar.startOfDay(day)
        let end = start + Seconds.day
        return ArrivalProcess.nextArrival(
            after: after, start: start, end: end, expected: perDay,
            totalWeight: ArrivalProcess.weightedLength(from: start, to: end, shape: shape, calendar: calendar),
            shape: shape, calendar: calendar, random: &random)
    }

    mutating func changeTruth(_ widget: Int, day: Int) {
        applyTruthChange(widget)
        scheduleNextTruthChange(widget, day: day, after: now)
    }

    /// The next of the bursts of changes in the windows that open on local
    /// day `day` (each opening whole, past midnight too); `start` begins
    /// the day's chain.
    mutating func scheduleNextWindowChange(_ widget: Int, day: Int, start: SimTime? = nil) {
        let openings = openings(of: widgets[widget].setup.truth.randomChangesDuring, day: day)
        if let next = widgets[widget].changeBursts!.next(openings, day: day, start: start) {
            queue.schedule(.truthChangedInWindow(widget: Int32(widget), day: Int32(day)), at: next)
        }
    }

    /// The next of the page's bursts of views in the windows that open on
    /// local day `day`; `start` begins the day's chain.
    mutating func scheduleNextWindowView(_ page: Int, day: Int, start: SimTime? = nil) {
        let openings = openings(of: setup.pages[page].viewsDuring, day: day)
        if let next = viewBursts[page]!.next(openings, day: day, start: start) {
            queue.schedule(.pageViewedInWindow(page: Int32(page), day: Int32(day)), at: next)
        }
    }

    mutating func viewPageInWindow(_ page: Int, day: Int) {
        lookAtPage(page)
        scheduleNextWindowView(page, day: day)
    }

    /// Each opening of `bursts` on local day `day`, past midnight for a
    /// window that crosses it. An opening that began before the run (on
    /// the day that holds its start) brings none, as one the day before.
    func openings(of bursts: [BurstWindow], day: Int) -> [BurstArrivals.Opening] {
        let start = calendar.startOfDay(day)
        let weekday = calendar.weekday(start).rawValue
        return bursts.compactMap { burst in
            let from = start + burst.window.fromSecond
            guard burst.window.weekdays[weekday], burst.window.length > 0, burst.expected > 0, from >= 0 else { return nil }
            return BurstArrivals.Opening(from: from, to: from + burst.window.length, rate: burst.expected / Double(burst.window.length))
        }
    }

    mutating func changeTruthInWindow(_ widget: Int, day: Int) {
        applyTruthChange(widget)
        scheduleNextWindowChange(widget, day: day)
    }

    /// The widget's content changes in a way no entry foresaw (a tap's action,
    /// a move, news): the truth records it, and reports measure the time
    /// until a reload shows it.
    mutating func recordContentChange(of widget: Int) {
        widgets[widget].callContext.releaseSchedule()
        widgets[widget].truth.recordUnpredictableChange(at: now)
        // Before the widget is added, its first call fetches the change: no
        // time to fresh to measure, and a widget never added has none.
        if widgets[widget].added {
            observer.contentChanged(ContentChangeRecord(time: now, device: deviceIndex, widget: widget))
        }
    }

    /// The widget's truth changes unpredictably; the app hears of it as configured.
    mutating func applyTruthChange(_ widget: Int) {
        recordContentChange(of: widget)
        let reaction = widgets[widget].setup.truth.reaction
        guard reaction != .none else { return }
        // Notifications are delivered opportunistically (F19).
        let delay = parameters.pushDeliveryDelay.draw(using: &widgets[widget].notificationRandom)
        queue.schedule(.notificationDelivered(widget: Int32(widget), reaction: reaction), at: now + delay)
    }

    mutating func deliverNotification(about widget: Int, reaction: TruthReaction) {
        let app = widgets[widget].setup.app
        switch reaction {
        case .none: break
        case .push: deliverWidgetPush(to: app)
        // A notification wakes the app; its code decides what to reload (F16, E2).
        case .reloadKind, .reloadAll: send(.contentChanged(kind: widgets[widget].setup.kind), to: app)
        }
    }

    /// A widget push reloads the app's widgets like `reloadAllTimelines()` (F19).
    mutating func deliverWidgetPush(to app: Int) {
        for widget in widgetsOfApp.list(app) {
            switch parameters.pushBudget {
            case .shared: requestBudgetedReload(widget, trigger: .push, eligibleAt: now)
            case .free: requestFreeReload(widget, trigger: .push, at: now)
            case .separate: requestPushReload(widget)
            }
        }
    }

    /// A push reload under a push budget of its own (F19): it runs at once
    /// if fewer than `pushDailyBudget` push calls started in the trailing 24
    /// hours (counting those on their way), and is otherwise withheld until
    /// one leaves (F12); pushes that arrive meanwhile merge into it.
    mutating func requestPushReload(_ widget: Int) {
        guard widgets[widget].added else { return }
        if widgets[widget].pushHeldSince != nil {
            observer.reloadWithheld(WithheldRecord(time: now, device: deviceIndex, widget: widget, trigger: .push, requests: 1))
            return
        }
        if let available = pushBudgetAvailability(widget) {
            observer.reloadWithheld(WithheldRecord(time: now, device: deviceIndex, widget: widget, trigger: .push, requests: 1))
            widgets[widget].pushHeldSince = now
            queue.schedule(.pushBudgetAvailable(widget: Int32(widget)), at: available)
            return
        }
        widgets[widget].pushCallsAwaiting += 1
        requestFreeReload(widget, trigger: .push, at: now)
    }

    /// Nil when a push call may start now; otherwise when to look again.
    func pushBudgetAvailability(_ widget: Int) -> SimTime? {
        let started = widgets[widget].pushes.count(at: now)
        let used = started + widgets[widget].pushCallsAwaiting
        guard used >= parameters.pushDailyBudget else { return nil }
        // The oldest started pushes must leave the window; calls on their way start within seconds.
        let leaving = used - parameters.pushDailyBudget
        return leaving < started ? widgets[widget].pushes.element(atOldest: leaving, at: now) + Seconds.day : now + 1
    }

    /// The withheld push reload runs if the push budget now has room.
    mutating func releaseHeldPush(_ widget: Int) {
        guard let since = widgets[widget].pushHeldSince else { return }
        if let available = pushBudgetAvailability(widget) {
            queue.schedule(.pushBudgetAvailable(widget: Int32(widget)), at: available)
            return
        }
        widgets[widget].pushHeldSince = nil
        widgets[widget].pushCallsAwaiting += 1
        queue.schedule(.freeReloadDue(widget: Int32(widget), trigger: .push, requestedAt: Int32(since)), at: now)
    }

    // MARK: Scripted actions

    mutating func perform(_ action: ScriptedAction.Action) {
        switch action {
        case .view(let page): lookAtPage(page)
        case .reloadTimelines(let app, let kind):
            var center = widgetCenter(for: app)
            center.reloadTimelines(ofKind: kind)
            applyRequests(of: center, from: app)
        case .reloadAllTimelines(let app):
            var center = widgetCenter(for: app)
            center.reloadAllTimelines()
            applyRequests(of: center, from: app)
        case .push(let app):
            // The script says when the server sends the push; it is delivered
            // opportunistically (F19), as a push about a truth change is.
            if appStates[app].pushRandom == nil { appStates[app].pushRandom = seed.derived("app", setup.apps[app].id, "push-delivery").stream() }
            let delay = parameters.pushDeliveryDelay.draw(using: &appStates[app].pushRandom!)
            queue.schedule(.pushDelivered(app: Int32(app)), at: now + delay)
        case .appSession(let app, let length):
            enterForeground(app)
            queue.schedule(.appSessionEnded(app: Int32(app), day: Int32(calendar.dayIndex(now)), scheduleNext: false), at: now + max(1, length))
        case .mediaSession(let app, let length):
            beginMediaSession(app, length: max(1, length), day: calendar.dayIndex(now), scheduleNext: false)
        case .tap(let widget): if widgets[widget].added { tap(widget) }
        case .truthChange(let widget): applyTruthChange(widget)
        case .locationChange: applyLocationChange()
        case .systemChange: applySystemChange()
        }
    }
}
