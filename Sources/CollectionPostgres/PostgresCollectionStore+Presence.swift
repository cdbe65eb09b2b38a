import CollectionSync
import Foundation
import NIOCore
import PostgresNIO

extension PostgresCollectionStore {
    /// The channel presence goes on (beside ``Options/channel``).
    var presenceChannel: String { options.channel + "_presence" }

    /// Sends `payload` with `NOTIFY` on a connection of its own, from a queue of
    /// its own: the caller does not wait, and payloads go out in order. A payload
    /// that cannot be sent (the server unreachable, too long) is dropped: presence
    /// is refreshed by the next event and by announcements.
    public func publish(presence payload: String) {
        guard payload.utf8.count <= 7_000 else {
            logger.warning("presence of \(payload.utf8.count) bytes not relayed (over 7,000)")
            return
        }
        let message = "\(nodeID) \(payload)"
        // Weakly: a store let go with a send pending is not kept for it.
        presenceQueue.async { [weak self] in
            guard let self else { return }
            // Made outside the lock (edits need it meanwhile); only this queue makes it.
            let (open, due) = locked { () -> (PostgresConnection?, Bool) in
                if let open = presenceConnection, !open.isClosed { return (open, false) }
                return (nil, !closed && Self.now >= presenceRetryAt)
            }
            var c = open
            if c == nil, due {
                do {
                    let made = try connect()
                    locked { presenceConnection = made }
                    c = made
                } catch {
                    locked { presenceRetryAt = Self.now + 1 }
                }
            }
            guard let c else { return }
            _ = try? run("SELECT pg_notify(\(presenceChannel), \(message))", on: c)
        }
    }

    /// Hears other nodes' presence on the listening connection (see ``observeCommits(_:)``).
    public func observePresence(_ handler: @escaping @Sendable (_ node: String, _ payload: String) -> Void) {
        locked { presenceHandler = handler }
    }

    /// Splits a presence notification into its node and payload; nil for this node's own.
    func presenceFromOthers(_ text: String) -> (node: String, payload: String)? {
        guard let space = text.firstIndex(of: " ") else { return nil }
        let node = String(text[..<space])
        guard node != nodeID else { return nil }
        return (node, String(text[text.index(after: space)...]))
    }
}
