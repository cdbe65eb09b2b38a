import CollectionProtocol
import CollectionSync

/// A hub serving as one node of several that share a store, the way the server
/// does it, with no sockets: before a message that may change contents, the
/// store's edit locks the collection and the hub takes up what other nodes
/// committed since; the message's batches join that edit, which is committed
/// once the message is handled (``send(_:from:)``).
public final class SharedNode {
    /// The hub.
    public let hub: CollectionHub
    /// The store it shares.
    public let store: any SharedCollectionStore
    /// What the hub sent its viewers for other nodes' batches it took up, oldest first.
    public private(set) var takenUp: [Outgoing] = []
    private var open = false
    private var appended = false

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
        hub.willChange = { [unowned self] _ throws(ProtocolError) in
            let behind: [CommittedBatch]
            do throws(StoreError) {
                behind = try self.store.beginEdit([self.hub.name: self.hub.sequence])
            } catch {
                throw ProtocolError(.unavailable, error.message)
            }
            self.open = true
            for batch in behind { self.takenUp += try self.hub.applyCommitted(batch) }
        }
        hub.journal = { [unowned self] batch throws(ProtocolError) in
            do throws(StoreError) {
                try self.store.append([batch])
            } catch {
                throw ProtocolError(.unavailable, error.message)
            }
            self.appended = true
        }
    }

    /// A message from viewer `key`, handled inside the store's edit, which is then
    /// committed (or cancelled when nothing was appended).
    public func send(_ text: String, from key: UInt64) throws -> [Outgoing] {
        let out = hub.receive(Array(text.utf8), from: key)
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
        for batch in try store.log(of: hub.name, after: hub.sequence) { out += try hub.applyCommitted(batch) }
        takenUp += out
        return out
    }
}
