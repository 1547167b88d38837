/// Apple's character-detail widget (E2, E3), written against the library's
/// `TimelineProvider` exactly as an app would write it for WidgetKit: the
/// worked example of porting a provider.
///
/// The game: a dragon attacks on a schedule (the truth's periodic changes),
/// leaving the character at `healthAfterBattle`; health recovers
/// `recoveryPerHour` every hour; a healing potion (an unpredictable event)
/// restores it at once. The provider asks the game server for the state, then
///
/// - while health is below full, returns one entry per hour until full
///   (E2's first timeline: 25 %, 50 %, 75 %, 100 %), or, in the `.nowAndFull`
///   style, one entry now and one when health is full (E3's two entries), and
///   `atEnd`;
/// - at full health with a battle scheduled, returns one entry and
///   `after(battle)` (E3: "a dragon will appear in 2 hours");
/// - at full health with nothing scheduled, returns one entry and `never`
///   (E2's last timeline); only the app's WidgetCenter call brings the next.
public struct CharacterDetailProvider: TimelineProvider {
    public struct Entry: TimelineEntry, Equatable {
        public var date: SimTime
        public var healthLevel: Double
        public var dataFetchedAt: SimTime?
        public var isForecast: Bool
    }

    /// How the provider lays out a recovery.
    public enum Style: Sendable {
        /// An entry every hour until full health (E2).
        case hourly
        /// An entry now and one at full health (E3).
        case nowAndFull
    }

    public var healthAfterBattle: Double
    public var recoveryPerHour: Double
    public var style: Style
    /// When the game server was last reached, as the app would cache it.
    public private(set) var lastGoodFetch: SimTime?

    public init(healthAfterBattle: Double = 0.25, recoveryPerHour: Double = 0.25, style: Style = .hourly) {
        self.healthAfterBattle = healthAfterBattle
        self.recoveryPerHour = recoveryPerHour
        self.style = style
    }

    public func placeholder(in context: TimelineProviderContext) -> Entry {
        Entry(date: context.now, healthLevel: 1, dataFetchedAt: context.now, isForecast: false)
    }

    public func snapshot(in context: TimelineProviderContext) -> Entry {
        Entry(date: context.now, healthLevel: 1, dataFetchedAt: context.now, isForecast: false)
    }

    public mutating func timeline(in context: inout TimelineProviderContext) -> Timeline<Entry> {
        // In the app: `let state = try await GameServer.fetchState()`.
        guard case .success(let fetchedAt) = context.fetch() else {
            let cached = Entry(date: context.now, healthLevel: 1, dataFetchedAt: lastGoodFetch, isForecast: false)
            return Timeline(entries: [cached], policy: .after(context.now + 15 * Seconds.minute))
        }
        lastGoodFetch = fetchedAt
        let now = context.now
        // Health now: full unless the last battle came after the last potion
        // and the character has not yet recovered from it.
        var level = 1.0
        var hoursSinceBattle = 0
        let battle = context.lastScheduledChange(atOrBefore: now)
        if let battle, (context.lastEvent(atOrBefore: now).map { $0 < battle } ?? true) {
            hoursSinceBattle = (now - battle) / Seconds.hour
            level = health(afterHours: hoursSinceBattle)
        }
        guard level < 1, let battle else {
            let full = Entry(date: now, healthLevel: 1, dataFetchedAt: fetchedAt, isForecast: false)
            if let next = context.nextScheduledChange(after: now) {
                return Timeline(entries: [full], policy: .after(next))
            }
            return Timeline(entries: [full], policy: .never)
        }
        var entries = [Entry(date: now, healthLevel: level, dataFetchedAt: fetchedAt, isForecast: false)]
        var hour = hoursSinceBattle
        while level < 1 {
            hour += 1
            level = health(afterHours: hour)
            if style == .hourly || level >= 1 {
                entries.append(Entry(date: battle + hour * Seconds.hour, healthLevel: level, dataFetchedAt: fetchedAt, isForecast: true))
            }
        }
        return Timeline(entries: entries, policy: .atEnd)
    }

    /// Health `hours` whole hours after a battle.
    func health(afterHours hours: Int) -> Double {
        min(1, healthAfterBattle + recoveryPerHour * Double(hours))
    }
}
