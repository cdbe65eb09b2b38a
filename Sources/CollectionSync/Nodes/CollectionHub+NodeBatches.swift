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
        let replay = try batch.replayed(on: model, sections: ledger.sections)
        var out = try commit(replay.next, reloading: replay.reloading, reconfiguring: replay.reconfiguring, op: batch.op, by: batch.by, ackTo: nil,
                             committed: batch, changedSections: replay.changed)
        for i in out.indices { out[i].encode() }
        return out
    }
}
