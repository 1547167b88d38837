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
        ]
        if let reportName = result.reportName { lines.append("report \(JSONText.escaped(reportName))") }
        lines += [
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
        // Zero or more: files of fleets without moments read as before.
        for moment in result.moments { lines.append("moment \(moment.at) \(JSONText.escaped(moment.label))") }
        for variant in result.variants {
            let a = variant.aggregate
            lines.append("variant \(variant.name)")
            lines.append("variant-description \(JSONText.escaped(variant.description))")
            // Zero or more: files written before they were recorded read as before.
            for setting in variant.scheduler { lines.append("setting \(setting.name) \(JSONText.escaped(setting.value))") }
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

    /// The most shards a run may be split into (as `fleet --shard i/n` allows).
    public static let maximumShards = 100_000
    /// The largest partial file `merge` reads: a year's per-minute counts of
    /// a base and 64 variants take about 400 MiB (what it needs in memory is
    /// checked as it is read).
    public static let maximumFileBytes = 1 << 30

    /// The most variant blocks a partial file may hold: a scenario's base
    /// and the variants it may declare.
    public static let maximumVariants = ScenarioLimits.maximumVariants + 1

    /// Reads a partial result. Every number is range-checked where it is
    /// read (days as a scenario allows them, a valid start date, an offset
    /// from -12:00 to +14:00, counts ≥ 0), so nothing read can make the merge
    /// trap or allocate without bound: no more variants than a scenario may
    /// have, and before each variant's counters are allocated, the memory
    /// the merge will need (this file's variants held three times, as the
    /// merged result, its copy while adding, and the file being read, and
    /// the file's text) is compared
    /// with `memoryLimit`, the limit a fleet run is held to.
    public static func parse(_ text: String, file: String, memoryLimit: Int = RunLimits.memoryLimitBytes) throws(FleetMergeError) -> FleetResult {
        var reader = LineReader(lines: text.split(separator: "\n", omittingEmptySubsequences: false), file: file)
        guard try reader.next() == magic else { throw reader.error("missing the header line '\(magic)'") }
        let scenario = try reader.value("scenario")
        // Names become a directory and column names: only identifiers, as in a scenario file.
        guard ValueReader.isIdentifier(scenario) else { throw reader.error("the scenario name is not an identifier (1 to 100 ASCII letters, digits, '.', '_' and '-', not dots alone)") }
        // Optional: files written before it was recorded read as before.
        var reportName: String?
        if reader.index < reader.lines.count, reader.lines[reader.index].hasPrefix("report ") {
            let name = try reader.text("report")
            // It becomes a directory under Reports/: one plain name, never a
            // path. Any other is read as none, so that merge asks for --out
            // rather than refusing shards that took hours.
            reportName = isReportName(name) ? name : nil
        }
        let fingerprint = try reader.number("fingerprint", UInt64.self)
        let seed = try reader.number("seed", UInt64.self)
        let days = try reader.whole("days", in: 1...ScenarioLimits.maximumDays)
        let startFields = try reader.value("start").split(separator: " ", omittingEmptySubsequences: false).map { DecimalDigits.unsigned($0) }
        guard startFields.count == 6, let year = startFields[0], let month = startFields[1], let day = startFields[2],
              let hour = startFields[3], let minute = startFields[4], let second = startFields[5] else {
            throw reader.error("'start' is not six whole numbers: year month day hour minute second")
        }
        let start = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard start.isValid, ScenarioDecoder.startYears.contains(year) else {
            throw reader.error("'start' is not a valid date and time in the years \(ScenarioDecoder.startYears.lowerBound)...\(ScenarioDecoder.startYears.upperBound)")
        }
        let offset = try reader.whole("utc-offset", in: CivilCalendar.utcOffsets)
        let devices = try reader.whole("devices", in: 1...FleetSetup.maximumDevices)
        let warmUpDays = try reader.whole("warm-up-days", in: 0...30)
        let shardFields = try reader.value("shards").split(separator: " ", omittingEmptySubsequences: false)
        guard shardFields.count == 2, let shardCount = DecimalDigits.unsigned(shardFields[0]), (1...maximumShards).contains(shardCount) else {
            throw reader.error("bad shards line: expected the shard count (1...\(maximumShards)) and the shards it covers")
        }
        let shardTexts = shardFields[1].split(separator: ",", omittingEmptySubsequences: false)
        guard shardTexts.count <= shardCount else { throw reader.error("bad shard list: more shards than the run has") }
        var shards: [Int] = []
        for text in shardTexts {
            guard let shard = DecimalDigits.unsigned(text), shard < shardCount, shards.last.map({ $0 < shard }) ?? true else {
                throw reader.error("bad shard list: expected increasing shard indices from 0 to \(shardCount - 1)")
            }
            shards.append(shard)
        }
        guard !shards.isEmpty else { throw reader.error("bad shard list: it is empty") }
        // Shard i of n holds the devices whose index leaves remainder i, so
        // the shards named fix how many devices every variant counted: an
        // edited shards line cannot pass a part of the fleet off as more.
        let shardDevices = shards.reduce(0) { $0 + devices / shardCount + ($1 < devices % shardCount ? 1 : 0) }
        let shardNames = shards.count <= 10
            ? "shard\(shards.count == 1 ? "" : "s") " + shards.map { "\($0 + 1)/\(shardCount)" }.joined(separator: ", ")
            : "\(shards.count) shards of \(shardCount)"
        let description = try reader.text("description")
        var moments: [FleetResult.Moment] = []
        var variants: [FleetResult.Variant] = []
        while true {
            let line = try reader.next()
            if line == "end" { break }
            if line.hasPrefix("moment "), variants.isEmpty {
                moments.append(try reader.moment(line, days: days))
                continue
            }
            guard line.hasPrefix("variant ") else { throw reader.error("expected 'variant <name>' or 'end'") }
            let name = String(line.dropFirst(8))
            guard ValueReader.isIdentifier(name) else { throw reader.error("the variant name is not an identifier (1 to 100 ASCII letters, digits, '.', '_' and '-', not dots alone)") }
            guard variants.count < maximumVariants else {
                throw reader.error("more than \(maximumVariants) variants, the most a fleet run has (its base and at most \(ScenarioLimits.maximumVariants) variants, as a scenario may declare)")
            }
            let needed = FleetAggregate.plannedBytes(
                days: days, variants: variants.count + 1, inFlight: 2 * (variants.count + 1), readingBytes: text.utf8.count)
            guard needed <= memoryLimit else {
                throw .needsTooMuchMemory(file: file, line: reader.index, reason: "merging \(variants.count + 1) variants × \(DisplayText.counted(days, "day")) would need about \(RunLimits.gib(Double(needed))) GiB of memory; the limit on this machine is \(RunLimits.gib(Double(memoryLimit))) GiB (half the memory it may use, at most 8 GiB), as for 'widgetsim fleet'")
            }
            guard !variants.contains(where: { $0.name == name }) else { throw reader.error("variant '\(name)' is given twice") }
            let variantDescription = try reader.text("variant-description")
            // Every parameter once, in the catalogue's order, as `render`
            // writes them: the report compares variants parameter by parameter.
            var scheduler: [FleetResult.Setting] = []
            let catalogue = SchedulerParameters.catalogue
            while reader.index < reader.lines.count, reader.lines[reader.index].hasPrefix("setting ") {
                let setting = try reader.setting(try reader.next())
                guard scheduler.count < catalogue.count, setting.name == catalogue[scheduler.count].name else {
                    throw reader.error("bad setting line: expected the scheduler parameters once each, in order (\(scheduler.count < catalogue.count ? "'\(catalogue[scheduler.count].name)' here" : "no more"))")
                }
                scheduler.append(setting)
            }
            guard scheduler.isEmpty || scheduler.count == catalogue.count else {
                throw reader.error("bad setting lines: \(scheduler.count) of the \(catalogue.count) scheduler parameters")
            }
            let counts = try reader.value("counts").split(separator: " ", omittingEmptySubsequences: false).map { DecimalDigits.unsigned($0) }
            guard counts.count == 10, counts.allSatisfy({ $0 != nil }) else {
                throw reader.error("bad counts line: expected 10 whole numbers ≥ 0")
            }
            let c = counts.map { $0! }
            guard c[0] == shardDevices else {
                throw reader.error("variant '\(name)' counts \(DisplayText.counted(c[0], "device")), but \(shardNames) of a fleet of \(DisplayText.counted(devices, "device")) hold\(shards.count == 1 ? "s" : "") \(shardDevices)")
            }
            var aggregate = FleetAggregate(days: days)
            (aggregate.devices, aggregate.widgetDays, aggregate.events) = (c[0], c[1], c[2])
            (aggregate.counts.budgetedReloads, aggregate.counts.freeReloads) = (c[3], c[4])
            (aggregate.counts.withheldRequests, aggregate.counts.timeouts) = (c[5], c[6])
            (aggregate.counts.views, aggregate.counts.staleViews, aggregate.counts.stalenessTotal) = (c[7], c[8], c[9])
            aggregate.requestsPerMinute = try reader.sparse("requests-per-minute", length: aggregate.requestsPerMinute.count)
            aggregate.reloadsPerDeviceDay = try reader.sparse("reloads-per-device-day", length: aggregate.reloadsPerDeviceDay.count)
            aggregate.stalenessHistogram = try reader.sparse("staleness", length: aggregate.stalenessHistogram.count)
            guard aggregate.totalsFit else {
                throw reader.error("the counters of variant '\(name)' add up to more than any run can (\(FleetAggregate.maximumTotal))")
            }
            // A stale view is a view, and only stale views add staleness: a
            // file that says otherwise was edited or damaged, and would make
            // the report print shares over 100 %.
            guard aggregate.counts.staleViews <= aggregate.counts.views, aggregate.counts.staleViews > 0 || aggregate.counts.stalenessTotal == 0 else {
                throw reader.error("the counts of variant '\(name)' contradict each other: \(aggregate.counts.staleViews) stale views of \(aggregate.counts.views) views, \(aggregate.counts.stalenessTotal) seconds of staleness")
            }
            variants.append(FleetResult.Variant(name: name, description: variantDescription, aggregate: aggregate, scheduler: scheduler))
        }
        guard !variants.isEmpty else { throw reader.error("no variant before 'end'") }
        // Nothing follows 'end' but the final line break: more is a damaged or concatenated file.
        while reader.index < reader.lines.count {
            guard try reader.next().isEmpty else { throw reader.error("text after 'end'") }
        }
        return FleetResult(
            scenario: scenario, reportName: reportName, description: description, fingerprint: fingerprint, seed: seed, days: days, start: start,
            utcOffsetSeconds: offset, deviceCount: devices, warmUpDays: warmUpDays, shards: shards, shardCount: shardCount, variants: variants,
            moments: moments)
    }

    /// A name that `Reports/<name>` keeps inside Reports: what a scenario
    /// file's base name can be, and short enough for the temporary names
    /// written beside a report directory.
    public static func isReportName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 200 && name != "." && name != ".."
            && !name.unicodeScalars.contains { $0 == "/" || $0.properties.generalCategory == .control }
    }

    private struct LineReader {
        let lines: [Substring]
        let file: String
        var index = 0

        func error(_ reason: String) -> FleetMergeError { .malformed(file: file, line: index, reason: reason) }

        mutating func next() throws(FleetMergeError) -> String {
            guard index < lines.count else { throw error("unexpected end of file") }
            index += 1
            return String(lines[index - 1])
        }

        mutating func value(_ key: String) throws(FleetMergeError) -> String {
            let line = try next()
            guard line.hasPrefix(key + " ") || line == key else { throw error("expected '\(key) ...'") }
            return String(line.dropFirst(min(line.count, key.count + 1)))
        }

        /// "moment <seconds> <label with JSON string escapes>".
        func moment(_ line: String, days: Int) throws(FleetMergeError) -> FleetResult.Moment {
            let fields = line.dropFirst(7).split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, let at = DecimalDigits.signed(fields[0], in: 0...days * Seconds.day - 1),
                  case .string(let label)? = try? JSONParser.parse("\"" + fields[1] + "\"").value else {
                throw error("bad moment line: expected 'moment <seconds within the run> <label>'")
            }
            return FleetResult.Moment(at: at, label: label)
        }

        /// "setting <parameter> <value with JSON string escapes>"; which
        /// parameter it must name is the caller's check.
        func setting(_ line: String) throws(FleetMergeError) -> FleetResult.Setting {
            let fields = line.dropFirst(8).split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, case .string(let value)? = try? JSONParser.parse("\"" + fields[1] + "\"").value else {
                throw error("bad setting line: expected 'setting <scheduler parameter> <value>'")
            }
            return FleetResult.Setting(name: String(fields[0]), value: value)
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
            let text = try value(key)
            guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Number(text) else {
                throw error("'\(key)' is not a whole number from 0 to \(Number.max)")
            }
            return number
        }

        mutating func whole(_ key: String, in range: ClosedRange<Int>) throws(FleetMergeError) -> Int {
            let text = try value(key)
            guard let number = DecimalDigits.signed(text, in: range) else {
                throw error("'\(key)' is '\(text)'; allowed: whole numbers \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }

        mutating func sparse(_ key: String, length: Int) throws(FleetMergeError) -> [Int] {
            var values = Array(repeating: 0, count: length)
            var previous = -1
            for pair in try value(key).split(separator: " ") {
                let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, let position = DecimalDigits.unsigned(parts[0]), let count = DecimalDigits.unsigned(parts[1]),
                      position > previous, position < length else {
                    throw error("bad entry '\(pair)' in '\(key)': expected index:count, indices increasing from 0 to \(length - 1)")
                }
                values[position] = count
                previous = position
            }
            return values
        }
    }
}
