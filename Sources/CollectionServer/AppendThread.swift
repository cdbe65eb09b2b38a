import CollectionSync
import Foundation

/// An append running on the engine's writer thread, and what came of it.
final class PendingAppend: @unchecked Sendable {
    /// The batches it keeps.
    let batches: [CommittedBatch]
    // Written on the writer thread before `done` is signalled, read after waiting for it.
    private var error: StoreError?
    private let done = DispatchSemaphore(value: 0)

    init(_ batches: [CommittedBatch]) { self.batches = batches }

    /// Appends the batches (on the writer thread).
    func run(on store: any CollectionStore) {
        do {
            try store.append(batches)
        } catch {
            self.error = error
        }
        done.signal()
    }

    /// Waits for the append; what it failed with, or nil once the batches are kept.
    func wait() -> StoreError? {
        done.wait()
        return error
    }
}

/// A thread of its own for the store's appends, parked on a condition between
/// them: it wakes sooner than a dispatch queue's worker (with the bench's 200
/// edits a second, group commit's edit → viewer p50 went from 1.45-1.55× that of
/// `--in-memory` to 1.23-1.42×).
final class AppendThread: @unchecked Sendable {
    private let condition = NSCondition()
    // Behind `condition`.
    private var next: (PendingAppend, any CollectionStore)?
    private var running = false
    private var stopping = false

    /// Starts `pending` on the thread (started on first use); one at a time.
    func run(_ pending: PendingAppend, on store: any CollectionStore) {
        condition.withLock {
            next = (pending, store)
            if !running {
                running = true
                stopping = false
                Thread { [self] in loop() }.start()
            }
            condition.signal()
        }
    }

    /// Ends the thread once the append under way (if any) is done.
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
    }

    private func loop() {
        BackgroundThread.nameCurrentThread("store-append")
        while true {
            let work: (PendingAppend, any CollectionStore)? = condition.withLock {
                while next == nil && !stopping { condition.wait() }
                defer { next = nil }
                if next == nil { running = false }
                return next
            }
            guard let (pending, store) = work else { return }
            pending.run(on: store)
        }
    }
}
