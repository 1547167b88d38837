/// A simulated user's day: when they are awake and how their activity is
/// spread over the hours they are awake.
public struct UserProfile: Equatable, Sendable {
    /// Typical wake and sleep time, as seconds after local midnight. Sleep may
    /// exceed 86 400 (going to bed after midnight).
    public var wakeSecond = 7 * Seconds.hour
    public var sleepSecond = 23 * Seconds.hour
    /// Each day's wake and sleep time move by a uniform draw in ±`dayJitter` seconds.
    public var dayJitter = 30 * Seconds.minute
    /// Relative activity per local hour (24 values): views, app sessions and
    /// location changes follow this shape within waking hours.
    public var hourlyActivity: [Double] = UserProfile.defaultHourlyActivity
    /// Relative activity per weekday, Monday first (7 values, default all
    /// 1): a day's views, app and media sessions and location changes are
    /// its rates times its weekday's value, so a user who looks at the
    /// phone less at the weekend says so (0.6 on Saturday: 60 % of the views).
    public var weekdayActivity: [Double] = Array(repeating: 1, count: 7)

    /// The largest weekday activity: a day's rates are at most their
    /// values times it (for the room a day's views are kept in).
    public var busiestDayActivity: Double { weekdayActivity.max() ?? 1 }

    /// An upper bound on the mean weekday activity over `days` days in a
    /// row, from any weekday: over 7q + r days (r < 7) the sum is at most
    /// the week's mean times the days plus r times the busiest day's excess
    /// over it (for a run's estimate, which multiplies by the
    /// days; the busiest day alone made a week of one busy day seven of them).
    public func activityBound(days: Int) -> Double {
        let busiest = busiestDayActivity
        let mean = weekdayActivity.reduce(0, +) / 7
        let days = max(1, days)
        return min(busiest, mean + Double(days % 7) * (busiest - mean) / Double(days))
    }
    /// Significant location changes per day, while awake (F17, F21).
    public var locationChangesPerDay: Double = 2
    /// Locale, accessibility, time and account changes per day (F17).
    public var systemChangesPerDay: Double = 0.02

    /// Busier mornings and evenings, a lunchtime bump, quieter afternoons.
    public static let defaultHourlyActivity: [Double] = [
        0.5, 0.3, 0.3, 0.3, 0.3, 0.5,  // 00–05
        1.2, 1.6, 1.6, 1.0, 0.9, 1.0,  // 06–11
        1.3, 1.2, 0.9, 0.9, 1.0, 1.2,  // 12–17
        1.4, 1.5, 1.5, 1.4, 1.2, 0.8,  // 18–23
    ]

    public init() {}
}

/// One day of one user: the interval they are awake, in virtual time.
public struct DayPlan: Equatable, Sendable {
    public var wake: SimTime
    public var sleep: SimTime
    /// ∫ activity dt over `[wake, sleep)`, computed once so that each arrival
    /// does not integrate the day again.
    public var awakeWeight: Double
    /// The day's weekday activity (`UserProfile.weekdayActivity` of the
    /// weekday the day begins on), which multiplies its daily rates.
    public var activity: Double = 1

    /// Draws day `day`'s plan from the profile.
    static func draw(day: Int, profile: UserProfile, calendar: CivilCalendar, random: inout RandomStream) -> DayPlan {
        let midnight = calendar.startOfDay(day)
        let jitter = profile.dayJitter
        let wake = midnight + profile.wakeSecond + (jitter > 0 ? random.nextInt(in: -jitter...jitter) : 0)
        // A day ends by the start of the day after next: a simulator keeps
        // two days' plans, today's and yesterday's, whose evening may run
        // past midnight. Only a sleep time past 42 hours after midnight
        // with a jitter of hours reaches it (wake 23:00, sleep 20:00 the
        // next day, dayJitter 6h); such a day's plan ran on beside the day
        // after next's, and its views and sessions were counted about twice.
        let sleep = min(
            midnight + 2 * Seconds.day,
            max(wake, midnight + profile.sleepSecond + (jitter > 0 ? random.nextInt(in: -jitter...jitter) : 0)))
        let weight = ArrivalProcess.weightedLength(from: wake, to: sleep, shape: profile.hourlyActivity, calendar: calendar)
        let activity = profile.weekdayActivity[calendar.weekday(midnight).rawValue]
        return DayPlan(wake: wake, sleep: sleep, awakeWeight: weight, activity: activity)
    }
}

/// Arrivals of a Poisson process whose rate follows an hourly shape.
///
/// Promised: over an interval `[start, end)` whose shaped length is `totalWeight`
/// (see `weightedLength`), the expected number of arrivals is `expected`,
/// spread in proportion to the shape (uniformly when the shape is nil).
enum ArrivalProcess {
    /// The first arrival strictly after `after` and before `end`. Consumes
    /// one exponential draw when an arrival can come (a positive
    /// expectation and weight over a non-empty interval), none otherwise.
    static func nextArrival(
        after: SimTime,
        start: SimTime,
        end: SimTime,
        expected: Double,
        totalWeight: Double,
        shape: [Double]?,
        calendar: CivilCalendar,
        random: inout RandomStream
    ) -> SimTime? {
        if let shape {
            // The walk over the hours is `PreparedArrivals.next`'s, each
            // hour's rate formed as it forms it: one walk for every shaped
            // arrival, which carries the hour rather than dividing the second
            // of day at each (README, "Speed").
            let prepared = PreparedArrivals(start: start, end: end, expected: expected, totalWeight: totalWeight)
            return prepared.next(after: after, calendar: calendar, random: &random) { prepared.hourlyRate(shape: shape[$0]) }
        }
        guard expected > 0, end > start, totalWeight > 0 else { return nil }
        let perUnitWeight = expected / totalWeight
        let remaining = random.nextExponential(mean: 1)
        let cursor = max(after, start)
        // A rate so small it underflows (1e-320 a day, say) gives an
        // infinite gap: no arrival before `end`, never an Int overflow.
        let gap = remaining / perUnitWeight
        guard gap.isFinite, gap < Double(end - cursor) else { return nil }
        let arrival = cursor + Int(gap)
        return max(arrival, after + 1) < end ? max(arrival, after + 1) : nil
    }

    /// ∫ weight dt over `[start, end)`, in weight-seconds.
    static func weightedLength(from start: SimTime, to end: SimTime, shape: [Double]?, calendar: CivilCalendar) -> Double {
        guard let shape else { return Double(end - start) }
        // The hour and the seconds left in it are carried from hour to hour,
        // as `PreparedArrivals.next` carries them, not worked out again from
        // the second of day at each: a device's every day plan sums its
        // waking hours (README, "Speed"). The same products, summed in the
        // same order.
        var total = 0.0
        var cursor = start
        let secondOfDay = calendar.secondOfDay(cursor)
        var hour = secondOfDay / Seconds.hour
        var leftInHour = Seconds.hour - secondOfDay % Seconds.hour
        while cursor < end {
            let hourEnd = min(end, cursor + leftInHour)
            total += shape[hour] * Double(hourEnd - cursor)
            hour = hour == 23 ? 0 : hour + 1
            leftInHour = Seconds.hour
            cursor = hourEnd
        }
        return total
    }
}

/// Shaped arrivals over one interval, the walk over its hours written once:
/// `ArrivalProcess.nextArrival` forms each hour's rate as it goes, and a
/// page's views (about a hundred a day, each from the same day plan) read
/// rates worked out at the day's start.
///
/// Promised: when `rate(hour)` returns `hourlyRate(shape:)` of the hour's
/// shape value, `next(after:calendar:random:rate:)` takes one exponential
/// draw of mean 1 and returns the instant where that much weight is used
/// up, walking the local hours from `max(after, start)` and spending
/// `rate × seconds` of each (an hour of rate 0 holds no arrival), floored
/// at `after + 1`; nil if the weight outlasts `end`. Each hour and its end
/// are worked out once, then carried.
struct PreparedArrivals: Sendable {
    let start: SimTime
    let end: SimTime
    /// False when no arrival can come (no expectation, an empty interval,
    /// no weight): then nothing is drawn.
    let active: Bool
    let perUnitWeight: Double

    static let inactive = PreparedArrivals(start: 0, end: 0, expected: 0, totalWeight: 0)

    init(start: SimTime, end: SimTime, expected: Double, totalWeight: Double) {
        self.start = start
        self.end = end
        active = expected > 0 && end > start && totalWeight > 0
        perUnitWeight = expected / totalWeight
    }

    /// The rate, in arrivals a second, in an hour whose shape value is
    /// `shape`: the expectation per weight-second times the shape.
    func hourlyRate(shape: Double) -> Double { perUnitWeight * shape }

    /// The first arrival strictly after `after` and before `end`. Consumes
    /// one exponential draw when active. `rate` gives each local hour's rate
    /// (the caller keeps them where reading one costs least).
    func next(after: SimTime, calendar: CivilCalendar, random: inout RandomStream, rate: (Int) -> Double) -> SimTime? {
        guard active else { return nil }
        var remaining = random.nextExponential(mean: 1)
        var cursor = max(after, start)
        // The local hour and the seconds left in it, carried from hour to
        // hour: only the first segment can start inside an hour, and a
        // segment that ends before the hour does ends the walk at `end`
        // (README, "Speed"). The same segments as the definition's.
        let secondOfDay = UInt(calendar.secondOfDay(cursor))
        var hour = Int(secondOfDay / UInt(Seconds.hour))
        var leftInHour = Seconds.hour - Int(secondOfDay % UInt(Seconds.hour))
        while cursor < end {
            let hourEnd = min(end, cursor + leftInHour)
            let rate = rate(hour)
            let segment = Double(hourEnd - cursor)
            // `rate > 0` is asked only once the hour holds the arrival. It
            // differs from the product's test only for a draw of exactly 0
            // (about one in 2^53) in an hour without activity, which would
            // otherwise place an arrival there, at 0 / 0 seconds: a trap.
            if rate * segment >= remaining, rate > 0 {
                let arrival = max(cursor + Int(remaining / rate), after + 1)
                return arrival < end ? arrival : nil
            }
            remaining -= rate * segment
            hour = hour == 23 ? 0 : hour + 1
            leftInHour = Seconds.hour
            cursor = hourEnd
        }
        return nil
    }
}
