import CollectionProtocol

/// A collection's history as its hub keeps it: the epoch that names it, the
/// sequence number of the last batch, the recent batches (for viewers that
/// resume) and the op ids of recent edits (a retried edit gets its first ack,
/// another edit under the same op id is refused). Bounded by the hub's limits,
/// never by the number of batches.
package struct BatchHistory: Sendable {
    /// Identifies this history: a `lastSeq` from another epoch is not resumed.
    package private(set) var epoch: String
    /// The number of the last batch (0: none yet).
    package private(set) var sequence = 0
    private var log: ReplayLog
    private var ops: RememberedOps

    /// An empty history named `epoch`, keeping what `limits` allow.
    package init(epoch: String, limits: HubLimits) {
        self.epoch = epoch
        log = ReplayLog(capacity: limits.replayLogCapacity)
        ops = RememberedOps(capacity: limits.rememberedOps)
    }

    /// What was kept of `op`: nil when no edit was accepted under it; the batch
    /// number of the edit when it was this one (`fingerprint`), to answer its retry
    /// with the first ack; refused (`op_reused`) when it was another edit.
    package func retry(of op: String, fingerprint: UInt64) throws(ProtocolError) -> Int? {
        guard let accepted = ops[op] else { return nil }
        guard accepted.fingerprint == fingerprint else {
            throw ProtocolError(.opReused, "op '\(op)' was already accepted (as batch \(accepted.seq)) for another edit; give each edit its own op id")
        }
        return accepted.seq
    }

    /// New limits: the log and the ops start empty (the epoch and number stay).
    package mutating func keep(_ limits: HubLimits) {
        log = ReplayLog(capacity: limits.replayLogCapacity)
        ops = RememberedOps(capacity: limits.rememberedOps)
    }

    /// A batch was committed: it is the last, kept for resumes, and its op (if
    /// any) remembered with the edit's fingerprint.
    package mutating func append(_ batch: LoggedBatch, op: String?, fingerprint: UInt64) {
        sequence = batch.seq
        log.append(batch)
        if let op { ops.remember(op, AcceptedOp(seq: batch.seq, fingerprint: fingerprint)) }
    }

    /// An edit under `op` was accepted and changed nothing (a movement put down where it
    /// began): its retry is answered as it was, at `seq`.
    package mutating func remember(_ op: String, answeredAt seq: Int, fingerprint: UInt64) {
        ops.remember(op, AcceptedOp(seq: seq, fingerprint: fingerprint))
    }

    /// The batches after `lastSeq` of `epoch`, for a viewer that resumes; nil when
    /// they are not all kept (or the epoch is another's): it starts afresh.
    package func batches(after lastSeq: Int, of epoch: String?) -> [LoggedBatch]? {
        guard epoch == self.epoch else { return nil }
        return log.batches(after: lastSeq, upTo: sequence)
    }

    /// The history a store kept: its epoch and number, and its recent batches
    /// and their ops.
    package mutating func restore(epoch: String, sequence: Int, recent: [CommittedBatch], limits: HubLimits) {
        self = BatchHistory(epoch: epoch, limits: limits)
        self.sequence = sequence
        for batch in recent.suffix(limits.replayLogCapacity) where batch.seq <= sequence { log.append(batch.replay) }
        for batch in recent.suffix(limits.rememberedOps) {
            if let op = batch.op { ops.remember(op, AcceptedOp(seq: batch.seq, fingerprint: batch.fingerprint)) }
        }
    }

    /// Batches the log holds (see ``HubFootprint/loggedBatches``).
    package var loggedBatches: Int { log.storage }
    /// Op ids remembered.
    package var rememberedOps: Int { ops.count }
}
