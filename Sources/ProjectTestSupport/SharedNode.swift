import CollectionProtocol
import CollectionSync

/// A hub serving as one node of several that share a store, the way the server
/// does it, with no sockets: before a message that may change contents, the
/// store's edit locks the collection and the hub takes up what other nodes
/// committed since; the message's batches join that edit, which is committed
/// once the message is handled (``send(_:from:)``).
public final class SharedNode: CollectionHubJournal {
    /// The hub.
    public let hub: CollectionHub
    /// The store it shares.
    public let store: any SharedCollectionStore
    /// What the hub sent its viewers for other nodes' batches it took up, oldest first.
    public private(set) var takenUp: [Outgoing] = []
    private var open = false
    private var appended = false
    /// Whether a message that may change contents first opens the store's edit
    /// (locking the collection); off, a test opens it itself.
    public var locksBeforeChanges = true

    /// Restores `hub` from `store`, or keeps it there as a new collection (when
    /// another node made it first, what the store holds wins).
    public init(_ hub: CollectionHub, store: any SharedCollectionStore) throws {
        self.hub = hub
        self.store = store
        if let stored = try store.load(hub.name) {
            hub.restore(stored)
        } else {
            try store.create(hub.storedState)
            if let first = try store.load(hub.name), first.epoch != hub.epoch { hub.restore(first) }
        }
        hub.journal = self
    }

    /// Opens the store's edit, locking the collection, and takes up what other nodes committed.
    private func beginEdit() throws(ProtocolError) {
        let behind: [CommittedBatch]
        do throws(StoreError) {
            behind = try store.beginEdit([hub.name: hub.sequence])
        } catch {
            throw ProtocolError(.unavailable, error.message)
        }
        open = true
        for batch in behind { takenUp += try hub.nodes.applyCommitted(batch) }
    }

    /// Appends a batch the hub made to the open edit.
    public func hub(_ hub: CollectionHub, stage batch: CommittedBatch) throws(ProtocolError) {
        do throws(StoreError) {
            try store.append([batch])
        } catch {
            throw ProtocolError(.unavailable, error.message)
        }
        appended = true
    }

    /// A message from viewer `key`, handled inside the store's edit, which is then
    /// committed (or cancelled when nothing was appended).
    public func send(_ text: String, from key: UInt64) throws -> [Outgoing] {
        let bytes = Array(text.utf8)
        if locksBeforeChanges, let lock = hub.changeLock(for: bytes, from: key) {
            do throws(ProtocolError) {
                try beginEdit()
            } catch {
                return [Outgoing.refusal(ProtocolError(error.code, error.message, op: lock.op), to: key)]
            }
        }
        let out = hub.receive(bytes, from: key)
        if open {
            open = false
            defer { appended = false }
            if appended { try store.commitEdit() } else { store.cancelEdit() }
        }
        return out
    }

    /// Takes up what other nodes committed (a notification's work); what the
    /// viewers were sent.
    public func catchUp() throws -> [Outgoing] {
        var out: [Outgoing] = []
        for batch in try store.log(of: hub.name, after: hub.sequence) { out += try hub.nodes.applyCommitted(batch) }
        takenUp += out
        return out
    }
}
