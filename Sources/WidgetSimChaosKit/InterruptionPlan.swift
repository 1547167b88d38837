import WidgetSim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The three ways a run gets stopped from outside.
public enum ChaosSignal: String, CaseIterable, Sendable {
    /// Ctrl-C at a terminal.
    case int = "INT"
    /// A polite stop from a supervisor (`kill`, systemd, a CI timeout).
    case term = "TERM"
    /// No handler runs: whatever was on disk at that instant stays there.
    case kill = "KILL"

    public var number: Int32 {
        switch self {
        case .int: return SIGINT
        case .term: return SIGTERM
        case .kill: return SIGKILL
        }
    }

    /// The exit code of a run that handled this signal, as shells report it
    /// (128 + the signal's number); nil for `KILL`, which cannot be handled.
    public var interruptedExitCode: Int32? {
        switch self {
        case .int: return 130
        case .term: return 143
        case .kill: return nil
        }
    }
}

/// When and how one iteration of a campaign interrupts its run.
///
/// Promised: the plan depends only on the campaign's seed and the
/// iteration's number (a counter-based draw), so `--only <n>` replays
/// iteration `n`'s instant and signal without replaying the ones before it.
///
/// Not promised: the same wall-clock instant in the run. The delay is a
/// fraction of the measured run duration, and the operating system's
/// timing is not seeded.
public struct InterruptionPlan: Equatable, Sendable {
    /// How far past the measured duration the delays reach, so that some
    /// signals arrive after the run has exited.
    public static let span = 1.2

    public let iteration: Int
    /// The delay as a fraction of the measured run duration, uniform in `0..<span`.
    public let fraction: Double
    public let signal: ChaosSignal

    public init(seed: UInt64, iteration: Int) {
        var stream = StreamSeed(seed).derived("interruption").derived(UInt64(iteration)).stream()
        self.iteration = iteration
        fraction = stream.nextUnit() * Self.span
        // Uniform over the three, so about a third are KILL.
        signal = ChaosSignal.allCases[stream.nextInt(below: ChaosSignal.allCases.count)]
    }

    /// The delay after the start of the run, in seconds.
    public func delay(runDuration: Double) -> Double { fraction * runDuration }
}
