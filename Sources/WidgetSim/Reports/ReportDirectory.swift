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
    /// A single output file (`--device-log`, `--partial`) cannot go at this
    /// path: a device, a pipe or a directory is there, or its directory is closed.
    case cannotCreateFile(path: String, reason: String)
    /// The directory exists and holds files, none of them reports: replacing
    /// it would move the user's files around (think `--out .`), so it is refused.
    case notAReportDirectory(path: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "\(path): cannot create the report directory: \(reason)"
        case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
        case .cannotReplace(let path, let reason): return "\(path): cannot move the new reports into place: \(reason)"
        case .cannotCreateFile(let path, let reason): return "\(path): cannot write the file there: \(reason)"
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
/// Linux, `renamex_np` on macOS) and two renames otherwise. The swap is one
/// critical section of `InterruptionGuard`: a signal that arrives during it
/// is handled once it is over. Files already in the directory that this run
/// does not produce are carried over. On any failure the old directory is
/// left exactly as it was and the temporary one is removed.
///
/// A run killed outright (`SIGKILL`, a power cut) cannot clean up, so every
/// run leaves a marker file beside its temporary paths from before it makes
/// them until after it removes them; the next run to the same directory
/// removes the temporary paths of every marker whose process is gone and
/// whose lock (`flock`, held while a run lives) is free (and,
/// if a run died between the two renames of the fallback, puts the old
/// reports back). Nothing else beside the directory is touched.
///
/// A symbolic link given as the directory is followed: the reports go into
/// the directory it names, and the link stays a link.
///
/// Refused: an existing directory that holds files but no report (one of
/// `reportMarkers` or a file this run writes), so that `--out .` cannot sweep
/// a user's own files into a report directory; a path that is a file, or
/// whose parent is one.
public enum ReportDirectory {
    /// The entry points that every kind of run writes: a directory holding one
    /// of them was written by widgetsim.
    public static let reportMarkers = ["summary.md", "comparison.md", "sensitivity.md", "fleet.md", "calibration.md"]
    /// Files some run writes, for checking a destination before a run.
    static let knownReportFiles = reportMarkers + [
        "reloads.csv", "views.csv", "daily.csv", "parameters.csv", "comparison.csv", "sensitivity.csv", "fleet.csv",
        "calibration.csv", "parameters.json",
    ]

    /// Checks, before a run, that `directory` can become a report directory:
    /// it is a directory (or a link to one) holding a report, an empty one,
    /// or a path that can be created. Returns the directory the reports will
    /// go to (a link's target).
    @discardableResult
    public static func checkDestination(_ directory: String) throws(ReportWriteError) -> URL {
        let target = try resolve(directory)
        try refuseForeignDirectory(target, producing: knownReportFiles)
        try requireRoomForScratchNames(beside: target, directory: true)
        return target
    }

    /// Refuses an output whose name leaves no room for the temporary names
    /// a run writes beside it (`Scratch`): a file system takes at most 255
    /// bytes a name, and the marker's adds its infix, the process id and a
    /// token (counted at up to 6 digits). Checked before a run and again
    /// when it writes, so that a long run is not wasted on a name.
    static func requireRoomForScratchNames(beside url: URL, directory: Bool) throws(ReportWriteError) {
        let name = url.lastPathComponent
        let overhead = 1 + Scratch.markerInfix.utf8.count + String(getpid()).utf8.count + 1 + 6
        guard name.utf8.count + overhead > 255 else { return }
        let reason = "its name is \(name.utf8.count) bytes, too long for the temporary names a run writes beside it (such as .<name>\(Scratch.markerInfix)\(getpid())-<n>); give a name of at most \(255 - overhead) bytes"
        throw directory ? .cannotCreate(path: url.path, reason: reason) : .cannotCreateFile(path: url.path, reason: reason)
    }

    /// Checks, before a run, that a single file can be written at `path`:
    /// nothing is there, or a regular file (which the new one replaces), or
    /// a symbolic link to one (followed, as `--out` follows one: the file it
    /// names is replaced and the link stays). Anything else there (a device
    /// such as /dev/null, a named pipe, a socket, a directory) is refused,
    /// never replaced. Returns the path the file will be written to.
    @discardableResult
    public static func checkFileDestination(_ path: String) throws(ReportWriteError) -> URL {
        guard var url = physicalPath(path) else {
            throw .cannotCreateFile(path: path, reason: "it goes through a symbolic link that leads nowhere (or a loop of links)")
        }
        var status = stat()
        // What is left a link leads to a file not written yet: followed by
        // hand, link by link, each target read as the system reads it.
        var links = 0
        while lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK {
            links += 1
            guard links <= 40, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else {
                throw .cannotCreateFile(path: path, reason: "it is a loop of symbolic links")
            }
            guard let next = physicalPath(target.hasPrefix("/") ? target : url.deletingLastPathComponent().path + "/" + target) else {
                throw .cannotCreateFile(path: path, reason: "it goes through a symbolic link that leads nowhere (or a loop of links)")
            }
            url = next
        }
        do {
            try requireDirectoryAncestors(of: url)
        } catch {
            if case .cannotCreate(let ancestor, let reason) = error { throw .cannotCreateFile(path: url.path, reason: "\(ancestor): \(reason)") }
            throw error
        }
        if lstat(url.path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG {
            throw .cannotCreateFile(path: url.path, reason: "it is \(InputFile.kindName(status.st_mode & S_IFMT)), not a regular file; give the path of a file")
        }
        try requireRoomForScratchNames(beside: url, directory: false)
        return url
    }

    /// Checks, before a fleet run, that its partial result may go to `path`:
    /// as `checkReplaceableFile`, a file already there must be an earlier
    /// partial result (its first line `FleetPartialFile`'s header).
    @discardableResult
    public static func checkPartialDestination(_ path: String, inputs: [String]) throws(ReportWriteError) -> URL {
        try checkReplaceableFile(
            path, inputs: inputs, kind: "partial result", signature: FleetPartialFile.magic + "\n",
            signatureText: "its first line is not '\(FleetPartialFile.magic)'")
    }

    /// Checks, before a run, that its device log may go to `path`: as
    /// `checkReplaceableFile`, a file already there must be an earlier device
    /// log (its header starts `time,event,app,`, as every version's has).
    @discardableResult
    public static func checkDeviceLogDestination(_ path: String, inputs: [String]) throws(ReportWriteError) -> URL {
        try checkReplaceableFile(
            path, inputs: inputs, kind: "device log", signature: "time,event,app,",
            signatureText: "its first line does not start with 'time,event,app,'")
    }

    /// As `checkFileDestination`, and a file already there must be empty (a
    /// job script's `mktemp`) or begin with `signature`, an earlier file of
    /// the same `kind`, and never be one of `inputs` (the scenario and
    /// parameters files the run reads, however their paths are spelled). A
    /// file of results replaces only another, as a report directory replaces
    /// only a report: one slip of a name must not destroy the user's own file.
    static func checkReplaceableFile(
        _ path: String, inputs: [String], kind: String, signature: String, signatureText: String
    ) throws(ReportWriteError) -> URL {
        let url = try checkFileDestination(path)
        var existing = stat()
        guard stat(url.path, &existing) == 0 else { return url }
        for input in inputs {
            var read = stat()
            if stat(input, &read) == 0 && read.st_dev == existing.st_dev && read.st_ino == existing.st_ino {
                throw .cannotCreateFile(path: path, reason: "it is \(input), which this run reads; give another path for the \(kind)")
            }
        }
        if existing.st_size == 0 { return url }
        // checkFileDestination left only a regular file here, so reading never blocks.
        let expected = Array(signature.utf8)
        let start = FileHandle(forReadingAtPath: url.path).map { handle in
            defer { try? handle.close() }
            return (try? handle.read(upToCount: expected.count)) ?? nil
        } ?? nil
        guard let start, Array(start) == expected else {
            throw .cannotCreateFile(path: path, reason: "it is a file but not a widgetsim \(kind) (\(signatureText)), and a \(kind) replaces only an earlier one; give a new path, or remove the file")
        }
        return url
    }

    /// Writes `files` into `directory`, replacing the files of the same names.
    /// Other files there are kept, except those `isStale` names: reports of
    /// the same kind that this run did not write (an earlier run's
    /// `trace.json`), which would describe another run beside this one's.
    public static func write(
        _ files: [ReportFile], to directory: String, dropping isStale: (String) -> Bool = { _ in false }
    ) throws(ReportWriteError) {
        let fileManager = FileManager.default
        let runGuard = InterruptionGuard.shared
        let target = try resolve(directory)
        let parent = target.deletingLastPathComponent()
        try refuseForeignDirectory(target, producing: files.map(\.name))
        let made = try createDirectoryRecordingAncestors(parent)
        var committed = false
        // Runs after the scratch paths are gone: a failed run leaves no directory it made.
        defer { if committed { keep(made) } else { removeEmpty(made) } }
        cleanUpAfterKilledRuns(beside: target)
        let scratch = Scratch(beside: target)
        try scratch.begin(directory: true)
        defer { scratch.end() }
        let staging = scratch.temporary

        for file in files {
            let url = staging.appendingPathComponent(file.name)
            // Each write is a critical section, so an interruption cannot clean
            // up while a write is half done (and no write can follow the clean-up).
            try runGuard.critical { () throws(ReportWriteError) in
                if let failure = writeFile(bytes: file.contents.utf8, to: url.path) {
                    throw .cannotWrite(path: target.appendingPathComponent(file.name).path, reason: failure)
                }
            }
        }

        var isDirectory: ObjCBool = false
        let exists = fileManager.fileExists(atPath: target.path, isDirectory: &isDirectory)
        let produced = Set(files.map { $0.name.split(separator: "/").first.map(String.init) ?? $0.name })
        // The old directory and the new, held open across the swap (which
        // moves them, not their descriptors) for what changed meanwhile.
        var directories: (old: DirectoryDescriptor, new: DirectoryDescriptor)?
        if exists {
            guard isDirectory.boolValue else {
                throw .cannotReplace(path: target.path, reason: "a file of that name is in the way")
            }
            // Keep what this run does not produce (a comparison, a user's notes).
            guard let oldDirectory = DirectoryDescriptor(path: target.path), let newDirectory = DirectoryDescriptor(path: staging.path),
                  let names = oldDirectory.names() else {
                throw .cannotWrite(path: target.path, reason: "cannot read it to carry its other files over: \(String(cString: strerror(errno)))")
            }
            for name in names where !produced.contains(DirectoryDescriptor.text(name)) && !isStale(DirectoryDescriptor.text(name)) {
                try runGuard.critical { () throws(ReportWriteError) in
                    try carryOver(name, from: oldDirectory, to: newDirectory, path: target.path + "/" + DirectoryDescriptor.text(name))
                }
            }
            // The new directory takes the old one's permissions and owner
            // with its place (the owner only when run as root; otherwise it is ours).
            if let own = oldDirectory.status() {
                _ = fchmod(newDirectory.descriptor, own.st_mode & 0o7777)
                _ = fchown(newDirectory.descriptor, own.st_uid, own.st_gid)
            }
            directories = (oldDirectory, newDirectory)
        }
        ReportDirectory.pauseForTests()
        // The swap: one critical section. Afterwards the temporary path holds
        // the old reports (or nothing), which `scratch.end()` removes.
        try runGuard.commit(destination: target.path) { () throws(ReportWriteError) in
            guard exists else {
                try rename(staging.path, to: target.path)
                return
            }
            if exchange(staging.path, target.path) {
                if let directories {
                    rescueLateArrivals(from: directories.old, into: directories.new, path: target.path, produced: produced, except: isStale)
                }
                return
            }
            let retired = scratch.retired
            try rename(target.path, to: retired.path)
            scratch.setAsideOldReports = true
            runGuard.register(retired.path, before: scratch.marker.path)
            do throws(ReportWriteError) {
                try rename(staging.path, to: target.path)
            } catch {
                try? rename(retired.path, to: target.path)
                throw error
            }
            if let directories {
                rescueLateArrivals(from: directories.old, into: directories.new, path: target.path, produced: produced, except: isStale)
            }
        }
        committed = true
    }

    /// Moves into the new reports what changed in the old directory after
    /// its entries were carried over, since the old directory is about to
    /// be removed: an entry that arrived (a note saved meanwhile, another
    /// run's reports), and one replaced by another file (an editor saves by
    /// replacing), at any depth of a carried-over subdirectory. What this
    /// run writes (`produced`, at the top) and drops as stale stays behind.
    /// An entry that cannot be moved (a read-only directory cannot change
    /// parent) is carried over by links instead. By descriptors throughout.
    static func rescueLateArrivals(
        from old: DirectoryDescriptor, into new: DirectoryDescriptor, path: String, produced: Set<String> = [],
        except isStale: (String) -> Bool = { _ in false }
    ) {
        for name in old.names() ?? [] {
            let text = DirectoryDescriptor.text(name)
            if produced.contains(text) || isStale(text) { continue }
            guard let before = old.status(of: name) else { continue }
            if let now = new.status(of: name) {
                let bothDirectories = before.st_mode & S_IFMT == S_IFDIR && now.st_mode & S_IFMT == S_IFDIR
                if bothDirectories, let from = DirectoryDescriptor(name, in: old), let to = DirectoryDescriptor(name, in: new) {
                    rescueLateArrivals(from: from, into: to, path: path + "/" + text)
                    continue
                }
                // The same file carried over as a link: unchanged.
                if before.st_ino == now.st_ino && before.st_dev == now.st_dev { continue }
                // Replaced in the old directory during the run: the user's newer one wins.
                _ = new.remove(name)
            }
            if renameat(old.descriptor, name, new.descriptor, name) != 0 {
                try? carryOver(name, from: old, to: new, path: path + "/" + text)
            }
        }
    }

    /// Writes one file atomically: a temporary sibling, then a rename. An
    /// interruption removes the temporary file; the old file stays as it was.
    /// `completesRun`: the rename is the run's last output, after which an
    /// interruption counts the run as done (exit 0); false for a file
    /// written before the run's reports.
    public static func writeFile(_ contents: String, to path: String, completesRun: Bool = true) throws(ReportWriteError) {
        let url = try checkFileDestination(path)
        // Its directory is made as a report directory's parent is (`--partial parts/part-1.txt`).
        let made = try createDirectoryRecordingAncestors(url.deletingLastPathComponent())
        var committed = false
        defer { if committed { keep(made) } else { removeEmpty(made) } }
        cleanUpAfterKilledRuns(beside: url)
        let scratch = Scratch(beside: url)
        try scratch.begin(directory: false)
        defer { scratch.end() }
        try InterruptionGuard.shared.critical { () throws(ReportWriteError) in
            let failure = writeFile(bytes: contents.utf8, to: scratch.temporary.path, created: &scratch.madeTemporary)
            if scratch.madeTemporary { InterruptionGuard.shared.register(scratch.temporary.path, before: scratch.marker.path) }
            if let failure { throw .cannotWrite(path: path, reason: failure) }
        }
        if completesRun {
            try InterruptionGuard.shared.commit(destination: url.path) { () throws(ReportWriteError) in
                try rename(scratch.temporary.path, to: url.path)
            }
        } else {
            try InterruptionGuard.shared.critical { () throws(ReportWriteError) in
                try rename(scratch.temporary.path, to: url.path)
            }
        }
        committed = true
    }

    /// Carries entry `name` of the old report directory into the new one
    /// without reading it: a hard link for anything but a directory, so a
    /// large sparse file costs nothing, a named pipe is never opened (a copy
    /// would block on it for ever), and a file keeps its inode, times and
    /// other links; a directory is made again and its entries carried over
    /// in turn. Where no link can be made (another file system mounted
    /// inside), a regular file is copied; anything else is refused, named.
    /// All of it through descriptors (`DirectoryDescriptor`): a directory
    /// swapped for a link meanwhile never leads outside the old directory.
    static func carryOver(_ name: [CChar], from source: DirectoryDescriptor, to destination: DirectoryDescriptor, path: String) throws(ReportWriteError) {
        guard let status = source.status(of: name) else {
            throw .cannotWrite(path: path, reason: "cannot carry it over to the new reports: \(String(cString: strerror(errno)))")
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            guard let from = DirectoryDescriptor(name, in: source), let names = from.names() else {
                throw .cannotWrite(path: path, reason: "cannot read it to carry it over to the new reports: \(String(cString: strerror(errno)))")
            }
            guard mkdirat(destination.descriptor, name, 0o700) == 0, let to = DirectoryDescriptor(name, in: destination) else {
                throw .cannotWrite(path: path, reason: "cannot carry it over to the new reports: \(String(cString: strerror(errno)))")
            }
            for entry in names {
                try carryOver(entry, from: from, to: to, path: path + "/" + DirectoryDescriptor.text(entry))
            }
            // Its own owner (as root) and permissions last, from the directory
            // opened: a read-only directory takes no entries.
            if let own = from.status() {
                _ = fchown(to.descriptor, own.st_uid, own.st_gid)
                _ = fchmod(to.descriptor, own.st_mode & 0o7777)
            }
            return
        }
        // Flags 0: a symbolic link is linked itself, not the file it names.
        if linkat(source.descriptor, name, destination.descriptor, name, 0) == 0 { return }
        let linkFailure = String(cString: strerror(errno))
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .cannotWrite(
                path: path,
                reason: "\(InputFile.kindName(status.st_mode & S_IFMT)) cannot be carried over to the new reports (\(linkFailure)); move it out of the report directory")
        }
        if let failure = copyFile(name, from: source, to: destination, mode: status.st_mode & 0o7777) {
            throw .cannotWrite(path: path, reason: "cannot carry it over to the new reports: \(failure)")
        }
    }

    /// Copies regular file `name` by descriptors (never through a link);
    /// returns why it failed, or nil.
    static func copyFile(_ name: [CChar], from source: DirectoryDescriptor, to destination: DirectoryDescriptor, mode: mode_t) -> String? {
        let input = openat(source.descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { return String(cString: strerror(errno)) }
        defer { close(input) }
        let output = openat(destination.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard output >= 0 else { return String(cString: strerror(errno)) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return String(cString: strerror(errno)) }
            if count == 0 { return nil }
            if let failure = WriteAll.write(buffer[..<count], to: output) { return String(cString: strerror(failure)) }
        }
    }

    // MARK: Destinations

    /// Makes `directory` and its missing ancestors; returns those it made,
    /// deepest first, for `removeEmpty` should the run fail.
    static func createDirectoryRecordingAncestors(_ directory: URL) throws(ReportWriteError) -> [URL] {
        var missing: [URL] = []
        var ancestor = directory
        while ancestor.path != "/" && !FileManager.default.fileExists(atPath: ancestor.path) {
            missing.append(ancestor)
            ancestor = ancestor.deletingLastPathComponent()
        }
        // Registered first: an interruption while they are made removes them too.
        InterruptionGuard.shared.critical { InterruptionGuard.shared.registerMade(missing.map(\.path)) }
        do {
            try createDirectory(directory)
        } catch {
            removeEmpty(missing)
            throw error
        }
        return missing
    }

    /// Forgets the directories a run made (it is over), first removing each
    /// that is still empty if the run failed (another process may have put
    /// a file in it).
    static func removeEmpty(_ made: [URL]) {
        InterruptionGuard.shared.critical {
            for directory in made { _ = rmdir(directory.path) }
            InterruptionGuard.shared.unregisterMade(made.map(\.path))
        }
    }

    /// Forgets the directories a successful run made: they hold its reports.
    static func keep(_ made: [URL]) {
        InterruptionGuard.shared.critical { InterruptionGuard.shared.unregisterMade(made.map(\.path)) }
    }

    /// Makes `directory` and its ancestors. Processes started together (the
    /// shards of a fleet) race to make it; one that lost finds it made.
    static func createDirectory(_ directory: URL) throws(ReportWriteError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .cannotCreate(path: directory.path, reason: reason(error))
            }
        }
    }

    /// The directory the reports go to: `directory` itself, or the target of
    /// the symbolic link it names. Throws when it cannot be a directory.
    static func resolve(_ directory: String) throws(ReportWriteError) -> URL {
        guard let target = physicalPath(directory) else {
            throw .cannotCreate(path: directory, reason: "it goes through a symbolic link that leads nowhere (or a loop of links)")
        }
        var status = stat()
        if lstat(target.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK {
            // Only a link that leads nowhere is left unresolved.
            var probe = stat()
            let loop = stat(target.path, &probe) != 0 && errno == ELOOP
            throw .cannotCreate(
                path: target.path, reason: loop ? "it is a loop of symbolic links" : "it is a symbolic link to something that does not exist")
        }
        try requireDirectoryAncestors(of: target)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .cannotCreate(path: target.path, reason: "it is a file, not a directory")
            }
            try refuseWorkingDirectory(target)
            // The new directory replaces the old one whole; a closed one stays closed.
            if access(target.path, R_OK | W_OK | X_OK) != 0 {
                throw .cannotCreate(path: target.path, reason: "permission denied: it is not both readable and writable by you; give another directory")
            }
        }
        return target
    }

    /// `path` as the system follows it: its longest existing part resolved
    /// by `realpath` (every link, and ".." after a link, as the kernel takes
    /// them: read as text, "link/../x" would name another file), then the
    /// part that does not exist yet, which holds no links, as written.
    /// Nil when the path goes on through a link that leads nowhere (or a
    /// loop of links): the system would not follow it, and read as text,
    /// "dangling/../x" would name another file.
    static func physicalPath(_ path: String) -> URL? {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = absolute.split(separator: "/").map(String.init)
        var missing: [String] = []
        while true {
            let prefix = "/" + existing.joined(separator: "/")
            if let real = realpath(prefix, nil) {
                defer { free(real) }
                return URL(fileURLWithPath: ([String(cString: real)] + missing).joined(separator: "/")).standardizedFileURL
            }
            // There but not resolvable: a broken link, which only the last component may be.
            var status = stat()
            if !missing.isEmpty && lstat(prefix, &status) == 0 { return nil }
            guard let last = existing.popLast() else {
                return URL(fileURLWithPath: "/" + missing.joined(separator: "/")).standardizedFileURL
            }
            missing.insert(last, at: 0)
        }
    }

    /// Refuses the current directory or one that holds it (`--out .`): the
    /// new reports replace the directory whole, and the shell would be left
    /// in the old one, deleted.
    static func refuseWorkingDirectory(_ target: URL) throws(ReportWriteError) {
        guard let working = realpath(".", nil) else { return }
        defer { free(working) }
        guard let real = realpath(target.path, nil) else { return }
        defer { free(real) }
        let here = String(cString: working), there = String(cString: real)
        if here == there || here.hasPrefix(there == "/" ? "/" : there + "/") {
            throw .cannotCreate(
                path: target.path,
                reason: "it is the current directory, or holds it: the new reports replace the report directory whole, which would leave you in a deleted directory; give a directory below it, such as Reports/<name>")
        }
    }

    /// A file where a directory must go gets the same plain answer on every platform.
    static func requireDirectoryAncestors(of url: URL) throws(ReportWriteError) {
        var ancestor = url.deletingLastPathComponent()
        while ancestor.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue {
                    throw .cannotCreate(path: ancestor.path, reason: "it is a file, not a directory")
                }
                if access(ancestor.path, W_OK | X_OK) != 0 {
                    throw .cannotCreate(path: ancestor.path, reason: "permission denied")
                }
                return
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
    }

    /// Throws if `target` is a directory with contents but no report in it.
    private static func refuseForeignDirectory(_ target: URL, producing names: [String]) throws(ReportWriteError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue,
              let contents = try? FileManager.default.contentsOfDirectory(atPath: target.path), !contents.isEmpty
        else { return }
        let known = Set(reportMarkers + names)
        guard contents.contains(where: known.contains) else {
            throw .notAReportDirectory(path: target.path)
        }
    }

    // MARK: Temporary paths and what killed runs left

    /// One run's temporary paths beside `destination`, and the marker file
    /// that says they are a widgetsim run's (with its process id in the name).
    final class Scratch {
        static let markerInfix = ".widgetsim-run-"
        /// The marker, open and locked (`flock`) while the run lives: a run
        /// in another PID namespace (a container sharing the volume) has a
        /// process id this one cannot see, but its lock is seen.
        private var lock: Int32 = -1
        /// The path the run writes, which errors name: the scratch paths are
        /// the tool's own business.
        let destination: URL
        let marker: URL
        let temporary: URL
        let retired: URL
        /// Set when every token tried was taken: `begin` refuses, naming them.
        private let takenTokens: ClosedRange<Int>?
        /// What this run made of its temporary paths, which alone `end` removes.
        var madeTemporary = false
        var setAsideOldReports = false

        /// Tokens tried before the run gives up looking for unused paths.
        static let maximumTokensTried = 1_000

        init(beside destination: URL) {
            let parent = destination.deletingLastPathComponent()
            let name = destination.lastPathComponent
            self.destination = destination
            func paths(_ token: Int) -> [URL] {
                [parent.appendingPathComponent(".\(name)\(Scratch.markerInfix)\(getpid())-\(token)"),
                 parent.appendingPathComponent(".\(name).tmp-\(getpid())-\(token)"),
                 parent.appendingPathComponent(".\(name).old-\(getpid())-\(token)")]
            }
            // A token any of whose paths is there is passed over: another
            // process had this id before (ids repeat, in a container from 1)
            // and left them without a marker, so no run removes them, and
            // they are not this run's to remove. If every token tried is
            // taken, `begin` refuses and names them.
            let first = InterruptionGuard.shared.nextToken()
            var token = first
            var chosen = paths(token)
            var status = stat()
            while chosen.contains(where: { lstat($0.path, &status) == 0 }) && token - first + 1 < Scratch.maximumTokensTried {
                token = InterruptionGuard.shared.nextToken()
                chosen = paths(token)
            }
            takenTokens = chosen.contains(where: { lstat($0.path, &status) == 0 }) ? first...token : nil
            (marker, temporary, retired) = (chosen[0], chosen[1], chosen[2])
        }

        /// Creates the marker and, for a report directory, the temporary
        /// path, in one critical section, registering each as it is made:
        /// an interruption removes what the run made, and only that.
        func begin(directory: Bool) throws(ReportWriteError) {
            func refusal(_ reason: String) -> ReportWriteError {
                directory ? .cannotCreate(path: destination.path, reason: reason) : .cannotCreateFile(path: destination.path, reason: reason)
            }
            let name = destination.lastPathComponent
            try ReportDirectory.requireRoomForScratchNames(beside: destination, directory: directory)
            if let takenTokens {
                throw refusal("the temporary paths beside it that a run of this process id uses, .\(name).tmp-\(getpid())-<n> and the like for n from \(takenTokens.lowerBound) to \(takenTokens.upperBound), are all taken, left by earlier processes with the same id; remove them")
            }
            try InterruptionGuard.shared.critical { () throws(ReportWriteError) in
                // The marker alone for now: an interruption removes a
                // temporary path only once this run has made it (each goes
                // ahead of the marker, which is removed after them).
                InterruptionGuard.shared.register(marker.path)
                if let failure = ReportDirectory.writeFile(bytes: "widgetsim \(getpid())\n".utf8, to: marker.path) {
                    // Made but not written (a full disk): a write failure,
                    // and the half-made marker goes. Not made: nothing to undo.
                    var status = stat()
                    let made = lstat(marker.path, &status) == 0
                    if made { _ = unlink(marker.path) }
                    for path in [temporary, retired, marker] { InterruptionGuard.shared.unregister(path.path) }
                    let place = "\(failure) (writing in \(marker.deletingLastPathComponent().path))"
                    throw made ? .cannotWrite(path: destination.path, reason: place) : refusal(place)
                }
                lock = open(marker.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                if lock >= 0 { _ = flock(lock, LOCK_EX) }
                guard directory else { return }
                do {
                    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
                    madeTemporary = true
                    InterruptionGuard.shared.register(temporary.path, before: marker.path)
                } catch {
                    _ = unlink(marker.path)
                    if lock >= 0 { close(lock) }
                    lock = -1
                    for path in [temporary, retired, marker] { InterruptionGuard.shared.unregister(path.path) }
                    throw .cannotCreate(path: destination.path, reason: reason(error))
                }
            }
        }

        /// Removes the temporary paths this run made, then the marker; the
        /// marker stays if a temporary path could not be removed, so that
        /// the next run to this destination removes what is left. A path
        /// the run did not make (one that appeared at its name meanwhile)
        /// is left alone.
        func end() {
            InterruptionGuard.shared.critical {
                var gone = true
                for (path, made) in [(temporary, madeTemporary), (retired, setAsideOldReports)] {
                    if made { gone = ReportDirectory.removeTree(path.path) && gone }
                    InterruptionGuard.shared.unregister(path.path)
                }
                if gone { _ = ReportDirectory.removeTree(marker.path) }
                InterruptionGuard.shared.unregister(marker.path)
                if lock >= 0 { close(lock) }
                lock = -1
            }
        }
    }

    /// Removes what runs killed before they could clean up left beside
    /// `destination`: for each marker whose process is gone and whose lock is free, its temporary
    /// paths, then the marker. Old reports a run set aside between two
    /// renames go back in place if nothing took it.
    static func cleanUpAfterKilledRuns(beside destination: URL) {
        let fileManager = FileManager.default
        let parent = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent)\(Scratch.markerInfix)"
        guard let names = try? fileManager.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names.sorted() where name.hasPrefix(prefix) {
            let token = name.dropFirst(prefix.count)
            let parts = token.split(separator: "-")
            guard parts.count == 2, let pid = DecimalDigits.unsigned(parts[0]), DecimalDigits.unsigned(parts[1]) != nil,
                  pid <= Int(Int32.max), !processIsAlive(pid_t(pid)), !markerIsLocked(parent.appendingPathComponent(name).path) else { continue }
            let temporary = parent.appendingPathComponent(".\(destination.lastPathComponent).tmp-\(token)")
            let retired = parent.appendingPathComponent(".\(destination.lastPathComponent).old-\(token)")
            InterruptionGuard.shared.critical {
                if fileManager.fileExists(atPath: retired.path) && !fileManager.fileExists(atPath: destination.path) {
                    _ = Foundation.rename(retired.path, destination.path)
                }
                let gone = removeTree(temporary.path) && removeTree(retired.path)
                if gone { _ = removeTree(parent.appendingPathComponent(name).path) }
            }
        }
    }

    /// Removes `path` and all below it; true when nothing is left there.
    /// Through descriptors (`DirectoryDescriptor.remove`): the old reports
    /// of another user's directory, removed by root, may be changed under
    /// it, and a directory swapped for a link must not lead it outside.
    static func removeTree(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        guard let parent = DirectoryDescriptor(path: url.deletingLastPathComponent().path) else {
            var status = stat()
            return lstat(path, &status) != 0
        }
        return parent.remove(DirectoryDescriptor.name(url.lastPathComponent))
    }

    /// True while the run that made the marker at `path` holds its lock.
    static func markerIsLocked(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else { return false }
        return errno == EWOULDBLOCK
    }

    /// False only when no process has this id (another user's process counts as alive).
    static func processIsAlive(_ pid: pid_t) -> Bool {
        if pid == getpid() { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Writes `bytes` to a new file at `path` with plain system calls: no
    /// temporary file of Foundation's own (`.dat.nosync*`) appears beside it,
    /// where a killed run would leave it unmarked. Returns why it failed, or nil.
    static func writeFile(bytes: some Sequence<UInt8>, to path: String) -> String? {
        var created = false
        return writeFile(bytes: bytes, to: path, created: &created)
    }

    /// As `writeFile(bytes:to:)`; `created` is set when the file was made,
    /// even if writing it then failed.
    static func writeFile(bytes: some Sequence<UInt8>, to path: String, created: inout Bool) -> String? {
        // Always a new file: a path planted in the way (a link to a file of
        // someone else's) makes the write fail rather than go through it.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        created = true
        defer { close(descriptor) }
        return WriteAll.write(Array(bytes)[...], to: descriptor).map { String(cString: strerror($0)) }
    }

    /// Test hook: with `WIDGETSIM_TEST_PAUSE_BEFORE_SWAP=<seconds>`, waits after
    /// writing every file and before moving them into place, so a test can
    /// interrupt a run at its most delicate moment.
    static func pauseForTests() {
        guard let text = ProcessInfo.processInfo.environment["WIDGETSIM_TEST_PAUSE_BEFORE_SWAP"],
              let seconds = Double(text), seconds > 0, seconds < 3_600 else { return }
        Thread.sleep(forTimeInterval: seconds)
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

/// What an interruption (SIGINT, SIGTERM, SIGHUP) may do, and when.
///
/// Promised: one lock orders everything. Writes to temporary paths and the
/// swap that puts new reports in place run holding it, so a signal handler,
/// which takes it and never gives it back, acts only between them: it
/// removes every registered temporary path and exits, 128 + the signal
/// number when the reports were not swapped ("earlier reports are
/// unchanged"), or 0 when the swap had already happened (the new reports are
/// complete). The normal exit takes the same lock, so a handler and the
/// normal end never race.
public final class InterruptionGuard: @unchecked Sendable {
    public static let shared = InterruptionGuard()
    private let lock = NSLock()
    private var paths: [String] = []
    private var tokens = 0
    /// Where the last swap put new reports, once it has happened.
    private var committed: String?

    /// A number unique within this process, for naming temporary paths.
    func nextToken() -> Int {
        lock.lock()
        defer { lock.unlock() }
        tokens += 1
        return tokens
    }

    /// Registers a path to remove on interruption; call inside `critical`.
    func register(_ path: String) { paths.append(path) }

    /// Registers a path its run made after its marker, ahead of the marker,
    /// which is removed only after the paths it vouches for; call inside `critical`.
    func register(_ path: String, before marker: String) {
        paths.insert(path, at: paths.firstIndex(of: marker) ?? paths.endIndex)
    }

    /// True while `path` would be removed by an interruption (for tests).
    func isRegistered(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return paths.contains(path)
    }

    /// Forgets a registered path; call inside `critical`.
    func unregister(_ path: String) { paths.removeAll { $0 == path } }

    /// Directories a run made for its reports, deepest first: an
    /// interruption removes each if it is still empty. Call inside `critical`.
    private var madeDirectories: [[String]] = []
    func registerMade(_ directories: [String]) { madeDirectories.append(directories) }
    func unregisterMade(_ directories: [String]) { madeDirectories.removeAll { $0 == directories } }

    /// Runs `body` so that an interruption cannot act in the middle of it.
    func critical<Failure: Error>(_ body: () throws(Failure) -> Void) throws(Failure) {
        lock.lock()
        defer { lock.unlock() }
        try body()
    }

    /// Runs the swap that puts new reports at `destination` as one critical
    /// section, and records that it happened when it succeeds.
    func commit<Failure: Error>(destination: String, _ body: () throws(Failure) -> Void) throws(Failure) {
        lock.lock()
        defer { lock.unlock() }
        try body()
        committed = destination
    }

    /// Handles `signal`: waits for a write or swap in progress, removes the
    /// temporary paths, says which state the reports are in, and exits.
    public func interrupted(by signal: Int32, report: (String) -> Void) -> Never {
        lock.lock()
        // Never unlocked: nothing may write, swap or exit after this.
        // A run's marker comes after its temporary paths in the list, and
        // stays if one of them could not be removed: the next run removes the rest.
        var gone = true
        for path in paths {
            if path.contains(ReportDirectory.Scratch.markerInfix) {
                if gone { _ = ReportDirectory.removeTree(path) }
                gone = true
            } else {
                gone = ReportDirectory.removeTree(path) && gone
            }
        }
        paths.removeAll()
        // After the paths inside them: only empty directories go.
        for made in madeDirectories.reversed() where committed == nil {
            for directory in made { _ = rmdir(directory) }
        }
        if let committed {
            report("widgetsim: interrupted after the new reports were in place; \(committed) is complete")
            Foundation.exit(0)
        }
        report("widgetsim: interrupted before any report was moved into place; earlier reports are unchanged")
        Foundation.exit(128 + signal)
    }

    /// Ends the process with `code`, never while a handler is at work.
    public func exit(_ code: Int32) -> Never {
        lock.lock()
        Foundation.exit(code)
    }
}
