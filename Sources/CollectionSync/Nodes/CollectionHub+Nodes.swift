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
        remote.heard[node] = now
        switch message {
        case let .presenceChange(joined, left):
            let known = Set(remote.viewers.map(\.info.id))
            let new = joined.filter { info in !known.contains(info.id) && viewers.values.allSatisfy { $0.info.id != info.id } }
            remote.viewers += new.map { ($0, node) }
            let gone = left.filter { known.contains($0) }
            var out: [Outgoing] = []
            for id in gone {
                let selected = remote.selections[id].map { $0.filter(model.snapshot.contains(item:)).sorted() } ?? []
                remote.remove(viewer: id)
                if !selected.isEmpty { out += broadcast(.selections(viewer: id, items: selected, selected: false), relaying: false) }
            }
            // As for a viewer here: its selections go first, then it leaves.
            guard !new.isEmpty || !gone.isEmpty else { return out }
            return out + broadcast(.presenceChange(joined: new, left: gone), relaying: false)
        case let .layout(name, by):
            // The collection-wide layout: every viewer here switches too.
            guard policy.layoutNames.contains(name) else { return [] }
            return switchLayout(to: name, by: by, relaying: false)
        case .drag:
            return broadcast(message, relaying: false)
        default:
            return remote.record(message) ? broadcast(message, relaying: false) : []
        }
    }

    /// A node said it is alive (its viewers stay).
    public func heardFrom(node: String, at now: Double) { remote.heard[node] = now }

    /// Viewers of nodes not heard from since `time` leave (their selections go);
    /// this hub's viewers are told.
    public func forgetNodes(silentSince time: Double) -> [Outgoing] {
        let gone = remote.forgetNodes(silentSince: time)
        return gone.isEmpty ? [] : receiveRelayed(.presenceChange(joined: [], left: gone), from: "", at: time)
    }

    /// What another node that has just started listening needs to know of this
    /// hub's viewers: who they are (in groups of 16, each well under a
    /// notification's 8,000 bytes), what they select and focus.
    public func presenceAnnouncement() -> [ServerMessage] {
        let ready = orderedViewers().filter(\.ready)
        var messages: [ServerMessage] = stride(from: 0, to: ready.count, by: 16).map { start in
            .presenceChange(joined: ready[start..<min(start + 16, ready.count)].map(\.info), left: [])
        }
        for viewer in ready {
            let selected = viewer.selection(in: model).sorted()
            for start in stride(from: 0, to: selected.count, by: 64) {
                messages.append(.selections(viewer: viewer.info.id, items: Array(selected[start..<min(start + 64, selected.count)]), selected: true))
            }
            if let item = viewer.collectionView.focusedIndexPath.flatMap(model.snapshot.itemIdentifier(at:)) {
                messages.append(.focus(viewer: viewer.info.id, item: item))
            }
        }
        return messages
    }
}
