/// How far a run had got when its signal was sent, as seen from outside at
/// that instant: no guess from timing, the state of the disk and the process.
public enum Phase: String, CaseIterable, Sendable {
    /// No staging directory of this run yet: starting up or simulating.
    case simulating
    /// Its staging directory exists; the report directory is untouched.
    case writing
    /// The report directory is missing: between the two renames of the
    /// fallback path (never seen where the atomic exchange works).
    case swapping
    /// The report directory has been replaced; the run is removing the old
    /// reports, or exiting.
    case swapped
    /// The run had already exited; the signal reached a zombie.
    case exited
}

/// What the report directory holds after a run.
public enum DirectoryState: Equatable, Sendable, CustomStringConvertible {
    /// Byte for byte the reports from before the run.
    case old
    /// Byte for byte the reports of an uninterrupted run.
    case new
    /// Neither; the text says how it differs from the nearer of the two.
    case broken(String)

    public var description: String {
        switch self {
        case .old: return "the old reports"
        case .new: return "the new reports"
        case .broken(let how): return "neither report (\(how))"
        }
    }
}

/// What a run's standard error says about the report directory.
///
/// Recognised, case-insensitively: "unchanged" ("earlier reports are
/// unchanged") for the old reports, "in place" ("the new reports are in
/// place") for the new ones. A message with neither makes no claim.
public enum Claim: Equatable, Sendable, CustomStringConvertible {
    case none
    case oldReportsKept
    case newReportsInPlace
    /// Both phrases: a message that contradicts itself.
    case both

    public static let oldPhrase = "unchanged"
    public static let newPhrase = "in place"

    public init(standardError: String) {
        let text = standardError.lowercased()
        switch (text.contains(Self.oldPhrase), text.contains(Self.newPhrase)) {
        case (false, false): self = .none
        case (true, false): self = .oldReportsKept
        case (false, true): self = .newReportsInPlace
        case (true, true): self = .both
        }
    }

    public var description: String {
        switch self {
        case .none: return "says nothing about the reports"
        case .oldReportsKept: return "says the earlier reports are unchanged"
        case .newReportsInPlace: return "says the new reports are in place"
        case .both: return "says both that the earlier reports are unchanged and that the new ones are in place"
        }
    }

    /// Whether the claim is the truth about `state`; a missing claim is true.
    func holds(for state: DirectoryState) -> Bool {
        switch (self, state) {
        case (.none, _), (.oldReportsKept, .old), (.newReportsInPlace, .new): return true
        default: return false
        }
    }
}

/// Everything the harness saw of one run, from outside.
public struct RunObservation: Sendable {
    /// The signal sent; nil for a clean run, which is never signalled.
    public var signal: ChaosSignal?
    /// Where the run was when the signal was sent; nil for a clean run.
    public var phase: Phase?
    /// How it ended; nil if it did not end in time (and was then killed).
    public var termination: Termination?
    public var state: DirectoryState
    public var standardError: String
    /// Entries beside the report directory that this run created and left.
    public var created: [String]
    /// Leftovers of earlier killed runs still beside the report directory
    /// after this run, one list per killed run.
    public var earlierLeftovers: [[String]]

    public init(
        signal: ChaosSignal?, phase: Phase?, termination: Termination?, state: DirectoryState,
        standardError: String, created: [String], earlierLeftovers: [[String]]
    ) {
        self.signal = signal
        self.phase = phase
        self.termination = termination
        self.state = state
        self.standardError = standardError
        self.created = created
        self.earlierLeftovers = earlierLeftovers
    }

    /// Ended by SIGKILL: the one way a run may leave files behind.
    public var wasKilled: Bool { termination == .signalled(ChaosSignal.kill.number) }

    /// Ran to its end and said so: it had every chance to tidy up.
    public var completed: Bool { termination == .exited(0) }

    /// Ended by SIGINT or SIGTERM's default action: before the handlers were installed.
    public var diedBeforeHandlers: Bool {
        guard let signal, signal != .kill else { return false }
        return termination == .signalled(signal.number)
    }
}
