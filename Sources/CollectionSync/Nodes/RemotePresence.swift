import CollectionCore
import CollectionProtocol
import Foundation

/// What a hub knows of the viewers other servers (nodes) sharing the collection
/// have: who they are, what they select and focus. Heard from those nodes, never
/// stored; a node that falls silent takes its viewers with it (when a node was last
/// heard from is the engine's ``NodeRoster``'s to keep, for every hub).
package struct RemotePresence {
    /// Viewers by id, in the order first heard of, with their node.
    package internal(set) var viewers: [(info: ViewerInfo, node: String)] = []
    var selections: [String: Set<String>] = [:]
    var focuses: [String: String] = [:]

    /// Nothing heard yet.
    package init() {}

    private mutating func remove(viewer id: String) {
        viewers.removeAll { $0.info.id == id }
        selections[id] = nil
        focuses[id] = nil
    }

    /// Takes up a selection or focus change of a viewer of another node; false for
    /// a message that is not one.
    private mutating func record(_ message: ServerMessage) -> Bool {
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

    /// Takes up a node's joins and leaves: the viewers new to this hub (neither
    /// known nor `here`), the known ones that left, and the items each of those had
    /// selected (still in `snapshot`), which this hub's viewers see unselected first.
    private mutating func take(joined: [ViewerInfo], left: [String], from node: String, here: Set<String>, in snapshot: Snapshot<String, String>)
        -> (joined: [ViewerInfo], left: [String], unselected: [SelectionInfo]) {
        let known = Set(viewers.map(\.info.id))
        let new = joined.filter { !known.contains($0.id) && !here.contains($0.id) }
        viewers += new.map { ($0, node) }
        let gone = left.filter { known.contains($0) }
        var unselected: [SelectionInfo] = []
        for id in gone {
            let items = selections[id].map { $0.filter(snapshot.contains(item:)).sorted() } ?? []
            remove(viewer: id)
            if !items.isEmpty { unselected.append(SelectionInfo(viewer: id, items: items)) }
        }
        return (new, gone, unselected)
    }

    /// What another node that has just started listening needs to know of the
    /// `ready` viewers here: who they are (in groups of 16, each well under a
    /// notification's 8,000 bytes), what they select (64 items a message) and focus.
    static func announcement(of ready: [ViewerConnection], in model: CollectionModel) -> [ServerMessage] {
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

    /// The ids of the viewers of `nodes` (nodes gone silent: they leave).
    package func viewers(of nodes: Set<String>) -> [String] {
        viewers.filter { nodes.contains($0.node) }.map(\.info.id)
    }

    /// What a hub does with presence another node relayed.
    package enum Relayed: Equatable {
        /// Tell this hub's viewers these messages, in order (not relayed again).
        case tell([ServerMessage])
        /// Every viewer here switches to the collection-wide layout `name`, chosen by `by`.
        case switchLayout(name: String, by: String)
    }

    /// Takes up presence `node` relayed (a `selection`, `selections`, `focus`, `drag`
    /// or `presenceChange` of its viewers, or a `layout` one of them chose): the
    /// answer says what this hub's viewers are told. `here` gives the ids of the
    /// hub's own viewers (asked only for joins).
    package mutating func receive(_ message: ServerMessage, from node: String,
                          here: () -> Set<String>, in snapshot: Snapshot<String, String>) -> Relayed {
        switch message {
        case let .presenceChange(joined, left):
            let (new, gone, unselected) = take(joined: joined, left: left, from: node, here: here(), in: snapshot)
            // As for a viewer here: its selections go first, then it leaves.
            var tell: [ServerMessage] = unselected.map { .selections(viewer: $0.viewer, items: $0.items, selected: false) }
            if !new.isEmpty || !gone.isEmpty { tell.append(.presenceChange(joined: new, left: gone)) }
            return .tell(tell)
        case let .layout(name, by):
            return .switchLayout(name: name, by: by)
        case .drag:
            return .tell([message])
        default:
            return .tell(record(message) ? [message] : [])
        }
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
    /// for ``NodeLink/takeRelayed()``).
    var isRelayedPresence: Bool {
        switch self {
        case .selection, .selections, .focus, .drag, .presenceChange, .layout: true
        default: false
        }
    }
}
