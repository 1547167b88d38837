/// WidgetKit's scheduling decisions, as a pure function of a widget's
/// scheduling state and the time.
///
/// A budgeted request moves through four gates, in order:
/// 1. eligibility and spacing (F2, F4, F13): not before its eligible time,
///    nor within `minimumSpacing` of the widget's last budgeted reload;
/// 2. visibility (F9): a widget unseen for `deferWhenUnseenFor` waits for a view;
/// 3. budget (F7, F10, F12): if spent, the request is withheld until budget
///    is available, then runs once;
/// 4. coalescing (F14): it joins a device batch planned within
///    `coalescingWindow`, or opens one after a `schedulingDelay` (F4).
/// When the batch is due, gates 1 and 3 are checked again: the limit may
/// have shrunk while the batch waited.
///
/// Free reloads (F17) skip all four gates; the simulator runs them after
/// their own short delay.
///
/// Promised: the decision depends only on the arguments (the token-bucket
/// model tops up its bucket as it is asked, which changes no answer).
///
/// It is an immutable class so that the simulator can ask it while it
/// mutates a widget's state, without Swift copying the parameters to keep
/// the two accesses apart.
public final class ReloadScheduler: Sendable {
    public let parameters: SchedulerParameters
    /// `parameters.schedulingDelay`, prepared: it is drawn for every new batch.
    let schedulingDelay: DurationSampler

    public init(parameters: SchedulerParameters) {
        self.parameters = parameters
        self.schedulingDelay = DurationSampler(parameters.schedulingDelay)
    }

    /// The widget's daily limit at `t`, from its base budget and the views of
    /// its page in the trailing 24 hours; nil under a model without a limit (F24).
    ///
    /// The base limit (F8) shrinks in proportion to how often the widget's page
    /// was viewed in the trailing 24 h, down to `minimumDailyBudget` (F9), and
    /// grows by `learningMultiplier` during the learning period (F11).
    public func dailyLimit(of widget: WidgetSchedule, at t: SimTime, pageViewsInTrailingDay views: Int) -> Int? {
        dailyLimit(baseDailyBudget: widget.baseDailyBudget, addedAt: widget.addedAt, at: t, pageViewsInTrailingDay: views)
    }

    func dailyLimit(baseDailyBudget: Int, addedAt: SimTime, at t: SimTime, pageViewsInTrailingDay views: Int) -> Int? {
        guard parameters.budgetModel.imposesLimit else { return nil }
        let learning = Double(t - addedAt) < parameters.learningDays * Double(Seconds.day)
        var engagement = 1.0
        if !learning && parameters.frequentViewsPerDay > 0 {
            engagement = min(1, Double(views) / parameters.frequentViewsPerDay)
        }
        var limit = max(parameters.minimumDailyBudget, Int((Double(baseDailyBudget) * engagement).rounded()))
        if learning {
            limit = Int((Double(limit) * parameters.learningMultiplier).rounded())
        }
        return limit
    }

    /// When the widget may next run a budgeted reload, judged at `t` against
    /// `limit` (nil: unlimited).
    func budgetAvailability(_ widget: inout WidgetSchedule, at t: SimTime, limit: Int?, calendar: CivilCalendar) -> SimTime {
        guard let limit else { return t }
        return widget.ledger.earliestAvailability(at: t, limit: limit, calendar: calendar)
    }

    /// Passes the widget's pending reload through the gates at `now`.
    ///
    /// - Parameters:
    ///   - lastSeen: when the widget was last on screen (its page's last view, or when it was added).
    ///   - pageViewsInTrailingDay: views of the widget's page in the trailing 24 hours, for its daily limit.
    ///   - openBatches: the instants of reload batches already planned on the device.
    ///   - batchDue: true when the batch this reload joined is due now.
    /// - Precondition: the widget has a pending reload.
    public func decide(
        _ widget: inout WidgetSchedule,
        at now: SimTime,
        lastSeen: SimTime,
        pageViewsInTrailingDay views: Int,
        openBatches: [SimTime],
        batchDue: Bool = false,
        calendar: CivilCalendar
    ) -> ReloadDecision {
        guard let pending = widget.pending else { preconditionFailure("ReloadScheduler: no pending reload to decide") }

        // Gate 1: eligibility (F2, F4) and minimum spacing (F13).
        var due = max(now, pending.eligibleAt)
        if let last = widget.lastBudgetedStart {
            due = max(due, last + parameters.minimumSpacing)
        }
        if due > now { return .waitUntil(due) }

        // A batch that is due runs if the budget still allows it.
        if batchDue {
            let limit = dailyLimit(baseDailyBudget: widget.baseDailyBudget, addedAt: widget.addedAt, at: now, pageViewsInTrailingDay: views)
            if budgetAvailability(&widget, at: now, limit: limit, calendar: calendar) == now {
                return .runNow(limit: limit)
            }
        }

        // Gate 2: visibility (F9).
        if parameters.deferWhenUnseenFor > 0 && now - lastSeen > parameters.deferWhenUnseenFor {
            return .waitForView
        }

        // Gate 3: budget (F7, F10, F12).
        let available = budgetAvailability(
            &widget, at: now,
            limit: dailyLimit(baseDailyBudget: widget.baseDailyBudget, addedAt: widget.addedAt, at: now, pageViewsInTrailingDay: views),
            calendar: calendar)
        if available > now { return .withheldUntil(available) }

        // Gate 4: coalescing (F14) and scheduling delay (F4).
        if let batch = openBatches.first(where: { $0 >= now && $0 <= now + parameters.coalescingWindow }) {
            return .joinBatch(batch)
        }
        let delay = schedulingDelay.draw(using: &widget.schedulingRandom)
        let batch = now + min(delay, parameters.maximumSchedulingDelay)
        return openBatches.contains(batch) ? .joinBatch(batch) : .openBatch(batch)
    }
}
