import WidgetSim

/// Makes mutant number `index` from the corpus and the master seed.
///
/// Promised: `mutant(n)` depends only on the corpus, the master seed, the
/// scale and `n`, never on which mutants were made before or on which
/// thread, so any one of a sweep can be made again alone.
public struct Mutator: Sendable {
    public let corpus: MutationCorpus
    public let masterSeed: UInt64
    public let scale: MutationScale

    /// The master seed `make mutate` uses unless told otherwise.
    public static let defaultMasterSeed: UInt64 = 20_261_123

    public init(corpus: MutationCorpus, masterSeed: UInt64 = Mutator.defaultMasterSeed, scale: MutationScale = .full) {
        self.corpus = corpus
        self.masterSeed = masterSeed
        self.scale = scale
    }

    /// How often each kind is made: scenarios most, since they have the most structure.
    static let kindWeights: [(weight: Int, value: Mutant.Kind)] = [
        (45, .scenario), (20, .reportDirectory), (20, .reloadsLog), (15, .fleetPartial), (15, .deviceLog),
    ]

    /// The seed of mutant `index`: one level down from the master seed, so
    /// neighbouring indices give unrelated mutants.
    public func seed(of index: UInt64) -> StreamSeed {
        StreamSeed(masterSeed).derived("mutant").derived(index)
    }

    /// Mutant `index`, of a kind drawn from its own seed.
    public func mutant(_ index: UInt64) -> Mutant {
        let seed = seed(of: index)
        var kindStream = seed.derived("kind").stream()
        let available = Self.kindWeights.filter { corpus.kinds.contains($0.value) }
        return mutant(index, kind: kindStream.weighted(available), seed: seed)
    }

    /// Mutant `index` of the given kind: for tests that sweep one format.
    public func mutant(_ index: UInt64, kind: Mutant.Kind) -> Mutant {
        mutant(index, kind: kind, seed: seed(of: index).derived(kind.name))
    }

    func mutant(_ index: UInt64, kind: Mutant.Kind, seed: StreamSeed) -> Mutant {
        var random = seed.derived("edits").stream()
        switch kind {
        case .scenario: return scenarioMutant(index, random: &random)
        case .reportDirectory: return reportMutant(index, wholeDirectory: true, random: &random)
        case .reloadsLog: return reportMutant(index, wholeDirectory: false, random: &random)
        case .fleetPartial: return partialMutant(index, random: &random)
        case .deviceLog: return deviceLogMutant(index, random: &random)
        }
    }

    // MARK: Scenarios

    /// What a mutant gets: mostly a few ordinary edits; rarely one expensive
    /// edit alone, or a special file alone, so that what makes a mutant slow,
    /// heavy or blocked is never hidden behind an earlier syntax error.
    enum Plan {
        case ordinary, expensive, specialFile
    }

    func plan(random: inout RandomStream) -> Plan {
        if random.nextBool(probability: scale.specialFileProbability) { return .specialFile }
        if random.nextBool(probability: scale.expensiveProbability) { return .expensive }
        return .ordinary
    }

    func scenarioMutant(_ index: UInt64, random: inout RandomStream) -> Mutant {
        let seed = random.pick(corpus.scenarios)
        let file = seed.name
        var edits: [MutationEdit] = []
        var content: MutantFile.Content
        let mutations = ScenarioMutations(corpus: corpus, scale: scale)
        switch plan(random: &random) {
        case .specialFile:
            content = specialFile(replacing: file, edits: &edits, random: &random)
        case .expensive:
            var tree = seed.tree
            edits.append(mutations.mutateExpensively(&tree, random: &random))
            content = .bytes(Array(tree.rendered().utf8))
        case .ordinary where random.nextBool(probability: 0.15):
            // The seed's own bytes, so byte edits also meet its original layout.
            var bytes = seed.bytes
            edits.append(ByteMutations.mutate(&bytes, file: file, random: &random))
            content = .bytes(bytes)
        case .ordinary:
            var tree = seed.tree
            for _ in 0..<random.editCount(most: 4) { edits.append(mutations.mutate(&tree, random: &random)) }
            var bytes = Array(tree.rendered().utf8)
            if random.nextBool(probability: 0.12) { edits.append(ByteMutations.mutate(&bytes, file: file, random: &random)) }
            content = .bytes(bytes)
        }
        var arguments = scenarioCommand(file: file, isFleet: seed.isFleet, random: &random)
        if random.nextBool(probability: 0.06) { edits.append(Self.mutateOption(&arguments, random: &random)) }
        return Mutant(index: index, kind: .scenario, origin: file, files: [MutantFile(path: file, content: content)], arguments: arguments, edits: edits)
    }

    /// The command a scenario is fed to. Fleet and compare runs use one
    /// thread mostly, since the fuzzer already keeps every core busy.
    func scenarioCommand(file: String, isFleet: Bool, random: inout RandomStream) -> [String] {
        let threads = random.nextBool(probability: 0.8) ? ["--threads", "1"] : []
        let validate = ["validate", file]
        let simulate = ["simulate", file, "--out", "out", "-q"]
        let compare = ["compare", file, "--runs", "2", "--out", "out", "-q"] + threads
        let fleet = ["fleet", file, "--out", "out", "-q"] + threads
        let shard = ["fleet", file, "--shard", "1/2", "--partial", "part.txt", "-q"] + threads
        if isFleet {
            return random.weighted([(40, validate), (40, fleet), (10, shard), (10, simulate)])
        }
        return random.weighted([(45, validate), (30, simulate), (20, compare), (5, fleet)])
    }

    /// Gives the command an option it takes, with a value at or past its
    /// limits: added, or in place of the value when the command has the
    /// option already, since an option given twice is refused before its
    /// value is read. Same draws either way, so the seed alone still makes
    /// the mutant.
    static func mutateOption(_ arguments: inout [String], random: inout RandomStream) -> MutationEdit {
        let options: [String]
        switch arguments.first {
        case "simulate": options = ["--seed", "--days"]
        case "compare": options = ["--seed", "--days", "--runs", "--budget-models", "--threads"]
        case "fleet": options = ["--seed", "--days", "--devices", "--threads", "--shard"]
        default: options = ["--scenarios"]
        }
        let option = random.pick(options)
        let value = option == "--shard"
            ? random.pick(["0/0", "1/0", "2/1", "9223372036854775807/9223372036854775807", "1/9223372036854775807", "-1/2", "1/2/3", "/", "1/100001"])
            : random.pick(MutationValues.optionValues)
        // The partial option is what makes --shard legal; keep it if present.
        if let given = arguments.dropFirst().firstIndex(of: option), given + 1 < arguments.count {
            arguments[given + 1] = value
        } else {
            arguments += [option, value]
        }
        return MutationEdit("option", "\(option) \(ScenarioMutations.quoted(value))")
    }

    // MARK: Reports

    func reportMutant(_ index: UInt64, wholeDirectory: Bool, random: inout RandomStream) -> Mutant {
        let seed = random.pick(corpus.reports)
        let mutations = CSVMutations(corpus: corpus, scale: scale)
        let directory = wholeDirectory ? "report/" : ""
        var documents = seed.documents
        var names = seed.files.map(\.name)
        if !wholeDirectory, let reloads = names.firstIndex(of: "reloads.csv") {
            documents = [documents[reloads]]
            names = ["reloads.csv"]
        }
        var edits: [MutationEdit] = []
        // Byte edits wait until every structured edit is made, since they break the structure.
        var byteEdits: [Int] = []
        var special: (file: Int, content: MutantFile.Content)?
        let weights = names.map { $0 == "reloads.csv" ? 50 : $0 == "parameters.csv" ? 15 : 18 }
        func target() -> Int { random.weighted(Array(zip(weights, names.indices)).map { (weight: $0.0, value: $0.1) }) }
        let reloads = names.firstIndex(of: "reloads.csv") ?? 0
        switch plan(random: &random) {
        case .specialFile:
            special = (reloads, specialFile(replacing: directory + names[reloads], edits: &edits, random: &random))
        case .expensive:
            edits.append(mutations.mutateExpensively(&documents[reloads], file: directory + names[reloads], random: &random))
        case .ordinary:
            for _ in 0..<random.editCount(most: 4) {
                let file = target()
                if random.nextBool(probability: 0.15) {
                    byteEdits.append(file)
                } else {
                    edits.append(mutations.mutate(&documents[file], file: directory + names[file], random: &random))
                }
            }
        }
        var files: [MutantFile] = []
        for (file, document) in documents.enumerated() {
            var bytes = document.rendered
            for _ in byteEdits.filter({ $0 == file }) { edits.append(ByteMutations.mutate(&bytes, file: directory + names[file], random: &random)) }
            if let special, special.file == file {
                files.append(MutantFile(path: directory + names[file], content: special.content))
            } else {
                files.append(MutantFile(path: directory + names[file], bytes: bytes))
            }
        }
        if wholeDirectory && random.nextBool(probability: 0.06) { edits.append(mutateDirectory(&files, random: &random)) }

        var arguments = wholeDirectory ? ["check", "report"] : ["check", "--reloads", "reloads.csv"]
        if !wholeDirectory || random.nextBool(probability: 0.2) {
            arguments += ruleOptions(for: seed, random: &random)
        }
        return Mutant(
            index: index, kind: wholeDirectory ? .reportDirectory : .reloadsLog, origin: seed.name, files: files,
            arguments: arguments, edits: edits)
    }

    /// Removes a file, adds a fleet report's file, or puts a directory where a file should be.
    func mutateDirectory(_ files: inout [MutantFile], random: inout RandomStream) -> MutationEdit {
        switch random.nextInt(below: 3) {
        case 0:
            let removed = files.remove(at: random.nextInt(below: files.count))
            return MutationEdit("deleteFile", "\(removed.path) removed")
        case 1:
            files.append(MutantFile(path: "report/fleet.md", bytes: Array("# fleet\n".utf8)))
            return MutationEdit("addFile", "report/fleet.md added")
        default:
            let index = random.nextInt(below: files.count)
            files[index].content = .directory
            return MutationEdit("directoryForFile", "\(files[index].path) is a directory")
        }
    }

    /// The rules `check` is given: mostly the report's own, sometimes other
    /// models, and now and then values at or past their limits.
    func ruleOptions(for seed: MutationCorpus.Report, random: inout RandomStream) -> [String] {
        var options: [String] = []
        let models = BudgetModel.allCases.map(\.rawValue)
        switch random.nextInt(below: 20) {
        case 0..<10: if let own = seed.budgetModel { options += ["--budget-model", own] }
        case 10..<17: options += ["--budget-model", random.pick(models)]
        case 17: options += ["--budget-model", random.pick(MutationValues.strings)]
        default: break
        }
        switch random.nextInt(below: 10) {
        case 0..<4: if let own = seed.minimumSpacing { options += ["--minimum-spacing", own] }
        case 4..<6: options += ["--minimum-spacing", random.pick(MutationValues.optionValues)]
        default: break
        }
        if random.nextBool(probability: 0.2) {
            options += ["--push-budget", random.pick(PushBudget.allCases.map(\.rawValue) + ["", "shared ", "free\u{0}"])]
        }
        if random.nextBool(probability: 0.15) {
            options += ["--token-bucket-burst", random.pick(MutationValues.optionValues)]
        }
        return options
    }

    // MARK: Fleet partials

    func partialMutant(_ index: UInt64, random: inout RandomStream) -> Mutant {
        let seed = random.pick(corpus.partials)
        let mutations = PartialMutations(scale: scale)
        var parts = seed.files.map { String(decoding: $0.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let names = parts.indices.map { "part-\($0 + 1).txt" }
        enum Mode { case one, each, mirrored }
        let mode = parts.count < 2 ? .one : random.weighted([(45, Mode.one), (20, .each), (35, .mirrored)])
        var edits: [MutationEdit] = []
        var byteEdits: [(file: Int, stream: RandomStream)] = []
        var special: MutantFile.Content?
        switch plan(random: &random) {
        case .specialFile:
            special = specialFile(replacing: names[0], edits: &edits, random: &random)
        case .expensive:
            edits.append(mutations.mutateExpensively(&parts[0], file: names[0], random: &random))
        case .ordinary:
            for _ in 0..<random.editCount(most: 3) {
                let byteLevel = random.nextBool(probability: 0.15)
                // Mirrored edits replay the same draws on every part, so a
                // counter or a shard count moves the same way in each.
                let targets: [Int]
                switch mode {
                case .one: targets = [random.nextBool(probability: 0.7) ? 0 : parts.count - 1]
                case .each, .mirrored: targets = Array(parts.indices)
                }
                let replay = random
                for target in targets {
                    var stream = mode == .mirrored ? replay : random
                    if byteLevel {
                        byteEdits.append((target, stream))
                        // Moves on, so the next part's byte edit (unless mirrored) differs.
                        _ = stream.next()
                    } else {
                        edits.append(mutations.mutate(&parts[target], file: names[target], random: &stream))
                    }
                    if mode != .mirrored || target == targets.last { random = stream }
                }
            }
        }
        var files: [MutantFile] = []
        for (index, lines) in parts.enumerated() {
            var bytes = Array(lines.joined(separator: "\n").utf8)
            for edit in byteEdits where edit.file == index {
                var stream = edit.stream
                edits.append(ByteMutations.mutate(&bytes, file: names[index], random: &stream))
            }
            files.append(MutantFile(path: names[index], content: index == 0 ? special ?? .bytes(bytes) : .bytes(bytes)))
        }
        let last = names[names.count - 1]
        let given = random.weighted([
            (75, names), (8, [names[0]]), (5, [names[0], names[0]]), (6, names.reversed()), (6, names + [last]),
        ])
        return Mutant(
            index: index, kind: .fleetPartial, origin: seed.name, files: files, arguments: ["merge"] + given + ["--out", "out", "-q"],
            edits: edits)
    }

    // MARK: Device logs

    /// A phone's device log (README, "Calibrating from your phone"): the
    /// input least in widgetsim's hands, written by an app on a phone. It
    /// goes to `check --device-log`, or to a small `calibrate` against the
    /// scenario whose phone wrote it, given beside it as it is.
    func deviceLogMutant(_ index: UInt64, random: inout RandomStream) -> Mutant {
        let seed = random.pick(corpus.deviceLogs)
        let mutations = CSVMutations(corpus: corpus, scale: scale, vocabulary: corpus.deviceLogVocabulary)
        let file = "log.csv"
        var document = seed.document
        var edits: [MutationEdit] = []
        // Byte edits wait until every structured edit is made, since they break the structure.
        var byteEdits = 0
        var special: MutantFile.Content?
        switch plan(random: &random) {
        case .specialFile:
            special = specialFile(replacing: file, edits: &edits, random: &random)
        case .expensive:
            edits.append(mutations.mutateExpensively(&document, file: file, random: &random))
        case .ordinary:
            for _ in 0..<random.editCount(most: 4) {
                if random.nextBool(probability: 0.15) {
                    byteEdits += 1
                } else {
                    edits.append(mutations.mutate(&document, file: file, random: &random))
                }
            }
        }
        var bytes = document.rendered
        for _ in 0..<byteEdits { edits.append(ByteMutations.mutate(&bytes, file: file, random: &random)) }
        var files = [MutantFile(path: file, content: special ?? .bytes(bytes))]
        var arguments = ["check", "--device-log", file]
        if random.nextBool(probability: 0.3), let scenario = corpus.scenarios.first(where: { $0.name == seed.scenario }) {
            // A calibration of one unknown, at the fewest runs allowed: a
            // mutant must finish within the campaign's time limit.
            files.append(MutantFile(path: scenario.name, bytes: scenario.bytes))
            arguments = [
                "calibrate", file, "--scenario", scenario.name, "--replications", "4", "--grid", "3",
                "--only", random.pick(CalibrationKnob.all.map(\.field)), "--threads", "1", "--out", "out", "-q",
            ]
        } else if random.nextBool(probability: 0.2) {
            arguments += ["--minimum-spacing", random.pick(MutationValues.optionValues)]
        }
        return Mutant(index: index, kind: .deviceLog, origin: "device-logs/" + seed.name, files: files, arguments: arguments, edits: edits)
    }

    // MARK: Special files

    /// A special file in place of `file`; the edit that names it goes into `edits`.
    func specialFile(replacing file: String, edits: inout [MutationEdit], random: inout RandomStream) -> MutantFile.Content {
        let made = specialFile(random: &random)
        edits.append(MutationEdit(made.operation, "\(file): \(made.detail)", expensive: true))
        return made.content
    }

    /// A file that is not a regular file: it must be refused, never waited on forever.
    func specialFile(random: inout RandomStream) -> (operation: String, detail: String, content: MutantFile.Content) {
        var choices: [(weight: Int, value: (String, String, MutantFile.Content))] = [
            (2, ("directory", "a directory", .directory)),
            (2, ("danglingLink", "a symbolic link to nothing", .symbolicLink("no-such-file"))),
            (1, ("devNull", "a symbolic link to /dev/null", .symbolicLink("/dev/null"))),
        ]
        if scale.allowsBlockingFiles {
            choices += [
                (2, ("fifo", "a named pipe nobody writes", .fifo)),
                (1, ("devZero", "a symbolic link to /dev/zero", .symbolicLink("/dev/zero"))),
            ]
        }
        let (operation, detail, content) = random.weighted(choices)
        return (operation, detail, content)
    }
}
