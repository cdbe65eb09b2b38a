import CollectionProtocol
import Foundation

/// What a hub knows of the viewers other servers (nodes) sharing the collection
/// have: who they are, what they select and focus. Heard from those nodes, never
/// stored; a node that falls silent takes its viewers with it.
struct RemotePresence {
    /// Viewers by id, in the order first heard of, with their node.
    var viewers: [(info: ViewerInfo, node: String)] = []
    var selections: [String: Set<String>] = [:]
    var focuses: [String: String] = [:]
    /// When each node was last heard from.
    var heard: [String: Double] = [:]

    mutating func remove(viewer id: String) {
        viewers.removeAll { $0.info.id == id }
        selections[id] = nil
        focuses[id] = nil
    }
}

extension CollectionHub {
    /// Whether a message is presence others should see: it is kept for ``takeRelayed()``.
    static func isRelayed(_ message: ServerMessage) -> Bool {
        switch message {
        case .selection, .selections, .focus, .drag, .presenceChange, .layout: true
        default: false
        }
    }

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
        case let .selection(viewer, item, selected):
            if selected { remote.selections[viewer, default: []].insert(item) } else { remote.selections[viewer]?.remove(item) }
        case let .selections(viewer, items, selected):
            if selected { remote.selections[viewer, default: []].formUnion(items) } else { remote.selections[viewer]?.subtract(items) }
        case let .focus(viewer, item):
            remote.focuses[viewer] = item
        case .drag:
            break
        case let .layout(name, by):
            // The collection-wide layout: every viewer here switches too.
            guard policy.layoutNames.contains(name) else { return [] }
            return switchLayout(to: name, by: by, relaying: false)
        default:
            return []
        }
        return broadcast(message, relaying: false)
    }

    /// A node said it is alive (its viewers stay).
    public func heardFrom(node: String, at now: Double) { remote.heard[node] = now }

    /// Viewers of nodes not heard from since `time` leave (their selections go);
    /// this hub's viewers are told.
    public func forgetNodes(silentSince time: Double) -> [Outgoing] {
        let silent = Set(remote.heard.filter { $0.value < time }.keys)
        guard !silent.isEmpty else { return [] }
        for node in silent { remote.heard[node] = nil }
        let gone = remote.viewers.filter { silent.contains($0.node) }.map(\.info.id)
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

    /// Viewers of other nodes, for welcomes (after this node's own).
    var remoteViewers: [ViewerInfo] { remote.viewers.map(\.info) }

    /// Their selections (of items still here), for welcomes.
    var remoteSelections: [SelectionInfo] {
        remote.viewers.compactMap { entry in
            let items = (remote.selections[entry.info.id] ?? []).filter(model.snapshot.contains(item:)).sorted()
            return items.isEmpty ? nil : SelectionInfo(viewer: entry.info.id, items: items)
        }
    }

    /// Their focuses (on items still here), for welcomes.
    var remoteFocuses: [FocusInfo] {
        remote.viewers.compactMap { entry in
            remote.focuses[entry.info.id].flatMap { model.snapshot.contains(item: $0) ? FocusInfo(viewer: entry.info.id, item: $0) : nil }
        }
    }
}
