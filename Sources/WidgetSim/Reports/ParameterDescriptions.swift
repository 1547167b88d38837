extension DurationDistribution {
    /// A short human description: "uniform 2s–27s", "log-normal median 2m, p95 30m".
    public var summary: String {
        switch self {
        case .fixed(let value): return DurationText.format(Double(value))
        case .uniform(let low, let high): return "uniform \(DurationText.format(Double(low)))–\(DurationText.format(Double(high)))"
        case .exponential(let mean): return "exponential, mean \(DurationText.format(mean.rounded()))"
        case .logNormal(let median, let p95):
            return "log-normal, median \(DurationText.format(median.rounded())), p95 \(DurationText.format(p95.rounded()))"
        }
    }
}

extension SchedulerParameters {
    /// Every parameter as (name, value, the fact it rests on), in the README's order.
    public var describedRows: [(name: String, value: String, fact: String)] {
        [
            ("budgetModel", budgetModel.rawValue, "F10, F24 [gap: Apple's algorithm is unpublished]"),
            ("dailyBudget", "\(dailyBudgetMin)–\(dailyBudgetMax) per instance", "F7, F8"),
            ("frequentViewsPerDay", FixedDecimal.format(frequentViewsPerDay, decimals: 1), "F8, F9 [gap]"),
            ("minimumDailyBudget", String(minimumDailyBudget), "F9 [gap]"),
            ("learningDays", FixedDecimal.format(learningDays, decimals: 1), "F11"),
            ("learningMultiplier", FixedDecimal.format(learningMultiplier, decimals: 2), "F11 [gap]"),
            ("minimumSpacing", DurationText.format(Double(minimumSpacing)), "F13"),
            ("tokenBucketBurst", FixedDecimal.format(tokenBucketBurst, decimals: 2), "F10 [gap]"),
            ("coalescingWindow", DurationText.format(Double(coalescingWindow)), "F14 [gap]"),
            ("schedulingDelay", schedulingDelay.summary, "F4 [gap]"),
            ("maximumSchedulingDelay", DurationText.format(Double(maximumSchedulingDelay)), "F4"),
            ("deferWhenUnseenFor", deferWhenUnseenFor == 0 ? "off" : DurationText.format(Double(deferWhenUnseenFor)), "F9 [gap]"),
            ("singleEntryAtEndDelay", singleEntryAtEndDelay.summary, "F3, F8 [gap]"),
            ("providerTimeLimit", DurationText.format(Double(providerTimeLimit)), "F22"),
            ("pushBudget", pushBudget.rawValue, "F19 [gap]"),
            ("pushDeliveryDelay", pushDeliveryDelay.summary, "F19 [gap]"),
            ("foregroundReloadDelay", foregroundReloadDelay.summary, "F18"),
            ("interactionReloadDelay", interactionReloadDelay.summary, "F18"),
            ("systemReloadDelay", systemReloadDelay.summary, "F17 [gap]"),
        ]
    }
}

extension ProviderSetup {
    /// A short description of the reload policy, for summaries.
    public var policySummary: String {
        switch self {
        case .custom(let swift): return "Swift provider \(swift.name)"
        case .configured(let settings):
            var parts: [String] = []
            switch settings.policy {
            case .atEnd: parts.append("atEnd")
            case .never: parts.append("never")
            case .after(let interval): parts.append("after(\(DurationText.format(Double(interval))))")
            }
            if let offsets = settings.entryOffsets {
                parts.append("\(offsets.count) entries at " + offsets.prefix(4).map { "+" + DurationText.format(Double($0)) }.joined(separator: ", ") + (offsets.count > 4 ? "…" : ""))
            } else {
                parts.append(settings.entryCount == 1 ? "1 entry" : "\(settings.entryCount) entries \(DurationText.format(Double(settings.entrySpacing))) apart")
            }
            if settings.afterAlignment > 0 { parts.append("rounded to \(DurationText.format(Double(settings.afterAlignment)))") }
            if settings.jitter > 0 { parts.append("jitter \(DurationText.format(Double(settings.jitter)))") }
            return parts.joined(separator: ", ")
        }
    }
}
