import Foundation

/// Runs `work`, which may block its thread (opening a store waits on the disk or on
/// PostgreSQL, a stop on the last commit and the connections' close), on a thread of
/// its own while the caller's task suspends: no thread of Swift's cooperative pool
/// is held.
///
/// - Parameter work: What to run.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
        Thread { done.resume(with: Result { try work() }) }.start()
    }
}
