// The reload pipeline, as the simulator carries it out. The decisions (the
// four gates, the daily limit) are the scheduler's (`ReloadScheduler`); the
// simulator keeps the requests, acts on each decision, runs provider calls
// and reports what happened. Any call serves every request made before it started.

extension DeviceSimulator {
    // MARK: Budget

    /// The widget's daily budget now; nil under a model without a limit (F24).
    mutating func dailyLimitNow(_ widget: Int) -> Int? {
        let views = pageViews.count(page: pageOfWidget[widget], at: now)
        return scheduler.dailyLimit(
            baseDailyBudget: schedules[widget].baseDailyBudget, addedAt: schedules[widget].addedAt, at: now, pageViewsInTrailingDay: views)
    }

    // MARK: Requests

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Asks for a budgeted reload of `widget`, eligible from `eligibleAt` (F12: merges with a pending one).
    /// Returns true when the request now waits for gate 1 (`advancePendingReload`).
    @inline(__always) @discardableResult
    mutating func requestBudgetedReload(_ widget: Int, trigger: ReloadTrigger, eligibleAt: SimTime) -> Bool {
        guard widgets[widget].added else { return false }
        if var pending = schedules[widget].pending {
            pending.merge(trigger: trigger, eligibleAt: eligibleAt)
            schedules[widget].pending = pending
            if pending.withheldReported {
                // Merged into a request that is already waiting for budget: this one waits too.
                observer.reloadWithheld(WithheldRecord(time: now, device: deviceIndex, widget: widget, trigger: trigger, requests: 1))
                return false
            }
            // A request merging into a reload already planned in a batch runs with it.
            if widgets[widget].batchTime != nil || widgets[widget].inFlight != nil {
                return false
            }
        } else {
            schedules[widget].pending = PendingReload(trigger: trigger, eligibleAt: eligibleAt)
        }
        return advancePendingReload(widget)
    }

    /// Asks for a free reload of `widget` at `at` (F17).
    mutating func requestFreeReload(_ widget: Int, trigger: ReloadTrigger, at: SimTime) {
        guard widgets[widget].added else { return }
        queue.schedule(.freeReloadDue(widget: Int32(widget), trigger: trigger, requestedAt: Int32(now)), at: max(now, at))
    }

    /// Lets the app's code handle `event`, then applies the WidgetCenter
    /// calls it made, in order (F16, F17).
    mutating func send(_ event: AppEvent, to app: Int) {
        var center = WidgetCenter(configurations: appStates[app].configurations, requestStorage: &widgetCenterRequests)
        appStates[app].code.handle(event, at: now, center: &center)
        applyRequests(of: center, from: app)
        center.returnRequestStorage(to: &widgetCenterRequests)
    }

    /// Applies every request made on `center` by `app`, in call order.
    mutating func applyRequests(of center: WidgetCenter, from app: Int) {
        for request in center.requests {
            let activity: AppActivityRecord.Activity
            switch request {
            case .reloadTimelines(let kind): activity = .reloadTimelines(kind: kind)
            case .reloadAllTimelines: activity = .reloadAllTimelines
            }
            observer.appActed(AppActivityRecord(time: now, device: deviceIndex, app: app, activity: activity))
            applyWidgetCenter(request, from: app)
        }
    }

    /// Applies a WidgetCenter call made by `app` now (F16): free while the app is
    /// in the foreground or has a media session (F17), budgeted otherwise.
    mutating func applyWidgetCenter(_ request: WidgetCenter.Request, from app: Int) {
        // F18: calls right after the app was opened from its widget are ignored.
        if let launched = appStates[app].launchedFromWidgetAt, now - launched < parameters.reloadsIgnoredAfterWidgetLaunch {
            return
        }
        // The targets are walked in place, not gathered into an array: an
        // app's every foreground session makes such a call (README, "Speed").
        let kind: String?
        switch request {
        case .reloadAllTimelines: kind = nil
        case .reloadTimelines(let named): kind = named
        }
        guard widgetsOfApp.list(app).contains(where: { kind == nil || widgets[$0].setup.kind == kind }) else { return }
        let freeTrigger: ReloadTrigger? =
            appStates[app].foregroundSessions > 0 ? .appForeground : (appStates[app].mediaSession != nil ? .mediaSession : nil)
        if let freeTrigger {
            // One delay per call: all its widgets hear of it together (F18).
            let delay = parameters.foregroundReloadDelay.draw(using: &appStates[app].centerRandom)
            for widget in widgetsOfApp.list(app) where kind == nil || widgets[widget].setup.kind == kind {
                requestFreeReload(widget, trigger: freeTrigger, at: now + delay)
            }
        } else {
            for widget in widgetsOfApp.list(app) where kind == nil || widgets[widget].setup.kind == kind {
                requestBudgetedReload(widget, trigger: .widgetCenter, eligibleAt: now)
            }
        }
    }

    /// A WidgetCenter handle for `app`, seeing the app's configured widgets (F16).
    func widgetCenter(for app: Int) -> WidgetCenter {
        WidgetCenter(configurations: appStates[app].configurations)
    }

    /// What WidgetCenter shows `app` of its widgets: those added so far, in
    /// device order. Kept up to date as widgets are added, so an app event
    /// builds nothing.
    mutating func updateConfigurations(of app: Int) {
        appStates[app].configurations = widgetsOfApp.list(app).filter { widgets[$0].added }.map { index in
            let widget = widgets[index].setup
            return WidgetInfo(kind: widget.kind, family: widget.family, configuration: widget.configuration)
        }
    }

    // MARK: Acting on the scheduler's decisions

    /// Asks the scheduler about the widget's pending budgeted reload and acts
    /// on its decision. `batchDue` is true when the batch it joined is due now.
    /// Returns true when the request waits for gate 1 (eligibility and
    /// spacing), held in its slot.
    @discardableResult
    mutating func advancePendingReload(_ widget: Int, batchDue: Bool = false) -> Bool {
        guard let pending = schedules[widget].pending, widgets[widget].inFlight == nil else { return false }
        // Gate 1 first, on the request alone: most decisions end there.
        let due = scheduler.waitForEligibility(of: pending, lastBudgetedStart: schedules[widget].lastBudgetedStart, at: now)
        let heldKey = heldKeys[requestSlot(widget)]
        if heldKey != .max {
            if let due, due == SimTime(heldKey >> 32), keepsHeldRequest(widget) {
                // The same wait asked again before anything else was queued (a
                // completed call asks twice).
                return true
            }
            releaseReloadEvent(requestSlot(widget))
        }
        widgets[widget].batchTime = nil
        widgets[widget].waitingForView = false
        if let due {
            waitForRequest(widget, until: due)
            return true
        }

        let page = pageOfWidget[widget]
        let seen = pageLastViewed[page] ?? schedules[widget].addedAt
        let views = pageViews.count(page: page, at: now)
        let decision = scheduler.decidePastGateOne(
            &schedules[widget], at: now, lastSeen: seen, pageViewsInTrailingDay: views, openBatches: openBatches,
            batchDue: batchDue, calendar: calendar)
        switch decision {
        case .waitUntil(let due):
            // Gate 1's answer, which gates 2 to 4 never give (it was asked
            // above); kept so that the switch covers every decision.
            #if WIDGETSIM_INTERNAL_CHECKS
            preconditionFailure("DeviceSimulator: gates 2 to 4 answered with gate 1's wait")
            #else
            waitForRequest(widget, until: due)
            return true
            #endif
        case .waitForView:
            widgets[widget].waitingForView = true
        case .withheldUntil(let available):
            withhold(widget, until: available)
        case .joinBatch(let batch):
            widgets[widget].batchTime = batch
        case .openBatch(let batch):
            openBatch(at: batch, for: widget)
        case .runNow(let limit):
            let pending = schedules[widget].pending!
            startCall(widget, trigger: pending.trigger, budgeted: true, waited: now - pending.eligibleAt, limit: limit)
        }
        return false
    }

    // Not inlined, as `openBatch` below: kept out of `advancePendingReload`,
    // the rarer branches leave it small enough for Swift to inline the
    // scheduler's decision into it (README, "Speed").
    /// The widget's pending reload waits for budget until `available` (F12),
    /// reported as withheld once.
    @inline(never)
    mutating func withhold(_ widget: Int, until available: SimTime) {
        let pending = schedules[widget].pending!
        if !pending.withheldReported {
            schedules[widget].pending!.withheldReported = true
            observer.reloadWithheld(WithheldRecord(
                time: now, device: deviceIndex, widget: widget, trigger: pending.trigger, requests: pending.requests))
        }
        waitForRequest(widget, until: available)
    }

    /// Plans a reload batch at `batch`, which the widget's pending reload joins (F14).
    @inline(never)
    mutating func openBatch(at batch: SimTime, for widget: Int) {
        openBatches.append(batch)
        if heldKeys[batchSlot] == .max {
            holdReloadEvent(batchSlot, at: batch)
        } else {
            queue.schedule(.batchDue, at: batch)
        }
        widgets[widget].batchTime = batch
    }

    /// True when the widget's pending reload waits for a moment to be looked at again.
    func hasHeldRequest(_ widget: Int) -> Bool { heldKeys[requestSlot(widget)] != .max }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Keeps the widget's held request where it is when nothing was queued
    /// since it was held: it already holds the place a new hold at the same
    /// instant would take among all others. The sequence number a new hold
    /// would take is used up all the same, so every later event is numbered
    /// as before. Returns false, changing nothing, otherwise.
    @inline(__always)
    mutating func keepsHeldRequest(_ widget: Int) -> Bool {
        let key = heldKeys[requestSlot(widget)]
        guard queue.isLatest(key: key) else { return false }
        _ = queue.reserveKey(at: SimTime(key >> 32))
        return true
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Holds the moment the widget's pending reload is looked at again.
    @inline(__always)
    mutating func waitForRequest(_ widget: Int, until due: SimTime) {
        holdReloadEvent(requestSlot(widget), at: due)
    }

    /// Runs every widget whose pending reload joined the batch planned for
    /// now, and any whose reload falls due within `earlyReloadWindow` (F4).
    mutating func runBatch() {
        // By hand: a device has a batch or two open, and `removeAll(where:)`
        // costs more than the search. Most often the one open batch is this
        // one: `removeLast()` moves nothing, where `remove(at:)` made a
        // memmove call even for the last element (and `removeAll` went
        // through the generic `replaceSubrange`).
        if openBatches.count == 1 && openBatches[0] <= now {
            openBatches.removeLast()
        } else {
            var index = 0
            while index < openBatches.count {
                if openBatches[index] <= now { openBatches.remove(at: index) } else { index += 1 }
            }
        }
        for widget in widgets.indices where widgets[widget].batchTime == now {
            widgets[widget].batchTime = nil
            advancePendingReload(widget, batchDue: true)
        }
        guard parameters.earlyReloadWindow > 0 else { return }
        for widget in widgets.indices where widgets[widget].inFlight == nil && hasHeldRequest(widget) {
            let views = pageViews.count(page: pageOfWidget[widget], at: now)
            guard case .runNow(let limit)? = scheduler.decideEarly(
                &schedules[widget], at: now, pageViewsInTrailingDay: views, calendar: calendar) else { continue }
            let pending = schedules[widget].pending!
            startCall(widget, trigger: pending.trigger, budgeted: true, waited: now - pending.eligibleAt, limit: limit)
        }
    }

    mutating func runFreeReload(_ widget: Int, trigger: ReloadTrigger, requestedAt: SimTime) {
        if widgets[widget].inFlight != nil {
            // Runs when the current call completes; later free requests merge into it.
            if widgets[widget].queuedFreeTrigger == nil {
                widgets[widget].queuedFreeTrigger = trigger
                widgets[widget].queuedFreeRequestedAt = requestedAt
            } else if trigger == .push && parameters.pushBudget == .separate {
                // Merged into the queued call: this push will not start a call of its own.
                widgets[widget].pushCallsAwaiting -= 1
            }
            return
        }
        startCall(widget, trigger: trigger, budgeted: false, waited: now - requestedAt)
    }

    // MARK: Calls

    /// Calls the provider now. The provider's work is simulated at once; its
    /// timeline takes effect when the call completes.
    /// `limit` is the widget's daily limit now, when the caller already has it.
    mutating func startCall(_ widget: Int, trigger: ReloadTrigger, budgeted: Bool, waited: Int, limit knownLimit: Int?? = nil) {
        precondition(widgets[widget].inFlight == nil, "one call at a time per widget")
        let limit = knownLimit ?? dailyLimitNow(widget)
        if budgeted {
            schedules[widget].ledger.charge(at: now, limit: limit ?? .max, calendar: calendar)
            schedules[widget].lastBudgetedStart = now
        }
        let used = schedules[widget].ledger.usedInTrailingDay(at: now)

        // The call serves every request made before it started.
        if hasHeldRequest(widget) { releaseReloadEvent(requestSlot(widget)) }
        schedules[widget].pending = nil
        widgets[widget].batchTime = nil
        widgets[widget].waitingForView = false

        if trigger == .push && parameters.pushBudget == .separate {
            // F19: a push counts against its own budget when its call starts.
            widgets[widget].pushCallsAwaiting -= 1
            widgets[widget].pushes.record(now)
        }

        // F18: WidgetKit may call again right after, as part of the same refresh.
        if trigger != .repeatCall && parameters.extraTimelineCalls.upperBound > 0 {
            widgets[widget].repeatsLeft = widgets[widget].repeatRandom.nextInt(in: parameters.extraTimelineCalls)
        }

        widgets[widget].callContext.beginCall(at: now, schedule: widgets[widget].truth.storage)
        // The widget's table keeps its provider alive through the call, and
        // nothing the provider can reach replaces it: so the box is used
        // without a retain (`unretainedBox`).
        let timeLimit = parameters.providerTimeLimit
        let policy = widgets[widget].provider.unretainedBox._withUnsafeGuaranteedRef { box in
            box.timeline(in: &widgets[widget].callContext, into: &widgets[widget].incoming, timeLimit: timeLimit)
        }
        let duration = widgets[widget].callContext.now - now
        let completesAt = now + min(duration, parameters.providerTimeLimit)
        let result: ReloadResult
        if duration > parameters.providerTimeLimit {
            result = .timedOut
        } else if widgets[widget].incoming.count > parameters.maximumReliableEntries {
            result = .tooManyEntries
        } else {
            result = .ok
        }

        let nextEligible: SimTime?
        if result != .ok {
            // F22: a halted call produces no timeline; F23: a timeline of more
            // than about 400 entries is not shown. Either way the widget keeps
            // its old timeline and stays eligible under the old policy; with
            // no timeline at all the system picks a retry time as for a
            // single-entry `atEnd` (F3).
            nextEligible = widgets[widget].hasTimeline
                ? widgets[widget].installedNextEligible
                : completesAt + parameters.singleEntryAtEndDelay.draw(using: &schedules[widget].schedulingRandom)
        } else {
            nextEligible = eligibility(of: policy, entries: widgets[widget].incoming, receivedAt: completesAt, widget: widget)
        }
        widgets[widget].inFlight = CallInFlight(
            completesAt: completesAt,
            result: result,
            policy: policy,
            nextEligible: nextEligible,
            // A halted extension never started its session; one that ran to
            // the end did, whatever WidgetKit made of its timeline (F20).
            backgroundSessionCompletesAt: result == .timedOut ? nil : widgets[widget].callContext.backgroundSessionCompletesAt
        )
        holdReloadEvent(completionSlot(widget), at: completesAt)
        observer.reloadStarted(ReloadRecord(
            time: now,
            device: deviceIndex,
            widget: widget,
            trigger: trigger,
            budgeted: budgeted,
            budgetUsed24h: used,
            budgetLimit: limit,
            waited: waited,
            result: result,
            entryCount: result == .timedOut ? 0 : widgets[widget].incoming.count,
            policy: result == .ok ? policy : nil,
            nextEligible: nextEligible,
            completesAt: completesAt
        ))
    }

    /// When a timeline's policy makes the widget eligible again (F2, F3), at
    /// the latest `EventQueue.maximumTime`, about 136 years after the start:
    /// a timeline may end later than the queue can hold (10,000 entries 30
    /// days apart end 800 years on), and an instant past the run's end is
    /// never reached anyway, so only the reported date changes.
    mutating func eligibility(of policy: TimelineReloadPolicy, entries: [ScheduledEntry], receivedAt: SimTime, widget: Int) -> SimTime? {
        let latest = EventQueue<DeviceEvent>.maximumTime
        switch policy {
        case .never:
            return nil
        case .after(let date):
            return min(date, latest)
        case .atEnd:
            if entries.count >= 2 { return min(entries[entries.count - 1].date, latest) }
            // F3: with a single entry the system picks the time itself.
            let base = min(max(receivedAt, entries.first?.date ?? receivedAt), latest)
            return min(base + parameters.singleEntryAtEndDelay.draw(using: &schedules[widget].schedulingRandom), latest)
        }
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    mutating func completeCall(_ widget: Int) {
        guard let call = widgets[widget].inFlight else { return }
        widgets[widget].inFlight = nil
        if call.result == .ok {
            widgets[widget].installIncomingTimeline()
            widgets[widget].hasTimeline = true
            widgets[widget].installedNextEligible = call.nextEligible
        }
        if let sessionEnd = call.backgroundSessionCompletesAt {
            queue.schedule(.backgroundSessionCompleted(widget: Int32(widget)), at: max(now, sessionEnd))
        }
        var waitsForGateOne = false
        if let eligible = call.nextEligible {
            waitsForGateOne = requestBudgetedReload(widget, trigger: .policy, eligibleAt: eligible)
        }
        if widgets[widget].repeatsLeft > 0 {
            widgets[widget].repeatsLeft -= 1
            startCall(widget, trigger: .repeatCall, budgeted: false, waited: 0)
        } else if let trigger = widgets[widget].queuedFreeTrigger {
            widgets[widget].queuedFreeTrigger = nil
            startCall(widget, trigger: trigger, budgeted: false, waited: now - widgets[widget].queuedFreeRequestedAt)
        } else if !(waitsForGateOne && keepsHeldRequest(widget)) {
            // Unless the request waits for gate 1 and nothing changed since
            // it was held, which is what asking again would find (README,
            // "Speed").
            advancePendingReload(widget)
        }
    }

    /// A context of its own for the gallery's snapshot or the placeholder
    /// (F5), which a reload's kept context (`callContext`) must not serve:
    /// it takes the provider's stream as it is, and gives nothing back.
    /// `mutating` only so that Swift lends the simulator to it: called as a
    /// plain method from a mutating one, it made Swift copy the whole
    /// simulator (a memcpy on every call). It changes nothing.
    mutating func providerContext(_ widget: Int, isPreview: Bool) -> TimelineProviderContext {
        // Field by field: copying the whole runtime would retain every array in it.
        TimelineProviderContext(
            family: widgets[widget].setup.family,
            isPreview: isPreview,
            configuration: widgets[widget].setup.configuration,
            calendar: calendar,
            now: now,
            network: widgets[widget].callContext.network,
            random: widgets[widget].callContext.random,
            scheduleStorage: widgets[widget].truth.storage
        )
    }
}
