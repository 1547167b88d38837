// Scheduler parameters written back in the scenario format, for parameters files.

extension SchedulerParameters {
    /// The JSON text of field `name` (one of `ScenarioDecoder.schedulerFields`)
    /// as a scenario's `scheduler` block writes it; decoding it gives the
    /// same value back.
    static func jsonValue(of name: String, in p: SchedulerParameters) -> String? {
        func duration(_ seconds: Int) -> String { "\"\(DurationText.format(Double(seconds)))\"" }
        func number(_ value: Double) -> String { DurationText.plain(value) }
        switch name {
        case "budgetModel": return "\"\(p.budgetModel.rawValue)\""
        case "dailyBudget": return "{ \"min\": \(p.dailyBudgetMin), \"max\": \(p.dailyBudgetMax) }"
        case "frequentViewsPerDay": return number(p.frequentViewsPerDay)
        case "minimumDailyBudget": return String(p.minimumDailyBudget)
        case "learningDays": return number(p.learningDays)
        case "learningMultiplier": return number(p.learningMultiplier)
        case "minimumSpacing": return duration(p.minimumSpacing)
        case "pacingWindow": return duration(p.pacingWindow)
        case "pacingBurst": return number(p.pacingBurst)
        case "tokenBucketBurst": return number(p.tokenBucketBurst)
        case "coalescingWindow": return duration(p.coalescingWindow)
        case "schedulingDelay": return distribution(p.schedulingDelay)
        case "maximumSchedulingDelay": return duration(p.maximumSchedulingDelay)
        case "earlyReloadWindow": return duration(p.earlyReloadWindow)
        case "deferWhenUnseenFor": return duration(p.deferWhenUnseenFor)
        case "singleEntryAtEndDelay": return distribution(p.singleEntryAtEndDelay)
        case "providerTimeLimit": return duration(p.providerTimeLimit)
        case "maximumReliableEntries": return String(p.maximumReliableEntries)
        case "pushBudget": return "\"\(p.pushBudget.rawValue)\""
        case "pushDailyBudget": return String(p.pushDailyBudget)
        case "pushDeliveryDelay": return distribution(p.pushDeliveryDelay)
        case "foregroundReloadDelay": return distribution(p.foregroundReloadDelay)
        case "interactionReloadDelay": return distribution(p.interactionReloadDelay)
        case "systemReloadDelay": return distribution(p.systemReloadDelay)
        case "reloadsIgnoredAfterWidgetLaunch": return duration(p.reloadsIgnoredAfterWidgetLaunch)
        case "extraTimelineCalls": return "{ \"min\": \(p.extraTimelineCalls.lowerBound), \"max\": \(p.extraTimelineCalls.upperBound) }"
        case "locationAccessAfterView": return duration(p.locationAccessAfterView)
        default: return nil
        }
    }

    static func distribution(_ distribution: DurationDistribution) -> String {
        // Every duration with its unit, as a scenario writes it: a bare number
        // would draw the "a bare number is seconds" warning when read back.
        func duration(_ seconds: Double) -> String { "\"\(DurationText.format(seconds))\"" }
        switch distribution {
        case .fixed(let value): return duration(Double(value))
        case .uniform(let low, let high):
            return "{ \"distribution\": \"uniform\", \"min\": \(duration(Double(low))), \"max\": \(duration(Double(high))) }"
        case .exponential(let mean): return "{ \"distribution\": \"exponential\", \"mean\": \(duration(mean)) }"
        case .logNormal(let median, let p95):
            return "{ \"distribution\": \"logNormal\", \"median\": \(duration(median)), \"p95\": \(duration(p95)) }"
        }
    }
}
