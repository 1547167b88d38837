// widgetsim-mutate: a structure-aware mutation fuzzer of widgetsim's inputs
// (`make mutate`). Valid scenarios, report directories, reloads logs and fleet
// partial files are mutated and fed to the release binary, which must exit
// cleanly (0, 1 from check, or a sysexits code), within the timeout and the
// memory limit, and never print a stack trace.
//
//   widgetsim-mutate --mutants N [--first I]   mutants I..<I+N on every core (I defaults to 0)
//   widgetsim-mutate --mutant I                 mutant I alone, saved under the failures directory
//   widgetsim-mutate --make-only N [--find OP]  only make mutants 0..<N (timing; with --find, list those with edit OP)
//
// Options: --master-seed S, --binary PATH, --scenarios DIR, --timeout SECONDS,
// --memory-limit SIZE (2GiB), --jobs N, --failures DIR, --scratch DIR.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WidgetSimMutation

let usage = """
    usage: widgetsim-mutate --mutants <n> [--first <i>] | --mutant <i> | --make-only <n> [--find <operation>]
             [--master-seed <s>] [--binary <path>] [--scenarios <dir>] [--timeout <seconds>]
             [--memory-limit <size>] [--jobs <n>] [--failures <dir>] [--scratch <dir>]
    """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(arguments.isEmpty ? 64 : 0)
}
let options = CommandOptions(arguments, known: [
    "--mutants", "--first", "--mutant", "--master-seed", "--binary", "--scenarios", "--timeout", "--memory-limit", "--jobs", "--failures", "--scratch",
    "--make-only", "--find",
], usage: usage)
func value(_ name: String) -> String? { options.value(name) }

let masterSeed = options.number("--master-seed", UInt64.self, default: Mutator.defaultMasterSeed)
let timeoutSeconds = Double(value("--timeout") ?? "5") ?? -1
guard timeoutSeconds > 0, timeoutSeconds <= 3_600 else { fatal("option '--timeout' must be seconds from 0 to 3600", code: 64) }
guard let memoryLimit = CommandOptions.parseSize(value("--memory-limit") ?? "2GiB") else { fatal("option '--memory-limit' must be a size such as 2GiB or 512MiB", code: 64) }
let jobs = options.number("--jobs", Int.self, default: ProcessInfo.processInfo.activeProcessorCount)
guard jobs >= 1, jobs <= 256 else { fatal("option '--jobs' must be from 1 to 256", code: 64) }
let binary = URL(fileURLWithPath: value("--binary") ?? ".build/release/widgetsim").standardizedFileURL.path
guard FileManager.default.isExecutableFile(atPath: binary) else {
    fatal("\(binary): no widgetsim binary there; build it with 'swift build -c release --product widgetsim' (make mutate does)", code: 66)
}
let scratch = URL(fileURLWithPath: value("--scratch") ?? ".build/mutate-scratch").standardizedFileURL.path
let settings = Settings(
    binary: binary, scratch: scratch, failures: value("--failures") ?? "mutate-failures",
    timeout: .milliseconds(Int64(timeoutSeconds * 1000)), memoryLimit: memoryLimit, jobs: jobs)

// A crashing child must not leave a core file per mutant.
var noCores = rlimit(rlim_cur: 0, rlim_max: 0)
setrlimit(Int32(RLIMIT_CORE.rawValue), &noCores)

let corpus: MutationCorpus
do {
    corpus = try SeedInputs.make(binary: binary, scenarioDirectory: value("--scenarios") ?? "Scenarios", scratch: scratch)
} catch {
    fatal("\(error)")
}
let campaign = Campaign(mutator: Mutator(corpus: corpus, masterSeed: masterSeed), settings: settings)

// Only make the mutants, to measure the mutator or to look for a mutant of some shape.
if let text = value("--make-only") {
    guard let count = UInt64(text) else { fatal("option '--make-only' must be a whole number", code: 64) }
    let first = options.number("--first", UInt64.self, default: 0)
    let mutator = Mutator(corpus: corpus, masterSeed: masterSeed)
    var bytes = Array(repeating: 0, count: Mutant.Kind.allCases.count)
    var made = Array(repeating: 0, count: Mutant.Kind.allCases.count)
    var spent = Array(repeating: Duration.zero, count: Mutant.Kind.allCases.count)
    var slowest: [(Duration, UInt64, String)] = []
    // FNV-1a over every mutant's command and bytes: equal digests, equal mutants.
    var digest: UInt64 = 0xCBF2_9CE4_8422_2325
    func fold(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            digest ^= UInt64(byte)
            digest &*= 0x0000_0100_0000_01B3
        }
    }
    let began = ContinuousClock.now
    for index in first..<(first + count) {
        let start = ContinuousClock.now
        let mutant = mutator.mutant(index)
        let took = ContinuousClock.now - start
        fold(mutant.arguments.joined(separator: "\u{0}").utf8)
        for file in mutant.files {
            fold(file.path.utf8)
            if let content = mutant.bytes(at: file.path) { fold(content) }
        }
        bytes[mutant.kind.rawValue] += mutant.byteCount
        made[mutant.kind.rawValue] += 1
        spent[mutant.kind.rawValue] += took
        if let wanted = value("--find"), mutant.edits.contains(where: { $0.operation == wanted }) {
            print("#\(index) \(mutant.kind.name) from \(mutant.origin): \(mutant.edits.map(\.description).joined(separator: "; ").prefix(300))")
        }
        slowest.append((took, index, mutant.operationSummary))
        slowest = Array(slowest.sorted { $0.0 > $1.0 }.prefix(5))
    }
    let seconds = (ContinuousClock.now - began).seconds
    for kind in Mutant.Kind.allCases {
        print(String(format: "%@: %d mutants, %d bytes, %.2f s", kind.name, made[kind.rawValue], bytes[kind.rawValue], spent[kind.rawValue].seconds))
    }
    for (took, index, operation) in slowest { print(String(format: "  #%llu %.3f s %@", index, took.seconds, operation)) }
    print(String(format: "made %d mutants in %.2f s; digest %016llx", count, seconds, digest))
    exit(0)
}

// One mutant, to reproduce a failure: always saved, so its files can be read.
if let single = value("--mutant") {
    guard let index = UInt64(single) else { fatal("option '--mutant' must be a whole number, got '\(single)'", code: 64) }
    let record = campaign.runOne(index, workspace: scratch + "/work-single", alwaysSave: true)
    let outcome = record.outcome
    print("mutant \(index) (master seed \(masterSeed)): \(record.kind.name) from \(record.origin)")
    print("  edits: \(record.edits)")
    print("  command: \(campaign.commandText(record).split(separator: "\n").last ?? "")")
    let ending: String
    switch outcome.result.ending {
    case .exited(let code): ending = "exit \(code)"
    case .signalled(let signal): ending = "killed by \(Outcome.signalName(signal))"
    }
    print("  \(outcome.verdict == .ok ? "OK" : "FAIL (\(outcome.verdict.name))"): \(ending) after \(Outcome.formatSeconds(outcome.result.elapsed)), peak memory \(Outcome.formatBytes(outcome.result.peakBytes)); \(outcome.summary)")
    if outcome.verdict != .ok {
        print("  failure: \(outcome.signature)\(outcome.crashLine.map { " at \($0)" } ?? "")")
    }
    let errorLines = Campaign.readPrefix(campaign.failureDirectory(index) + "/stderr.txt", bytes: 4096).split(separator: "\n").prefix(3)
    for line in errorLines { print("  stderr: \(line.prefix(300))") }
    print("  saved in \(campaign.failureDirectory(index))/ (command.txt, outcome.txt, stderr.txt and the mutant's files)")
    exit(outcome.verdict == .ok ? 0 : 1)
}

guard let countText = value("--mutants"), let count = UInt64(countText), count > 0 else { fatal("give --mutants <n> or --mutant <i>\n\(usage)", code: 64) }
let first = options.number("--first", UInt64.self, default: 0)
guard first <= UInt64.max - count else { fatal("--first plus --mutants is past the last mutant", code: 64) }
print("widgetsim-mutate: mutants \(first)..<\(first + count) (master seed \(masterSeed)) against \(binary)")
print("  seeds: \(corpus.scenarioCount) scenarios, \(corpus.reportCount) report directories, \(corpus.partialSetCount) sets of fleet partials, \(corpus.deviceLogCount) device logs (in \(scratch)/seeds)")
print("  \(jobs) jobs, timeout \(Outcome.formatSeconds(settings.timeout)), memory limit \(Outcome.formatBytes(memoryLimit))")
let began = ContinuousClock.now
let records = campaign.run(Array(first..<(first + count)), progress: true)
let elapsed = (ContinuousClock.now - began).seconds
print(Report(records: records, campaign: campaign, elapsedSeconds: elapsed).text)
exit(records.contains { $0.outcome.verdict != .ok } ? 1 : 0)
