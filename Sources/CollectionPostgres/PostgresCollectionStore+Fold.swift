import CollectionSync
import Foundation
import NIOCore
import PostgresNIO

extension PostgresCollectionStore {
    /// Folds the log of `name` into its stored model on the fold queue, with a
    /// connection of its own: edits go on meanwhile (the model is written only if
    /// no other node folded it first). A fold that fails leaves a longer log,
    /// nothing lost; it is tried again after later commits.
    func scheduleFold(_ name: String) {
        foldQueue.async { [self] in
            do {
                let c = try locked { () throws(StoreError) in try connect() }
                defer { try? c.close().wait() }
                try fold(name, on: c)
            } catch {
                logger.warning("could not fold the log of '\(name)': \(error)")
            }
            locked { _ = folding.remove(name) }
        }
    }

    /// The fold itself: reads the model and the batches after it together, applies
    /// them, writes the model at the last one and drops batches past those kept.
    func fold(_ name: String, on c: PostgresConnection) throws {
        try run("BEGIN ISOLATION LEVEL REPEATABLE READ", on: c)
        let head = try run("SELECT base_seq, next_serial, model FROM collection WHERE name = \(name)", on: c).first
        let base = try head.map { try $0.decode((Int, Int, ByteBuffer).self) }
        let bodies = try run("SELECT body FROM batch WHERE collection = \(name) AND seq > \(base?.0 ?? 0) ORDER BY seq", on: c)
        try run("COMMIT", on: c)
        guard let (baseSeq, baseSerial, encoded) = base else { return }
        var stored = StoredCollection(name: name, epoch: "", seq: baseSeq,
                                      model: try JSONDecoder().decode(CollectionModel.self, from: Data(encoded.readableBytesView)),
                                      nextSerial: baseSerial)
        stored.recent = try bodies.map { try Self.batch($0.decode(ByteBuffer.self)) }
        try stored.applyRecent()
        guard stored.seq > baseSeq else { return }
        let model = ByteBuffer(bytes: try JSONEncoder().encode(stored.model))
        try run("BEGIN", on: c)
        let updated = try run("""
            UPDATE collection SET model = \(model), base_seq = \(stored.seq), next_serial = \(stored.nextSerial)
            WHERE name = \(name) AND base_seq = \(baseSeq) RETURNING name
            """, on: c)
        try run("DELETE FROM batch WHERE collection = \(name) AND seq <= \(stored.seq - options.keepBatches)", on: c)
        try run(updated.isEmpty ? "ROLLBACK" : "COMMIT", on: c)
        if !updated.isEmpty { locked { self.baseSeq[name] = stored.seq } }
    }
}
