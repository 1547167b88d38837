// The scenario's start and UTC offsets.

extension ScenarioDecoder {
    /// The years a run may start in. Reports write four-digit years, so a
    /// run of up to 366 days must end before 10000; the lower bound keeps
    /// every instant after the Unix epoch, which device logs count from.
    public static let startYears = 1970...2999

    func decodeStart(_ value: ValueReader) throws(ScenarioError) -> CivilDateTime {
        let allowed = "\"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM[:SS]\" (local time, no offset; see utcOffset), "
            + "in the years \(ScenarioDecoder.startYears.lowerBound)...\(ScenarioDecoder.startYears.upperBound)"
        guard let civil = ScenarioDecoder.parseLocalDateTime(try value.string()), civil.isValid else {
            throw value.invalid("\"\(try value.string())\" is not a valid local date and time", allowed: allowed)
        }
        guard ScenarioDecoder.startYears.contains(civil.year) else {
            throw value.invalid("the year \(civil.year) is out of range", allowed: allowed)
        }
        return civil
    }

    /// An instant of the run: a duration since the start ("1d14h") or a local
    /// date and time in the scenario's time zone ("2026-03-03T14:00"), which
    /// is the same instant on every device, whatever its own zone.
    func instant(_ value: ValueReader, days: Int) throws(ScenarioError) -> SimTime {
        let end = days * Seconds.day
        // Written only for a message: a script of 50,000 instants formatted
        // the run's two bounds for each one, which made validating it 1.6
        // times slower (README, "Reading large inputs").
        func allowed() -> String {
            "a duration since the start such as \"1d14h\", or a local date and time \"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM[:SS]\" in the scenario's time zone, from \(calendar.iso8601(0)) to before \(calendar.iso8601(end))"
        }
        // A date starts with a four-digit year and a dash; "-1h" is a (negative) duration.
        if case .string(let text) = value.node.value,
           text.contains("T") || (text.utf8.prefix(4).allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && text.utf8.dropFirst(4).first == UInt8(ascii: "-")) {
            guard let civil = ScenarioDecoder.parseLocalDateTime(text), civil.isValid else {
                throw value.invalid("\"\(text)\" is not a valid local date and time", allowed: allowed())
            }
            let days = CivilCalendar.daysFromCivil(year: civil.year, month: civil.month, day: civil.day)
            let local = days * Seconds.day + civil.hour * Seconds.hour + civil.minute * Seconds.minute + civil.second
            let t = local - calendar.startEpochSeconds - calendar.utcOffsetSeconds
            guard t >= 0 && t < end else { throw value.invalid("\"\(text)\" is outside the run", allowed: allowed()) }
            return t
        }
        return try value.wholeSeconds(maximum: end - 1)
    }

    /// "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM" or "YYYY-MM-DDTHH:MM:SS".
    static func parseLocalDateTime(_ text: String) -> CivilDateTime? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, let year = DecimalDigits.unsigned(date[0], width: 4),
              let month = DecimalDigits.unsigned(date[1], width: 2), let day = DecimalDigits.unsigned(date[2], width: 2) else { return nil }
        var civil = CivilDateTime(year: year, month: month, day: day)
        if parts.count == 2 {
            let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(time.count), let hour = DecimalDigits.unsigned(time[0], width: 2),
                  let minute = DecimalDigits.unsigned(time[1], width: 2) else { return nil }
            civil.hour = hour
            civil.minute = minute
            if time.count == 3 {
                guard let second = DecimalDigits.unsigned(time[2], width: 2) else { return nil }
                civil.second = second
            }
        }
        return civil
    }

    func decodeOffset(_ value: ValueReader) throws(ScenarioError) -> Int {
        let text = try value.string()
        let allowed = "\"+HH:MM\" or \"-HH:MM\" from \"-12:00\" to \"+14:00\" (\"Z\" for UTC)"
        if text == "Z" { return 0 }
        let characters = Array(text)
        guard characters.count == 6, characters[0] == "+" || characters[0] == "-", characters[3] == ":",
              let hours = DecimalDigits.unsigned(String(characters[1...2]), width: 2),
              let minutes = DecimalDigits.unsigned(String(characters[4...5]), width: 2),
              minutes < 60 else {
            throw value.invalid("\"\(text)\" is not a UTC offset", allowed: allowed)
        }
        let seconds = (characters[0] == "-" ? -1 : 1) * (hours * Seconds.hour + minutes * Seconds.minute)
        guard CivilCalendar.utcOffsets.contains(seconds) else {
            throw value.invalid("\"\(text)\" is out of range", allowed: allowed)
        }
        return seconds
    }
}
