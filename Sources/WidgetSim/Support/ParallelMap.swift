import Dispatch
import Foundation

/// Runs independent jobs on several threads and returns their results in job
/// order, so the output never depends on which thread finished first.
enum ParallelMap {
    /// `work(0) ... work(count - 1)` on up to `threads` threads.
    /// `progress` is called (serially) after each job with the number done.
    static func map<Result: Sendable>(
        count: Int, threads: Int, progress: (@Sendable (Int) -> Void)? = nil, _ work: @Sendable (Int) -> Result
    ) -> [Result] {
        let box = ResultBox<Result>(count: count)
        let workers = max(1, min(threads, count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var job = worker
            while job < count {
                box.store(work(job), at: job, progress: progress)
                job += workers
            }
        }
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
