/// The text form of a (partial) fleet result, written by `widgetsim fleet
/// --shard i/n --partial <file>` and read by `widgetsim merge`.
///
/// One `key value` per line; histograms and the per-minute load are sparse
/// lists of `index:count`. The format is versioned by its first line.
public enum FleetPartialFile {
    static let magic = "widgetsim-fleet-partial 1"

    public static func render(_ result: FleetResult) -> String {
        var lines = [
            magic,
            "scenario \(result.scenario)",
            "fingerprint \(result.fingerprint)",
            "seed \(result.seed)",
            "days \(result.days)",
            "start \(result.start.year) \(result.start.month) \(result.start.day) \(result.start.hour) \(result.start.minute) \(result.start.second)",
            "utc-offset \(result.utcOffsetSeconds)",
            "devices \(result.deviceCount)",
            "warm-up-days \(result.warmUpDays)",
            "shards \(result.shardCount) " + result.shards.map(String.init).joined(separator: ","),
            "description \(JSONText.escaped(result.description))",
        ]
        for variant in result.variants {
            let a = variant.aggregate
            lines.append("variant \(variant.name)")
            lines.append("variant-description \(JSONText.escaped(variant.description))")
            let c = a.counts
            lines.append("counts \(a.devices) \(a.widgetDays) \(a.events) \(c.budgetedReloads) \(c.freeReloads) \(c.withheldRequests) \(c.timeouts) \(c.views) \(c.staleViews) \(c.stalenessTotal)")
            lines.append("requests-per-minute " + sparse(a.requestsPerMinute))
            lines.append("reloads-per-device-day " + sparse(a.reloadsPerDeviceDay))
            lines.append("staleness " + sparse(a.stalenessHistogram))
        }
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    static func sparse(_ values: [Int]) -> String {
        values.enumerated().filter { $0.element != 0 }.map { "\($0.offset):\($0.element)" }.joined(separator: " ")
    }

    public static func parse(_ text: String, file: String) throws(FleetMergeError) -> FleetResult {
        var reader = LineReader(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), file: file)
        guard try reader.next() == magic else { throw reader.error("missing the header line '\(magic)'") }
        let scenario = try reader.value("scenario")
        let fingerprint = try reader.number("fingerprint", UInt64.self)
        let seed = try reader.number("seed", UInt64.self)
        let days = try reader.number("days", Int.self)
        let startFields = try reader.value("start").split(separator: " ").compactMap { Int($0) }
        guard startFields.count == 6, days >= 1, days <= ScenarioLimits.maximumDays else { throw reader.error("bad start or days") }
        let start = CivilDateTime(year: startFields[0], month: startFields[1], day: startFields[2], hour: startFields[3], minute: startFields[4], second: startFields[5])
        let offset = try reader.number("utc-offset", Int.self)
        let devices = try reader.number("devices", Int.self)
        let warmUpDays = try reader.number("warm-up-days", Int.self)
        let shardFields = try reader.value("shards").split(separator: " ")
        guard shardFields.count == 2, let shardCount = Int(shardFields[0]), shardCount >= 1 else { throw reader.error("bad shards line") }
        let shards = shardFields[1].split(separator: ",").compactMap { Int($0) }
        guard !shards.isEmpty, shards.allSatisfy({ $0 >= 0 && $0 < shardCount }) else { throw reader.error("bad shard list") }
        let description = try reader.text("description")
        var variants: [FleetResult.Variant] = []
        while true {
            let line = try reader.next()
            if line == "end" { break }
            guard line.hasPrefix("variant ") else { throw reader.error("expected 'variant <name>' or 'end'") }
            let name = String(line.dropFirst(8))
            let variantDescription = try reader.text("variant-description")
            let counts = try reader.value("counts").split(separator: " ").compactMap { Int($0) }
            guard counts.count == 10, counts.allSatisfy({ $0 >= 0 }) else { throw reader.error("bad counts line") }
            var aggregate = FleetAggregate(days: days)
            (aggregate.devices, aggregate.widgetDays, aggregate.events) = (counts[0], counts[1], counts[2])
            (aggregate.counts.budgetedReloads, aggregate.counts.freeReloads) = (counts[3], counts[4])
            (aggregate.counts.withheldRequests, aggregate.counts.timeouts) = (counts[5], counts[6])
            (aggregate.counts.views, aggregate.counts.staleViews, aggregate.counts.stalenessTotal) = (counts[7], counts[8], counts[9])
            aggregate.requestsPerMinute = try reader.sparse("requests-per-minute", length: aggregate.requestsPerMinute.count)
            aggregate.reloadsPerDeviceDay = try reader.sparse("reloads-per-device-day", length: aggregate.reloadsPerDeviceDay.count)
            aggregate.stalenessHistogram = try reader.sparse("staleness", length: aggregate.stalenessHistogram.count)
            variants.append(FleetResult.Variant(name: name, description: variantDescription, aggregate: aggregate))
        }
        return FleetResult(
            scenario: scenario, description: description, fingerprint: fingerprint, seed: seed, days: days, start: start,
            utcOffsetSeconds: offset, deviceCount: devices, warmUpDays: warmUpDays, shards: shards, shardCount: shardCount, variants: variants)
    }

    private struct LineReader {
        let lines: [String]
        let file: String
        var index = 0

        func error(_ reason: String) -> FleetMergeError { .malformed(file: file, line: index, reason: reason) }

        mutating func next() throws(FleetMergeError) -> String {
            guard index < lines.count else { throw error("unexpected end of file") }
            index += 1
            return lines[index - 1]
        }

        mutating func value(_ key: String) throws(FleetMergeError) -> String {
            let line = try next()
            guard line.hasPrefix(key + " ") || line == key else { throw error("expected '\(key) ...'") }
            return String(line.dropFirst(min(line.count, key.count + 1)))
        }

        /// A value written with JSON string escapes.
        mutating func text(_ key: String) throws(FleetMergeError) -> String {
            let escaped = try value(key)
            guard case .string(let text)? = try? JSONParser.parse("\"" + escaped + "\"").value else {
                throw error("bad text in '\(key)'")
            }
            return text
        }

        mutating func number<Number: FixedWidthInteger>(_ key: String, _ type: Number.Type) throws(FleetMergeError) -> Number {
            guard let number = Number(try value(key)) else { throw error("'\(key)' is not a whole number") }
            return number
        }

        mutating func sparse(_ key: String, length: Int) throws(FleetMergeError) -> [Int] {
            var values = Array(repeating: 0, count: length)
            for pair in try value(key).split(separator: " ") {
                let parts = pair.split(separator: ":")
                guard parts.count == 2, let position = Int(parts[0]), let count = Int(parts[1]),
                      position >= 0, position < length, count >= 0 else {
                    throw error("bad entry '\(pair)' in '\(key)'")
                }
                values[position] = count
            }
            return values
        }
    }
}
