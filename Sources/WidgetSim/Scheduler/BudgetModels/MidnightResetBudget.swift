/// At most `limit` budgeted reloads per local calendar day, reset at local
/// midnight: the reading Apple rules out ("it does not simply reset at
/// midnight", F10), kept as a contrast for the budget-model sweep.
public struct MidnightResetBudget: BudgetAccounting {
    public static let name = "midnightReset"
    public static let rule = "at most `limit` budgeted calls per local calendar day (F10 says the real budget does not simply reset at midnight: a contrast)"

    private var dayCount = 0
    private var countedDay = Int.min

    public init(parameters: SchedulerParameters) {}

    public func availability(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) -> BudgetAvailability {
        let day = calendar.dayIndex(t)
        let used = day == countedDay ? dayCount : 0
        return used < limit ? .now(t) : BudgetAvailability(time: calendar.startOfDay(day + 1), spent: true)
    }

    public mutating func charge(at t: SimTime, limit: Int, history: BudgetHistory, calendar: CivilCalendar) {
        let day = calendar.dayIndex(t)
        if day != countedDay {
            countedDay = day
            dayCount = 0
        }
        dayCount += 1
    }

    public static func audit(_ trail: inout BudgetAuditTrail, limit: Int, parameters: SchedulerParameters) -> String? {
        let today = trail.countSince(trail.latest - trail.latestLocalSecondOfDay)
        guard today > limit else { return nil }
        return "\(today) budgeted reloads since local midnight, over the limit of \(limit)"
    }
}
