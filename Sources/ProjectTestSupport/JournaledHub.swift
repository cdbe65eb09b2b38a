import CollectionProtocol
import CollectionSync

/// A hub whose batches go to a store by the server's own commit path
/// (``CommitPath``): restored from the store when it holds the collection (created
/// in it otherwise); a turn's first batch is appended as it is made, the others
/// when the turn ends, and the turn's messages are returned once they are kept.
/// The appends run on the caller's thread, where the server's engine runs the
/// first one on a thread of its own.
public final class JournaledHub: CollectionHubJournal {
    /// The hub.
    public let hub: CollectionHub
    /// The store.
    public let store: any CollectionStore
    private var path = CommitPath()
    /// What the append of the turn's first batch came to.
    private var firstAppend: StoreError?

    /// Restores `hub` from `store`, or keeps it there as a new collection.
    public init(_ hub: CollectionHub, store: any CollectionStore) throws {
        self.hub = hub
        self.store = store
        if let stored = try store.load(hub.name) { hub.restore(stored) } else { try store.create(hub.storedState) }
        hub.journal = self
    }

    /// Stages a batch the hub made (the turn's first is appended at once).
    public func hub(_ hub: CollectionHub, stage batch: CommittedBatch) throws(ProtocolError) {
        if let problem = store.writeProblem { throw ProtocolError(.storageUnavailable, problem.message) }
        if let first = path.stage(batch) { firstAppend = append(first) }
    }

    /// A turn: the message is handled, then its batches are kept and its messages
    /// returned. Throws what the store failed with (the batches were not kept).
    public func send(_ text: String, from key: UInt64) throws -> [Outgoing] {
        var out = path.send(hub.receive(Array(text.utf8), from: key))
        var step = path.endTurn()
        while true {
            switch step {
            case .waitForAppend:
                step = path.appendEnded(firstAppend)
                firstAppend = nil
            case let .append(batches):
                step = path.appendEnded(append(batches))
            case .commitEdit, .cancelEdit:
                step = path.editEnded(nil)
            case let .deliver(held, lost):
                if let lost { throw lost.error }
                out += held
                return out
            }
        }
    }

    private func append(_ batches: [CommittedBatch]) -> StoreError? {
        do {
            try store.append(batches)
            return nil
        } catch {
            return error
        }
    }
}
