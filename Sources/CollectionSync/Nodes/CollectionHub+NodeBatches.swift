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
        let changed = changedSectionInfos(in: next)
        let checks = next.snapshot.sectionIdentifiers.map { id in
            let info = changed[id] ?? sectionInfoCache[id] ?? next.sectionInfo(id)
            return "\(id) \(info.count) \(info.checksum)"
        }
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

    /// The infos of `next`'s sections that differ from the cached ones (the model's
    /// now): sections new to it, retitled, or whose items are not the very storage the
    /// model holds. The others are left out: hashing every identifier of the
    /// collection for each batch cost its whole size.
    func changedSectionInfos(in next: CollectionModel) -> [String: SectionInfo] {
        var infos: [String: SectionInfo] = [:]
        let sameTitles = next.sectionTitles == model.sectionTitles   // at once while they are one storage
        for id in next.snapshot.sectionIdentifiers {
            if let cached = sectionInfoCache[id], model.snapshot.indexOfSection(id) != nil, sameTitles || cached.title == next.sectionTitles[id] ?? id,
               Self.sameStorage(next.snapshot.itemIdentifiers(inSection: id), model.snapshot.itemIdentifiers(inSection: id)) {
                continue
            }
            infos[id] = next.sectionInfo(id)
        }
        return infos
    }

    /// Whether two arrays are one storage (so equal without a compare).
    static func sameStorage(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { $0.baseAddress } == b.withUnsafeBufferPointer { $0.baseAddress }
    }
}
