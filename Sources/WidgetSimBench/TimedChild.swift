import Foundation

/// One run of another program in a child process, timed from spawn to exit,
/// with the child's own peak resident memory (from `wait4`).
///
/// Promised: the child is waited for by its process id and, past the time
/// limit, killed by that id while it is still unreaped, so no other process
/// can be hit. Its standard output and error go to files, so a child that
/// writes a lot never blocks on a pipe and its output costs what writing a
/// file costs.
///
/// Not promised: sub-millisecond timing. The exit is polled every
/// millisecond, so a wall time is late by at most about that much.
struct TimedChild {
    /// How one run ended.
    struct Outcome {
        var wallSeconds: Double
        var peakRSSKiB: Int
        /// The exit code, or nil if a signal ended the child.
        var exitCode: Int32?
        /// True when the child was killed at the time limit.
        var timedOut: Bool
        /// The beginnings of the child's standard output and error.
        var standardOutput: String
        var standardError: String

        /// The first line of standard error, or of standard output, for messages.
        var firstMessageLine: String {
            let text = standardError.isEmpty ? standardOutput : standardError
            return text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        }
    }

    var executable: String
    var arguments: [String]
    /// Where the child's standard output and error are written (the directory must exist).
    var outputPrefix: String

    /// Runs the child once, killing it after `timeLimit` seconds.
    func run(timeLimit: Double) throws(BenchError) -> Outcome {
        let outPath = outputPrefix + ".stdout"
        let errPath = outputPrefix + ".stderr"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }.sorted()
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }

        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw BenchError("cannot start \(executable): \(String(cString: strerror(spawned)))", code: 70)
        }
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR {
                throw BenchError("waiting for \(executable): \(String(cString: strerror(errno)))", code: 70)
            }
            if !timedOut && clock.now - start > .seconds(timeLimit) {
                // Still unreaped, so the id is still this child's.
                kill(pid, SIGKILL)
                timedOut = true
            }
            usleep(1_000)
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        // wait(2) status: the low 7 bits are the signal that ended the child, 0 for a normal exit.
        let signal = status & 0x7F
        return Outcome(
            wallSeconds: seconds,
            peakRSSKiB: TimedChild.kibibytes(maxrss: Int(usage.ru_maxrss)),
            exitCode: signal == 0 ? (status >> 8) & 0xFF : nil,
            timedOut: timedOut,
            standardOutput: TimedChild.head(of: outPath),
            standardError: TimedChild.head(of: errPath))
    }

    /// The first 4 KiB of a file: enough for the lines that say how a run ended,
    /// without holding a long output in this process's memory.
    static func head(of path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: 4_096)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

extension TimedChild {
    /// `ru_maxrss` in KiB: Linux reports KiB, Darwin bytes.
    static func kibibytes(maxrss: Int) -> Int {
        #if os(Linux)
        return maxrss
        #else
        return maxrss / 1024
        #endif
    }
}

/// A failure of the benchmark itself (not of what it measures), with the exit code to leave with.
struct BenchError: Error {
    var message: String
    var code: Int32

    init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }
}
