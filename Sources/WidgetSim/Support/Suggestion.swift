/// "Did you mean" suggestions for names typed by people.
public enum Suggestion {
    /// The closest of `candidates` to `word` by edit distance (ignoring case),
    /// if close enough to be a plausible typo; else the longest candidate
    /// the word begins with, an abbreviation written out.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        let length = lowered.count
        let plausible = max(2, word.count / 3)
        var best: (distance: Int, candidate: String)?
        for candidate in candidates {
            let other = candidate.lowercased()
            // The distance is at least the difference in length, so a
            // candidate that differs by more than a plausible typo can be
            // neither the suggestion nor tied with it: skipping it changes
            // no answer, and a megabyte-long name typed where a short one
            // belongs is not compared cell by cell with every name.
            guard abs(other.count - length) <= plausible else { continue }
            let distance = editDistance(lowered, other)
            if best == nil || distance < best!.distance { best = (distance, candidate) }
        }
        if let best, best.distance <= plausible { return best.candidate }
        // A short name written out in full ("sunday" for "sun", "thursday"
        // for "thu"): too far for a typo, but plainly meant. The longest
        // candidate of three letters or more that the word begins with.
        return candidates
            .filter { $0.count >= 3 && lowered.hasPrefix($0.lowercased()) }
            .max { $0.count < $1.count }
    }

    /// The one candidate whose last word is `word` ("medium" for
    /// "systemMedium", "inline" for "accessoryInline"): a value written by
    /// the word that tells it from the others. Nil when the word is under
    /// four letters, or no candidate or several end with it ("large":
    /// "systemLarge" and "systemExtraLarge"), or it ends one inside a word
    /// ("rate" in "calibrate"). For a closed set of values only: among
    /// field or option names the last word names the wrong one too often
    /// ("budget" for "pushBudget", when a daily budget was meant).
    public static func wholeName(endingWith word: String, among candidates: [String]) -> String? {
        guard word.count >= 4 else { return nil }
        let lowered = word.lowercased()
        let ending = candidates.filter { candidate in
            guard candidate.count > word.count, candidate.lowercased().hasSuffix(lowered) else { return false }
            // The word starts a word of the candidate: after a separator,
            // or at a capital (camel case).
            let start = candidate.index(candidate.endIndex, offsetBy: -word.count)
            let before = candidate[candidate.index(before: start)]
            return "-_. ".contains(before) || candidate[start].isUppercase
        }
        return ending.count == 1 ? ending[0] : nil
    }

    /// How a hint is written in a message.
    public enum Style: Sendable {
        /// ` (did you mean "atEnd"?)`, inside a sentence about a value.
        case parenthesized
        /// `; did you mean 'weather'?`, after a clause, as the command line writes it.
        case clause
    }

    /// The "did you mean" text for `word`, or "" when no candidate is close
    /// enough. Every message that suggests a name builds its hint here, so
    /// they all read alike.
    /// - Parameters:
    ///   - word: what the person typed.
    ///   - candidates: the names that were allowed.
    ///   - style: how the hint reads in its message.
    ///   - quote: the quotation mark around the suggestion.
    ///   - prefix: written before the suggestion (`--` for an option).
    public static func hint(
        for word: String, among candidates: [String], style: Style, quote: String = "\"", prefix: String = ""
    ) -> String {
        guard let match = nearest(to: word, among: candidates) else { return "" }
        return hint(suggesting: match, style: style, quote: quote, prefix: prefix)
    }

    /// The "did you mean" text for a suggestion already found.
    public static func hint(suggesting match: String, style: Style, quote: String = "\"", prefix: String = "") -> String {
        let named = quote + prefix + match + quote
        switch style {
        case .parenthesized: return " (did you mean \(named)?)"
        case .clause: return "; did you mean \(named)?"
        }
    }

    /// Levenshtein distance between two strings, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

