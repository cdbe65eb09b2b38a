import CollectionProtocol
import Foundation

/// Viewers of other servers sharing the collection (RemotePresence.swift): what
/// they do is relayed here and shown to this hub's viewers.
extension CollectionHub {
    /// Takes up presence another node relayed (a `selection`, `selections`,
    /// `focus`, `drag` or `presenceChange` of its viewers, or a `layout` one of them
    /// chose for the collection, which this hub's viewers switch to): they are
    /// told, and newcomers here get it in their welcome. The node counts as heard.
    public func receiveRelayed(_ message: ServerMessage, from node: String, at now: Double) -> [Outgoing] {
        switch presence.remote.receive(message, from: node, at: now, here: { Set(viewers.values.map(\.info.id)) }, in: model.snapshot) {
        case .tell(let messages):
            return messages.flatMap { broadcast($0, relaying: false) }
        case let .switchLayout(name, by):
            // The collection-wide layout: every viewer here switches too.
            return policy.layoutNames.contains(name) ? switchLayout(to: name, by: by, relaying: false) : []
        }
    }

    /// A node said it is alive (its viewers stay).
    public func heardFrom(node: String, at now: Double) { presence.remote.heard[node] = now }

    /// Viewers of nodes not heard from since `time` leave (their selections go);
    /// this hub's viewers are told.
    public func forgetNodes(silentSince time: Double) -> [Outgoing] {
        let gone = presence.remote.forgetNodes(silentSince: time)
        return gone.isEmpty ? [] : receiveRelayed(.presenceChange(joined: [], left: gone), from: "", at: time)
    }

    /// What another node that has just started listening needs to know of this
    /// hub's viewers: who they are (in groups of 16, each well under a
    /// notification's 8,000 bytes), what they select and focus.
    public func presenceAnnouncement() -> [ServerMessage] {
        RemotePresence.announcement(of: viewers.ready(), in: model)
    }
}
