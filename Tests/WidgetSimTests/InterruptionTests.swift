import Foundation
import Testing

/// An interrupted run leaves the previous reports byte for byte as they were
/// and no temporary files behind.
@Suite("Interruption", .serialized)
struct InterruptionTests {
    /// The bytes of every file in `directory`, by name.
    static func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    /// Starts widgetsim with `arguments` (and `environment` added), waits until
    /// `ready` holds, then sends `signal`; returns the exit status.
    static func interrupt(_ arguments: [String], environment: [String: String] = [:], signal: Int32, when ready: () -> Bool) throws -> Int32 {
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = arguments
        process.currentDirectoryURL = Paths.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardError = Pipe()
        process.standardOutput = Pipe()
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !ready() && process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(process.isRunning, "the run ended before it could be interrupted")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Starts `executable` with `arguments` (and `environment` added),
    /// sends `signal` `after` seconds, and returns the ended process and
    /// what it wrote on standard error.
    static func signalled(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], after seconds: Double, signal: Int32
    ) throws -> (process: Process, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Paths.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        Thread.sleep(forTimeInterval: seconds)
        #expect(process.isRunning, "the run ended before the signal")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return (process, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    static func leftovers(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
    }

    @Test func interruptedWhileWritingReportsTheOldReportIsIntact() throws {
        let directory = Paths.temporaryDirectory("swap")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let first = try CommandLineTests.widgetsim(["simulate", "weather", "--days", "1", "--out", out.path, "-q"])
        #expect(first.status == 0)
        let before = try Self.snapshot(out)
        // SIGINT arrives while the new files are being written (or wait, all
        // written, just before the swap): the old reports must not change.
        let status = try Self.interrupt(
            ["simulate", "weather", "--days", "2", "--out", out.path, "-q"],
            environment: ["WIDGETSIM_TEST_PAUSE_BEFORE_SWAP": "30"], signal: SIGINT) {
                ((try? Self.leftovers(in: directory)) ?? []).contains { $0.hasPrefix(".reports.tmp-") }
            }
        #expect(status == 130)
        #expect(try Self.snapshot(out) == before)
        #expect(try Self.leftovers(in: directory) == [])
    }

    /// The directories a run made for its first reports go with it when it
    /// is interrupted before the swap: nothing is left where nothing was.
    @Test func interruptedBeforeItsFirstReportsARunLeavesNoDirectoryItMade() throws {
        let directory = Paths.temporaryDirectory("made-interrupted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("a/b/reports")
        let status = try Self.interrupt(
            ["simulate", "weather", "--days", "1", "--out", out.path, "-q"],
            environment: ["WIDGETSIM_TEST_PAUSE_BEFORE_SWAP": "30"], signal: SIGINT) {
                ((try? Self.leftovers(in: directory.appendingPathComponent("a/b"))) ?? []).contains { $0.hasPrefix(".reports.tmp-") }
            }
        #expect(status == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    /// A directory holding a small fleet report under `reports`, and that
    /// report's files, for a longer run to be interrupted into.
    static func fleetReports(_ label: String) throws -> (directory: URL, out: URL, before: [String: Data]) {
        let directory = Paths.temporaryDirectory(label)
        let out = directory.appendingPathComponent("reports")
        let first = try CommandLineTests.widgetsim(["fleet", "fleet-weather", "--devices", "5", "--days", "1", "--out", out.path, "-q"])
        #expect(first.status == 0)
        return (directory, out, try Self.snapshot(out))
    }

    @Test func interruptedWhileSimulatingTheOldReportIsIntact() throws {
        let (directory, out, before) = try Self.fleetReports("running")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A run long enough to be caught mid-simulation.
        let started = Date()
        let status = try Self.interrupt(["fleet", "fleet-weather", "--devices", "200000", "--out", out.path, "-q"], signal: SIGTERM) {
            Date().timeIntervalSince(started) > 1
        }
        #expect(status == 143)
        #expect(try Self.snapshot(out) == before)
        #expect(try Self.leftovers(in: directory) == [])
    }

    /// A package of your own may start a thread before it calls `main`;
    /// that thread does not block the signals, and the system may deliver
    /// one there. It is passed on to the handler's thread: the run still
    /// ends cleanly, with its message and its exit status (before, such a
    /// signal killed the process outright, which a shell also reports as
    /// 128 + the signal, so the test asks how the process ended).
    @Test func aSignalDeliveredToAThreadStartedBeforeTheHandlersStillEndsTheRunCleanly() throws {
        let (directory, out, before) = try Self.fleetReports("early-thread")
        defer { try? FileManager.default.removeItem(at: directory) }
        for signal in [SIGINT, SIGTERM] {
            let (process, message) = try Self.signalled(
                Paths.binary, ["fleet", "fleet-weather", "--devices", "200000", "--out", out.path, "-q"],
                environment: ["WIDGETSIM_TEST_THREAD_BEFORE_INSTALL": "1"], after: 1, signal: signal)
            #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
            #expect(process.terminationStatus == 128 + signal)
            #expect(message.contains("interrupted before any report was moved into place; earlier reports are unchanged"), "\(message)")
            #expect(try Self.snapshot(out) == before)
            #expect(try Self.leftovers(in: directory) == [])
        }
    }

    /// `nohup` starts a command with SIGHUP ignored, so that it outlives the
    /// terminal it was started from: the run keeps that, and a hang-up
    /// neither ends it nor costs it its reports (before, every run took
    /// SIGHUP and ended with exit 129).
    @Test func aRunStartedWithHangUpIgnoredAsByNohupOutlivesAHangUp() throws {
        let (directory, out, before) = try Self.fleetReports("nohup")
        defer { try? FileManager.default.removeItem(at: directory) }
        // `trap '' HUP` is what `nohup` does, and `exec` keeps it for widgetsim.
        let (process, message) = try Self.signalled(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "trap '' HUP; exec \"$0\" \"$@\"", Paths.binary.path,
             "fleet", "fleet-weather", "--devices", "1000", "--days", "1", "--out", out.path, "-q"],
            after: 0.5, signal: SIGHUP)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "status \(process.terminationStatus): \(message)")
        #expect(message == "")
        let after = try Self.snapshot(out)
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(after != before, "the reports are the new run's")
        #expect(try Self.leftovers(in: directory) == [])
    }
}
