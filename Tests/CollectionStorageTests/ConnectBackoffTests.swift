import CollectionPostgres
import CollectionSync
import Testing

/// When the PostgreSQL store tries its connection again after a failure, alone.
struct ConnectBackoffTests {
    @Test func aFailureIsAnsweredAtOnceUntilTheNextTryWhichWaitsTwiceAsLong() {
        var backoff = ConnectBackoff()
        #expect(backoff.refusal(at: 0) == nil, "nothing failed: try")
        let down = StoreError(.failed, "connection refused")
        backoff.failed(down, at: 10)
        #expect(backoff.refusal(at: 10.05) == down, "within 0.1 s: answered with the failure, not tried")
        #expect(backoff.refusal(at: 10.1) == nil)
        // Each failed try waits twice as long as the one before, at most 5 s.
        var now = 10.1
        for wait in [0.2, 0.4, 0.8, 1.6, 3.2, 5, 5] {
            backoff.failed(down, at: now)
            #expect(backoff.refusal(at: now + wait - 0.01) == down, "\(wait) s: not tried yet")
            #expect(backoff.refusal(at: now + wait) == nil, "\(wait) s: tried")
            now += wait
        }
        backoff.connected()
        #expect(backoff.refusal(at: now) == nil && backoff.lastFailure == nil)
        backoff.failed(down, at: now)
        #expect(backoff.refusal(at: now + 0.05) == down && backoff.refusal(at: now + 0.1) == nil, "0.1 s again after a connection")
    }
}
