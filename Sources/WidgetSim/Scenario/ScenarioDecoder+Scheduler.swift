// "scheduler": every parameter of SchedulerParameters.

extension ScenarioDecoder {
    static let schedulerFields = [
        "budgetModel", "dailyBudget", "frequentViewsPerDay", "minimumDailyBudget", "learningDays", "learningMultiplier",
        "minimumSpacing", "tokenBucketBurst", "coalescingWindow", "schedulingDelay", "maximumSchedulingDelay", "deferWhenUnseenFor",
        "singleEntryAtEndDelay", "providerTimeLimit", "pushBudget", "pushDeliveryDelay", "foregroundReloadDelay",
        "interactionReloadDelay", "systemReloadDelay",
    ]

    func decodeScheduler(_ value: ValueReader) throws(ScenarioError) -> SchedulerParameters {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.schedulerFields)
        var parameters = SchedulerParameters()
        if let model = object.optional("budgetModel") { parameters.budgetModel = try model.oneOf(BudgetModel.self) }
        if let range = object.optional("dailyBudget") {
            let bounds = try range.object()
            try bounds.rejectUnknownFields(["min", "max"])
            parameters.dailyBudgetMin = try bounds.optional("min")?.int(in: 1...10_000) ?? parameters.dailyBudgetMin
            parameters.dailyBudgetMax = try bounds.optional("max")?.int(in: 1...10_000) ?? parameters.dailyBudgetMax
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
        if let burst = object.optional("tokenBucketBurst") { parameters.tokenBucketBurst = try burst.double(in: 0.001...1) }
        if let window = object.optional("coalescingWindow") { parameters.coalescingWindow = try window.wholeSeconds(maximum: Seconds.day) }
        if let delay = object.optional("schedulingDelay") { parameters.schedulingDelay = try decodeDistribution(delay) }
        if let cap = object.optional("maximumSchedulingDelay") { parameters.maximumSchedulingDelay = try cap.wholeSeconds(maximum: Seconds.day) }
        if let deferral = object.optional("deferWhenUnseenFor") { parameters.deferWhenUnseenFor = try deferral.wholeSeconds(maximum: 30 * Seconds.day) }
        if let delay = object.optional("singleEntryAtEndDelay") { parameters.singleEntryAtEndDelay = try decodeDistribution(delay) }
        if let limit = object.optional("providerTimeLimit") {
            parameters.providerTimeLimit = try limit.wholeSeconds(minimum: 1, maximum: Seconds.hour)
        }
        if let push = object.optional("pushBudget") { parameters.pushBudget = try push.oneOf(PushBudget.self) }
        if let delay = object.optional("pushDeliveryDelay") { parameters.pushDeliveryDelay = try decodeDistribution(delay) }
        if let delay = object.optional("foregroundReloadDelay") { parameters.foregroundReloadDelay = try decodeDistribution(delay) }
        if let delay = object.optional("interactionReloadDelay") { parameters.interactionReloadDelay = try decodeDistribution(delay) }
        if let delay = object.optional("systemReloadDelay") { parameters.systemReloadDelay = try decodeDistribution(delay) }
        return parameters
    }
}
