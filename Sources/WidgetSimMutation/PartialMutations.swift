import WidgetSim

/// Structured edits of a fleet partial file (`widgetsim fleet --partial`):
/// every number at its limits (counts, the shards line, the start, the
/// sparse `index:count` pairs), lines missing, repeated or out of place.
struct PartialMutations {
    let scale: MutationScale

    enum Operation {
        case number, shards, sparsePair, counters, deleteLine, duplicateLine, strayLine, swapLines, variantText
    }

    static let operations: [(weight: Int, value: Operation)] = [
        (30, .number), (10, .shards), (12, .sparsePair), (6, .counters), (6, .deleteLine), (5, .duplicateLine),
        (5, .strayLine), (4, .swapLines), (4, .variantText),
    ]

    static let shardsLines = [
        "shards 9223372036854775807 0", "shards 2 0,0", "shards 2 1,0", "shards 0 0", "shards 1 0", "shards 2 ", "shards 100000 0",
        "shards -1 0", "shards 2 0,1", "shards 9223372036854775807 9223372036854775806", "shards 2 0,,1", "shards 100000000 0",
        "shards 3000000000 0", "shards 2 0 1", "shards 2 -0", "shards 2 0,9223372036854775807",
    ]

    /// `lines` is the file split at newlines; one edit, described with `file`.
    func mutate(_ lines: inout [String], file: String, random: inout RandomStream) -> MutationEdit {
        apply(random.weighted(Self.operations), to: &lines, file: file, random: &random)
    }

    func apply(_ operation: Operation, to lines: inout [String], file: String, random: inout RandomStream) -> MutationEdit {
        guard !lines.isEmpty else {
            lines = [random.pick(MutationValues.strayLines)]
            return MutationEdit("strayLine", "\(file): an empty file given one stray line")
        }
        func line(startingWith prefix: String) -> Int? { lines.firstIndex { $0.hasPrefix(prefix) } }
        switch operation {
        case .number:
            let candidates = lines.indices.filter { !Self.numberRanges(in: lines[$0]).isEmpty }
            guard !candidates.isEmpty else { return apply(.strayLine, to: &lines, file: file, random: &random) }
            let index = random.pick(candidates)
            let ranges = Self.numberRanges(in: lines[index])
            let range = random.pick(ranges)
            let value = random.nextBool(probability: 0.3) ? random.pick(MutationValues.nearIntMax) : random.pick(MutationValues.cellNumbers)
            var scalars = Array(lines[index].unicodeScalars)
            let old = String(String.UnicodeScalarView(scalars[range]))
            scalars.replaceSubrange(range, with: value.unicodeScalars)
            lines[index] = String(String.UnicodeScalarView(scalars))
            return MutationEdit("number", "\(file):\(index + 1) '\(Self.key(of: lines[index]))' number \(old) -> \(ScenarioMutations.quoted(value))")
        case .shards:
            let shardsLine = random.pick(Self.shardsLines)
            if let index = line(startingWith: "shards") { lines[index] = shardsLine } else { lines.insert(shardsLine, at: min(9, lines.count)) }
            return MutationEdit("shards", "\(file): '\(shardsLine)'")
        case .sparsePair:
            let sparse = lines.indices.filter {
                lines[$0].hasPrefix("requests-per-minute") || lines[$0].hasPrefix("reloads-per-device-day") || lines[$0].hasPrefix("staleness")
            }
            guard !sparse.isEmpty else { return apply(.number, to: &lines, file: file, random: &random) }
            let index = random.pick(sparse)
            let pair = random.pick([
                "9223372036854775807:1", "0:9223372036854775807", "-1:1", "1:-1", "1", ":", "1:2:3", "99999999999999999999:1",
                "1439:1", "1440:1", "527039:1", "527040:1", "0:5 0:6", "0:1\t1:1", "4611686018427387904:4611686018427387904",
                "1:" + MutationValues.thousandDigits,
            ])
            lines[index] += " " + pair
            return MutationEdit("sparsePair", "\(file):\(index + 1) '\(Self.key(of: lines[index]))' gets '\(pair)'")
        case .counters:
            guard let index = line(startingWith: "counts") else { return apply(.number, to: &lines, file: file, random: &random) }
            let value = random.pick(MutationValues.nearIntMax)
            let fields = lines[index].split(separator: " ").count - 1
            let which = random.nextInt(below: max(1, fields))
            let all = random.nextBool(probability: 0.5)
            var parts = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            for field in 1..<max(2, parts.count) where all || field == which + 1 {
                if field < parts.count { parts[field] = value }
            }
            lines[index] = parts.joined(separator: " ")
            return MutationEdit("counters", "\(file):\(index + 1) \(all ? "every count" : "count \(which + 1)") -> \(value)")
        case .deleteLine:
            let index = random.nextInt(below: lines.count)
            let removed = lines.remove(at: index)
            return MutationEdit("deleteLine", "\(file):\(index + 1) '\(Self.key(of: removed))' removed")
        case .duplicateLine:
            let index = random.nextInt(below: lines.count)
            lines.insert(lines[index], at: random.nextBool(probability: 0.7) ? index : random.nextInt(below: lines.count + 1))
            return MutationEdit("duplicateLine", "\(file):\(index + 1) '\(Self.key(of: lines[index]))' repeated")
        case .strayLine:
            let index = random.nextInt(below: lines.count + 1)
            let stray = random.pick(MutationValues.strayLines)
            lines.insert(stray, at: index)
            return MutationEdit("strayLine", "\(file):\(index + 1) '\(stray)' inserted")
        case .swapLines:
            let (first, second) = (random.nextInt(below: lines.count), random.nextInt(below: lines.count))
            lines.swapAt(first, second)
            return MutationEdit("swapLines", "\(file): lines \(first + 1) and \(second + 1) swapped")
        case .variantText:
            let candidates = lines.indices.filter { lines[$0].hasPrefix("variant") || lines[$0].hasPrefix("description") || lines[$0].hasPrefix("scenario") }
            guard !candidates.isEmpty else { return apply(.strayLine, to: &lines, file: file, random: &random) }
            let index = random.pick(candidates)
            let key = Self.key(of: lines[index])
            let text = random.pick([
                "", "\\", "\\u12", "\\uD800", "\"", "\\\"", "é😀", "\u{0}", String(repeating: "x", count: scale.longStringBytes), "\\n\\t",
                MutationValues.thousandDigits,
            ])
            lines[index] = key + " " + text
            return MutationEdit("variantText", "\(file):\(index + 1) '\(key)' -> \(ScenarioMutations.quoted(text))")
        }
    }

    /// The rare edit that makes a sparse line hundreds of thousands of pairs long.
    func mutateExpensively(_ lines: inout [String], file: String, random: inout RandomStream) -> MutationEdit {
        let sparse = lines.indices.filter { lines[$0].hasPrefix("requests-per-minute") || lines[$0].hasPrefix("staleness") }
        let index = sparse.isEmpty ? lines.count : random.pick(sparse)
        let key = index < lines.count ? Self.key(of: lines[index]) : "requests-per-minute"
        let spread = random.pick([1_440, 10_000_000, Int.max])
        var text = key
        text.reserveCapacity(scale.hugeSparsePairs * 12)
        for pair in 0..<scale.hugeSparsePairs {
            text += " \(Int(truncatingIfNeeded: random.next() % UInt64(spread))):\(pair % 7 + 1)"
        }
        if index < lines.count { lines[index] = text } else { lines.append(text) }
        return MutationEdit("hugeSparse", "\(file): '\(key)' with \(scale.hugeSparsePairs) pairs, indices below \(spread)", expensive: true)
    }

    /// The ranges of digit runs (with a leading minus) in `line`, in scalars.
    static func numberRanges(in line: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        let scalars = Array(line.unicodeScalars)
        for (offset, scalar) in scalars.enumerated() {
            let isDigit = scalar >= "0" && scalar <= "9"
            if isDigit && start == nil { start = offset > 0 && scalars[offset - 1] == "-" ? offset - 1 : offset }
            if !isDigit, let begin = start {
                ranges.append(begin..<offset)
                start = nil
            }
        }
        if let begin = start { ranges.append(begin..<scalars.count) }
        // Numbers inside the free text of a description are not fields.
        return Self.key(of: line).hasPrefix("description") || Self.key(of: line).hasPrefix("variant-description") ? [] : ranges
    }

    static func key(of line: String) -> String {
        String(line.prefix { $0 != " " }.prefix(40))
    }
}
