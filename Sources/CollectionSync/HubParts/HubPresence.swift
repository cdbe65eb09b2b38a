import CollectionCore
import CollectionProtocol

/// Who is here and what they point at, for one collection: the turn's joins and
/// leaves (``PresenceLog``), the presence to relay to other servers sharing the
/// collection when it is relayed, and those servers' viewers (``RemotePresence``).
struct HubPresence {
    /// Joins and leaves not yet told (sent once per turn).
    var log = PresenceLog()
    /// Viewers of other servers sharing the collection.
    var remote = RemotePresence()
    /// Whether presence made here is kept for other servers (``takeRelayed()``).
    var relays = false {
        didSet { if !relays { relayed = [] } }
    }
    /// Presence to relay to other servers, in the order it was made.
    private var relayed: [ServerMessage] = []

    /// Keeps `message` for other servers, when relaying and it is presence.
    mutating func relay(_ message: ServerMessage) {
        if relays, message.isRelayedPresence { relayed.append(message) }
    }

    /// The presence to relay made since the last call, in order.
    mutating func takeRelayed() -> [ServerMessage] {
        guard !relayed.isEmpty else { return [] }
        defer { relayed = [] }
        return relayed
    }

    /// A viewer here said hello: others hear it at the turn's end, other servers too.
    mutating func joined(_ info: ViewerInfo) {
        log.joined(info)
        relay(.presenceChange(joined: [info], left: []))
    }

    /// A viewer here that had said hello left.
    mutating func left(_ id: String) {
        log.left(id)
        relay(.presenceChange(joined: [], left: [id]))
    }

    /// What a newcomer's welcome says of everyone but itself (`key`): who is here
    /// (`ready`, then other servers' viewers), what each selects, where each focuses.
    func now(of ready: [ViewerConnection], except key: UInt64, in model: CollectionModel)
        -> (viewers: [ViewerInfo], selections: [SelectionInfo], focuses: [FocusInfo]) {
        let selections = ready.map { SelectionInfo(viewer: $0.info.id, items: $0.selection(in: model).sorted()) }.filter { !$0.items.isEmpty }
        let focuses = ready.filter { $0.key != key }.compactMap { v in
            v.collectionView.focusedIndexPath.flatMap { model.snapshot.itemIdentifier(at: $0) }.map { FocusInfo(viewer: v.info.id, item: $0) }
        }
        return (ready.map(\.info) + remote.viewers.map(\.info), selections + remote.selectionInfos(in: model.snapshot),
                focuses + remote.focusInfos(in: model.snapshot))
    }

    /// What `viewer`'s presence message (a selection, a range of them, a focus, a
    /// drag's position) shows the others once it is done on the viewer's own view
    /// state: the messages, and whether the sender hears them too (not of its focus
    /// or its drag). nil: `message` is not presence.
    static func seen(_ message: ClientMessage, by viewer: ViewerConnection, rangeLimit: Int) throws(ProtocolError)
        -> (messages: [ServerMessage], toSender: Bool)? {
        let id = viewer.info.id
        switch message {
        case let .select(item, selected):
            return (try viewer.select(item, selected) ? [.selection(viewer: id, item: item, selected: selected)] : [], true)
        case let .selectRange(from, to, selected, replace):
            let (deselected, changed) = try viewer.selectRange(from: from, to: to, selected: selected, replace: replace, limit: rangeLimit)
            return ((deselected.isEmpty ? [] : [.selections(viewer: id, items: deselected, selected: false)])
                + (changed.isEmpty ? [] : [.selections(viewer: id, items: changed, selected: selected)]), true)
        case .focus(let item):
            return (try viewer.focus(item) ? [.focus(viewer: id, item: item)] : [], false)
        case let .drag(item, point):
            if let item { _ = try viewer.indexPath(of: item) }
            let over = item == nil ? nil : DragAnchor.under(point, in: viewer.collectionView, snapshot: viewer.model.snapshot)
            return ([.drag(viewer: id, item: item, at: point, over: over)], false)
        default:
            return nil
        }
    }
}
