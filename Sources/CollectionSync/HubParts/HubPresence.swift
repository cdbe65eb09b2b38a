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
    /// Whether presence made here is kept for other servers (``relayed``).
    var relays = false {
        didSet { if !relays { relayed = [] } }
    }
    /// Presence to relay to other servers, in the order it was made.
    private(set) var relayed: [ServerMessage] = []

    /// Keeps `message` for other servers, when relaying and it is presence.
    mutating func relay(_ message: ServerMessage) {
        if relays, message.isRelayedPresence { relayed.append(message) }
    }

    /// The presence to relay made since the last call, in order.
    mutating func takeRelayed() -> [ServerMessage] {
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
}
