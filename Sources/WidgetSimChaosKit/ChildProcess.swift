import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    /// It called `exit` with this code.
    case exited(Int32)
    /// A signal's default action ended it (no handler ran).
    case signalled(Int32)

    public var description: String {
        switch self {
        case .exited(let code): return "exit \(code)"
        case .signalled(let number):
            let name = ChaosSignal.allCases.first { $0.number == number }.map { "SIG\($0.rawValue)" } ?? "signal \(number)"
            return "killed by \(name)"
        }
    }

    /// Decodes a `waitpid` status word (the `WIFEXITED` and `WTERMSIG`
    /// macros do not reach Swift).
    init(status: Int32) {
        if status & 0x7f == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signalled(status & 0x7f)
        }
    }
}

public enum ChildProcessError: Error, CustomStringConvertible {
    case cannotStart(String, reason: String)

    public var description: String {
        switch self {
        case .cannotStart(let path, let reason): return "cannot start \(path): \(reason)"
        }
    }
}

#if canImport(Darwin)
// Opaque pointers on Darwin, structures on Linux; initialised in place either way.
typealias SpawnAttributes = posix_spawnattr_t?
typealias SpawnFileActions = posix_spawn_file_actions_t?
#else
typealias SpawnAttributes = posix_spawnattr_t
typealias SpawnFileActions = posix_spawn_file_actions_t
#endif

/// A child process in a process group of its own, as a shell starts a job.
///
/// Promised: signals go to the whole group (as Ctrl-C does), the child
/// starts with SIGINT and SIGTERM at their default action and unblocked
/// whatever the harness inherited, and its pid is not reaped before
/// `wait`, so a signal sent after the child has exited reaches a zombie and
/// never a stranger that reused the pid.
///
/// Not promised: Windows.
public final class ChildProcess {
    public let pid: pid_t
    /// Taken just after `posix_spawn` returned: the child exists by then.
    public let started: ContinuousClock.Instant
    private var reaped: Termination?

    /// Starts `executable` with `arguments`; standard output is discarded
    /// and standard error goes to `standardError`, a file.
    public init(executable: String, arguments: [String], standardError: String) throws(ChildProcessError) {
        var attributes = SpawnAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        var mask = sigset_t()
        sigemptyset(&mask)
        // A group of its own, as a shell starts a job; and a harness started
        // in the background has SIGINT ignored, which the child must not inherit.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)

        var actions = SpawnFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        // The test hook would hold every run before its swap; a chaos run
        // must see the tool as users do.
        var environment = ProcessInfo.processInfo.environment
        environment["WIDGETSIM_TEST_PAUSE_BEFORE_SWAP"] = nil
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.keys.sorted().map { strdup("\($0)=\(environment[$0]!)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw .cannotStart(executable, reason: String(cString: strerror(result)))
        }
        self.pid = pid
        self.started = ContinuousClock.now
        RunningChildren.shared.add(pid)
    }

    /// Seconds since the child started.
    public var elapsed: Double {
        let duration = ContinuousClock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// True once the child has exited, without reaping it.
    public var hasExited: Bool {
        if reaped != nil { return true }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return false }
        #if canImport(Darwin)
        return info.si_pid == pid
        #else
        return info._sifields._sigchld.si_pid == pid
        #endif
    }

    /// Sends `signal` to the child's process group.
    public func signalGroup(_ signal: Int32) {
        guard reaped == nil else { return }
        kill(-pid, signal)
    }

    /// Waits for the child to end; nil if it is still running after `timeout` seconds.
    public func wait(timeout: Double) -> Termination? {
        if let reaped { return reaped }
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let termination = Termination(status: status)
                reaped = termination
                RunningChildren.shared.remove(pid)
                return termination
            }
            if result < 0 && errno != EINTR { return nil }
            if ContinuousClock.now >= deadline { return nil }
            // Polling (not a blocking wait) keeps the timeout simple; 1 ms
            // is far below the resolution that matters here.
            usleep(1000)
        }
    }

    /// Kills the group and reaps the child: for a run that would not end.
    public func killAndReap() {
        signalGroup(SIGKILL)
        _ = wait(timeout: 60)
    }
}

/// The children currently running, so that a harness interrupted itself can
/// take them down with it rather than leave them writing reports.
public final class RunningChildren: @unchecked Sendable {
    public static let shared = RunningChildren()
    private let lock = NSLock()
    private var pids: [pid_t] = []

    func add(_ pid: pid_t) {
        lock.lock()
        pids.append(pid)
        lock.unlock()
    }

    func remove(_ pid: pid_t) {
        lock.lock()
        pids.removeAll { $0 == pid }
        lock.unlock()
    }

    /// Sends SIGKILL to every running child's group.
    public func killAll() {
        lock.lock()
        let running = pids
        lock.unlock()
        for pid in running { kill(-pid, SIGKILL) }
    }
}
