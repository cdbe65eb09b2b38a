import CollectionSync
import Testing

/// The hub's memory of accepted op ids, alone.
struct RememberedOpsTests {
    @Test func anOpIsRememberedWithItsBatchAndFingerprint() {
        var ops = RememberedOps(capacity: 3)
        #expect(ops["a"] == nil)
        ops.remember("a", AcceptedOp(seq: 1, fingerprint: 11))
        #expect(ops["a"] == AcceptedOp(seq: 1, fingerprint: 11))
        #expect(ops.count == 1)
    }

    @Test func theOldestAreForgottenPastTheCapacityAndNoMoreAreKept() {
        var ops = RememberedOps(capacity: 3)
        for n in 1...10 {
            ops.remember("op\(n)", AcceptedOp(seq: n, fingerprint: UInt64(n)))
            #expect(ops.count == min(n, 3))
            // The last three are remembered, in full; those before are forgotten.
            for m in 1...n {
                #expect((ops["op\(m)"] != nil) == (m > n - 3), "after \(n): op\(m)")
            }
        }
    }

    @Test func withNoCapacityNothingIsRemembered() {
        var ops = RememberedOps(capacity: 0)
        ops.remember("a", AcceptedOp(seq: 1, fingerprint: 1))
        #expect(ops["a"] == nil && ops.count == 0)
    }
}
