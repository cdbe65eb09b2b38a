import CollectionProtocol
import CollectionSync

/// A hub whose batches go to a store the way the server's do: restored from the
/// store when it holds the collection (created in it otherwise), each batch
/// staged as it is made and appended once per turn (``send(_:from:)``).
public final class JournaledHub {
    /// The hub.
    public let hub: CollectionHub
    /// The store.
    public let store: any CollectionStore
    /// Batches of the turn, not yet appended.
    public private(set) var staged: [CommittedBatch] = []

    /// Restores `hub` from `store`, or keeps it there as a new collection.
    public init(_ hub: CollectionHub, store: any CollectionStore) throws {
        self.hub = hub
        self.store = store
        if let stored = try store.load(hub.name) { hub.restore(stored) } else { try store.create(hub.storedState) }
        hub.journal = { [unowned self] batch throws(ProtocolError) in
            if let problem = self.store.writeProblem { throw ProtocolError(.storageUnavailable, problem.message) }
            self.staged.append(batch)
        }
    }

    /// A turn: the message is handled, then what it staged is appended.
    public func send(_ text: String, from key: UInt64) throws -> [Outgoing] {
        let out = hub.receive(Array(text.utf8), from: key)
        defer { staged = [] }
        try store.append(staged)
        return out
    }
}
