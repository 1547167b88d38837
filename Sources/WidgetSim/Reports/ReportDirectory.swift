import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why reports could not be written.
public enum ReportWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory (or its parent) could not be created.
    case cannotCreate(path: String, reason: String)
    /// A file could not be written (unwritable directory, full disk...).
    case cannotWrite(path: String, reason: String)
    /// The finished reports could not be moved into place.
    case cannotReplace(path: String, reason: String)
    /// The directory exists and holds files, none of them reports: replacing
    /// it would move the user's files around (think `--out .`), so it is refused.
    case notAReportDirectory(path: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "\(path): cannot create the report directory: \(reason)"
        case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
        case .cannotReplace(let path, let reason): return "\(path): cannot move the new reports into place: \(reason)"
        case .notAReportDirectory(let path):
            return "\(path): not a report directory: it holds files but no widgetsim report (\(ReportDirectory.reportMarkers.joined(separator: ", "))); give a new or empty directory, or one widgetsim wrote"
        }
    }
}

/// Writes a set of report files so that readers see either the old set or
/// the new one, never a mixture or a half-written file.
///
/// Promised: the files are written to a temporary sibling directory first;
/// only when all are complete does the directory take the place of the old
/// one, by an atomic exchange where the platform has one (`renameat2` on
/// Linux, `renamex_np` on macOS) and two renames otherwise. Files already in
/// the directory that this run does not produce are carried over. On any
/// failure the old directory is left exactly as it was and the temporary one
/// is removed.
///
/// Refused: an existing directory that holds files but no report (one of
/// `reportMarkers` or a file this run writes), so that `--out .` cannot sweep
/// a user's own files into a report directory.
///
/// Not promised: survival of a `SIGKILL` or power loss between the two
/// renames of the fallback path.
public enum ReportDirectory {
    /// The entry points that every kind of run writes: a directory holding one
    /// of them was written by widgetsim.
    public static let reportMarkers = ["summary.md", "comparison.md", "fleet.md"]

    /// Writes `files` into `directory`, replacing the files of the same names.
    public static func write(_ files: [ReportFile], to directory: String) throws(ReportWriteError) {
        let fileManager = FileManager.default
        let target = URL(fileURLWithPath: directory).standardizedFileURL
        let parent = target.deletingLastPathComponent()
        // A file where a directory must go gets the same plain answer on every platform.
        var ancestor = parent
        while ancestor.path != "/" {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue {
                    throw .cannotCreate(path: ancestor.path, reason: "it is a file, not a directory")
                }
                break
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
        try refuseForeignDirectory(target, producing: files)
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(path: parent.path, reason: reason(error))
        }
        let token = "\(getpid())-\(ScratchRegistry.shared.nextToken())"
        let staging = parent.appendingPathComponent(".\(target.lastPathComponent).tmp-\(token)")
        // Registered before it exists, so an interruption at any point removes it.
        ScratchRegistry.shared.add(staging.path)
        // A leftover of a killed run whose process id came round again.
        try? fileManager.removeItem(at: staging)
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            ScratchRegistry.shared.remove(staging.path)
            throw .cannotCreate(path: staging.path, reason: reason(error))
        }
        defer {
            try? fileManager.removeItem(at: staging)
            ScratchRegistry.shared.remove(staging.path)
        }

        for file in files {
            let url = staging.appendingPathComponent(file.name)
            // Each write is a critical section, so an interruption cannot clean
            // up while a write is half done (and no write can follow the clean-up).
            try ScratchRegistry.shared.critical { () throws(ReportWriteError) in
                do {
                    try Data(file.contents.utf8).write(to: url)
                } catch {
                    throw .cannotWrite(path: target.appendingPathComponent(file.name).path, reason: reason(error))
                }
            }
        }

        ReportDirectory.pauseForTests()
        var isDirectory: ObjCBool = false
        let exists = fileManager.fileExists(atPath: target.path, isDirectory: &isDirectory)
        guard exists else {
            try rename(staging.path, to: target.path)
            return
        }
        guard isDirectory.boolValue else {
            throw .cannotReplace(path: target.path, reason: "a file of that name is in the way")
        }
        // Keep what this run does not produce (a comparison, a user's notes).
        let produced = Set(files.map { $0.name.split(separator: "/").first.map(String.init) ?? $0.name })
        do {
            for name in try fileManager.contentsOfDirectory(atPath: target.path).sorted() where !produced.contains(name) {
                try fileManager.copyItem(at: target.appendingPathComponent(name), to: staging.appendingPathComponent(name))
            }
        } catch {
            throw .cannotWrite(path: target.path, reason: reason(error))
        }
        if exchange(staging.path, target.path) {
            // The old reports are now at the staging path; the deferred removal deletes them.
            return
        }
        let retired = parent.appendingPathComponent(".\(target.lastPathComponent).old-\(token)")
        ScratchRegistry.shared.add(retired.path)
        defer {
            try? fileManager.removeItem(at: retired)
            ScratchRegistry.shared.remove(retired.path)
        }
        // Two renames: an interruption must wait until both are done, or the
        // old reports (then at `retired`) could be removed before the new
        // ones are in place.
        try ScratchRegistry.shared.critical { () throws(ReportWriteError) in
            try rename(target.path, to: retired.path)
            do throws(ReportWriteError) {
                try rename(staging.path, to: target.path)
            } catch {
                try? rename(retired.path, to: target.path)
                throw error
            }
        }
    }

    /// Throws if `target` is a directory with contents but no report in it.
    private static func refuseForeignDirectory(_ target: URL, producing files: [ReportFile]) throws(ReportWriteError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue,
              let contents = try? FileManager.default.contentsOfDirectory(atPath: target.path), !contents.isEmpty
        else { return }
        let known = Set(reportMarkers + files.map(\.name))
        guard contents.contains(where: known.contains) else {
            throw .notAReportDirectory(path: target.path)
        }
    }

    /// Test hook: with `WIDGETSIM_TEST_PAUSE_BEFORE_SWAP=<seconds>`, waits after
    /// writing every file and before moving them into place, so a test can
    /// interrupt a run at its most delicate moment.
    static func pauseForTests() {
        guard let text = ProcessInfo.processInfo.environment["WIDGETSIM_TEST_PAUSE_BEFORE_SWAP"],
              let seconds = Double(text), seconds > 0 else { return }
        Thread.sleep(forTimeInterval: seconds)
    }

    /// Writes one file atomically: a temporary sibling, then a rename. An
    /// interruption removes the temporary file; the old file stays as it was.
    public static func writeFile(_ contents: String, to path: String) throws(ReportWriteError) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(ScratchRegistry.shared.nextToken())")
        ScratchRegistry.shared.add(temporary.path)
        defer {
            try? FileManager.default.removeItem(at: temporary)
            ScratchRegistry.shared.remove(temporary.path)
        }
        do {
            try Data(contents.utf8).write(to: temporary)
        } catch {
            throw .cannotWrite(path: path, reason: reason(error))
        }
        try rename(temporary.path, to: url.path)
    }

    private static func rename(_ from: String, to: String) throws(ReportWriteError) {
        guard Foundation.rename(from, to) == 0 else {
            throw .cannotReplace(path: to, reason: String(cString: strerror(errno)))
        }
    }

    /// Atomically swaps two directories; false if the platform cannot.
    private static func exchange(_ first: String, _ second: String) -> Bool {
        #if os(Linux)
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0
        #elseif canImport(Darwin)
        return renamex_np(first, second, UInt32(RENAME_SWAP)) == 0
        #else
        return false
        #endif
    }

    private static func reason(_ error: Error) -> String {
        let text = (error as NSError).localizedDescription
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError {
            return "\(text) (\(underlying.localizedDescription))"
        }
        return text
    }
}

/// Temporary paths in use, so a signal handler can remove them before the
/// process exits (nothing is left behind by an interrupted run).
public final class ScratchRegistry: @unchecked Sendable {
    public static let shared = ScratchRegistry()
    private let lock = NSLock()
    private var paths: [String] = []
    private var tokens = 0

    /// A number unique within this process, for naming temporary paths.
    func nextToken() -> Int {
        lock.lock()
        defer { lock.unlock() }
        tokens += 1
        return tokens
    }

    func add(_ path: String) {
        lock.lock()
        paths.append(path)
        lock.unlock()
    }

    func remove(_ path: String) {
        lock.lock()
        paths.removeAll { $0 == path }
        lock.unlock()
    }

    /// On interruption: waits for a critical section in progress to finish,
    /// removes every registered path, and exits with `code` without letting
    /// any other critical section start (the lock is never released).
    public func removeAllAndExit(_ code: Int32) -> Never {
        criticalLock.lock()
        lock.lock()
        let pending = paths
        paths.removeAll()
        lock.unlock()
        for path in pending { try? FileManager.default.removeItem(atPath: path) }
        exit(code)
    }

    private let criticalLock = NSLock()

    /// Runs `body` so that `removeAll` cannot run in the middle of it.
    func critical<Failure: Error>(_ body: () throws(Failure) -> Void) throws(Failure) {
        criticalLock.lock()
        defer { criticalLock.unlock() }
        try body()
    }
}
