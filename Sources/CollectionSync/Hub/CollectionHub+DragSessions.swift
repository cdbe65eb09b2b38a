import CollectionCore
import CollectionProtocol
import Foundation

/// Drags out of this collection (UIKit's drag delegate): a viewer lifts an item
/// (`dragBegin`), perhaps adds more (`dragAdd`), and ends the drag (`dragEnd`). The
/// drag delegate of this collection says what the drag carries; a drop on any
/// collection of the server names the session and takes those items.
extension CollectionHub {
    func beginDrag(_ item: String, at point: Point, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
        endDrag(of: viewer)
        guard let session = viewer.collectionView.beginDragSession(at: indexPath, location: CGPoint(x: point.x, y: point.y)) else {
            throw ProtocolError(.notDraggable, "collection '\(name)' does not let item '\(item.prefix(80))' be dragged (its drag delegate gives no items); nothing changed")
        }
        dragSerial += 1
        let id = "\(viewer.info.id)-\(dragSerial)"
        viewer.dragSession = id
        dragSessions[id] = viewer.key
        return [Outgoing(viewer: viewer.key, message: Self.dragSessionMessage(id, session))]
    }

    func addToDrag(_ item: String, at point: Point, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard let id = viewer.dragSession, viewer.collectionView.activeDragSession != nil else {
            throw ProtocolError(.notDraggable, "no drag under way to add item '\(item.prefix(80))' to (send dragBegin)")
        }
        guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
        viewer.collectionView.addToDragSession(at: indexPath, location: CGPoint(x: point.x, y: point.y))
        guard let session = viewer.collectionView.activeDragSession else { return [] }
        return [Outgoing(viewer: viewer.key, message: Self.dragSessionMessage(id, session))]
    }

    /// Ends `viewer`'s drag, if any (`dragEnd`, a new drag, the viewer leaving).
    func endDrag(of viewer: ViewerConnection) {
        guard let id = viewer.dragSession else { return }
        viewer.dragSession = nil
        dragSessions[id] = nil
        viewer.collectionView.endDragSession()
    }

    /// The drag under way with session id `id`, if it is this collection's.
    func dragSession(_ id: String) -> DragSession? {
        guard let key = dragSessions[id], let viewer = viewers[key] else { return nil }
        return viewer.collectionView.activeDragSession
    }

    private static func dragSessionMessage(_ id: String, _ session: DragSession) -> ServerMessage {
        .dragSession(id: id, items: session.items.map { $0.localObject ?? $0.value }, allowsMove: session.allowsMoveOperation)
    }
}
