import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended, and what it cost.
struct ChildResult: Sendable {
    enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    var ending: Ending
    /// Killed by us for running longer than the timeout.
    var timedOut: Bool
    /// Killed by us for holding more memory than the limit.
    var overMemory: Bool
    /// The largest resident set the kernel saw, in bytes (from `wait4`'s rusage).
    var peakBytes: Int
    var elapsed: Duration
}

/// Runs a program in a child process with `posix_spawn`, so that `wait4`
/// reports its peak memory, with a wall-clock timeout and a memory watchdog.
///
/// Not `Foundation.Process`: it reaps children itself and gives no rusage.
enum ChildProcess {
    /// Runs `executable` with `arguments` in `directory`; standard input and
    /// output are /dev/null, standard error goes to `standardErrorPath`.
    /// - Throws: a description when the child cannot be started at all.
    static func run(
        _ executable: String, arguments: [String], directory: String, standardErrorPath: String,
        timeout: Duration, memoryLimit: Int
    ) throws -> ChildResult {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard let addChdir = ChildProcess.addChdir else {
            throw ChildProcessError(description: "this C library has no posix_spawn_file_actions_addchdir_np")
        }
        guard withUnsafeMutablePointer(to: &actions, { addChdir(UnsafeMutableRawPointer($0), directory) }) == 0 else {
            throw ChildProcessError(description: "cannot make the child start in \(directory)")
        }

        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default dispositions and an empty mask, whatever this process inherited
        // or its runtime changed, so the child meets signals as a shell would start it.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGCHLD] { sigaddset(&defaults, signal) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var cArguments = argv + [nil]
        let clock = ContinuousClock()
        // posix_spawn starts the child in this process's memory (vfork), and
        // Linux carries that memory's high-water mark over exec into the
        // child's rusage. A peak above ours is the child's own; below it, only
        // the child's sampled resident size says anything.
        let inheritedPeak = ChildProcess.ownPeakBytes() ?? 0
        let started = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw ChildProcessError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }

        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        var overMemory = false
        var pause = 100  // microseconds; grows so that long runs cost little polling
        var sampledPeak = 0
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { throw ChildProcessError(description: "wait4 failed: \(String(cString: strerror(errno)))") }
            let now = clock.now
            if now - started > timeout {
                timedOut = true
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                break
            }
            if let resident = residentBytes(of: pid) {
                sampledPeak = max(sampledPeak, resident)
                if resident > memoryLimit {
                    overMemory = true
                    kill(pid, SIGKILL)
                    _ = wait4(pid, &status, 0, &usage)
                    break
                }
            }
            usleep(useconds_t(pause))
            pause = min(pause * 2, 5_000)
        }
        let elapsed = clock.now - started
        #if canImport(Darwin)
        let reportedPeak = Int(usage.ru_maxrss)  // bytes on macOS
        #else
        let reportedPeak = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #endif
        let peak = reportedPeak > inheritedPeak ? reportedPeak : sampledPeak
        // The wait status, decoded by hand: the W* macros do not import into Swift.
        let low = status & 0x7F
        let ending: ChildResult.Ending = low == 0 ? .exited((status >> 8) & 0xFF) : .signalled(low)
        return ChildResult(ending: ending, timedOut: timedOut, overMemory: overMemory || peak > memoryLimit, peakBytes: peak, elapsed: elapsed)
    }

    typealias AddChdir = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29, macOS 10.15), looked up
    /// at run time: Swift's Glibc module does not import it, and without it a
    /// child could only start where the fuzzer is, where it might write reports.
    static let addChdir: AddChdir? = {
        let program = dlopen(nil, RTLD_NOW)
        for name in ["posix_spawn_file_actions_addchdir_np", "posix_spawn_file_actions_addchdir"] {
            if let symbol = dlsym(program, name) { return unsafeBitCast(symbol, to: AddChdir.self) }
        }
        return nil
    }()

    /// This process's peak resident memory so far (Linux's VmHWM).
    static func ownPeakBytes() -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split { $0 == " " || $0 == "\t" }
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
        #else
        return nil
        #endif
    }

    /// The child's resident memory now, where the system says (Linux's /proc).
    static func residentBytes(of pid: pid_t) -> Int? {
        #if os(Linux)
        let descriptor = open("/proc/\(pid)/statm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
}
