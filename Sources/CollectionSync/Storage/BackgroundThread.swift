import Foundation

/// A serial queue of work that may wait, run on a thread of its own at the lowest
/// CPU priority (nice 19): a store folding its log into its model (a quarter of a
/// second of CPU for 2,200 items) then never takes a core from a server's service
/// thread. On a dispatch queue it did, and edits waited: an edit → viewer p99 of
/// 22-41 ms at 200 edits/s where it is 5-13 ms otherwise (2 cores, 1-3 nodes).
///
/// The thread starts with the first work queued and ends when none is left; under
/// full load the work still gets a small share of the processor, and is only later.
package final class BackgroundThread: @unchecked Sendable {
    private let name: String
    /// The thread's nice value: 19 (the lowest priority) unless told otherwise.
    private let nice: Int32
    private let condition = NSCondition()
    // Behind `condition`.
    private var queue: [@Sendable () -> Void] = []
    private var running = false

    /// A queue; `name` is its thread's, as `top -H` shows it (its first 15 bytes:
    /// Linux's limit).
    package init(name: String, nice: Int32 = 19) {
        self.name = name
        self.nice = nice
    }

    /// Runs `work` after the work queued before it.
    package func async(_ work: @escaping @Sendable () -> Void) {
        condition.withLock {
            queue.append(work)
            guard !running else { return }
            running = true
            Thread { [self] in loop() }.start()
        }
    }

    /// Waits until the work queued so far (and any queued meanwhile) is done.
    package func sync() {
        condition.withLock {
            while running { condition.wait() }
        }
    }

    /// Names the calling thread for `top -H` and `perf` (its first 15 bytes), as
    /// `prctl(PR_SET_NAME)` would (neither it nor `pthread_setname_np` is visible
    /// from Swift here). Foundation's `Thread.name`, set before `start()` or even
    /// from the thread, may name only the Foundation object: it names the OS thread
    /// once it knows its handle, set after the thread may already be running.
    package static func nameCurrentThread(_ name: String) {
        try? String(decoding: name.utf8.prefix(15), as: UTF8.self).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    }

    /// This thread's nice value (Linux keeps one per thread).
    package static var currentNice: Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    private func loop() {
        Self.nameCurrentThread(name)
        // On Linux the nice value is the calling thread's alone.
        if nice != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
        while true {
            let work: (@Sendable () -> Void)? = condition.withLock {
                guard !queue.isEmpty else {
                    running = false
                    condition.broadcast()
                    return nil
                }
                return queue.removeFirst()
            }
            guard let work else { return }
            work()
        }
    }
}
