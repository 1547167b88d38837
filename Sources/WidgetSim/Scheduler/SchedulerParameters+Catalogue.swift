/// One scheduler parameter as reports and help texts describe it.
public struct SchedulerParameterInfo: Sendable {
    /// The field name under `"scheduler"` in a scenario file.
    public var name: String
    /// The facts it rests on, such as "F8, F10".
    public var facts: String
    /// True when Apple gives no number: the default is a documented guess.
    public var isGap: Bool
    /// What it does, in one line.
    public var meaning: String
    /// Its value in a set of parameters, as reports print it.
    public let value: @Sendable (SchedulerParameters) -> String

    /// "F8, F10 [gap]" or "F13".
    public var restsOn: String { isGap ? "\(facts) [gap]" : facts }
}

extension SchedulerParameters {
    /// Every scheduler parameter, in the order reports list them. Summaries,
    /// help texts and the README's table are generated from this list.
    public static let catalogue: [SchedulerParameterInfo] = [
        info("budgetModel", "F8, F10, F24", gap: true, "how the daily budget is accounted: \(BudgetModel.allCases.map(\.rawValue).joined(separator: ", "))") { $0.budgetModel.rawValue },
        info("dailyBudget", "F7, F8", gap: false, "range of each instance's base daily budget") { "\($0.dailyBudgetMin)–\($0.dailyBudgetMax) per instance" },
        info("frequentViewsPerDay", "F8, F9", gap: true, "page views a day at which the full budget applies; 0 disables scaling") { FixedDecimal.format($0.frequentViewsPerDay, decimals: 1) },
        info("minimumDailyBudget", "F9", gap: true, "the floor for rarely viewed widgets") { String($0.minimumDailyBudget) },
        info("learningDays", "F11", gap: false, "days of learning after a widget instance is added") { FixedDecimal.format($0.learningDays, decimals: 1) },
        info("learningMultiplier", "F11", gap: true, "budget multiplier while learning") { FixedDecimal.format($0.learningMultiplier, decimals: 2) },
        info("minimumSpacing", "F13", gap: false, "least time between budgeted reloads of one instance") { DurationText.format(Double($0.minimumSpacing)) },
        info("pacingWindow", "F8, F10", gap: true, "`paced`: the part of the day the daily limit is spread over") { DurationText.format(Double($0.pacingWindow)) },
        info("pacingBurst", "F8", gap: true, "`paced`: reloads that may come back to back after a quiet spell") { FixedDecimal.format($0.pacingBurst, decimals: 2) },
        info("tokenBucketBurst", "F10", gap: true, "`tokenBucket`: capacity as a fraction of the daily limit") { FixedDecimal.format($0.tokenBucketBurst, decimals: 2) },
        info("coalescingWindow", "F14", gap: true, "how far past its turn a due reload looks for a batch to join") { DurationText.format(Double($0.coalescingWindow)) },
        info("schedulingDelay", "F4", gap: true, "delay from due to a new batch, drawn once per device and due instant") { $0.schedulingDelay.summary },
        info("maximumSchedulingDelay", "F4", gap: false, "reloads were seen 1–2 h late, so the delay is cut at 2 h") { DurationText.format(Double($0.maximumSchedulingDelay)) },
        info("earlyReloadWindow", "F4, F14", gap: true, "a reload due within this long may run early with a batch; 0 keeps eligibility exact") { $0.earlyReloadWindow == 0 ? "off" : DurationText.format(Double($0.earlyReloadWindow)) },
        info("deferWhenUnseenFor", "F9", gap: true, "unseen this long, a reload waits for a view; 0 disables") { $0.deferWhenUnseenFor == 0 ? "off" : DurationText.format(Double($0.deferWhenUnseenFor)) },
        info("singleEntryAtEndDelay", "F3, F8", gap: true, "when the system reloads a one-entry `atEnd` timeline") { $0.singleEntryAtEndDelay.summary },
        info("providerTimeLimit", "F22", gap: false, "a longer provider call produces nothing") { DurationText.format(Double($0.providerTimeLimit)) },
        info("maximumReliableEntries", "F23", gap: false, "a timeline with more entries is not shown") { String($0.maximumReliableEntries) },
        info("pushBudget", "F19", gap: true, "`shared`, `free` or `separate`") { $0.pushBudget.rawValue },
        info("pushDailyBudget", "F19", gap: true, "`separate`: push reloads in any trailing 24 h") { String($0.pushDailyBudget) },
        info("pushDeliveryDelay", "F19", gap: true, "notifications are delivered opportunistically") { $0.pushDeliveryDelay.summary },
        info("foregroundReloadDelay", "F18", gap: false, "WidgetCenter reloads from a foreground app reached the widget after 2 s, 26 s and 27 s") { $0.foregroundReloadDelay.summary },
        info("interactionReloadDelay", "F18", gap: false, "an App Intent's reload of the tapped widget is immediate") { $0.interactionReloadDelay.summary },
        info("systemReloadDelay", "F17", gap: true, "delay after a locale, accessibility, time or account change") { $0.systemReloadDelay.summary },
        info("reloadsIgnoredAfterWidgetLaunch", "F18", gap: false, "the app's reload calls are ignored this long after it is opened from its widget") { $0.reloadsIgnoredAfterWidgetLaunch == 0 ? "off" : DurationText.format(Double($0.reloadsIgnoredAfterWidgetLaunch)) },
        info("extraTimelineCalls", "F18", gap: true, "more `getTimeline` calls in the same refresh, a whole number in this range") {
            $0.extraTimelineCalls.lowerBound == $0.extraTimelineCalls.upperBound
                ? String($0.extraTimelineCalls.lowerBound) : "\($0.extraTimelineCalls.lowerBound)–\($0.extraTimelineCalls.upperBound)"
        },
        info("locationAccessAfterView", "F21", gap: false, "a location change reaches a widget seen this recently at once") { DurationText.format(Double($0.locationAccessAfterView)) },
    ]

    static func info(
        _ name: String, _ facts: String, gap: Bool, _ meaning: String, value: @escaping @Sendable (SchedulerParameters) -> String
    ) -> SchedulerParameterInfo {
        SchedulerParameterInfo(name: name, facts: facts, isGap: gap, meaning: meaning, value: value)
    }

    /// Every parameter as (name, value, the facts it rests on), for reports.
    public var describedRows: [(name: String, value: String, fact: String)] {
        SchedulerParameters.catalogue.map { ($0.name, $0.value(self), $0.restsOn) }
    }
}
