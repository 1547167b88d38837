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
        if let days = Weekday.summary(of: weekdays) { conditions.append(days) }
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

extension Weekday {
    /// "mon–fri", "sat,sun": the days set in `weekdays` (indexed by raw
    /// value), or nil for every day.
    static func summary(of weekdays: [Bool]) -> String? {
        guard weekdays.contains(false) else { return nil }
        let days = Weekday.allCases.filter { weekdays[$0.rawValue] }
        let consecutive = days.count >= 3 && days.last!.rawValue - days.first!.rawValue == days.count - 1
        return consecutive ? days.first!.shortName + "–" + days.last!.shortName : days.map(\.shortName).joined(separator: ",")
    }
}

extension MeasuredHours {
    /// "wed 19:45–21:45; sat 15:00–17:00", for reports.
    public var summary: String {
        windows.map { window in
            let hours = DurationText.clock(window.fromSecond) + "–" + DurationText.clock(window.toSecond)
            return Weekday.summary(of: window.weekdays).map { "\($0) \(hours)" } ?? hours
        }.joined(separator: "; ")
    }
}
