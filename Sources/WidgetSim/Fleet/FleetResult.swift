/// A fleet scenario's outcome: one aggregate per variant, whole or partial.
public struct FleetResult: Equatable, Sendable {
    public struct Variant: Equatable, Sendable {
        public var name: String
        public var description: String
        public var aggregate: FleetAggregate
        /// The scheduler parameters the variant ran under, in the
        /// catalogue's order, as reports print them: a fleet's server load
        /// rests on them (`extraTimelineCalls` alone can triple it), so the
        /// report says which it assumed. Empty when read from a partial
        /// file written before they were recorded.
        public var scheduler: [Setting] = []
    }

    /// One scheduler parameter's name and value, as reports print it.
    public struct Setting: Equatable, Sendable {
        public var name: String
        public var value: String
    }

    public var scenario: String
    /// The directory name the unsharded run's report takes without `--out`
    /// (`Reports/<it>`): the scenario file's base name, which the `name`
    /// field need not match. Recorded in partial files so that `merge`
    /// writes where `fleet` writes; nil for a file written before it was
    /// recorded, and for a result that no command named.
    public var reportName: String?
    public var description: String
    /// Identifies the scenario file's contents, so partials of different
    /// scenarios (or edited ones) are never merged.
    public var fingerprint: UInt64
    public var seed: UInt64
    public var days: Int
    public var start: CivilDateTime
    public var utcOffsetSeconds: Int
    public var deviceCount: Int
    public var warmUpDays: Int
    /// Which shards this result covers, by index (all of them for a whole run).
    public var shards: [Int]
    public var shardCount: Int
    public var variants: [Variant]
    /// The fleet's moments (seconds from the measured start, and what
    /// happens), so that the report can show the load they cause.
    public var moments: [Moment] = []

    public struct Moment: Equatable, Sendable {
        public var at: Int
        public var label: String
    }

    /// True when every shard is present.
    public var isComplete: Bool { shards.count == shardCount && shards.elementsEqual(0..<shardCount) }

    /// Runs the base and every variant of a fleet document.
    public static func run(
        _ document: ScenarioDocument, fingerprint: UInt64, options: FleetRun.Options,
        progress: (@Sendable (_ variant: Int, _ devices: Int) -> Void)? = nil
    ) throws(RunLimitExceeded) -> FleetResult {
        let base = document.base
        var variants: [Variant] = []
        for (index, variant) in document.all.enumerated() {
            let aggregate = try FleetRun.run(variant.setup, options: options) { done in progress?(index, done) }
            let scheduler = variant.setup.scheduler.describedRows.map { Setting(name: $0.name, value: $0.value) }
            variants.append(Variant(name: variant.name, description: variant.description, aggregate: aggregate, scheduler: scheduler))
        }
        return FleetResult(
            scenario: base.name, description: base.description, fingerprint: fingerprint, seed: base.seed, days: base.days,
            start: base.start, utcOffsetSeconds: base.utcOffsetSeconds, deviceCount: base.fleet?.deviceCount ?? 0,
            warmUpDays: base.fleet?.warmUpDays ?? 0, shards: [options.shard.index], shardCount: options.shard.count, variants: variants,
            moments: momentsWithin(base))
    }

    /// The fleet's moments that fall inside its measured run: a run shortened
    /// with `--days` still draws every moment for every device (so the days
    /// it keeps match the full run's), but reports only those it reaches.
    public static func momentsWithin(_ setup: SimulationSetup) -> [Moment] {
        (setup.fleet?.moments ?? []).filter { $0.at < setup.days * Seconds.day }.map { Moment(at: $0.at, label: $0.label) }
    }

    /// Combines partial results of one scenario into one.
    public static func merge(_ parts: [FleetResult]) throws(FleetMergeError) -> FleetResult {
        guard var merged = parts.first else { throw .noPartials }
        for part in parts.dropFirst() { try merged.absorb(part) }
        try merged.requireComplete()
        return merged
    }

    /// Adds another partial result of the same run. Counters are added with
    /// overflow checks: partial files are input, and input never traps.
    public mutating func absorb(_ part: FleetResult) throws(FleetMergeError) {
        let differences = differences(from: part)
        guard differences.isEmpty else {
            throw .mismatch("partials come from different runs: \(differences.joined(separator: "; "))")
        }
        if let shared = part.shards.first(where: Set(shards).contains) {
            throw .duplicateShard(shared + 1, of: shardCount)
        }
        var sum = self
        for index in sum.variants.indices where sum.variants[index].scheduler.isEmpty {
            // Whichever file is read first, a merge with one that recorded them shows them.
            sum.variants[index].scheduler = part.variants[index].scheduler
        }
        for index in sum.variants.indices {
            guard sum.variants[index].aggregate.mergeChecked(part.variants[index].aggregate) else {
                throw .mismatch("the counters of variant '\(variants[index].name)' overflow when added: the partial results are not from a real run")
            }
        }
        sum.shards = (shards + part.shards).sorted()
        self = sum
    }

    /// What tells `part` apart from this result's run, in words, first the
    /// scenario and the options, then the file itself.
    func differences(from part: FleetResult) -> [String] {
        var found: [String] = []
        func note<Value: Equatable>(_ what: String, _ mine: Value, _ theirs: Value, _ show: (Value) -> String) {
            if mine != theirs { found.append("\(what) \(show(mine)) and \(show(theirs))") }
        }
        note("scenario", scenario, part.scenario) { "'\($0)'" }
        note("seed", seed, part.seed) { "\($0)" }
        note("days", days, part.days) { "\($0)" }
        note("devices", deviceCount, part.deviceCount) { "\($0)" }
        note("shards", shardCount, part.shardCount) { "\($0)" }
        note("warm-up days", warmUpDays, part.warmUpDays) { "\($0)" }
        note("start", start, part.start) { CivilCalendar(localStart: $0, utcOffsetSeconds: 0).iso8601(0).prefix(19).description }
        note("UTC offset", utcOffsetSeconds, part.utcOffsetSeconds) { "\($0) s" }
        note("variants", variants.map(\.name), part.variants.map(\.name)) { $0.joined(separator: ", ") }
        if moments != part.moments { found.append("the fleet's moments differ") }
        // The report prints them, so a merge that kept the first file's would
        // depend on the order of its arguments. Named, not quoted: they may be long.
        if description != part.description { found.append("the scenario's 'description' differs") }
        let otherDescriptions = variants.map(\.name) == part.variants.map(\.name) ? zip(variants, part.variants).filter { $0.description != $1.description } : []
        for (mine, _) in otherDescriptions { found.append("the 'variant-description' of variant '\(mine.name)' differs") }
        // The report prints them too; the fingerprint would catch a changed
        // --parameters file, but not an edited partial file.
        // A file written before they were recorded (none) is no difference.
        let otherSettings = variants.map(\.name) == part.variants.map(\.name)
            ? zip(variants, part.variants).filter { !$0.scheduler.isEmpty && !$1.scheduler.isEmpty && $0.scheduler != $1.scheduler } : []
        for (mine, _) in otherSettings { found.append("the scheduler settings of variant '\(mine.name)' differ") }
        if found.isEmpty && fingerprint != part.fingerprint {
            found.append("the scenario file (or the --parameters file) changed between them")
        }
        return found
    }

    /// Throws unless every shard is present.
    public func requireComplete() throws(FleetMergeError) {
        guard isComplete else {
            let covered = Set(shards)
            let missing = (0..<shardCount).lazy.filter { !covered.contains($0) }
            var names: [String] = missing.prefix(10).map { "\($0 + 1)/\(shardCount)" }
            let more = shardCount - shards.count - names.count
            if more > 0 { names.append("and \(more) more") }
            throw .missingShards(names)
        }
    }
}

/// Why partial fleet results could not be merged.
public enum FleetMergeError: Error, Equatable, Sendable, CustomStringConvertible {
    case noPartials
    case mismatch(String)
    case duplicateShard(Int, of: Int)
    case missingShards([String])
    case malformed(file: String, line: Int, reason: String)
    /// Merging the file would need more memory than a run may plan on
    /// (`RunLimits.memoryLimitBytes`), as `fleet` refuses such a run.
    case needsTooMuchMemory(file: String, line: Int, reason: String)

    /// The partial file the error is about, when it is about one file alone.
    public var file: String? {
        switch self {
        case .malformed(let file, _, _), .needsTooMuchMemory(let file, _, _): return file
        case .noPartials, .mismatch, .duplicateShard, .missingShards: return nil
        }
    }

    public var description: String {
        switch self {
        case .noPartials: return "no partial results given"
        case .mismatch(let reason): return reason
        case .duplicateShard(let shard, let count): return "shard \(shard)/\(count) is given twice"
        case .missingShards(let missing): return "missing shards: \(missing.joined(separator: ", ")); every shard of the run is needed"
        case .malformed(let file, let line, let reason): return "\(file):\(line): not a widgetsim partial result: \(reason)"
        case .needsTooMuchMemory(let file, let line, let reason): return "\(file):\(line): \(reason)"
        }
    }
}
