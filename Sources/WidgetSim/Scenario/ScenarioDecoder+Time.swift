// The scenario's start and UTC offsets.

extension ScenarioDecoder {
    func decodeStart(_ value: ValueReader) throws(ScenarioError) -> CivilDateTime {
        guard let civil = ScenarioDecoder.parseLocalDateTime(try value.string()), civil.isValid else {
            throw value.invalid("\"\(try value.string())\" is not a valid local date and time",
                                allowed: "\"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM[:SS]\" (local time, no offset; see utcOffset)")
        }
        return civil
    }

    /// "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM" or "YYYY-MM-DDTHH:MM:SS".
    static func parseLocalDateTime(_ text: String) -> CivilDateTime? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
              let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]) else { return nil }
        var civil = CivilDateTime(year: year, month: month, day: day)
        if parts.count == 2 {
            let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(time.count), time.allSatisfy({ $0.count == 2 }),
                  let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
            civil.hour = hour
            civil.minute = minute
            if time.count == 3 {
                guard let second = Int(time[2]) else { return nil }
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
              let hours = Int(String(characters[1...2])), let minutes = Int(String(characters[4...5])),
              minutes < 60 else {
            throw value.invalid("\"\(text)\" is not a UTC offset", allowed: allowed)
        }
        let seconds = (characters[0] == "-" ? -1 : 1) * (hours * Seconds.hour + minutes * Seconds.minute)
        guard seconds >= -12 * Seconds.hour && seconds <= 14 * Seconds.hour else {
            throw value.invalid("\"\(text)\" is out of range", allowed: allowed)
        }
        return seconds
    }
}
