/// A day of the week.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case monday = 0, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The three-letter lower-case name used in scenario files ("mon").
    public var shortName: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue]
    }

    /// The English name, for messages ("Monday").
    public var name: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue]
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A local date and time of day, without a time zone.
public struct CivilDateTime: Equatable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// True when the fields name a real proleptic-Gregorian date and time.
    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
            return false
        }
        return day <= CivilCalendar.daysInMonth(year: year, month: month)
    }

    /// Seconds since 1970-01-01T00:00 on the same local clock.
    public var localSeconds: Int {
        CivilCalendar.daysFromCivil(year: year, month: month, day: day) * Seconds.day
            + hour * Seconds.hour + minute * Seconds.minute + second
    }

    /// The valid date and time written `YYYY-MM-DDTHH:MM:SS` in the first 19
    /// bytes (a space for the `T` when `allowingSpace`), or nil. Only ASCII
    /// digits are read, so no input can overflow.
    static func leading(_ bytes: [UInt8], allowingSpace: Bool = false) -> CivilDateTime? {
        guard bytes.count >= 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || (allowingSpace && bytes[10] == 0x20),
              bytes[13] == 0x3A, bytes[16] == 0x3A,
              let year = decimal(bytes, 0..<4), let month = decimal(bytes, 5..<7), let day = decimal(bytes, 8..<10),
              let hour = decimal(bytes, 11..<13), let minute = decimal(bytes, 14..<16), let second = decimal(bytes, 17..<19) else { return nil }
        let civil = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return civil.isValid ? civil : nil
    }

    /// The ASCII digits in `range` as a number, or nil if any byte is not a digit.
    static func decimal(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        DecimalDigits.unsigned(utf8: bytes[range])
    }
}

/// Maps virtual time to a device's local calendar: day index, weekday, time of day.
///
/// Promised: all arithmetic is integer (Howard Hinnant's civil-from-days
/// algorithms), so it needs no Foundation and gives the same answer everywhere.
/// The offset from UTC is fixed for the whole run.
///
/// Not promised: daylight-saving transitions. A scenario that crosses one
/// should be split or given the offset that covers most of it.
public struct CivilCalendar: Equatable, Sendable {
    /// The scenario's start, in seconds since 1970-01-01T00:00:00Z.
    public let startEpochSeconds: Int
    /// This device's offset from UTC, in seconds (east positive).
    public let utcOffsetSeconds: Int
    /// The offsets from UTC a clock may have, in seconds: -12:00 to +14:00,
    /// the zones in use. Scenarios, device logs, partial files and `check`
    /// all hold times to it.
    public static let utcOffsets = -12 * Seconds.hour...14 * Seconds.hour
    /// Local seconds since 1970-01-01T00:00 at local midnight of the day that contains t = 0.
    let _firstLocalMidnight: Int
    /// Local seconds since midnight at t = 0, in 0..<86400: the day index and
    /// time of day of any `t` follow from `t + _startSecondOfDay` alone, which
    /// is never negative in a run, so one unsigned division gives both.
    let _startSecondOfDay: Int

    /// A calendar for a device with `utcOffsetSeconds`, for a scenario that
    /// starts at the UTC instant `startEpochSeconds`.
    public init(startEpochSeconds: Int, utcOffsetSeconds: Int) {
        self.startEpochSeconds = startEpochSeconds
        self.utcOffsetSeconds = utcOffsetSeconds
        let localStart = startEpochSeconds + utcOffsetSeconds
        _firstLocalMidnight = CivilCalendar.floorDiv(localStart, Seconds.day) * Seconds.day
        _startSecondOfDay = localStart - _firstLocalMidnight
    }

    /// A calendar whose t = 0 is the local date and time `start` at `utcOffsetSeconds`.
    public init(localStart start: CivilDateTime, utcOffsetSeconds: Int) {
        self.init(startEpochSeconds: start.localSeconds - utcOffsetSeconds, utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The same scenario start seen from another time zone.
    public func withUTCOffset(_ seconds: Int) -> CivilCalendar {
        CivilCalendar(startEpochSeconds: startEpochSeconds, utcOffsetSeconds: seconds)
    }

    /// Local seconds since 1970-01-01T00:00 (local) at virtual time `t`.
    public func localSeconds(_ t: SimTime) -> Int { startEpochSeconds + utcOffsetSeconds + t }

    /// The local day index: 0 for the local date that contains t = 0.
    public func dayIndex(_ t: SimTime) -> Int {
        let sinceFirstMidnight = t + _startSecondOfDay
        guard sinceFirstMidnight >= 0 else { return CivilCalendar.floorDiv(sinceFirstMidnight, Seconds.day) }
        return Int(UInt(sinceFirstMidnight) / UInt(Seconds.day))
    }

    /// Virtual time at local midnight starting day `dayIndex` (negative if before t = 0).
    public func startOfDay(_ dayIndex: Int) -> SimTime {
        dayIndex * Seconds.day - _startSecondOfDay
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Seconds since local midnight, in 0..<86400.
    @inline(__always)
    public func secondOfDay(_ t: SimTime) -> Int {
        let sinceFirstMidnight = t + _startSecondOfDay
        guard sinceFirstMidnight >= 0 else { return CivilCalendar.floorMod(sinceFirstMidnight, Seconds.day) }
        return Int(UInt(sinceFirstMidnight) % UInt(Seconds.day))
    }

    /// The local hour, 0...23.
    public func hour(_ t: SimTime) -> Int { secondOfDay(t) / Seconds.hour }

    /// The local weekday.
    public func weekday(_ t: SimTime) -> Weekday {
        // 1970-01-01 was a Thursday.
        let days = CivilCalendar.floorDiv(localSeconds(t), Seconds.day)
        return Weekday(rawValue: CivilCalendar.floorMod(days + 3, 7))!
    }

    /// The local date and time at `t`.
    public func civil(_ t: SimTime) -> CivilDateTime {
        let local = localSeconds(t)
        let days = CivilCalendar.floorDiv(local, Seconds.day)
        let second = CivilCalendar.floorMod(local, Seconds.day)
        let (year, month, day) = CivilCalendar.civilFromDays(days)
        return CivilDateTime(
            year: year, month: month, day: day,
            hour: second / Seconds.hour, minute: second % Seconds.hour / Seconds.minute, second: second % Seconds.minute
        )
    }

    /// ISO 8601 local time with offset, e.g. `2026-03-02T07:15:00+01:00`.
    public func iso8601(_ t: SimTime) -> String {
        let c = civil(t)
        var text = ""
        text.reserveCapacity(25)
        text += CivilCalendar.padded(c.year, 4) + "-" + CivilCalendar.padded(c.month, 2) + "-"
        text += CivilCalendar.padded(c.day, 2) + "T" + CivilCalendar.padded(c.hour, 2) + ":"
        text += CivilCalendar.padded(c.minute, 2) + ":" + CivilCalendar.padded(c.second, 2)
        text += CivilCalendar.formatOffset(utcOffsetSeconds)
        return text
    }

    /// `+01:00`, `-05:30`, `+00:00`.
    public static func formatOffset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / Seconds.minute
        return sign + padded(minutes / 60, 2) + ":" + padded(minutes % 60, 2)
    }

    // MARK: Proleptic Gregorian arithmetic (Hinnant, "chrono-Compatible Low-Level Date Algorithms")

    /// Days since 1970-01-01 for a civil date.
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a count of days since 1970-01-01.
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func floorMod(_ a: Int, _ b: Int) -> Int { a - floorDiv(a, b) * b }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}

/// An instant written as ISO 8601 with its offset, as a phone logs it:
/// `2026-03-02T07:15:03+01:00`, `2026-03-02T06:15:03Z`, or with fractional
/// seconds (`07:15:03.250+01:00`, truncated to the second).
public struct OffsetTimestamp: Equatable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var epochSeconds: Int
    /// The offset the line was written in, east positive.
    public var utcOffsetSeconds: Int

    public init(epochSeconds: Int, utcOffsetSeconds: Int) {
        self.epochSeconds = epochSeconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The years a log's times may fall in. 1969: a run that starts at
    /// 1970-01-01T00:00 in one time zone has devices in others whose local
    /// clocks still read 1969. No bound nearer than four digits above: a
    /// run that starts late in 2999 ends in 3001 on a device far east of
    /// it, and a `reload_after` date may be later still. The logs of both
    /// must read back.
    public static let years = 1969...9999

    /// Nil unless `text` is such a timestamp with a valid date in `years`
    /// and an offset from -12:00 to +14:00.
    public init?(_ text: Substring) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, let civil = CivilDateTime.leading(bytes, allowingSpace: true), OffsetTimestamp.years.contains(civil.year) else { return nil }
        func number(_ range: Range<Int>) -> Int? { CivilDateTime.decimal(bytes, range) }
        var index = 19
        if bytes[index] == 0x2E {
            index += 1
            let digitsStart = index
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
            guard index > digitsStart, index - digitsStart <= 9 else { return nil }
        }
        let offset: Int
        if index == bytes.count - 1, bytes[index] == 0x5A {
            offset = 0
        } else {
            guard bytes.count - index == 6, bytes[index] == 0x2B || bytes[index] == 0x2D, bytes[index + 3] == 0x3A,
                  let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6), minutes < 60 else { return nil }
            let magnitude = hours * Seconds.hour + minutes * Seconds.minute
            offset = bytes[index] == 0x2D ? -magnitude : magnitude
            guard CivilCalendar.utcOffsets.contains(offset) else { return nil }
        }
        self.init(epochSeconds: civil.localSeconds - offset, utcOffsetSeconds: offset)
    }

    /// The timestamp as a phone's log writes it: local time and offset.
    public var text: String {
        CivilCalendar(startEpochSeconds: epochSeconds, utcOffsetSeconds: utcOffsetSeconds).iso8601(0)
    }
}
