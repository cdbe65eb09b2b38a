/// Drags out of a collection under way (UIKit's drag sessions), by session id: a
/// drop anywhere on the server names the session and takes what it carries. Ids
/// are the dragging viewer's id and a serial number, so a session that ended is
/// never mistaken for a later one.
package struct DragSessions: Sendable {
    private var serial = 0
    private var owners: [String: UInt64] = [:]

    package init() {}

    /// Opens a session for the viewer `viewer` on connection `key`; returns its id.
    package mutating func open(by viewer: String, key: UInt64) -> String {
        serial += 1
        let id = "\(viewer)-\(serial)"
        owners[id] = key
        return id
    }

    /// Ends the session `id` (its drag ended, another began, its viewer left).
    package mutating func close(_ id: String) { owners[id] = nil }

    /// The connection whose drag `id` is, while it is under way.
    package func owner(of id: String) -> UInt64? { owners[id] }

    /// Sessions under way.
    package var count: Int { owners.count }
}
