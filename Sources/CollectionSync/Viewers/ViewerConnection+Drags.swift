import CollectionCore
import CollectionProtocol
import Foundation

/// A viewer's drag out of its collection (UIKit's drag delegate): it lifts an item
/// (`dragBegin`), perhaps adds more (`dragAdd`), and ends the drag (`dragEnd`). The
/// collection's drag delegate says what the drag carries (the viewer's collection
/// view holds the session); its id, from the collection's ``DragSessions``, is what
/// a drop on any collection of the server names to take those items.
extension ViewerConnection {
    /// `dragBegin`: a new session (ending one under way), or why not.
    func beginDrag(_ item: String, at point: Point, in collection: String, sessions: inout DragSessions) throws(ProtocolError) -> Outgoing {
        let indexPath = try self.indexPath(of: item)
        endDrag(sessions: &sessions)
        guard let session = collectionView.interactions.beginDragSession(at: indexPath, location: CGPoint(x: point.x, y: point.y)) else {
            throw ProtocolError(.notDraggable, "collection '\(collection)' does not let item '\(item.prefix(80))' be dragged (its drag delegate gives no items); nothing changed")
        }
        let id = sessions.open(by: info.id, key: key)
        dragSession = id
        return Outgoing(viewer: key, message: Self.dragSessionMessage(id, session))
    }

    /// `dragAdd`: the session with one more item (or as it was, when the delegate adds none).
    func addToDrag(_ item: String, at point: Point) throws(ProtocolError) -> [Outgoing] {
        guard let id = dragSession, collectionView.activeDragSession != nil else {
            throw ProtocolError(.notDraggable, "no drag under way to add item '\(item.prefix(80))' to (send dragBegin)")
        }
        let indexPath = try self.indexPath(of: item)
        collectionView.interactions.addToDragSession(at: indexPath, location: CGPoint(x: point.x, y: point.y))
        guard let session = collectionView.activeDragSession else { return [] }
        return [Outgoing(viewer: key, message: Self.dragSessionMessage(id, session))]
    }

    /// Ends this viewer's drag, if any (`dragEnd`, a new drag, the viewer leaving).
    func endDrag(sessions: inout DragSessions) {
        guard let id = dragSession else { return }
        dragSession = nil
        sessions.close(id)
        collectionView.interactions.endDragSession()
    }

    private static func dragSessionMessage(_ id: String, _ session: DragSession) -> ServerMessage {
        .dragSession(id: id, items: session.items.map { $0.localObject ?? $0.value }, allowsMove: session.allowsMoveOperation)
    }
}
