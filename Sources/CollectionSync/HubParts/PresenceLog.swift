import CollectionProtocol

/// The joins and leaves of one turn of the server's loop, waiting to be told at its
/// end (a part of the hub that owns its state). Each viewer hears the net change of
/// the events after its mark (``count`` when it was welcomed: those before are in its
/// welcome), so a viewer who joined and left within the turn is not mentioned to
/// those who never saw it.
package struct PresenceLog: Sendable {
    private enum Event: Sendable {
        case joined(ViewerInfo)
        case left(String)
    }

    private var events: [Event] = []

    package init() {}

    /// Whether nothing waits to be told.
    package var isEmpty: Bool { events.isEmpty }
    /// How many events wait: the mark of a viewer welcomed now.
    package var count: Int { events.count }

    /// A viewer joined.
    package mutating func joined(_ viewer: ViewerInfo) { events.append(.joined(viewer)) }
    /// The viewer with this id left.
    package mutating func left(_ id: String) { events.append(.left(id)) }

    /// The net change of the events from `mark` on, or nil when there is none.
    package func change(after mark: Int) -> ServerMessage? {
        var joined: [ViewerInfo] = []
        var left: [String] = []
        for event in events[min(mark, events.count)...] {
            switch event {
            case .joined(let info):
                joined.append(info)
            case .left(let id):
                if let i = joined.firstIndex(where: { $0.id == id }) { joined.remove(at: i) } else { left.append(id) }
            }
        }
        return joined.isEmpty && left.isEmpty ? nil : .presenceChange(joined: joined, left: left)
    }

    /// The turn's events were told: forgotten (their storage kept unless it grew large).
    package mutating func removeAll() {
        events.removeAll(keepingCapacity: events.count < 1_024)
    }
}

extension PresenceLog {
    /// The end of a turn: every ready viewer of `viewers` (in key order) hears the
    /// change after its mark, in one `presenceChange` (or none); viewers with the same
    /// mark hear the same change, encoded once. The events are then forgotten and
    /// every mark goes back to 0.
    mutating func endTurn(for viewers: [ViewerConnection]) -> [Outgoing] {
        guard !isEmpty else { return [] }
        defer {
            removeAll()
            for viewer in viewers { viewer.presenceMark = 0 }
        }
        var out: [Outgoing] = []
        var byMark: [Int: Outgoing?] = [:]
        for viewer in viewers where viewer.ready {
            let mark = viewer.presenceMark
            if let known = byMark[mark] {
                if let known { out.append(Outgoing(viewer: viewer.key, sameAs: known)) }
                continue
            }
            let message = change(after: mark).map { Outgoing(viewer: viewer.key, message: $0, encodeNow: true) }
            byMark[mark] = message
            if let message { out.append(message) }
        }
        return out
    }
}
