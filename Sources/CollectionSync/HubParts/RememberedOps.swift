/// An accepted op id: its batch's number and a fingerprint of the edit, to tell a
/// retry (the same edit) from a different edit that reuses the id.
package struct AcceptedOp: Equatable, Sendable {
    package var seq: Int
    package var fingerprint: UInt64

    package init(seq: Int, fingerprint: UInt64) {
        self.seq = seq
        self.fingerprint = fingerprint
    }
}

/// The op ids of recently accepted edits, the last `capacity` of them (a part of the
/// hub that owns its state): a client that retries an edit (say after a reconnect)
/// gets its first ack, not a second change; another edit under the same id is refused.
package struct RememberedOps: Sendable {
    /// How many are remembered (``HubLimits/rememberedOps``).
    package let capacity: Int
    private var byOp: [String: AcceptedOp] = [:]
    /// In the order remembered; the oldest still remembered is at `head`.
    private var order: [String] = []
    private var head = 0

    package init(capacity: Int) { self.capacity = capacity }

    /// How many op ids are remembered.
    package var count: Int { byOp.count }

    /// What `op` was accepted as, if it is remembered.
    package subscript(op: String) -> AcceptedOp? { byOp[op] }

    /// Remembers an accepted op id, forgetting the oldest past ``capacity``.
    package mutating func remember(_ op: String, _ accepted: AcceptedOp) {
        byOp[op] = accepted
        // Oldest forgotten first; the array is compacted now and then, not shifted per op.
        order.append(op)
        if order.count - head > capacity {
            byOp[order[head]] = nil
            head += 1
            if head >= capacity {
                order.removeFirst(head)
                head = 0
            }
        }
    }
}
