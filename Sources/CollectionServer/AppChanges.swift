import CollectionProtocol
import CollectionSync

/// Where the app's changes run (``LiveCollection/apply(_:reloading:by:)`` and the
/// other `async` calls): a thread of the server's own, one change at a time, in the
/// order called. A change takes the engine's lock and waits for its commit (the
/// store's `fsync`, a PostgreSQL round trip); done on the calling task's thread, it
/// held one of Swift's cooperative threads (two on a 2-core machine) for all of it,
/// and every other task of the app stood still. The caller suspends instead.
final class AppChanges: Sendable {
    private let thread = BackgroundThread(name: "app-changes", nice: 0)

    /// A closure the caller lends for as long as it is suspended in ``perform(_:)``;
    /// given back (let go) before the caller resumes, as `withoutActuallyEscaping`
    /// checks.
    private final class Lent<T>: @unchecked Sendable {
        var work: (() throws(ProtocolError) -> T)?
        init(_ work: @escaping () throws(ProtocolError) -> T) { self.work = work }

        func run() -> Result<T, ProtocolError> {
            let work = self.work!
            self.work = nil
            return Result { () throws(ProtocolError) -> T in try work() }
        }
    }

    /// Runs `work` on the changes' thread and suspends until it is done. `work`
    /// need not be `Sendable`: it runs while its caller waits, never at once with it.
    func perform<T: Sendable>(_ work: sending () throws(ProtocolError) -> T) async throws(ProtocolError) -> T {
        let result: Result<T, ProtocolError> = await withoutActuallyEscaping(work) { escapable in
            let lent = Lent(escapable)
            return await withCheckedContinuation { (done: CheckedContinuation<Result<T, ProtocolError>, Never>) in
                thread.async { done.resume(returning: lent.run()) }
            }
        }
        return try result.get()
    }
}
