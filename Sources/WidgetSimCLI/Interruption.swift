#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WidgetSim

/// SIGINT, SIGTERM and SIGHUP end the run cleanly through
/// `InterruptionGuard`: temporary files are removed, the reports are either
/// the old ones (exit 130, 143 or 129) or the complete new ones (exit 0),
/// and the message says which. SIGPIPE is ignored, so a closed output pipe
/// ends nothing half-way.
public enum Interruption {
    /// Installs the handlers; call once, before any work.
    ///
    /// The signals are blocked in this thread, so every thread started later
    /// inherits the mask, and one thread of their own waits for them
    /// (`sigwait`) and runs the clean-up, which may take locks and remove
    /// files as no C signal handler may. That thread is started here, at
    /// once: a handler that needed a thread only when the signal came (a
    /// Dispatch source did) never ran when the system would start no more
    /// threads, and the signals were lost. A thread started before this call
    /// (by a package of your own, before `main`) does not block them, and
    /// the system may give it one: a handler there only passes the signal
    /// on to the waiting thread (`pthread_kill`, which a handler may call).
    /// If even the waiting thread is refused, the signals keep their default
    /// action: they end the run at once, as SIGKILL would, the earlier
    /// reports unchanged, and the next run removes what this one left in
    /// the temporary directory.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        // `nohup` starts a command with SIGHUP ignored so that it outlives
        // its terminal: that request is kept, and only the other signals
        // are taken.
        if isIgnored(SIGHUP) { handled.removeAll { $0 == SIGHUP } }
        var signals = interruptionSignals()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let waiter = WorkerThread.start {
            var signals = interruptionSignals()
            while true {
                var number: Int32 = 0
                guard sigwait(&signals, &number) == 0 else { continue }
                InterruptionGuard.shared.interrupted(by: number) { message in
                    ProgressLine.stopForInterruption()
                    StandardConsole().err(message)
                }
            }
        }
        guard let waiter else {
            // Whatever the parent left (a shell starts its background jobs
            // with SIGINT ignored): a run is always interruptible.
            for number in handled { signal(number, SIG_DFL) }
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            return
        }
        waitingThread = waiter.handle
        // Set whatever the parent left (a shell starts its background jobs
        // with SIGINT ignored, and an ignored signal may be dropped rather
        // than kept for `sigwait`): a run is always interruptible, by the
        // signals it handles (not SIGHUP under `nohup`, above).
        for number in handled { signal(number, forwardToWaitingThread) }
    }

    /// The thread `install` started to wait for the signals; set before any
    /// handler that reads it is installed, and never again.
    nonisolated(unsafe) private static var waitingThread: pthread_t?

    /// The handler of a signal delivered to a thread that does not block
    /// it: it passes the signal to the waiting thread, which blocks it and
    /// so takes it with `sigwait`.
    private static let forwardToWaitingThread: @convention(c) (Int32) -> Void = { number in
        if let thread = Interruption.waitingThread { pthread_kill(thread, number) }
    }

    /// The signals that end a run cleanly: SIGHUP left out by `install`
    /// when the run was started with it ignored (`nohup`). Set there, before
    /// the threads widgetsim starts, and never again.
    nonisolated(unsafe) static private(set) var handled = [SIGINT, SIGTERM, SIGHUP]

    /// True when the process was started with `number` ignored.
    static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #else
        let handler = current.__sigaction_u.__sa_handler
        #endif
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// `handled` as a signal set.
    static func interruptionSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in handled { sigaddset(&signals, number) }
        return signals
    }

    /// Ends the process with `code`, never racing a handler.
    public static func exit(_ code: Int32) -> Never {
        InterruptionGuard.shared.exit(code)
    }
}
