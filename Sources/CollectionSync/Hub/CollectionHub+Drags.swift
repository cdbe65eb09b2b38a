import CollectionCore
import CollectionProtocol
import Foundation

/// Drags out of this collection (UIKit's drag delegate): a viewer lifts an item
/// (`dragBegin`), perhaps adds more (`dragAdd`), and ends the drag (`dragEnd`). The
/// drag delegate of this collection says what the drag carries (the viewer's
/// collection view holds the session); a drop on any collection of the server
/// names the session (``DragSessions``) and takes those items.
extension CollectionHub {
    func beginDrag(_ item: String, at point: Point, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let indexPath = try viewer.indexPath(of: item)
        endDrag(of: viewer)
        guard let session = viewer.collectionView.beginDragSession(at: indexPath, location: CGPoint(x: point.x, y: point.y)) else {
            throw ProtocolError(.notDraggable, "collection '\(name)' does not let item '\(item.prefix(80))' be dragged (its drag delegate gives no items); nothing changed")
        }
        let id = drags.open(by: viewer.info.id, key: viewer.key)
        viewer.dragSession = id
        return [Outgoing(viewer: viewer.key, message: Self.dragSessionMessage(id, session))]
    }

    func addToDrag(_ item: String, at point: Point, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard let id = viewer.dragSession, viewer.collectionView.activeDragSession != nil else {
            throw ProtocolError(.notDraggable, "no drag under way to add item '\(item.prefix(80))' to (send dragBegin)")
        }
        let indexPath = try viewer.indexPath(of: item)
        viewer.collectionView.addToDragSession(at: indexPath, location: CGPoint(x: point.x, y: point.y))
        guard let session = viewer.collectionView.activeDragSession else { return [] }
        return [Outgoing(viewer: viewer.key, message: Self.dragSessionMessage(id, session))]
    }

    /// Ends `viewer`'s drag, if any (`dragEnd`, a new drag, the viewer leaving).
    func endDrag(of viewer: ViewerConnection) {
        guard let id = viewer.dragSession else { return }
        viewer.dragSession = nil
        drags.close(id)
        viewer.collectionView.endDragSession()
    }

    /// The drag under way with session id `id`, if it is this collection's.
    func dragSession(_ id: String) -> DragSession? {
        guard let key = drags.owner(of: id), let viewer = viewers[key] else { return nil }
        return viewer.collectionView.activeDragSession
    }

    private static func dragSessionMessage(_ id: String, _ session: DragSession) -> ServerMessage {
        .dragSession(id: id, items: session.items.map { $0.localObject ?? $0.value }, allowsMove: session.allowsMoveOperation)
    }
}
