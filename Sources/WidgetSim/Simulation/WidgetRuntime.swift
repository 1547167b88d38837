/// A provider call between its start and its completion.
struct CallInFlight: Sendable {
    var completesAt: SimTime
    var result: ReloadResult
    var policy: TimelineReloadPolicy
    var nextEligible: SimTime?
    var backgroundSessionCompletesAt: SimTime?
}

/// The scheduler's state for one widget instance.
struct WidgetRuntime {
    let setup: WidgetSetup
    var provider: AnyTimelineProvider
    /// The context every provider call of this widget is made in, kept
    /// between calls (`beginCall` readies it): it holds the widget's network
    /// and the provider's stream.
    var callContext: TimelineProviderContext
    var interactionRandom: RandomStream
    /// Arrivals of unpredictable truth changes.
    var truthRandom: RandomStream
    /// Delivery delays of notifications about those changes, kept apart so
    /// that changing how the app reacts never moves the changes themselves.
    var notificationRandom: RandomStream
    var truth: ContentTruth
    /// Arrivals of the truth's bursts of changes (`randomChangesDuring`),
    /// only for a widget that has them: a stream of their own, so they move
    /// no other draw.
    var changeBursts: BurstArrivals? = nil

    /// The installed timeline.
    var entries: [ScheduledEntry] = []
    /// Entries of the call in flight, installed when it completes.
    var incoming: [ScheduledEntry] = []
    var hasTimeline = false
    /// Eligibility of the installed timeline's policy (kept for a timed-out retry).
    var installedNextEligible: SimTime?

    var added = false
    /// The last local day reported to the observer, so a widget added at
    /// midnight is reported once for that day.
    var lastReportedDay = Int.min
    var inFlight: CallInFlight?
    /// The batch this widget's pending reload will run in.
    var batchTime: SimTime?
    var waitingForView = false
    /// A free reload that arrived while a call was in flight.
    var queuedFreeTrigger: ReloadTrigger?
    var queuedFreeRequestedAt: SimTime = 0
    /// A significant location change waits for the next view (F17).
    var locationReloadOnNextView = false
    /// Draws of whether a view ends in a tap that opens the app (F18).
    var launchRandom: RandomStream
    /// Draws of how many times WidgetKit calls again in one refresh (F18).
    var repeatRandom: RandomStream
    /// Calls still to come in the current refresh (F18).
    var repeatsLeft = 0
    /// Push calls started in the trailing 24 hours, under a separate push budget (F19).
    var pushes = TrailingWindow()
    /// Push calls requested under a separate push budget that have not started yet.
    var pushCallsAwaiting = 0
    /// When the push reload now withheld for want of push budget was delivered.
    var pushHeldSince: SimTime?

    /// What the widget showed at the last view, and until when it shows it.
    var shown = ShownData()
    /// The entry of the installed timeline shown at the last view.
    var shownEntry = 0

    /// Makes the completed call's entries the shown timeline; the old buffer
    /// is kept for the next call, so steady-state reloads allocate nothing.
    mutating func installIncomingTimeline() {
        swap(&entries, &incoming)
        hasTimeline = true
        shown = ShownData()
        shownEntry = 0
    }
}

/// What a widget shows, as a view records it, and how long it stays so.
struct ShownData: Sendable {
    /// The shown entry stays the same before this instant (the next entry's
    /// date); `.min` when it must be worked out at the next view.
    var validUntil = SimTime.min
    /// The truth's unpredictable changes when it was worked out: another one
    /// may make the shown data out of date sooner.
    var changeCount = 0
    /// The placeholder, or an entry with no data: stale at every view.
    var hasNoData = true
    /// The data is out of date after this instant: the entry's first
    /// mismatch with the truth (`.max` for none), or when the widget was
    /// added for no data.
    var staleFrom = SimTime.max
    var entryDate: SimTime?
    var dataAsOf: SimTime?
}
