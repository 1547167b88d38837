/// How a widget's daily budget is accounted. Apple publishes no algorithm,
/// only that the budget covers a 24-hour window that follows the user's day
/// and "updates throughout the day" (F10), so a scenario picks one of these
/// plausible models and a result can be checked under each.
public enum BudgetModel: String, CaseIterable, Sendable {
    /// At most `limit` budgeted reloads in any trailing 24 hours (the default, F10).
    case rollingWindow
    /// A bucket of `limit × tokenBucketBurst` tokens that refills continuously
    /// at `limit` tokens a day; each budgeted reload takes one.
    case tokenBucket
    /// At most `limit` budgeted reloads per local calendar day, reset at midnight.
    case midnightReset
    /// No limit, as in Xcode debugging or WidgetKit Developer Mode (F24).
    case unlimited
}
