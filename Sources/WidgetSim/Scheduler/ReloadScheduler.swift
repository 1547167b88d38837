/// WidgetKit's scheduling decisions, as a pure function of a widget's
/// scheduling state and the time.
///
/// A budgeted request moves through four gates, in order:
/// 1. eligibility and spacing (F2, F4, F13): not before its eligible time,
///    nor within `minimumSpacing` of the widget's last budgeted reload;
/// 2. visibility (F9): a widget unseen for `deferWhenUnseenFor` waits for a view;
/// 3. budget (F7, F8, F10, F12): if spent, the request is withheld until
///    budget is available, then runs once; under a paced model its turn may
///    also come later, which is not a withholding;
/// 4. coalescing (F14): it joins a device batch planned within
///    `coalescingWindow` of its turn, or opens one after a `schedulingDelay`
///    (F4) counted from eligibility, or at its turn if that is later. The
///    delay is drawn once per device and due instant, so widgets that fall
///    due in the same second run in the same batch.
/// When the batch is due, gates 1 and 3 are checked again: the limit may
/// have shrunk while the batch waited.
///
/// Free reloads (F17) skip all four gates; the simulator runs them after
/// their own short delay.
///
/// Promised: a decision depends only on the arguments and the device's
/// delay seed; asking changes nothing.
///
/// It is an immutable class so that the simulator can ask it while it
/// mutates a widget's state, without Swift copying the parameters to keep
/// the two accesses apart.
public final class ReloadScheduler: Sendable {
    public let parameters: SchedulerParameters
    /// `parameters.schedulingDelay`, prepared: it is drawn for every new batch.
    let schedulingDelay: DurationSampler
    /// The device's seeds for scheduling delays, one per due instant.
    let delaySeeds: StreamSeed.Children
    /// `parameters.budgetModel.imposesLimit`, read once.
    let imposesLimit: Bool

    public init(parameters: SchedulerParameters, delaySeed: StreamSeed = StreamSeed(0)) {
        self.parameters = parameters
        self.schedulingDelay = DurationSampler(parameters.schedulingDelay)
        self.delaySeeds = delaySeed.children
        self.imposesLimit = parameters.budgetModel.imposesLimit
    }

    /// The scheduling delay of a reload that falls due at `t` (F4), at most
    /// `maximumSchedulingDelay`. One draw per device and instant: widgets due
    /// in the same second wait the same time, so they stay together (F14).
    public func schedulingDelay(dueAt t: SimTime) -> Int {
        let seed = delaySeeds.seed(UInt64(bitPattern: Int64(t)))
        // A log-normal delay (the default) whose normal draw the ziggurat
        // takes from the stream's first 64 bits, as almost every one is,
        // needs no more of the stream than those (README, "Speed").
        if case .logNormal(let mu, let sigma) = schedulingDelay.kind,
           let normal = NormalZiggurat.firstTry(RandomStream.firstOutput(seed: seed.value)) {
            return min(DurationSampler.logNormalSeconds(mu: mu, sigma: sigma, normal: normal), parameters.maximumSchedulingDelay)
        }
        var random = seed.stream()
        return min(schedulingDelay.draw(using: &random), parameters.maximumSchedulingDelay)
    }

    /// The widget's daily limit at `t`, from its base budget and the views of
    /// its page in the trailing 24 hours; nil under a model without a limit (F24).
    ///
    /// The base limit (F8) shrinks in proportion to how often the widget's page
    /// was viewed in the trailing 24 h, down to `minimumDailyBudget` (F9), and
    /// grows by `learningMultiplier` during the learning period (F11).
    ///
    /// Learning is per widget instance: it starts when the widget is added,
    /// because the budget is per instance (F7) and follows how often that
    /// instance is seen (F9). Engagement applies while learning too: the
    /// system sees views from the first hour, and "more reloads than normal"
    /// (F11) means more than this widget's normal, not the full budget for a
    /// widget nobody looks at.
    public func dailyLimit(of widget: borrowing WidgetSchedule, at t: SimTime, pageViews: borrowing TrailingWindow) -> Int? {
        dailyLimit(baseDailyBudget: widget.baseDailyBudget, addedAt: widget.addedAt, at: t, pageViewsInTrailingDay: pageViews.count(at: t))
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The daily limit, given the page's views in the trailing 24 hours at `t`.
    @inline(__always)
    func dailyLimit(baseDailyBudget: Int, addedAt: SimTime, at t: SimTime, pageViewsInTrailingDay views: Int) -> Int? {
        guard imposesLimit else { return nil }
        let learning = Double(t - addedAt) < parameters.learningDays * Double(Seconds.day)
        // A page viewed at least `frequentViewsPerDay` times is fully
        // engaged without the division every budgeted decision made
        // (README, "Speed"). The same value: for y > 0, the rounded x / y
        // is below 1 exactly when x < y, since y − x ≥ ulp(y) ≥ y · 2⁻⁵³.
        // Fully engaged, the base budget is the limit without the product
        // and its rounding: a budget (at most 10,000) times 1 is itself,
        // exactly, and rounds to itself.
        var limit = baseDailyBudget
        if parameters.frequentViewsPerDay > 0 && Double(views) < parameters.frequentViewsPerDay {
            let engagement = min(1, Double(views) / parameters.frequentViewsPerDay)
            limit = DeterministicMath.roundedToInt(Double(baseDailyBudget) * engagement)
        }
        limit = max(parameters.minimumDailyBudget, limit)
        if learning {
            limit = DeterministicMath.roundedToInt(Double(limit) * parameters.learningMultiplier)
        }
        return limit
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// When the widget may next run a budgeted reload, judged at `t` against
    /// `limit` (nil: unlimited).
    @inline(__always)
    func budgetAvailability(_ widget: borrowing WidgetSchedule, at t: SimTime, limit: Int?, calendar: CivilCalendar) -> BudgetAvailability {
        guard let limit else { return .now(t) }
        return widget.ledger.availability(at: t, limit: limit, calendar: calendar)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Gate 1 alone: when a pending reload becomes eligible (F2, F4) and far
    /// enough from the last budgeted reload (F13), or nil if it is both now.
    /// The simulator asks this first: most decisions end here, and it needs
    /// only the request.
    @inline(__always)
    public func waitForEligibility(of pending: PendingReload, lastBudgetedStart: SimTime?, at now: SimTime) -> SimTime? {
        var due = max(now, pending.eligibleAt)
        if let last = lastBudgetedStart {
            due = max(due, last + parameters.minimumSpacing)
        }
        return due > now ? due : nil
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Passes the widget's pending reload through the gates at `now`.
    ///
    /// - Parameters:
    ///   - widget: the widget's scheduling state. It is read, never changed:
    ///     it is passed `inout` only because that is the one way Swift lends
    ///     an array element without copying it (and a decision is made on
    ///     almost every event).
    ///   - now: the current time.
    ///   - lastSeen: when the widget was last on screen (its page's last view, or when it was added).
    ///   - pageViews: the views of the widget's page, for its daily limit.
    ///   - openBatches: the instants of reload batches already planned on the device.
    ///   - batchDue: true when the batch this reload joined is due now.
    ///   - calendar: the device's local calendar.
    /// - Precondition: the widget has a pending reload.
    @inline(__always)
    public func decide(
        _ widget: inout WidgetSchedule,
        at now: SimTime,
        lastSeen: SimTime,
        pageViews: borrowing TrailingWindow,
        openBatches: borrowing [SimTime],
        batchDue: Bool = false,
        calendar: CivilCalendar
    ) -> ReloadDecision {
        decide(
            &widget, at: now, lastSeen: lastSeen, pageViewsInTrailingDay: pageViews.count(at: now), openBatches: openBatches,
            batchDue: batchDue, calendar: calendar)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// `decide` given the count of the page's views in the trailing 24 hours
    /// rather than the views: the simulator counts them before it asks, and
    /// the decision lends nothing of the page's window across its calls out
    /// (the scheduling delay, the budget's availability), around each of which
    /// Swift retained and released the window's storage (README, "Speed").
    @inline(__always)
    func decide(
        _ widget: inout WidgetSchedule,
        at now: SimTime,
        lastSeen: SimTime,
        pageViewsInTrailingDay views: Int,
        openBatches: borrowing [SimTime],
        batchDue: Bool = false,
        calendar: CivilCalendar
    ) -> ReloadDecision {
        guard widget.pending != nil else { preconditionFailure("ReloadScheduler: no pending reload to decide") }
        if let due = waitForEligibility(of: widget.pending!, lastBudgetedStart: widget.lastBudgetedStart, at: now) {
            return .waitUntil(due)
        }
        return decidePastGateOne(
            &widget, at: now, lastSeen: lastSeen, pageViewsInTrailingDay: views, openBatches: openBatches, batchDue: batchDue,
            calendar: calendar)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Gates 2 to 4 of `decide`, for a pending reload that gate 1 lets
    /// through at `now` (`waitForEligibility` returned nil): the simulator
    /// asks gate 1 first and would otherwise have it asked twice.
    @inline(__always)
    func decidePastGateOne(
        _ widget: inout WidgetSchedule,
        at now: SimTime,
        lastSeen: SimTime,
        pageViewsInTrailingDay views: Int,
        openBatches: borrowing [SimTime],
        batchDue: Bool,
        calendar: CivilCalendar
    ) -> ReloadDecision {
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(
            widget.pending.map { waitForEligibility(of: $0, lastBudgetedStart: widget.lastBudgetedStart, at: now) == nil } ?? false,
            "ReloadScheduler: gates 2 to 4 asked before gate 1 lets the reload through")
        #endif
        // A batch that is due runs if the budget still allows it.
        if batchDue {
            let limit = dailyLimit(baseDailyBudget: widget.baseDailyBudget, addedAt: widget.addedAt, at: now, pageViewsInTrailingDay: views)
            if budgetAvailability(widget, at: now, limit: limit, calendar: calendar).time == now {
                return .runNow(limit: limit)
            }
        }

        // Gate 2: visibility (F9).
        if parameters.deferWhenUnseenFor > 0 && now - lastSeen > parameters.deferWhenUnseenFor {
            return .waitForView
        }

        // Gate 3: budget (F7, F8, F10, F12). A spent budget withholds the
        // request; a paced model may only make it wait for its turn.
        let available = budgetAvailability(
            widget, at: now,
            limit: dailyLimit(baseDailyBudget: widget.baseDailyBudget, addedAt: widget.addedAt, at: now, pageViewsInTrailingDay: views),
            calendar: calendar)
        if available.spent && available.time > now { return .withheldUntil(available.time) }
        let turn = available.time

        // Gate 4: coalescing (F14) and scheduling delay (F4). The delay runs
        // from eligibility while the request waits for its turn: both only
        // say "not before", so the later of the two decides.
        if let batch = openBatches.first(where: { $0 >= turn && $0 <= turn + parameters.coalescingWindow }) {
            return .joinBatch(batch)
        }
        let batch = max(turn, now + schedulingDelay(dueAt: now))
        return openBatches.contains(batch) ? .joinBatch(batch) : .openBatch(batch)
    }

    /// Whether a reload that is not yet eligible may run early, with a batch
    /// that runs now (F4: "sometimes early"; F14): it must fall due within
    /// `earlyReloadWindow`, and spacing and budget must allow it now.
    /// Returns `.runNow` with the limit, or nil.
    public func decideEarly(
        _ widget: inout WidgetSchedule, at now: SimTime, pageViews: borrowing TrailingWindow, calendar: CivilCalendar
    ) -> ReloadDecision? {
        decideEarly(&widget, at: now, pageViewsInTrailingDay: pageViews.count(at: now), calendar: calendar)
    }

    /// `decideEarly`, given the page's views in the trailing 24 hours at `now`.
    func decideEarly(
        _ widget: inout WidgetSchedule, at now: SimTime, pageViewsInTrailingDay views: Int, calendar: CivilCalendar
    ) -> ReloadDecision? {
        guard parameters.earlyReloadWindow > 0, let pending = widget.pending,
              pending.eligibleAt > now, pending.eligibleAt - now <= parameters.earlyReloadWindow else { return nil }
        if let last = widget.lastBudgetedStart, now < last + parameters.minimumSpacing { return nil }
        let limit = dailyLimit(baseDailyBudget: widget.baseDailyBudget, addedAt: widget.addedAt, at: now, pageViewsInTrailingDay: views)
        guard budgetAvailability(widget, at: now, limit: limit, calendar: calendar).time == now else { return nil }
        return .runNow(limit: limit)
    }
}
