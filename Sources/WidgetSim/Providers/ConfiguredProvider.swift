/// An entry of the built-in provider: a date and where its data came from.
public struct ConfiguredEntry: TimelineEntry, Equatable {
    public var date: SimTime
    public var dataFetchedAt: SimTime?
    public var isForecast: Bool
}

/// The built-in provider that scenario files configure. It is an ordinary
/// `TimelineProvider`: a Swift provider written against the same API behaves
/// the same way.
///
/// Each call fetches once from the simulated server, then returns `entryCount`
/// entries `entrySpacing` apart (the first at the answer's time, later ones
/// forecasts if `forecasts` is set) and the configured reload policy. A failed
/// request returns one entry showing the last good data and asks again after
/// `retryAfterFailure`.
public struct ConfiguredProvider: TimelineProvider, _BufferedTimelineProvider {
    /// What the provider is asked to return.
    public enum Policy: Equatable, Sendable {
        case atEnd
        /// `after(now + interval)`.
        case after(interval: Int)
        case never
    }

    public struct Settings: Equatable, Sendable {
        /// Entries per timeline, 1...`maximumEntries`. Above the scheduler's
        /// `maximumReliableEntries` (400, F23) WidgetKit does not show them.
        public var entryCount: Int = 1
        /// Seconds between entries (F13 advises at least about 5 minutes).
        public var entrySpacing: Int = Seconds.hour
        /// Place entries after the first on multiples of `entrySpacing` on the
        /// local clock (on the hour for hourly weather) instead of `now + k·spacing`.
        public var alignEntries: Bool = false
        /// Entries after the first predict the truth at their date (E5).
        public var forecasts: Bool = false
        /// Explicit entry dates, as seconds after the fetch, strictly increasing
        /// (an irregular timeline such as a day's meetings). When set, it
        /// replaces `entryCount`, `entrySpacing` and `alignEntries`.
        public var entryOffsets: [Int]?
        public var policy: Policy = .atEnd
        /// Rules that replace `policy` at some times of day or week, or while
        /// the truth is inside or outside its active hours: the first that
        /// applies at the call's local time decides (see `PolicyRule`). An
        /// `after` interval from a rule is treated like `policy`'s (rounding,
        /// skipping inactive hours, jitter); an `until` date only gets jitter.
        public var schedule: [PolicyRule] = []
        /// Round the `after` date up to a multiple of this many seconds on the
        /// local clock (0 = no rounding). Rounding to the hour makes a fleet
        /// reload together (F25).
        public var afterAlignment: Int = 0
        /// Add a uniform 0...`jitter` seconds to the `after` date, as Apple
        /// advises to spread server load (F25).
        public var jitter: Int = 0
        /// Move an `after` date that falls outside the truth's active window:
        /// to the window's close if the data was fetched while it was open (for
        /// the closing value), otherwise to its next opening (E4: no weekend
        /// reloads for stocks).
        public var skipInactiveHours: Bool = false
        /// `after` interval used when the request failed.
        public var retryAfterFailure: Int = 15 * Seconds.minute
        public var network = NetworkModel()
        /// Probability that a call also starts a background URL session (F20).
        public var backgroundSessionProbability: Double = 0
        /// How long such a session takes to deliver its events.
        public var backgroundSessionDuration: DurationDistribution = .exponential(mean: 600)

        /// The most entries a scenario's timeline may hold: a bound on memory,
        /// far above the ~400 that WidgetKit shows (F23).
        public static let maximumEntries = 10_000

        public init() {}
    }

    public var settings: Settings {
        didSet {
            entriesOnDailyGrid = ConfiguredProvider.entriesOnDailyGrid(settings)
            entrySpacing = Divisor(settings.entrySpacing)
            afterAlignment = Divisor(settings.afterAlignment)
        }
    }
    /// When the last good data was fetched, kept as an app keeps its cache.
    public private(set) var lastGoodFetch: SimTime?
    /// True when entries are aligned to a spacing that divides the day, so
    /// that the grid runs on unbroken across midnight: the entry after one
    /// on the grid is then one spacing later, with no division to find it.
    /// A division costs tens of cycles, and a timeline took one per entry
    /// (README, "Speed").
    private var entriesOnDailyGrid: Bool
    /// The spacing and the alignment as divisors, for `roundUp`.
    private var entrySpacing: Divisor
    private var afterAlignment: Divisor

    public init(settings: Settings) {
        self.settings = settings
        entriesOnDailyGrid = ConfiguredProvider.entriesOnDailyGrid(settings)
        entrySpacing = Divisor(settings.entrySpacing)
        afterAlignment = Divisor(settings.afterAlignment)
    }

    static func entriesOnDailyGrid(_ settings: Settings) -> Bool {
        settings.alignEntries && settings.entrySpacing > 0 && Seconds.day % settings.entrySpacing == 0
    }

    public func placeholder(in context: TimelineProviderContext) -> ConfiguredEntry {
        ConfiguredEntry(date: context.now, dataFetchedAt: context.now, isForecast: false)
    }

    public func snapshot(in context: TimelineProviderContext) -> ConfiguredEntry {
        // Sample data, fast, as Apple asks for the gallery (F5).
        ConfiguredEntry(date: context.now, dataFetchedAt: lastGoodFetch ?? context.now, isForecast: false)
    }

    public mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<ConfiguredEntry> {
        var entries: [ScheduledEntry] = []
        let policy = timeline(in: &context, into: &entries)
        return Timeline(
            entries: entries.map { ConfiguredEntry(date: $0.date, dataFetchedAt: $0.dataFetchedAt, isForecast: $0.isForecast) },
            policy: policy)
    }

    /// The fast path's time limit (F22): a halted call keeps the old cache, as
    /// `AnyTimelineProvider` does for any provider. The cache is this
    /// provider's only state, so it alone is saved, not a copy of the provider.
    mutating func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy {
        let cached = lastGoodFetch
        let policy = timeline(in: &context, into: &entries)
        if context.now - context.reloadStartedAt > timeLimit { lastGoodFetch = cached }
        return policy
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The same timeline, written into a reusable buffer (the simulator's fast path).
    @inline(__always)
    mutating func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry]) -> TimelineReloadPolicy {
        let result = context.fetch()
        let now = context.now
        guard case .success(let dataAsOf) = result else {
            // The last good data, or, if there never was any, no data at all.
            Self.resize(&entries, to: 1)
            let entry = ScheduledEntry(date: now, dataFetchedAt: lastGoodFetch, isForecast: false)
            entries.withUnsafeMutableBufferPointer { $0[0] = entry }
            return .after(now + settings.retryAfterFailure)
        }
        lastGoodFetch = dataAsOf
        if settings.backgroundSessionProbability > 0,
           context.randomUnit() < settings.backgroundSessionProbability {
            context.startBackgroundSession(completingAfter: settings.backgroundSessionDuration)
        }
        if let offsets = settings.entryOffsets {
            Self.resize(&entries, to: offsets.count)
            let forecasts = settings.forecasts
            entries.withUnsafeMutableBufferPointer { entries in
                for (index, offset) in offsets.enumerated() {
                    entries[index] = ScheduledEntry(date: now + offset, dataFetchedAt: dataAsOf, isForecast: index > 0 && forecasts)
                }
            }
            return reloadPolicy(now: now, context: &context)
        }
        let length = max(1, settings.entryCount)
        Self.resize(&entries, to: length)
        let calendar = context.calendar
        entries.withUnsafeMutableBufferPointer { entries in
            entries[0] = ScheduledEntry(date: now, dataFetchedAt: dataAsOf, isForecast: false)
            var date = now
            for index in 1..<length {
                // From the second aligned entry on, `date` is on the grid.
                date = index > 1 && entriesOnDailyGrid ? date + settings.entrySpacing : nextEntryDate(after: date, calendar: calendar)
                entries[index] = ScheduledEntry(date: date, dataFetchedAt: dataAsOf, isForecast: settings.forecasts)
            }
        }
        return reloadPolicy(now: now, context: &context)
    }

    /// Makes the buffer, which still holds an older timeline, `length`
    /// entries long, to be overwritten in place through its storage (one
    /// uniqueness check for the whole timeline, not one per entry). Emptying
    /// it first would go through the generic `replaceSubrange`, which cost
    /// more than the rest of the entries' work, and a provider's timelines
    /// mostly have the same length, so most calls change nothing here
    /// (README, "Speed").
    @inline(__always)
    static func resize(_ entries: inout [ScheduledEntry], to length: Int) {
        if entries.count > length {
            entries.removeLast(entries.count - length)
        } else if entries.count < length {
            // Room for the whole timeline at once: grown one append at a
            // time, a widget's two buffers took seven allocations.
            entries.reserveCapacity(length)
            let filler = ScheduledEntry(date: 0, dataFetchedAt: nil, isForecast: false)
            while entries.count < length { entries.append(filler) }
        }
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    func nextEntryDate(after date: SimTime, calendar: CivilCalendar) -> SimTime {
        guard settings.alignEntries else { return date + settings.entrySpacing }
        return ConfiguredProvider.roundUp(date + 1, toMultipleOf: entrySpacing, calendar: calendar)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    @inline(__always)
    func reloadPolicy(now: SimTime, context: inout TimelineProviderContext) -> TimelineReloadPolicy {
        // Most providers have no rules: then the truth's window is not even looked up.
        let answer = settings.schedule.isEmpty
            ? nil
            : PolicyRule.firstAnswer(of: settings.schedule, at: now, calendar: context.calendar, truthWindow: context.truthActiveWindow)
        switch answer ?? PolicyRule.Answer(settings.policy) {
        case .atEnd:
            return .atEnd
        case .never:
            return .never
        case .until(let secondOfDay):
            // The author named the clock time, so no rounding and no skipping;
            // jitter still spreads a fleet that asks for the same time (F25).
            let date = PolicyRule.nextOccurrence(ofSecondOfDay: secondOfDay, after: now, calendar: context.calendar)
            return .after(jittered(date, context: &context))
        case .after(let interval):
            var date = now + interval
            if settings.afterAlignment > 0 {
                date = ConfiguredProvider.roundUp(date, toMultipleOf: afterAlignment, calendar: context.calendar)
            }
            if settings.skipInactiveHours, let window = context.truthActiveWindow,
               !window.contains(date, calendar: context.calendar) {
                // E4: fetched while open, ask once more at the close for the
                // closing value; fetched at or after the close, not again
                // until the next opening (after(Monday open) at Friday's close).
                if window.contains(now, calendar: context.calendar) {
                    date = window.closing(ofWindowContaining: now, calendar: context.calendar)
                } else if let opening = window.nextStart(atOrAfter: date, calendar: context.calendar) {
                    date = opening
                }
            }
            return .after(jittered(date, context: &context))
        }
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// `date` plus a uniform 0...`jitter` seconds, drawn only when jitter is set
    /// (so a provider without it draws nothing from its stream).
    @inline(__always)
    func jittered(_ date: SimTime, context: inout TimelineProviderContext) -> SimTime {
        guard settings.jitter > 0 else { return date }
        return date + Int(context.randomUnit() * Double(settings.jitter + 1))
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The first instant at or after `t` that is a multiple of `step` seconds
    /// after local midnight, the remainder found without a division (`Divisor`).
    @inline(__always)
    static func roundUp(_ t: SimTime, toMultipleOf step: Divisor, calendar: CivilCalendar) -> SimTime {
        let remainder = step.remainder(dividing: calendar.secondOfDay(t))
        return remainder == 0 ? t : t + (step.value - remainder)
    }
}
