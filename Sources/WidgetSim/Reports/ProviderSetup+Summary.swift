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
            if !settings.schedule.isEmpty {
                parts[0] = settings.schedule.map(\.summary).joined(separator: "; ") + "; otherwise " + parts[0]
            }
            // Where the later entries fall and what they hold, so that two
            // variants that differ only there are told apart; neither
            // applies to a single entry.
            let entryCount: Int
            if let offsets = settings.entryOffsets {
                entryCount = offsets.count
                parts.append("\(offsets.count) entries at " + offsets.prefix(4).map { "+" + DurationText.format(Double($0)) }.joined(separator: ", ") + (offsets.count > 4 ? "…" : ""))
            } else {
                entryCount = settings.entryCount
                let aligned = settings.alignEntries && entryCount > 1 ? " on the clock" : ""
                parts.append(entryCount == 1 ? "1 entry" : "\(entryCount) entries \(DurationText.format(Double(settings.entrySpacing))) apart\(aligned)")
            }
            if settings.forecasts && entryCount > 1 { parts.append("forecasts") }
            if settings.afterAlignment > 0 { parts.append("rounded to \(DurationText.format(Double(settings.afterAlignment)))") }
            if settings.jitter > 0 { parts.append("jitter \(DurationText.format(Double(settings.jitter)))") }
            // E4: without it, stocks' `after-15m-always` and its base read alike.
            if settings.skipInactiveHours { parts.append("skipping inactive hours") }
            return parts.joined(separator: ", ")
        }
    }
}

extension PolicyRule {
    /// The rule in a few words for summaries: "mon–fri 07:00–09:30: after(15m)".
    var summary: String {
        var conditions: [String] = []
        if weekdays.contains(false) {
            let days = Weekday.allCases.filter { weekdays[$0.rawValue] }
            let consecutive = days.count >= 3 && days.last!.rawValue - days.first!.rawValue == days.count - 1
            conditions.append(consecutive ? days.first!.shortName + "–" + days.last!.shortName : days.map(\.shortName).joined(separator: ","))
        }
        if let window {
            conditions.append(DurationText.clock(window.from) + "–" + DurationText.clock(window.to))
        }
        if let truth { conditions.append("truth \(truth.rawValue)") }
        let policy: String
        switch answer {
        case .atEnd: policy = "atEnd"
        case .never: policy = "never"
        case .after(let interval): policy = "after(\(DurationText.format(Double(interval))))"
        case .until(let second): policy = "after(next \(DurationText.clock(second)))"
        }
        return conditions.joined(separator: " ") + ": " + policy
    }
}
