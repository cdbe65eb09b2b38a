import CollectionCore
import CollectionProtocol

/// What numbers a collection's changes, as a value that calls nothing out: its
/// history (epoch, sequence number, recent batches, op ids), each section's identity,
/// count and checksum, the serial of the next item made, the random source of
/// shuffles, and the fingerprint of the edit being handled. The hub has it number a
/// change (``number(_:from:reloading:reconfiguring:by:committed:changed:)``), say
/// what a store keeps of it (``staged(_:from:to:collection:op:changedContent:)``),
/// and, once the change is applied, ``record(_:op:committed:)`` it.
package struct CollectionLedger {
    /// The epoch, the sequence number, the recent batches and op ids.
    package private(set) var history: BatchHistory
    /// Each section's identity, count and checksum, kept from batch to batch.
    package private(set) var sections: SectionInfoCache
    /// The serial of the next item made and the random source of shuffles.
    package var serials: Serials
    /// The serial the next item made gets (``ItemFactory/makeItem(serial:section:)``).
    package var nextSerial: Int { serials.next }
    /// The fingerprint of the edit being handled, kept with its op when accepted.
    package private(set) var fingerprint: UInt64 = 0

    /// What makes items (serials) and shuffles (a random source, seeded so that
    /// they repeat). Taken out of the ledger while an edit is made: the item
    /// factory, the app's, may read the hub meanwhile.
    package struct Serials {
        /// The serial the next item made gets.
        package var next: Int
        /// Shuffles' random source.
        package var random: SplitMix64
    }

    /// A change numbered and checked, not yet applied.
    package struct Entry {
        /// The batch, its record and what every viewer's copy shares.
        package let numbered: NumberedBatch
        /// The sections whose infos the change alters.
        let changed: [String: SectionInfo]
        /// The sections it removes.
        let goneSections: [String]
    }

    /// The ledger of `model`, its history named `epoch`, kept as `limits` allow.
    package init(model: CollectionModel, epoch: String, limits: HubLimits, seed: UInt64) {
        history = BatchHistory(epoch: epoch, limits: limits)
        sections = SectionInfoCache(model)
        serials = Serials(next: model.snapshot.numberOfItems + 1, random: SplitMix64(seed: seed))
    }

    /// Starts over from `model` (loaded before any batch).
    package mutating func reset(to model: CollectionModel) {
        sections.reset(to: model)
        serials.next = model.snapshot.numberOfItems + 1
    }

    /// Takes up what a store kept of the collection, `stored`.
    package mutating func restore(_ stored: StoredCollection, limits: HubLimits) {
        sections.reset(to: stored.model)
        serials.next = max(stored.nextSerial, serials.next)
        history.restore(epoch: stored.epoch, sequence: stored.seq, recent: stored.recent, limits: limits)
    }

    /// Keeps as much history as `limits` allow.
    package mutating func keep(_ limits: HubLimits) { history.keep(limits) }

    /// A fresh item serial.
    package mutating func takeSerial() -> Int {
        defer { serials.next += 1 }
        return serials.next
    }

    /// Notes that `message` is being handled: an edit under `op` is answered with its
    /// first batch number when it was accepted before (a retry), refused when another
    /// edit was accepted under `op`, and handled (nil) when `op` is new.
    package mutating func handling(_ message: ClientMessage, op: String) throws(ProtocolError) -> Int? {
        fingerprint = Self.stableFingerprint(of: message)
        return try history.retry(of: op, fingerprint: fingerprint)
    }

    /// The edit being handled, under `op`, was accepted and changed nothing (a movement
    /// put down where it began): its retry is answered with the same ack.
    package mutating func acceptedUnchanged(_ op: String) {
        history.remember(op, answeredAt: history.sequence, fingerprint: fingerprint)
    }

    /// A change made later for an edit handled before (a drop whose placeholder is
    /// committed once its data came): its op is kept with that edit's `fingerprint`,
    /// not with the one of the message handled last.
    package mutating func handlingAgain(fingerprint: UInt64) { self.fingerprint = fingerprint }

    /// The change of `model` to `next` as the next batch (or, `committed` by another
    /// server, as that batch's number), by `by`. `next` loses the cell templates of
    /// the items deleted; `changed`: ``SectionInfoCache/changes(from:to:)``, when the
    /// caller has them. Throws `invalid_batch` when the counts disagree.
    package func number(_ next: inout CollectionModel, from model: CollectionModel, reloading: [String], reconfiguring: [String], by: String,
                        committed: CommittedBatch?, changed: [String: SectionInfo]?) throws(ProtocolError) -> Entry {
        let changed = changed ?? sections.changes(from: model, to: next)
        let numbered = try NumberedBatch(from: model, to: &next, reloading: reloading, reconfiguring: reconfiguring,
                                         seq: committed?.seq ?? history.sequence + 1, by: by, sections: sections.infos(of: next, changed: changed))
        let before = model.snapshot
        let gone = numbered.update.deletedSections.map { before.sectionIdentifiers[$0] }.filter { next.snapshot.indexOfSection($0) == nil }
        return Entry(numbered: numbered, changed: changed, goneSections: gone)
    }

    /// What the store keeps of `entry` (from `model` to `next`) before it is applied:
    /// `changedContent` names the items whose content may have changed (nil: any).
    package func staged(_ entry: Entry, from model: CollectionModel, to next: CollectionModel, collection: String, op: String?,
                        changedContent: [String]?) -> CommittedBatch {
        let numbered = entry.numbered
        let delta = ModelDelta(from: model, to: next, batch: numbered.update, changedContent: changedContent)
        return CommittedBatch(collection: collection, seq: numbered.logged.seq, op: op, fingerprint: op == nil ? 0 : fingerprint, by: numbered.logged.by,
                              delta: delta, replay: numbered.logged, nextSerial: nextSerial)
    }

    /// `entry` was applied: it is kept for resumes, its op (when given) remembered for
    /// retries, with the fingerprint of the edit, or of the one another server
    /// `committed`.
    package mutating func record(_ entry: Entry, op: String?, committed: CommittedBatch?) {
        if let committed { serials.next = max(serials.next, committed.nextSerial) }
        history.append(entry.numbered.logged, op: op, fingerprint: committed?.fingerprint ?? fingerprint)
        sections.update(entry.changed, removing: entry.goneSections)
    }

    /// A fingerprint of a message that is the same in every run (Swift's
    /// `hashValue` is seeded per process, and op ids outlive the process): FNV-1a
    /// over its description.
    package static func stableFingerprint(of message: ClientMessage) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in String(reflecting: message).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
