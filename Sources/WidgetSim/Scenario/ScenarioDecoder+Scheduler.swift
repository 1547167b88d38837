// "scheduler": every parameter of SchedulerParameters.

extension ScenarioDecoder {
    static let schedulerFields = [
        "budgetModel", "dailyBudget", "frequentViewsPerDay", "minimumDailyBudget", "learningDays", "learningMultiplier",
        "minimumSpacing", "pacingWindow", "pacingBurst", "tokenBucketBurst", "coalescingWindow", "schedulingDelay",
        "maximumSchedulingDelay", "earlyReloadWindow", "deferWhenUnseenFor", "singleEntryAtEndDelay", "providerTimeLimit",
        "maximumReliableEntries", "pushBudget", "pushDailyBudget", "pushDeliveryDelay", "foregroundReloadDelay",
        "interactionReloadDelay", "systemReloadDelay", "reloadsIgnoredAfterWidgetLaunch", "extraTimelineCalls",
        "locationAccessAfterView",
    ]

    func decodeScheduler(_ value: ValueReader) throws(ScenarioError) -> SchedulerParameters {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.schedulerFields)
        var parameters = SchedulerParameters()
        if let model = object.optional("budgetModel") { parameters.budgetModel = try model.oneOf(BudgetModel.self) }
        if let range = object.optional("dailyBudget") {
            let budgets = 1...10_000
            let bounds = try range.object(
                shaped: #"{"min": n, "max": n} (whole numbers "# + "\(budgets), either may be left out; min ≤ max)")
            try bounds.rejectUnknownFields(["min", "max"])
            parameters.dailyBudgetMin = try bounds.optional("min")?.int(in: budgets) ?? parameters.dailyBudgetMin
            parameters.dailyBudgetMax = try bounds.optional("max")?.int(in: budgets) ?? parameters.dailyBudgetMax
            guard parameters.dailyBudgetMin <= parameters.dailyBudgetMax else {
                throw range.invalid(
                    "min \(parameters.dailyBudgetMin) is above max \(parameters.dailyBudgetMax)", allowed: "min ≤ max")
            }
        }
        if let views = object.optional("frequentViewsPerDay") { parameters.frequentViewsPerDay = try views.double(in: 0...10_000) }
        if let floor = object.optional("minimumDailyBudget") {
            parameters.minimumDailyBudget = try floor.int(in: 1...10_000)
            guard parameters.minimumDailyBudget <= parameters.dailyBudgetMin else {
                throw floor.invalid(
                    "\(parameters.minimumDailyBudget) is above dailyBudget.min \(parameters.dailyBudgetMin)",
                    allowed: "1...dailyBudget.min")
            }
        } else {
            parameters.minimumDailyBudget = min(parameters.minimumDailyBudget, parameters.dailyBudgetMin)
        }
        if let learning = object.optional("learningDays") { parameters.learningDays = try learning.double(in: 0...365) }
        if let multiplier = object.optional("learningMultiplier") { parameters.learningMultiplier = try multiplier.double(in: 1...10) }
        if let spacing = object.optional("minimumSpacing") { parameters.minimumSpacing = try spacing.wholeSeconds(maximum: Seconds.day) }
        if let window = object.optional("pacingWindow") {
            parameters.pacingWindow = try window.wholeSeconds(minimum: Seconds.hour, maximum: Seconds.day)
        }
        if let burst = object.optional("pacingBurst") { parameters.pacingBurst = try burst.double(in: 1...100) }
        if let burst = object.optional("tokenBucketBurst") { parameters.tokenBucketBurst = try burst.double(in: 0.001...1) }
        if let window = object.optional("coalescingWindow") { parameters.coalescingWindow = try window.wholeSeconds(maximum: Seconds.day) }
        if let delay = object.optional("schedulingDelay") { parameters.schedulingDelay = try decodeDistribution(delay) }
        if let cap = object.optional("maximumSchedulingDelay") { parameters.maximumSchedulingDelay = try cap.wholeSeconds(maximum: Seconds.day) }
        if let early = object.optional("earlyReloadWindow") { parameters.earlyReloadWindow = try early.wholeSeconds(maximum: Seconds.day) }
        if let deferral = object.optional("deferWhenUnseenFor") { parameters.deferWhenUnseenFor = try deferral.wholeSeconds(maximum: 30 * Seconds.day) }
        if let delay = object.optional("singleEntryAtEndDelay") { parameters.singleEntryAtEndDelay = try decodeDistribution(delay) }
        if let limit = object.optional("providerTimeLimit") {
            parameters.providerTimeLimit = try limit.wholeSeconds(minimum: 1, maximum: Seconds.hour)
        }
        if let entries = object.optional("maximumReliableEntries") {
            parameters.maximumReliableEntries = try entries.int(in: 1...ConfiguredProvider.Settings.maximumEntries)
        }
        if let push = object.optional("pushBudget") { parameters.pushBudget = try push.oneOf(PushBudget.self) }
        if let budget = object.optional("pushDailyBudget") { parameters.pushDailyBudget = try budget.int(in: 1...10_000) }
        if let delay = object.optional("pushDeliveryDelay") { parameters.pushDeliveryDelay = try decodeDistribution(delay) }
        if let delay = object.optional("foregroundReloadDelay") { parameters.foregroundReloadDelay = try decodeDistribution(delay) }
        if let delay = object.optional("interactionReloadDelay") { parameters.interactionReloadDelay = try decodeDistribution(delay) }
        if let delay = object.optional("systemReloadDelay") { parameters.systemReloadDelay = try decodeDistribution(delay) }
        if let ignored = object.optional("reloadsIgnoredAfterWidgetLaunch") {
            parameters.reloadsIgnoredAfterWidgetLaunch = try ignored.wholeSeconds(maximum: Seconds.hour)
        }
        if let calls = object.optional("extraTimelineCalls") {
            let extraCalls = 0...10
            let bounds = try calls.object(shaped: #"{"min": n, "max": n} (whole numbers "# + "\(extraCalls), min ≤ max)")
            try bounds.rejectUnknownFields(["min", "max"])
            let low = try bounds.required("min").int(in: extraCalls)
            let high = try bounds.required("max").int(in: extraCalls)
            guard low <= high else { throw calls.invalid("min \(low) is above max \(high)", allowed: "min ≤ max") }
            parameters.extraTimelineCalls = low...high
        }
        if let access = object.optional("locationAccessAfterView") {
            parameters.locationAccessAfterView = try access.wholeSeconds(maximum: Seconds.day)
        }
        return parameters
    }
}
