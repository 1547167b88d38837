/// Everything that can happen on one simulated device, except what the
/// simulator holds beside its queue (`DeviceSimulator.heldKeys`): a
/// widget's pending request and the completion of its call, and most views
/// and reload batches. Payloads are 32-bit indices and times (a run is at
/// most 366 days, 31.6 million seconds), so a queue slot is 24 bytes and
/// queueing an event allocates nothing.
enum DeviceEvent: Sendable {
    case widgetAdded(widget: Int32)
    case dayStarted(day: Int32)
    case pageViewed(page: Int32, day: Int32)
    /// One of the page's bursts of views (`viewsDuring`) that opened on local day `day`.
    case pageViewedInWindow(page: Int32, day: Int32)
    case appSessionStarted(app: Int32, day: Int32)
    case appSessionEnded(app: Int32, day: Int32, scheduleNext: Bool)
    case mediaSessionStarted(app: Int32, day: Int32)
    case mediaSessionEnded(app: Int32, day: Int32, session: Int32, scheduleNext: Bool)
    case mediaReloadTick(app: Int32, session: Int32)
    case locationChanged(day: Int32)
    case systemChanged(day: Int32)
    case truthChanged(widget: Int32, day: Int32)
    /// One of the truth's bursts of changes (`randomChangesDuring`) that
    /// opened on local day `day`.
    case truthChangedInWindow(widget: Int32, day: Int32)
    /// A notification about a truth change reaches the app (or its widgets).
    case notificationDelivered(widget: Int32, reaction: TruthReaction)
    /// A widget push the script sent to the app reaches the phone (F19).
    case pushDelivered(app: Int32)
    /// The reload batch planned for this instant runs.
    case batchDue
    case freeReloadDue(widget: Int32, trigger: ReloadTrigger, requestedAt: Int32)
    /// The push budget (F19) has room for the widget's withheld push reload.
    case pushBudgetAvailable(widget: Int32)
    case backgroundSessionCompleted(widget: Int32)
    case scripted(index: Int32)
}

/// A page's next view, held beside the event queue (see `DeviceSimulator.heldKeys`).
struct HeldView: Sendable {
    var page: Int32
    var day: Int32
}
