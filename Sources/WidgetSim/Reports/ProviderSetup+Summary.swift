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
