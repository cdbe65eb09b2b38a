import CollectionSync
import Foundation
import NIOCore
import PostgresNIO

extension PostgresCollectionStore {
    /// Folds the log of `name` into its stored model on the fold queue, with a
    /// connection of its own: edits go on meanwhile (the model is written only if
    /// no other node folded it first), and it folds again at once while the log is
    /// still a bound past the fold (commits went on while it ran, at its low
    /// priority). A fold that fails leaves a longer log, nothing lost; it is tried
    /// again after later commits.
    func scheduleFold(_ name: String) {
        foldQueue.async { [self] in
            do {
                let c = try connect()
                defer { _ = try? waits.value(of: c.close(), within: 2) }
                var again = true
                while again {
                    let moved = try fold(name, on: c)
                    let now = try run("SELECT seq FROM collection WHERE name = \(name)", on: c).first?.decode(Int.self) ?? 0
                    locked { foldDecisionHook }?()
                    // Decided, and `folding` let go, under the lock that commits hold:
                    // a commit after this sees `folding` clear and schedules its own
                    // fold; one before it is in `committedHeads` (if `now` missed it).
                    again = locked {
                        let head = max(now, committedHeads[name] ?? 0)
                        guard moved, head - (baseSeq[name] ?? 0) >= options.foldEvery else {
                            folding.remove(name)
                            return false
                        }
                        return true
                    }
                }
            } catch {
                logger.warning("could not fold the log of '\(name)': \(error)")
                locked { _ = folding.remove(name) }
            }
        }
    }

    /// Waits for the folds under way (tests).
    public func waitForFolds() { foldQueue.sync() }

    /// Sets what the fold loop calls between its query of the log's end and its
    /// decision to fold again (tests: commits made meanwhile must not be missed).
    package func onFoldDecision(_ hook: (@Sendable () -> Void)?) { locked { foldDecisionHook = hook } }

    /// The fold itself: reads the model and the batches after it together, applies
    /// them, writes the model at the last one and drops batches past those kept.
    ///
    /// One node folds a collection at a time, and a node does not fold again what
    /// another folded since: nodes editing one collection reach the bound together,
    /// and each fold decodes, replays and encodes the whole model (a quarter of a
    /// second of CPU for the photos demo's 2,200 items): one is enough.
    ///
    /// Returns whether it moved this node's base (folded, or took up another
    /// node's fold): each time it does the base is further on, so a loop that
    /// folds again while a bound behind ends.
    func fold(_ name: String, on c: PostgresConnection) throws -> Bool {
        // Held by this connection's session, and let go at the end (closing the
        // connection would too, but the server may not have ended the session
        // when this store's next fold asks for it).
        let key = "collection fold: " + name
        let held = try run("SELECT pg_try_advisory_lock(hashtext(\(key)))", on: c).first?.decode(Bool.self) ?? false
        defer { if held { _ = try? run("SELECT pg_advisory_unlock(hashtext(\(key)))", on: c) } }
        let row = try run("SELECT base_seq, seq FROM collection WHERE name = \(name)", on: c).first
        guard let (storedBase, last) = try row?.decode((Int, Int).self) else { return false }
        guard held else {
            // Another node folds it now: the next bound is counted from the log's end.
            locked { self.baseSeq[name] = max(self.baseSeq[name] ?? 0, last) }
            return false
        }
        if storedBase > locked({ self.baseSeq[name] ?? 0 }) && last - storedBase < options.foldEvery {
            // Another node folded it since this one last knew: counted from there.
            locked { self.baseSeq[name] = storedBase }
            return true
        }
        try run("BEGIN ISOLATION LEVEL REPEATABLE READ", on: c)
        let head = try run("SELECT base_seq, next_serial, model FROM collection WHERE name = \(name)", on: c).first
        let base = try head.map { try $0.decode((Int, Int, ByteBuffer).self) }
        let bodies = try run("SELECT body FROM batch WHERE collection = \(name) AND seq > \(base?.0 ?? 0) ORDER BY seq", on: c)
        try run("COMMIT", on: c)
        guard let (baseSeq, baseSerial, encoded) = base else { return false }
        var stored = StoredCollection(name: name, epoch: "", seq: baseSeq,
                                      model: try JSONDecoder().decode(CollectionModel.self, from: Data(encoded.readableBytesView)),
                                      nextSerial: baseSerial)
        stored.recent = try bodies.map { try Self.batch($0.decode(ByteBuffer.self)) }
        try stored.applyRecent()
        guard stored.seq > baseSeq else { return false }
        let model = ByteBuffer(bytes: try JSONEncoder().encode(stored.model))
        // The row is locked for the update alone (edits wait on it); the batches
        // past those kept go after, in a statement of their own.
        let updated = try run("""
            UPDATE collection SET model = \(model), base_seq = \(stored.seq), next_serial = \(stored.nextSerial)
            WHERE name = \(name) AND base_seq = \(baseSeq) RETURNING name
            """, on: c)
        guard !updated.isEmpty else { return false }
        locked { self.baseSeq[name] = stored.seq }
        try run("DELETE FROM batch WHERE collection = \(name) AND seq <= \(stored.seq - options.keepBatches)", on: c)
        return true
    }
}
