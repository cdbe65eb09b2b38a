import CollectionCore
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

    /// Takes up a selection or focus change of a viewer of another node; false for
    /// a message that is not one.
    mutating func record(_ message: ServerMessage) -> Bool {
        switch message {
        case let .selection(viewer, item, selected):
            if selected { selections[viewer, default: []].insert(item) } else { selections[viewer]?.remove(item) }
        case let .selections(viewer, items, selected):
            if selected { selections[viewer, default: []].formUnion(items) } else { selections[viewer]?.subtract(items) }
        case let .focus(viewer, item):
            focuses[viewer] = item
        default:
            return false
        }
        return true
    }

    /// The nodes not heard from since `time`, forgotten; returns their viewers' ids.
    mutating func forgetNodes(silentSince time: Double) -> [String] {
        let silent = Set(heard.filter { $0.value < time }.keys)
        guard !silent.isEmpty else { return [] }
        for node in silent { heard[node] = nil }
        return viewers.filter { silent.contains($0.node) }.map(\.info.id)
    }

    /// Their selections (of items still in `snapshot`), for welcomes.
    func selectionInfos(in snapshot: Snapshot<String, String>) -> [SelectionInfo] {
        viewers.compactMap { entry in
            let items = (selections[entry.info.id] ?? []).filter(snapshot.contains(item:)).sorted()
            return items.isEmpty ? nil : SelectionInfo(viewer: entry.info.id, items: items)
        }
    }

    /// Their focuses (on items still in `snapshot`), for welcomes.
    func focusInfos(in snapshot: Snapshot<String, String>) -> [FocusInfo] {
        viewers.compactMap { entry in
            focuses[entry.info.id].flatMap { snapshot.contains(item: $0) ? FocusInfo(viewer: entry.info.id, item: $0) : nil }
        }
    }
}

extension ServerMessage {
    /// Whether this is presence viewers of other nodes should see (a hub keeps it
    /// for ``CollectionHub/takeRelayed()``).
    var isRelayedPresence: Bool {
        switch self {
        case .selection, .selections, .focus, .drag, .presenceChange, .layout: true
        default: false
        }
    }
}
