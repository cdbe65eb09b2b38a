import Foundation
import NIOCore

/// Waits for postgres-nio's futures on the calling thread, each with a deadline
/// of its own that fires whatever the event loop is doing: a timer scheduled on
/// the loop never fires while the loop is blocked, and a wait that depends on it
/// is how a node once hung for good. ``cutShort(within:)`` (the server stopping)
/// ends every wait under way and to come within a moment.
///
/// The event loop only ever takes this object's lock to hand over a result; no
/// one holds it while waiting for anything.
package final class BoundedWaits: @unchecked Sendable {
    private let condition = NSCondition()
    /// When every wait gives up (set by ``cutShort(within:)``), guarded by `condition`.
    private var cutOffAt: Double?

    package init() {}

    /// The outcome of one future, guarded by `condition`.
    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    package static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// `future`'s value, or nil when it did not complete within `seconds` (or the
    /// waits were cut short); throws what it failed with.
    package func value<T>(of future: EventLoopFuture<T>, within seconds: Double) throws -> T? {
        let outcome = Outcome<T>()
        future.whenComplete { [condition] result in
            condition.lock()
            outcome.result = result
            condition.broadcast()
            condition.unlock()
        }
        let deadline = Self.now + seconds
        condition.lock()
        defer { condition.unlock() }
        while outcome.result == nil {
            let limit = min(deadline, cutOffAt ?? .infinity)
            let left = limit - Self.now
            if left <= 0 { return nil }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
        return try outcome.result!.get()
    }

    /// Every wait under way, and every one after, ends `seconds` from now at the latest.
    package func cutShort(within seconds: Double) {
        condition.lock()
        cutOffAt = min(cutOffAt ?? .infinity, Self.now + seconds)
        condition.broadcast()
        condition.unlock()
    }

    /// Whether waits are being cut short (the server is stopping).
    package var isCutShort: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cutOffAt != nil
    }
}
