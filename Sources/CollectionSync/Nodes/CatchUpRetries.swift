/// When a node reads again what other nodes committed to a collection after a
/// reading failed: after 0.5 s, doubling to 5 s, one retry pending per collection
/// (the notification that asked for the reading is not sent again). The engine's
/// node code owns one; tested alone.
package struct CatchUpRetries: Sendable, Equatable {
    /// The delay of each collection's pending retry.
    private var pending: [String: Double] = [:]

    package init() {}

    /// The pending retry of `collection` runs now: returns the delay it waited
    /// (nil when none was pending).
    package mutating func take(_ collection: String) -> Double? {
        pending.removeValue(forKey: collection)
    }

    /// A reading of `collection` failed; `waited` is the delay of the retry that
    /// made it (nil for a first reading). Returns the delay of the retry to schedule
    /// (twice `waited`, 0.5 s at first, at most 5 s), or nil when one is pending already.
    package mutating func failed(_ collection: String, waited: Double?) -> Double? {
        guard pending[collection] == nil else { return nil }
        let next = min((waited ?? 0.25) * 2, 5)
        pending[collection] = next
        return next
    }
}
