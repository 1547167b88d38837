import Testing
@testable import WidgetSim

/// What a view records: which entry is on screen and how long the truth has
/// been ahead of it.
@Suite("Staleness")
struct StalenessTests {
    static func hourlyTruth(horizon: Double = 0) -> TruthSetup {
        var truth = TruthSetup(periodic: PeriodicChanges(period: Seconds.hour))
        truth.forecastHorizonMean = horizon
        return truth
    }

    /// A widget of six hourly forecast entries aligned to the hour, never reloading.
    static func forecastWidget(horizon: Double) -> WidgetSetup {
        .configured("w", policy: .never, entries: 6, truth: hourlyTruth(horizon: horizon)) {
            $0.forecasts = true
            $0.alignEntries = true
        }
    }

    static func views(_ widget: WidgetSetup, at times: [SimTime], edit: (inout Fixture) -> Void = { _ in }) -> [ViewRecord] {
        var fixture = Fixture(widget)
        fixture.script = times.map { ScriptedAction(at: $0, .view(page: 0)) }
        edit(&fixture)
        return fixture.run().views
    }

    /// F1: an entry repeating fetched data goes stale at the first change after the fetch.
    @Test func stalenessRunsFromTheFirstChangeAfterTheFetch() {
        let views = Self.views(.configured("w", policy: .never, truth: Self.hourlyTruth()), at: [1_800, 5_400])
        #expect(views.map(\.isStale) == [false, true])
        #expect(views.map(\.staleness) == [0, 1_800])
        #expect(views.map(\.dataAsOf) == [0, 0])
    }

    /// E5: a forecast entry that foresaw the changes before its date is fresh.
    @Test func aForecastThatFoundTheChangesStaysFresh() {
        let views = Self.views(Self.forecastWidget(horizon: 1e9), at: [2 * Seconds.hour + 1_800])
        #expect(views[0].shownEntryDate == 2 * Seconds.hour)
        #expect(views[0].dataAsOf == 2 * Seconds.hour)
        #expect(!views[0].isStale)
    }

    /// E5: a forecast that got its hour wrong is stale from that hour's change.
    @Test func aWrongForecastIsStaleFromTheChangeItGotWrong() {
        let views = Self.views(Self.forecastWidget(horizon: 0), at: [2 * Seconds.hour + 1_800])
        #expect(views[0].shownEntryDate == 2 * Seconds.hour)
        #expect(views[0].isStale && views[0].staleness == 1_800)
    }

    /// E5: a forecast is judged by the change that set the truth at its own
    /// date; an hour it did not show cannot make it wrong.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func aForecastIsJudgedOnlyByTheHourItShows(seed: UInt64) {
        let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2), utcOffsetSeconds: 0)
        let truth = ContentTruth(
            periodic: PeriodicChanges(period: Seconds.hour), forecastHorizonMean: 3 * Double(Seconds.hour),
            forecastSeed: StreamSeed(seed), calendar: calendar)
        let fetchedAt = 600
        for hour in 1...12 {
            let date = hour * Seconds.hour
            let predictable = Double(date - fetchedAt) <= truth.predictabilityHorizon(ofChangeAt: date)
            let mismatch = truth.firstMismatch(fetchedAt: fetchedAt, date: date, isForecast: true)
            #expect(mismatch == (predictable ? date + Seconds.hour : date), "seed \(seed), hour \(hour)")
        }
    }

    /// F6: text drawn with dynamic dates updates without reloads, so clock-driven
    /// changes never make the widget stale.
    @Test func dynamicDateTextNeverGoesStale() {
        var live = TruthSetup(periodic: PeriodicChanges(period: 60))
        live.periodicDrawnLive = true
        var drawn = live
        drawn.periodicDrawnLive = false
        #expect(Self.views(.configured("w", policy: .never, truth: live), at: [5 * Seconds.hour]).allSatisfy { !$0.isStale })
        #expect(Self.views(.configured("w", policy: .never, truth: drawn), at: [5 * Seconds.hour]).allSatisfy { $0.isStale })
    }

    /// F5: before the first timeline arrives the widget shows its placeholder,
    /// which holds no data.
    @Test func aViewBeforeTheFirstTimelineSeesThePlaceholder() {
        let views = Self.views(.configured("w", policy: .never, latency: 20), at: [10, 30])
        #expect(views[0].shownEntryDate == nil && views[0].isStale)
        #expect(views[1].shownEntryDate == 20)
    }

    /// An unpredictable change makes the widget stale until a reload catches it;
    /// a push on the change (F19) catches it at once.
    @Test func anUnpredictableChangeIsStaleUntilAReloadCatchesIt() {
        var silent = TruthSetup()
        silent.reaction = .none
        var pushed = silent
        pushed.reaction = .push
        let change = [ScriptedAction(at: Seconds.hour, .truthChange(widget: 0))]
        let unheard = Self.views(.configured("w", policy: .never, truth: silent), at: [2 * Seconds.hour]) { $0.script += change }
        let heard = Self.views(.configured("w", policy: .never, truth: pushed), at: [2 * Seconds.hour]) { $0.script += change }
        #expect(unheard[0].staleness == Seconds.hour)
        #expect(!heard[0].isStale)
    }
}
