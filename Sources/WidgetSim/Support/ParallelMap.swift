import Foundation

/// Runs independent jobs on several threads and returns their results in job
/// order, so the output never depends on which thread finished first.
enum ParallelMap {
    /// `work(0) ... work(count - 1)` on up to `threads` threads (and no more
    /// than the machine's cores), the calling thread one of them. `progress` is called (serially) after each job
    /// with the number done.
    ///
    /// Worker `w` takes jobs `w`, `w + workers`, ... A worker whose thread
    /// the system refuses (`WorkerThread`) is run by the calling thread
    /// after its own share: the results are the same, only later.
    /// `startThread` is `WorkerThread.start` but in tests, which refuse threads.
    static func map<Result: Sendable>(
        count: Int, threads: Int, progress: (@Sendable (Int) -> Void)? = nil,
        startThread: (@escaping @Sendable () -> Void) -> WorkerThread? = WorkerThread.start,
        _ work: @escaping @Sendable (Int) -> Result
    ) -> [Result] {
        let box = ResultBox<Result>(count: count)
        // No more threads than cores, as Dispatch ran them: `--threads 256`
        // asks for the work to be split so, not for 256 threads' memory.
        let workers = max(1, min(threads, count, ProcessInfo.processInfo.activeProcessorCount))
        let share: @Sendable (Int) -> Void = { worker in
            var job = worker
            while job < count {
                box.store(work(job), at: job, progress: progress)
                job += workers
            }
        }
        var started: [WorkerThread] = []
        var refused: [Int] = []
        for worker in 1..<workers {
            if let thread = startThread({ share(worker) }) {
                started.append(thread)
            } else {
                refused.append(worker)
            }
        }
        share(0)
        for worker in refused { share(worker) }
        for thread in started { thread.join() }
        return box.results()
    }
}

/// Results written by index under a lock.
private final class ResultBox<Result>: @unchecked Sendable {
    private var slots: [Result?]
    private var done = 0
    private let lock = NSLock()

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func store(_ result: Result, at index: Int, progress: (@Sendable (Int) -> Void)?) {
        lock.lock()
        slots[index] = result
        done += 1
        let finished = done
        progress?(finished)
        lock.unlock()
    }

    func results() -> [Result] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}
