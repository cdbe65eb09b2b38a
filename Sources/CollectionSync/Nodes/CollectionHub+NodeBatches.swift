import CollectionProtocol
import Foundation

extension CollectionHub {
    /// Takes up a batch another server committed to this collection (read from the
    /// log of a store several servers share): the model changes as it did there,
    /// and every viewer here gets it as a batch with the same number and author.
    /// Its op id is remembered, so a retry of that edit sent here is answered with
    /// its ack. A batch already taken up changes nothing (an empty answer).
    ///
    /// Throws, changing nothing, when the batch does not follow this hub's last
    /// (a gap: the hub must be restored from the store) or when applying it does
    /// not give the sections it recorded (this hub's contents diverged).
    public func applyCommitted(_ batch: CommittedBatch) throws(ProtocolError) -> [Outgoing] {
        guard batch.collection == name else {
            throw ProtocolError(.unknownCollection, "batch \(batch.seq) is of '\(batch.collection)', not '\(name)'")
        }
        guard batch.seq > sequence else { return [] }
        guard batch.seq == sequence + 1 else {
            throw ProtocolError(.stale, "batch \(batch.seq) of '\(name)' does not follow batch \(sequence); restore the collection from the store")
        }
        var next = model
        batch.delta.apply(to: &next)
        // Checked with the infos the commit below keeps (made once, not twice).
        let changed = sectionCache.changes(from: model, to: next)
        let checks = sectionCache.infos(of: next, changed: changed).map { "\($0.id) \($0.count) \($0.checksum)" }
        guard checks == batch.replay.sections.map({ "\($0.id) \($0.count) \($0.checksum)" }) else {
            throw ProtocolError(.invalidBatch, "batch \(batch.seq) of '\(name)' does not give the sections it recorded here; restore the collection from the store")
        }
        let reloading = batch.replay.reloads.compactMap { p in p.count == 2 ? model.snapshot.itemIdentifier(at: IndexPath(item: p[1], section: p[0])) : nil }
        // Items whose content changed and that stay (reconfigured where the batch was
        // made: the log keeps reloads only): configured again here too.
        let reconfiguring = batch.delta.content.keys.filter { model.snapshot.contains(item: $0) && next.snapshot.contains(item: $0) }.sorted()
        var out = try commit(next, reloading: reloading, reconfiguring: reconfiguring, op: batch.op, by: batch.by, ackTo: nil,
                             committed: batch, changedSections: changed)
        for i in out.indices { out[i].encode() }
        return out
    }
}
