import CollectionProtocol

/// Hands out viewer numbers; the hubs of a group share one, so that a viewer id
/// names one viewer across the whole server.
package final class ViewerNumbering {
    /// Put before every id (a node's name, when several servers share the
    /// collections, so that ids stay unique across them).
    package var prefix = ""
    private var last = 0
    func next() -> Int {
        last += 1
        return last
    }
}


extension CollectionHub {
    /// The end of a turn of the server's loop: every viewer hears who joined and
    /// who left since the last turn, in one `presenceChange` message (or none).
    /// A viewer hears only of changes after its own `welcome` or `resume` (those
    /// before are in it), and one who joined and left within the turn is not
    /// mentioned to those who never saw it. So a join costs each viewer one small
    /// message, however many viewers there are.
    /// Messages made since, outside the handling of a message (a drop's placeholder
    /// committed or deleted later), go out first.
    public func endTurn() -> [Outgoing] {
        let deferred = drops.deferred
        drops.deferred = []
        return deferred + presence.log.endTurn(for: viewers.inOrder())
    }
}

extension CollectionHub {
    /// The viewers that said hello, in the order they connected (then other servers').
    public var presentViewers: [ViewerInfo] { viewers.ready().map(\.info) + presence.remote.viewers.map(\.info) }

    /// The viewer whose id is `id`: of this collection, of another of its group (one
    /// that dropped an item here), or of another server; nil for none of them (the
    /// server itself, or one gone).
    package func viewer(withID id: String) -> ViewerInfo? {
        if let actingViewer, actingViewer.id == id { return actingViewer }
        for hub in group?.hubs ?? [self] {
            if let viewer = hub.viewers.values.first(where: { $0.info.id == id }) { return viewer.info }
        }
        return presence.remote.viewers.first { $0.info.id == id }?.info
    }
}
