import CollectionSync

/// When the store tries again to make the connection edits use after a try failed:
/// 0.1 s later, doubling to 5 s; until then an edit is answered at once with the
/// last failure (edits are refused quickly while the database is down, and the
/// server is not asked again and again). A value the store keeps under its lock;
/// tested alone.
package struct ConnectBackoff: Sendable {
    private var retryAt = 0.0
    private var delay = 0.1
    /// The last failure, until a connection is made.
    package private(set) var lastFailure: StoreError?

    package init() {}

    /// The failure to answer with at `now`, or nil when a try may be made.
    package func refusal(at now: Double) -> StoreError? {
        guard let lastFailure, now < retryAt else { return nil }
        return lastFailure
    }

    /// A connection was made: a later failure waits 0.1 s again.
    package mutating func connected() {
        lastFailure = nil
        delay = 0.1
    }

    /// A try failed at `now`: the next waits, twice as long as the last.
    package mutating func failed(_ error: StoreError, at now: Double) {
        lastFailure = error
        retryAt = now + delay
        delay = min(delay * 2, 5)
    }
}
