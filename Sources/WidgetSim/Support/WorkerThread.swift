#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own, started with POSIX threads so that a refusal is
/// seen: when the system will start no more threads (a container's process
/// limit, `ulimit -u`), `start` returns nil and the caller does the work
/// itself. Dispatch's `concurrentPerform` instead waited for a thread that
/// never came, forever, and so did its signal handlers.
package final class WorkerThread: @unchecked Sendable {
    private let thread: pthread_t
    private var joined = false

    private init(thread: pthread_t) {
        self.thread = thread
    }

    /// Runs `body` on a new thread; nil, with `body` not run, when the
    /// system refuses one.
    package static func start(_ body: @escaping @Sendable () -> Void) -> WorkerThread? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { Body.run(WorkerThread.pointer($0)) }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        #else
        // Darwin's pthread_t is a pointer, written through an optional.
        var created: pthread_t?
        let status = pthread_create(&created, nil, { Body.run(WorkerThread.pointer($0)) }, context)
        guard status == 0, let thread = created else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        #endif
        return WorkerThread(thread: thread)
    }

    /// The thread, for `pthread_kill`.
    package var handle: pthread_t { thread }

    /// Waits for the thread to end. Call once, from one thread.
    package func join() {
        precondition(!joined, "WorkerThread: joined twice")
        joined = true
        pthread_join(thread, nil)
    }

    /// The start routine's argument, whether the platform declares it
    /// optional (Glibc) or not (Darwin).
    private static func pointer(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
        argument!
    }

    /// The closure, boxed to travel through the start routine's pointer.
    private final class Body {
        let body: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }

        static func run(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }
    }
}
