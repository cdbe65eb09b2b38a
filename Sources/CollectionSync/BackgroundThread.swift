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
    private let condition = NSCondition()
    // Behind `condition`.
    private var queue: [@Sendable () -> Void] = []
    private var running = false

    /// A queue; `name` is its thread's, as `top -H` shows it: at most 15 bytes
    /// (Linux's limit; a longer one is not given).
    package init(name: String) { self.name = name }

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

    /// This thread's nice value (Linux keeps one per thread).
    package static var currentNice: Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    private func loop() {
        // Named from the thread itself: Foundation on Linux names the OS thread only
        // then. On Linux the nice value is the calling thread's alone too.
        Thread.current.name = name
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
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
