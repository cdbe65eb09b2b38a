/// The other servers sharing a store, and when each was last heard from (a node
/// says it is alive every few seconds). A node heard from for the first time is
/// told who is here; one silent too long is forgotten, its viewers with it. The
/// engine's presence code owns one; tested alone.
package struct NodeRoster: Sendable, Equatable {
    /// When each node was last heard from, by name.
    package private(set) var lastHeard: [String: Double] = [:]

    package init() {}

    /// `node` was heard from at `now`. Returns true when it is new (or back after
    /// being forgotten): this node then announces its viewers to it.
    package mutating func heard(_ node: String, at now: Double) -> Bool {
        lastHeard.updateValue(now, forKey: node) == nil
    }

    /// Forgets the nodes not heard from since `time`, and returns them (in name order).
    package mutating func forget(silentSince time: Double) -> [String] {
        let gone = lastHeard.filter { $0.value < time }.keys.sorted()
        for node in gone { lastHeard[node] = nil }
        return gone
    }
}
