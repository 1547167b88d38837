/// Every number the scheduler uses, with its default and the fact it rests on.
///
/// Apple publishes ranges and rules, not the algorithm, so each rule is a
/// named knob. Defaults are the published figure where there is one (F8, F13,
/// F22) and a documented guess marked [gap] where there is none. The README's
/// model table lists the same parameters.
public struct SchedulerParameters: Equatable, Sendable {
    /// Which budget accounting to use (F8, F10, F24).
    public var budgetModel: BudgetModel = .paced
    /// Each instance's base daily budget is drawn uniformly from this range
    /// once, from its own stream (F7, F8: "40 to 70" for a frequently viewed widget).
    public var dailyBudgetMin = 40
    public var dailyBudgetMax = 70
    /// Views of its page in the trailing 24 h at which a widget counts as
    /// frequently viewed; below it the budget shrinks in proportion (F8, F9). [gap]
    /// 0 turns the scaling off.
    public var frequentViewsPerDay: Double = 20
    /// The smallest daily budget, however rarely the widget is viewed (F9). [gap]
    public var minimumDailyBudget = 5
    /// Days after a widget is added during which the system is still learning (F11).
    public var learningDays: Double = 3
    /// Budget multiplier during learning: "more reloads than normal" (F11). [gap]
    public var learningMultiplier = 1.5
    /// Minimum seconds between two budgeted reloads of one instance (F13: about 5 minutes).
    public var minimumSpacing = 5 * Seconds.minute
    /// The paced model spreads the daily limit over this much of the day: the
    /// user's waking day plus the two hours before an unseen widget stops
    /// reloading (F8: "roughly every 15–60 minutes"; F10). [gap]
    public var pacingWindow = 18 * Seconds.hour
    /// The paced model's bucket: how many reloads may come back to back (at
    /// `minimumSpacing`) after a quiet spell, such as the first views of the
    /// morning. [gap]
    public var pacingBurst: Double = 2
    /// Token-bucket capacity as a fraction of the daily limit. [gap]
    public var tokenBucketBurst = 0.25
    /// A due reload joins a reload batch already planned on the device within
    /// this many seconds, instead of opening its own (F14). [gap]
    public var coalescingWindow = 5 * Seconds.minute
    /// Delay between a budgeted reload becoming due and the batch that runs it,
    /// when it opens a new batch (F4: eligibility is not execution; reloads
    /// were seen arriving up to 1–2 hours late). [gap]
    public var schedulingDelay: DurationDistribution = .logNormal(median: 120, p95: 1_800)
    /// A reload due within this long may run early, with a batch that runs
    /// now (F4: reloads were seen "sometimes early", F14). 0 keeps F2's
    /// "eligible from that date, the earliest" exact. [seen]
    public var earlyReloadWindow = 0
    /// The longest scheduling delay: F4's reports put late reloads at 1–2 hours,
    /// so the distribution's tail is cut there rather than left unbounded.
    public var maximumSchedulingDelay = 2 * Seconds.hour
    /// A budgeted reload of a widget not seen for this long waits until its
    /// page is next viewed (F9: rarely visited pages reload less often and may
    /// reload when the page becomes visible). 0 turns the rule off. [gap]
    public var deferWhenUnseenFor = 2 * Seconds.hour
    /// `atEnd` with a single entry: the system picks the time itself (F3);
    /// modelled as this delay after the entry's date, within F8's 15–60 minutes. [gap]
    public var singleEntryAtEndDelay: DurationDistribution = .uniform(min: 15 * Seconds.minute, max: Seconds.hour)
    /// A provider call longer than this produces no timeline (F22: Apple gives
    /// no number; one seed says 28 s, developers cite about 30 s).
    public var providerTimeLimit = 30
    /// A timeline with more entries than this is not shown: the widget keeps
    /// its old timeline (F23: about 400 entries stopped updating; 200 were fine).
    public var maximumReliableEntries = 400
    /// How push reloads are budgeted (F19). [gap]
    public var pushBudget: PushBudget = .shared
    /// Push reloads a widget may get in any trailing 24 hours when
    /// `pushBudget` is `separate` (F19: Apple gives no number). [gap]
    public var pushDailyBudget = 20
    /// Push notifications are delivered opportunistically (F19). [gap]
    public var pushDeliveryDelay: DurationDistribution = .uniform(min: 0, max: 120)
    /// WidgetCenter reloads from a foreground app or a media session reach the
    /// widget after this delay (F18: seen 2 s, 26 s and 27 s).
    public var foregroundReloadDelay: DurationDistribution = .uniform(min: 2, max: 27)
    /// An App Intent's reload of the tapped widget is immediate (F18).
    public var interactionReloadDelay: DurationDistribution = .uniform(min: 0, max: 1)
    /// Delay of a reload after a locale, accessibility, time or account change (F17). [gap]
    public var systemReloadDelay: DurationDistribution = .uniform(min: 0, max: 10)
    /// WidgetCenter calls are ignored for this long after the app was opened
    /// from a tap on its widget (F18: about 30 s, seen once). 0 turns it off.
    public var reloadsIgnoredAfterWidgetLaunch = 30
    /// How many more times WidgetKit calls `getTimeline` right after a call,
    /// as part of the same refresh: a uniform whole number in this range
    /// (F18: 2–5 calls per refresh with 3 widgets on iOS 17). [seen]
    public var extraTimelineCalls: ClosedRange<Int> = 0...0
    /// A significant location change reaches a location widget at once if the
    /// widget was seen this recently; otherwise the reload waits for the next
    /// view (F21: location "up to 15 minutes after it was last viewed"; F17).
    public var locationAccessAfterView = 15 * Seconds.minute

    public init() {}
}
