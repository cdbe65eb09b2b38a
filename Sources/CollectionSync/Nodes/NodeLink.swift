import CollectionProtocol
import Foundation

/// A hub as the other servers sharing its store meet it (several nodes): the batches
/// they committed, taken up; the presence of their viewers (``RemotePresence``), shown
/// to the viewers here; this hub's presence, kept for them (``HubPresence``). The
/// engine's node code and the tests' `SharedNode` are its callers; the hub's viewers
/// and the app never see it. A view of the hub (``CollectionHub/nodes``), with no state
/// of its own.
package struct NodeLink {
    unowned let hub: CollectionHub

    /// Whether the presence the hub's viewers make is kept for ``takeRelayed()``.
    package var relaysPresence: Bool {
        get { hub.presence.relays }
        nonmutating set { hub.presence.relays = newValue }
    }

    /// The presence to relay made since the last call, in order (an effect the
    /// hub's owner carries out: it publishes them).
    package func takeRelayed() -> [ServerMessage] { hub.presence.takeRelayed() }

    /// Takes up a batch another server committed to this collection (read from the
    /// log of a store several servers share): the model changes as it did there,
    /// and every viewer here gets it as a batch with the same number and author.
    /// Its op id is remembered, so a retry of that edit sent here is answered with
    /// its ack. A batch already taken up changes nothing (an empty answer).
    ///
    /// - Returns: the messages for this hub's viewers, encoded.
    /// - Throws: `stale`, changing nothing, when the batch does not follow this hub's
    ///   last (a gap: the hub must be restored from the store); `invalidBatch` when
    ///   applying it does not give the sections it recorded (this hub diverged).
    package func applyCommitted(_ batch: CommittedBatch) throws(ProtocolError) -> [Outgoing] {
        guard batch.collection == hub.name else {
            throw ProtocolError(.unknownCollection, "batch \(batch.seq) is of '\(batch.collection)', not '\(hub.name)'")
        }
        guard batch.seq > hub.sequence else { return [] }
        guard batch.seq == hub.sequence + 1 else {
            throw ProtocolError(.stale, "batch \(batch.seq) of '\(hub.name)' does not follow batch \(hub.sequence); restore the collection from the store")
        }
        let replay = try batch.replayed(on: hub.model, sections: hub.ledger.sections)
        var out = try hub.commit(replay.next, reloading: replay.reloading, reconfiguring: replay.reconfiguring, op: batch.op, by: batch.by, ackTo: nil,
                                 committed: batch, changedSections: replay.changed)
        for i in out.indices { out[i].encode() }
        return out
    }

    /// Takes up presence another node relayed (a `selection`, `selections`, `focus`,
    /// `drag` or `presenceChange` of its viewers, or a `layout` one of them chose for
    /// the collection, which this hub's viewers switch to): they are told, and
    /// newcomers here get it in their welcome.
    package func receiveRelayed(_ message: ServerMessage, from node: String) -> [Outgoing] {
        switch hub.presence.remote.receive(message, from: node, here: { Set(hub.viewers.values.map(\.info.id)) }, in: hub.model.snapshot) {
        case .tell(let messages):
            return messages.flatMap { hub.broadcast($0, relaying: false) }
        case let .switchLayout(name, by):
            // The collection-wide layout: every viewer here switches too.
            return hub.policy.layoutNames.contains(name) ? hub.switchLayout(to: name, by: by, relaying: false) : []
        }
    }

    /// The viewers of `nodes` (fallen silent, as the engine's ``NodeRoster`` says)
    /// leave, their selections first; this hub's viewers are told.
    package func forgetNodes(_ nodes: [String]) -> [Outgoing] {
        let gone = hub.presence.remote.viewers(of: Set(nodes))
        return gone.isEmpty ? [] : receiveRelayed(.presenceChange(joined: [], left: gone), from: "")
    }

    /// What another node that has just started listening needs to know of this
    /// hub's viewers: who they are (in groups of 16, each well under a
    /// notification's 8,000 bytes), what they select and focus.
    package func presenceAnnouncement() -> [ServerMessage] {
        RemotePresence.announcement(of: hub.viewers.ready(), in: hub.model)
    }
}

extension CollectionHub {
    /// The hub as the other servers sharing its store meet it (``NodeLink``).
    package var nodes: NodeLink { NodeLink(hub: self) }
}
