/// The changes a collection view applied, kept until its owner takes them: at most
/// `limit` of them, the oldest forgotten first; none when the limit is 0.
package struct AppliedUpdateLog {
    /// Empty.
    package init() {}

    /// The changes kept, oldest first.
    package private(set) var updates: [AppliedUpdate] = []
    /// Most changes kept (a view whose owner never takes them keeps no more).
    package var limit = 64

    /// Keeps `update`.
    package mutating func record(_ update: AppliedUpdate) {
        guard limit > 0 else { return }
        if updates.count >= limit { updates.removeFirst(updates.count - limit + 1) }
        updates.append(update)
    }

    /// The changes kept, which are then forgotten.
    package mutating func take() -> [AppliedUpdate] {
        defer { updates = [] }
        return updates
    }
}
