/// Everything that can happen on one simulated device. Payloads are small
/// integers, so queueing an event allocates nothing.
enum DeviceEvent: Sendable {
    case widgetAdded(widget: Int)
    case dayStarted(day: Int)
    case pageViewed(page: Int, day: Int)
    case appSessionStarted(app: Int, day: Int)
    case appSessionEnded(app: Int, day: Int, scheduleNext: Bool)
    case mediaSessionStarted(app: Int, day: Int)
    case mediaSessionEnded(app: Int, day: Int, session: Int, scheduleNext: Bool)
    case mediaReloadTick(app: Int, session: Int)
    case locationChanged(day: Int)
    case systemChanged(day: Int)
    case truthChanged(widget: Int, day: Int)
    /// A notification about a truth change reaches the app (or its widgets).
    case notificationDelivered(widget: Int, reaction: TruthReaction)
    /// A budgeted request's wait (eligibility, spacing or budget) is over.
    case requestDue(widget: Int)
    /// The reload batch planned for this instant runs.
    case batchDue
    case freeReloadDue(widget: Int, trigger: ReloadTrigger, requestedAt: SimTime)
    case callCompleted(widget: Int)
    case backgroundSessionCompleted(widget: Int)
    case scripted(index: Int)
}
