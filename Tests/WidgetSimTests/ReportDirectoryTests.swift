import Foundation
import Testing
@testable import WidgetSim

/// Where reports go: a symbolic link is followed and stays a link, a path
/// that cannot hold reports is refused before any work, and what killed runs
/// left behind is removed by the next run, and only that.
@Suite("Report directory", .serialized)
struct ReportDirectoryTests {
    static let files = [ReportFile(name: "summary.md", contents: "new\n")]

    static func hidden(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.sorted()
    }

    /// The id of a process that has exited.
    static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func aSymlinkedDirectoryIsFollowedAndStaysALink() throws {
        let directory = Paths.temporaryDirectory("link")
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try "old\n".write(to: real.appendingPathComponent("summary.md"), atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        try ReportDirectory.write(Self.files, to: link.path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(try String(contentsOf: real.appendingPathComponent("summary.md"), encoding: .utf8) == "new\n")
        #expect(try Self.hidden(in: directory) == [])
    }

    @Test func aFileOrADanglingLinkIsRefusedBeforeAnyWork() throws {
        let directory = Paths.temporaryDirectory("refuse")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("file")
        try "mine".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: ReportWriteError.cannotCreate(path: file.path, reason: "it is a file, not a directory")) {
            try ReportDirectory.checkDestination(file.path)
        }
        let dangling = directory.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: directory.appendingPathComponent("nowhere").path)
        #expect(throws: ReportWriteError.self) { try ReportDirectory.checkDestination(dangling.path) }
        #expect(try String(contentsOf: file, encoding: .utf8) == "mine")
    }

    @Test func theNextRunRemovesWhatAKilledRunLeftBehind() throws {
        let directory = Paths.temporaryDirectory("leftovers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dead = try Self.deadProcessID()
        // What a run killed while writing leaves: its marker and its staging directory.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(".out.tmp-\(dead)-1"), withIntermediateDirectories: true)
        try "half".write(to: directory.appendingPathComponent(".out.tmp-\(dead)-1/summary.md"), atomically: true, encoding: .utf8)
        try "widgetsim \(dead)\n".write(to: directory.appendingPathComponent(".out.widgetsim-run-\(dead)-1"), atomically: true, encoding: .utf8)
        // A live run's, and a stranger's hidden file, stay.
        let live = getppid()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(".out.tmp-\(live)-1"), withIntermediateDirectories: true)
        try "widgetsim \(live)\n".write(to: directory.appendingPathComponent(".out.widgetsim-run-\(live)-1"), atomically: true, encoding: .utf8)
        try "mine".write(to: directory.appendingPathComponent(".out.tmp-notes"), atomically: true, encoding: .utf8)
        try ReportDirectory.write(Self.files, to: directory.appendingPathComponent("out").path)
        #expect(try Self.hidden(in: directory) == [".out.tmp-\(live)-1", ".out.tmp-notes", ".out.widgetsim-run-\(live)-1"])
    }

    /// Scratch paths of this process's id that an earlier process with the
    /// same id left without a marker (pids repeat, in a container from 1)
    /// are passed over, not removed, and the run completes.
    @Test func scratchPathsTakenByAnEarlierProcessOfTheSameIdArePassedOver() throws {
        let directory = Paths.temporaryDirectory("taken")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The next tokens this process hands out (other tests may take some meanwhile).
        let next = InterruptionGuard.shared.nextToken() + 1
        let taken = (next..<next + 200).map { directory.appendingPathComponent(".out.tmp-\(getpid())-\($0)") }
        for path in taken { try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false) }
        try ReportDirectory.write(Self.files, to: directory.appendingPathComponent("out").path)
        #expect(try String(contentsOf: directory.appendingPathComponent("out/summary.md"), encoding: .utf8) == "new\n")
        #expect(try Self.hidden(in: directory) == taken.map(\.lastPathComponent).sorted())
    }

    /// When every token a run may try is taken, the run refuses, naming
    /// them, and removes none of what it found: a report directory and a
    /// single file alike.
    @Test func whenEveryScratchTokenIsTakenTheRunRefusesAndRemovesNothing() throws {
        let directory = Paths.temporaryDirectory("all-taken")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (write, name) in [
            ({ try ReportDirectory.write(Self.files, to: $0) } as (String) throws -> Void, "out"),
            ({ try ReportDirectory.writeFile("new\n", to: $0) }, "log.csv"),
        ] {
            // The next tokens this process hands out, and room for those other tests take meanwhile.
            let next = InterruptionGuard.shared.nextToken() + 1
            for token in next..<next + ReportDirectory.Scratch.maximumTokensTried + 500 {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent(".\(name).tmp-\(getpid())-\(token)"), withIntermediateDirectories: false)
                try "mine\n".write(to: directory.appendingPathComponent(".\(name).old-\(getpid())-\(token)"), atomically: false, encoding: .utf8)
            }
            let before = try Self.hidden(in: directory)
            do {
                try write(directory.appendingPathComponent(name).path)
                Issue.record("\(name): the run went ahead")
            } catch {
                #expect("\(error)".contains("are all taken, left by earlier processes with the same id; remove them"), "\(error)")
            }
            #expect(try Self.hidden(in: directory) == before)
        }
    }

    /// An interruption removes only what its run made: the path the old
    /// reports may be set aside at is not the run's until they are moved
    /// there, and a single file's temporary path not until it is written.
    @Test func anInterruptionWouldRemoveOnlyWhatTheRunMade() throws {
        let directory = Paths.temporaryDirectory("registered")
        defer { try? FileManager.default.removeItem(at: directory) }
        let reports = ReportDirectory.Scratch(beside: directory.appendingPathComponent("out"))
        try reports.begin(directory: true)
        #expect(InterruptionGuard.shared.isRegistered(reports.marker.path))
        #expect(InterruptionGuard.shared.isRegistered(reports.temporary.path))
        #expect(!InterruptionGuard.shared.isRegistered(reports.retired.path))
        reports.end()
        #expect(!InterruptionGuard.shared.isRegistered(reports.marker.path))
        let file = ReportDirectory.Scratch(beside: directory.appendingPathComponent("log.csv"))
        try file.begin(directory: false)
        #expect(InterruptionGuard.shared.isRegistered(file.marker.path))
        #expect(!InterruptionGuard.shared.isRegistered(file.temporary.path))
        file.end()
        #expect(try Self.hidden(in: directory) == [])
    }

    /// A name the file system takes, but too long for the temporary names
    /// beside it, is refused before any work, saying so (a single file in
    /// its own words).
    @Test func aNameTooLongForTheTemporaryNamesBesideItIsRefused() throws {
        let directory = Paths.temporaryDirectory("long")
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = String(repeating: "a", count: 240)
        for (write, expected) in [
            ({ try ReportDirectory.write(Self.files, to: directory.appendingPathComponent(name).path) } as () throws -> Void,
             "cannot create the report directory: its name is 240 bytes, too long for the temporary names"),
            ({ try ReportDirectory.writeFile("x\n", to: directory.appendingPathComponent(name + ".csv").path) },
             "cannot write the file there: its name is 244 bytes, too long for the temporary names"),
        ] {
            do {
                try write()
                Issue.record("written: \(expected)")
            } catch {
                #expect("\(error)".contains(expected), "\(error)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    /// A run whose process this one cannot see (another PID namespace: a
    /// container sharing the volume) still holds its marker's lock, and its
    /// scratch paths are left alone until it lets go.
    @Test func aLockedMarkerOfAnUnseenProcessIsLeftAlone() throws {
        let directory = Paths.temporaryDirectory("locked")
        defer { try? FileManager.default.removeItem(at: directory) }
        let unseen = try Self.deadProcessID()
        let marker = directory.appendingPathComponent(".out.widgetsim-run-\(unseen)-1")
        let scratch = directory.appendingPathComponent(".out.tmp-\(unseen)-1")
        try "widgetsim \(unseen)\n".write(to: marker, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let held = open(marker.path, O_RDONLY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        ReportDirectory.cleanUpAfterKilledRuns(beside: directory.appendingPathComponent("out"))
        #expect(FileManager.default.fileExists(atPath: scratch.path))
        close(held)
        ReportDirectory.cleanUpAfterKilledRuns(beside: directory.appendingPathComponent("out"))
        #expect(try Self.hidden(in: directory) == [])
    }

    /// A run killed between the two renames of the fallback swap leaves the
    /// old reports set aside and no directory: the next run puts them back first.
    @Test func oldReportsSetAsideByAKilledRunGoBack() throws {
        let directory = Paths.temporaryDirectory("retired")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dead = try Self.deadProcessID()
        let retired = directory.appendingPathComponent(".out.old-\(dead)-1")
        try FileManager.default.createDirectory(at: retired, withIntermediateDirectories: true)
        try "old\n".write(to: retired.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try "old\n".write(to: retired.appendingPathComponent("summary.md"), atomically: true, encoding: .utf8)
        try "widgetsim \(dead)\n".write(to: directory.appendingPathComponent(".out.widgetsim-run-\(dead)-1"), atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        try ReportDirectory.write(Self.files, to: out.path)
        // The old directory came back, and this run's reports replaced its files (keeping the others).
        #expect(try String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8) == "old\n")
        #expect(try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8) == "new\n")
        #expect(try Self.hidden(in: directory) == [])
    }

    /// What a run does not write is carried over by hard links, never read:
    /// a named pipe would block a copy for ever (and with it every signal),
    /// a sparse file would be copied at its full size. Each keeps its inode.
    @Test func carriedOverEntriesAreLinkedNotCopied() throws {
        let directory = Paths.temporaryDirectory("carry")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try "old\n".write(to: out.appendingPathComponent("summary.md"), atomically: true, encoding: .utf8)
        try "mine\n".write(to: out.appendingPathComponent("notes/today.txt"), atomically: true, encoding: .utf8)
        let sparse = out.appendingPathComponent("big.bin")
        #expect(FileManager.default.createFile(atPath: sparse.path, contents: nil))
        #expect(truncate(sparse.path, 1 << 34) == 0)
        #expect(mkfifo(out.appendingPathComponent("pipe").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent("link").path, withDestinationPath: "notes/today.txt")
        #expect(chmod(out.path, 0o750) == 0)
        var before = stat()
        #expect(lstat(sparse.path, &before) == 0)

        // Bounded: should the pipe ever be opened again, a writer unblocks it and the test fails.
        let finished = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        Thread.detachNewThread {
            do { try ReportDirectory.write(Self.files, to: out.path) } catch { outcome.error = error }
            finished.signal()
        }
        if finished.wait(timeout: .now() + 60) == .timedOut {
            Issue.record("writing blocked on the named pipe")
            let unblock = open(out.appendingPathComponent("pipe").path, O_WRONLY | O_NONBLOCK)
            if unblock >= 0 { close(unblock) }
            finished.wait()
        }
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        var after = stat()
        #expect(lstat(sparse.path, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == 1 << 34)
        var pipe = stat()
        #expect(lstat(out.appendingPathComponent("pipe").path, &pipe) == 0 && pipe.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: out.appendingPathComponent("link").path) == "notes/today.txt")
        #expect(try String(contentsOf: out.appendingPathComponent("notes/today.txt"), encoding: .utf8) == "mine\n")
        #expect(try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8) == "new\n")
        var mode = stat()
        #expect(stat(out.path, &mode) == 0 && mode.st_mode & 0o7777 == 0o750)
        #expect(try Self.hidden(in: directory) == [])
    }

    final class OutcomeBox: @unchecked Sendable {
        var error: Error?
    }

    /// A single output file never replaces a device or a pipe (as root,
    /// `--device-log /dev/null` once replaced /dev/null); a link is followed.
    @Test func aFileDestinationThatIsNotAFileIsRefusedAndALinkIsFollowed() throws {
        let directory = Paths.temporaryDirectory("file-destination")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipe = directory.appendingPathComponent("pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        #expect(throws: ReportWriteError.cannotCreateFile(
            path: pipe.path, reason: "it is a named pipe (FIFO), not a regular file; give the path of a file")) {
            try ReportDirectory.writeFile("x", to: pipe.path)
        }
        var status = stat()
        #expect(lstat(pipe.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        let target = directory.appendingPathComponent("target.txt")
        let link = directory.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        try ReportDirectory.writeFile("through the link\n", to: link.path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "through the link\n")
        #expect(try Self.hidden(in: directory) == [])
    }

    /// The current directory, or one holding it, is never replaced: the
    /// shell would be left in a deleted directory.
    @Test func theCurrentDirectoryAndItsAncestorsAreRefused() throws {
        for path in [".", "..", FileManager.default.currentDirectoryPath] {
            #expect(throws: ReportWriteError.self, "\(path)") { try ReportDirectory.checkDestination(path) }
        }
    }

    /// A run that fails leaves none of the directories it made for its
    /// reports: a name too long for the file system fails after the parents
    /// of a nested --out were made.
    @Test func aFailedRunLeavesNoDirectoryItMade() throws {
        let directory = Paths.temporaryDirectory("made")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tooLong = directory.appendingPathComponent("a/b/c/" + String(repeating: "n", count: 250))
        #expect(throws: ReportWriteError.self) { try ReportDirectory.write(Self.files, to: tooLong.path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
        #expect(throws: ReportWriteError.self) { try ReportDirectory.writeFile("x", to: tooLong.path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    /// A link is followed as the system follows it: "../x" inside a linked
    /// directory is beside the directory the link names, not beside the link.
    @Test func aLinkIsFollowedAsTheSystemFollowsItNotAsText() throws {
        let directory = Paths.temporaryDirectory("physical")
        defer { try? FileManager.default.removeItem(at: directory) }
        let deep = directory.appendingPathComponent("real/deep/a")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("a").path, withDestinationPath: "real/deep/a")
        try FileManager.default.createSymbolicLink(atPath: deep.appendingPathComponent("log").path, withDestinationPath: "../log.csv")
        let users = directory.appendingPathComponent("log.csv")
        try "the user's\n".write(to: users, atomically: true, encoding: .utf8)
        try ReportDirectory.writeFile("through the link\n", to: directory.appendingPathComponent("a/log").path)
        #expect(try String(contentsOf: users, encoding: .utf8) == "the user's\n")
        #expect(try String(contentsOf: directory.appendingPathComponent("real/deep/log.csv"), encoding: .utf8) == "through the link\n")
    }

    /// A path that goes on through a link leading nowhere, or a loop, is
    /// refused: the system would not follow it, and read as text
    /// "dangling/../x" names another file.
    @Test func aPathThroughABrokenLinkIsRefused() throws {
        let directory = Paths.temporaryDirectory("broken-link")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("dangling").path, withDestinationPath: "nowhere/deeper")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("loop").path, withDestinationPath: "loop")
        let users = directory.appendingPathComponent("user.csv")
        try "the user's\n".write(to: users, atomically: true, encoding: .utf8)
        for link in ["dangling", "loop"] {
            #expect(throws: ReportWriteError.self, "\(link)") {
                try ReportDirectory.writeFile("x", to: directory.appendingPathComponent("\(link)/../user.csv").path)
            }
            #expect(throws: ReportWriteError.self, "\(link)") { try ReportDirectory.checkDestination(directory.appendingPathComponent("\(link)/../out").path) }
        }
        #expect(try String(contentsOf: users, encoding: .utf8) == "the user's\n")
    }

    /// Every file the tool makes is new: a link planted where it writes is
    /// never written through.
    @Test func aLinkPlantedWhereAFileIsMadeIsNotWrittenThrough() throws {
        let directory = Paths.temporaryDirectory("planted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim")
        try "secret\n".write(to: victim, atomically: true, encoding: .utf8)
        let planted = directory.appendingPathComponent(".out.tmp-1-1")
        try FileManager.default.createSymbolicLink(atPath: planted.path, withDestinationPath: victim.path)
        #expect(ReportDirectory.writeFile(bytes: "report\n".utf8, to: planted.path) != nil)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "secret\n")
    }

    /// What reaches the old directory while a run writes (a note, another
    /// run's report) moves into the new one; what the run drops stays out.
    @Test func entriesThatArriveDuringARunAreMovedIntoTheNewReports() throws {
        let directory = Paths.temporaryDirectory("late")
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = directory.appendingPathComponent("old"), new = directory.appendingPathComponent("new")
        for url in [old, new] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        for name in ["summary.md", "late.txt", "trace.json"] { try "old \(name)".write(to: old.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        try "new summary".write(to: new.appendingPathComponent("summary.md"), atomically: true, encoding: .utf8)
        // A carried-over note edited by replacing it, and a file added in a carried-over subdirectory.
        try FileManager.default.createDirectory(at: new.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: old.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try "added".write(to: old.appendingPathComponent("notes/added.txt"), atomically: true, encoding: .utf8)
        try "v1".write(to: old.appendingPathComponent("edited.txt"), atomically: true, encoding: .utf8)
        #expect(link(old.appendingPathComponent("edited.txt").path, new.appendingPathComponent("edited.txt").path) == 0)
        try "v2".write(to: old.appendingPathComponent("edited.txt"), atomically: true, encoding: .utf8)
        let (from, to) = (try #require(DirectoryDescriptor(path: old.path)), try #require(DirectoryDescriptor(path: new.path)))
        ReportDirectory.rescueLateArrivals(from: from, into: to, path: old.path, produced: ["summary.md"]) { $0 == "trace.json" }
        #expect(try FileManager.default.contentsOfDirectory(atPath: new.path).sorted() == ["edited.txt", "late.txt", "notes", "summary.md"])
        #expect(try String(contentsOf: new.appendingPathComponent("summary.md"), encoding: .utf8) == "new summary")
        #expect(try String(contentsOf: new.appendingPathComponent("edited.txt"), encoding: .utf8) == "v2")
        #expect(try String(contentsOf: new.appendingPathComponent("notes/added.txt"), encoding: .utf8) == "added")
    }

    @Test func aPartialFileIsWrittenWholeAndLeavesNothingBeside() throws {
        let directory = Paths.temporaryDirectory("partial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("part.txt").path
        try ReportDirectory.writeFile("one\n", to: path)
        try ReportDirectory.writeFile("two\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two\n")
        #expect(try Self.hidden(in: directory) == [])
        #expect(throws: ReportWriteError.self) { try ReportDirectory.writeFile("x", to: directory.path) }
    }
}
