import CollectionProtocol
import CollectionSync
import Foundation
import WebSocketTransport
import Locking

/// What `/healthz` reports, read without the engine's lock (a health check must
/// not wait behind a change under way).
final class HealthState: Sendable {
    private let state = Locked<(store: (any CollectionStore)?, ready: Bool)>((nil, false))

    func set(store: (any CollectionStore)?, ready: Bool) { state.withLock { $0 = (store, ready) } }

    /// The store, read without the engine's lock (a stop must reach it while a
    /// change under way holds that lock, waiting on the store).
    var store: (any CollectionStore)? { state.withLock { $0.store } }

    /// 200 when serving and the store can take edits; 503 otherwise, saying why.
    func report(node: String?) -> (status: Int, text: String) {
        let (store, ready) = state.withLock { $0 }
        let who = node.map { "node \($0)\n" } ?? ""
        guard ready else { return (503, "not serving\n" + who) }
        if let problem = store?.writeProblem { return (503, "unavailable\n\(who)database: \(problem.message)\n") }
        return (200, "ready\n\(who)database: \(store == nil ? "none" : "reachable")\n")
    }
}

/// Several servers (nodes) sharing one store: the store numbers every batch, this
/// node takes up what the others commit. All of it runs with the engine's lock held.
extension Engine {
    /// A viewer's message. With a store several servers share, the collections it
    /// may change (the hub's ``CollectionHub/changeLock(for:from:)``) are locked there
    /// first and brought up to date, so that it is checked against the latest state;
    /// a lock that fails refuses the message, which the hub then never sees.
    func receive(_ bytes: [UInt8], from id: ConnectionID, in group: CollectionHubGroup) -> [Outgoing] {
        if shared != nil, let lock = group.changeLock(for: bytes, from: id.rawValue) {
            do throws(ProtocolError) {
                try beginEdit(lock.collections)
            } catch {
                return [Outgoing.refusal(ProtocolError(error.code, error.message, op: lock.op), to: id.rawValue)]
            }
        }
        return group.receive(bytes, from: id.rawValue)
    }

    /// Locks the stored collections among `names` in the shared store, and takes up
    /// what other nodes committed to them since this node's last batch, before a
    /// change is checked. The edit stays open (its locks held) until ``flush()`` ends it.
    func beginEdit(_ names: [String]) throws(ProtocolError) {
        guard let shared, path.openEdit == nil else { return }
        let concerned = hubs.filter { names.contains($0.name) && !appManaged.contains($0.name) }
        guard !concerned.isEmpty else { return }
        for hub in concerned where stale.contains(hub.name) {
            try restoreFromStore(hub, reason: "the collection was read again from the store; reconnect")
            throw ProtocolError(.unavailable, "collection '\(hub.name)' was read again from the store; send the change again")
        }
        let behind: [CommittedBatch]
        do {
            behind = try shared.beginEdit(Dictionary(uniqueKeysWithValues: concerned.map { ($0.name, $0.sequence) }))
        } catch {
            throw ProtocolError(.unavailable, "the store is unavailable (\(error.message)); changes are refused while viewers keep watching")
        }
        path.editOpened(on: concerned.map(\.name))
        for hub in concerned {
            if !takeUp(behind.filter { $0.collection == hub.name }, into: hub) {
                throw ProtocolError(.unavailable, "collection '\(hub.name)' was read again from the store; send the change again")
            }
        }
    }

    /// A batch of this node's, appended to the open edit (one is opened when a
    /// change comes from elsewhere than a message: it is refused if another node
    /// got there first, as it was checked against what is now stale).
    func stageShared(_ batch: CommittedBatch) throws(ProtocolError) {
        guard let shared else { return }
        if path.openEdit == nil {
            let behind: [CommittedBatch]
            do {
                behind = try shared.beginEdit([batch.collection: batch.seq - 1])
            } catch {
                throw ProtocolError(.unavailable, "the store is unavailable (\(error.message)); changes are refused while viewers keep watching")
            }
            path.editOpened(on: [batch.collection])
            guard behind.isEmpty else {
                throw ProtocolError(.stale, "another server changed '\(batch.collection)' first (batch \(behind[0].seq)); nothing was changed")
            }
        }
        do {
            try shared.append([batch])
        } catch {
            throw ProtocolError(.unavailable, "the store is unavailable (\(error.message)); changes are refused while viewers keep watching")
        }
        // An edit of one collection commits now, before the batch is applied and
        // sent to this node's viewers (CommitPath.joined); one of several (a drop
        // between collections) commits them together when the turn ends.
        guard path.joined(batch) else { return }
        do {
            try shared.commitEdit()
        } catch {
            throw ProtocolError(.unavailable, "the change could not be kept (\(error.message)); nothing was changed")
        }
    }

    /// Another node committed to `name` (a notification, or a reconnection of the
    /// store's): the batches after this node's last are read from the log and
    /// taken up, and this node's viewers get them.
    ///
    /// A reading that fails is tried again by itself (after 0.5 s, doubling to 5 s,
    /// one retry pending per collection): the notification that asked for it is not
    /// sent again, and the batches it announced would otherwise wait for the next
    /// change. After a database restart the listener is often back before the
    /// connection edits use, whose backoff refuses the first reading.
    func catchUp(_ name: String, isRetry: Bool = false) {
        locked {
            let delay = isRetry ? catchUpRetries.take(name) : nil
            guard let shared, path.openEdit == nil, let hub = hubs.first(where: { $0.name == name }), !appManaged.contains(name) else { return }
            if stale.contains(name) {
                try? restoreFromStore(hub, reason: "the collection was read again from the store; reconnect")
            } else {
                do {
                    _ = takeUp(try shared.log(of: name, after: hub.sequence), into: hub)
                } catch {
                    if let next = catchUpRetries.failed(name, waited: delay) {
                        logger.warning("\(name): cannot read what other nodes committed: \(error); trying again in \(next) s")
                        DispatchQueue.global().asyncAfter(deadline: .now() + next) { [weak self] in self?.catchUp(name, isRetry: true) }
                    }
                }
            }
            if depth == 1 { flush() }
        }
    }

    /// Takes up other nodes' batches of `hub`, in order, sending its viewers each
    /// one; false when they do not follow on (the hub is then read again from the store).
    func takeUp(_ batches: [CommittedBatch], into hub: CollectionHub) -> Bool {
        for batch in batches {
            do {
                send(try hub.nodes.applyCommitted(batch))
            } catch {
                logger.warning("\(hub.name): \(error.message)")
                try? restoreFromStore(hub, reason: "the collection was read again from the store; reconnect")
                return false
            }
        }
        return true
    }

    /// Puts a collection back to what the store holds: its viewers are closed
    /// (1011) to reconnect and resume from there. When the store cannot be read,
    /// the collection is marked stale and read again before its next change.
    func restoreFromStore(_ hub: CollectionHub, reason: String) throws(ProtocolError) {
        guard let store else { return }
        for key in hub.viewerKeys {
            _ = group?.disconnect(key)
            transport?.close(ConnectionID(rawValue: key), code: .internalError, reason: reason)
        }
        do throws(StoreError) {
            guard let kept = try store.load(hub.name) else { throw StoreError(.failed, "the store holds no '\(hub.name)'") }
            hub.restore(kept)
            stale.remove(hub.name)
            logger.info("\(hub.name): read again from the store at batch \(kept.seq)")
        } catch {
            stale.insert(hub.name)
            logger.error("\(hub.name): cannot read back what the store holds: \(error); read again before its next change")
            throw ProtocolError(.unavailable, "the store is unavailable (\(error.message)); changes are refused while viewers keep watching")
        }
    }
}
