import Foundation

// Tests run on Swift concurrency's pool, one thread per core: on a 2-core machine two
// tests blocked on a semaphore or a sleep stall every other test (their servers'
// clients time out). Waits of more than a moment go through these instead, which
// poll and yield the thread between polls.

/// Whether `semaphore` is signalled within `seconds`, waited for without holding a
/// thread of the pool (it is polled every 5 ms).
public func signalled(_ semaphore: DispatchSemaphore, within seconds: Double) async -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while semaphore.wait(timeout: .now()) == .timedOut {
        guard Date() < end else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// Whether `body`, run on a thread of its own, ends within `seconds`; waited for
/// without holding a thread of the pool. A body that never ends keeps its thread.
public func ends(within seconds: Double, _ body: @escaping @Sendable () -> Void) async -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread { body(); done.signal() }.start()
    return await signalled(done, within: seconds)
}

/// Whether `condition` comes true within `seconds`, asked every 10 ms, yielding
/// the thread between asks.
public func eventually(within seconds: Double, _ condition: () throws -> Bool) async rethrows -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < end else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
