/// Durations written as text: "90s", "15m", "1h30m", "2d", "0.5s".
public enum DurationText {
    /// Seconds, or nil if the text is not a duration.
    public static func parse(_ text: String) -> Double? {
        var total = 0.0
        var number = ""
        var sawUnit = false
        // Each unit once, largest first ("1h30m", not "30m1h" or "1h1h",
        // which read as a slip rather than 2h): the last unit's size.
        var previousUnit = Double.infinity
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "d": unit = Double(Seconds.day)
            case "h": unit = Double(Seconds.hour)
            case "m": unit = Double(Seconds.minute)
            case "s": unit = 1
            default: return nil
            }
            guard unit < previousUnit else { return nil }
            previousUnit = unit
            // Plain decimal digits only: `Double` alone would also read "5."
            // and ".5", which no report or help text writes.
            guard let value = DecimalDigits.unsignedDecimal(number) else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard sawUnit, number.isEmpty else { return nil }
        return total
    }

    /// True when `text` would be a duration but for its units' order: a
    /// number before each unit, with one unit repeated or a smaller before
    /// a larger ("30m1h", "1h1h"), which `parse` refuses as a likely slip;
    /// for the message that says why.
    public static func hasUnitsOutOfOrder(_ text: String) -> Bool {
        let order: [Character] = ["d", "h", "m", "s"]
        var ranks: [Int] = []
        var number = ""
        for character in text {
            guard let rank = order.firstIndex(of: character) else {
                number.append(character)
                continue
            }
            guard DecimalDigits.unsignedDecimal(number) != nil else { return false }
            ranks.append(rank)
            number = ""
        }
        guard number.isEmpty else { return false }
        return zip(ranks, ranks.dropFirst()).contains { $0 >= $1 }
    }

    /// The first run of letters in `text` that is not one of the units
    /// d, h, m and s ("ms" in "500ms", "min" in "5min"), if any: what to name
    /// when `parse` refuses a duration written with a unit it does not know.
    public static func unknownUnit(in text: String) -> String? {
        var letters = ""
        var runFollowsNumber = false
        var previous: Character = " "
        for character in text + " " {
            // "5 min" names its unit after a space.
            defer { if character != " " { previous = character } }
            if character.isLetter {
                if letters.isEmpty { runFollowsNumber = previous.isNumber || previous == "." }
                letters.append(character)
                continue
            }
            // Only letters after a number are a unit; "soon" is not a duration at all.
            if runFollowsNumber && !letters.isEmpty && !["d", "h", "m", "s"].contains(letters) { return letters }
            letters = ""
        }
        return nil
    }

    /// A short human form: "90s", "15m", "1h30m", "2d", "2h0m51s".
    ///
    /// Units run from the largest to the smallest that is not zero, with
    /// none skipped between: "2h51s" for 2 h 0 min 51 s read as 2 h 51 min
    /// in a column beside "2h2m58s", so it is written "2h0m51s".
    public static func format(_ seconds: Double) -> String {
        // A fraction is written in plain digits, never with an exponent
        // ("1e-05s"), which `parse` would not read back.
        guard seconds == seconds.rounded(), seconds >= 0, seconds < 1e12 else { return "\(decimal(seconds))s" }
        let whole = Int(seconds)
        if whole == 0 { return "0s" }
        let parts = [
            (whole / Seconds.day, "d"), (whole % Seconds.day / Seconds.hour, "h"),
            (whole % Seconds.hour / Seconds.minute, "m"), (whole % Seconds.minute, "s"),
        ]
        let first = parts.firstIndex { $0.0 > 0 }!
        let last = parts.lastIndex { $0.0 > 0 }!
        return parts[first...last].map { "\($0.0)\($0.1)" }.joined()
    }

    /// A second of the day as a scenario writes a clock time: "07:30", or
    /// "07:30:15" when it has seconds (schedule windows, fleet ranges).
    public static func clock(_ secondOfDay: Int) -> String {
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let text = "\(two(secondOfDay / Seconds.hour)):\(two(secondOfDay / Seconds.minute % 60))"
        return secondOfDay % 60 == 0 ? text : text + ":\(two(secondOfDay % 60))"
    }

    /// How long a log spans: "6.9 days" from a day on, its duration
    /// ("1h12m") under a day, where "0.0 days" would say nothing.
    public static func span(_ seconds: Int) -> String {
        seconds < Seconds.day
            ? format(Double(max(0, seconds)))
            : FixedDecimal.format(Double(seconds) / Double(Seconds.day), decimals: 1) + " days"
    }

    /// A finite number in plain decimal digits, without an exponent or a
    /// trailing ".0", with the fewest digits that read back as the same
    /// double: 0.00001 is "0.00001", where Swift writes "1e-05".
    public static func decimal(_ value: Double) -> String {
        let shortest = plain(value)
        guard value.isFinite, let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(shortest[shortest.index(after: e)...]) else { return shortest }
        let mantissa = shortest[..<e]
        let negative = mantissa.hasPrefix("-")
        let unsigned = negative ? mantissa.dropFirst() : mantissa
        let digits = unsigned.filter { $0 != "." }
        // Where the point falls in `digits`: after the mantissa's whole part, moved by the exponent.
        let point = (unsigned.firstIndex(of: ".").map { unsigned.distance(from: unsigned.startIndex, to: $0) } ?? unsigned.count) + exponent
        var text: String
        if point <= 0 {
            text = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            text = digits + String(repeating: "0", count: point - digits.count)
        } else {
            text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
        }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return (negative ? "-" : "") + text
    }

    /// A number without a trailing ".0".
    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
