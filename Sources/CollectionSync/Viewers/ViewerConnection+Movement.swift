import CollectionCore
import CollectionProtocol
import Foundation

/// The item a viewer is moving interactively, and where its pointer is.
struct ViewerMovement {
    var item: String
    var position: Point
}

/// Where a movement ended (`moveEnd`).
enum MovementEnd {
    /// Where no item can go: nothing changes.
    case nowhere
    /// Where it started: nothing changes.
    case inPlace
    /// First in `section`, or after `after` in it: a `move` edit.
    case move(item: String, section: String, after: String?)
}

/// Interactive movement (UIKit's `beginInteractiveMovementForItem(at:)` and the
/// calls that follow): the item a viewer moves is picked up, follows its pointer
/// and makes the others room in this viewer's collection view alone; others see it
/// as a drag. Each step answers with the mover's animated window and the `drag`
/// others are shown (the hub broadcasts it); the end is an edit the hub makes.
extension ViewerConnection {
    /// Throws `not_movable` unless this viewer's collection view lets `item` (named
    /// as messages quote it) move from `from` to `to`: its data source's
    /// `canMoveItemAt`, and its delegate's rule for where a dragged item may go
    /// (`targetIndexPathForMoveOfItemFromOriginalIndexPath`).
    func allowMove(of item: String, from: IndexPath, to: IndexPath) throws(ProtocolError) {
        let cv = collectionView
        guard cv.dataSource?.collectionView(cv, canMoveItemAt: from) ?? false else {
            throw ProtocolError(.notMovable, "\(item) cannot be moved")
        }
        if let delegate = cv.delegate,
           delegate.collectionView(cv, targetIndexPathForMoveOfItemFromOriginalIndexPath: from, atCurrentIndexPath: from, toProposedIndexPath: to) != to {
            throw ProtocolError(.notMovable, "\(item) cannot be moved there (the delegate's targetIndexPathForMoveOfItemFromOriginalIndexPath keeps it elsewhere)")
        }
    }

    /// `moveBegin`: the collection view picks the item up (which asks `canMoveItemAt`).
    func beginMove(_ item: String, at indexPath: IndexPath) throws(ProtocolError) -> (own: Outgoing, seen: ServerMessage) {
        let cv = collectionView
        if movement != nil {
            cv.cancelInteractiveMovement()
            movement = nil
        }
        guard cv.beginInteractiveMovementForItem(at: indexPath) else {
            throw ProtocolError(.notMovable, "\(model.quotedName(of: item)) cannot be moved")
        }
        let center = cv.layoutAttributesForItem(at: indexPath).map { Point(x: $0.center.x, y: $0.center.y) } ?? Point(x: 0, y: 0)
        movement = ViewerMovement(item: item, position: center)
        return (windowChange(animated: true), .drag(viewer: info.id, item: item, at: center, over: DragAnchor(item: item, x: 0.5, y: 0.5)))
    }

    /// `moveUpdate`: the item follows the pointer; the others make room where the
    /// layout (and the delegate's `targetIndexPathForMoveOfItemFromOriginalIndexPath`) say.
    func updateMove(to point: Point) throws(ProtocolError) -> (own: Outgoing, seen: ServerMessage) {
        guard var moving = movement else { throw ProtocolError(.notMoving, "no movement under way; send moveBegin first") }
        moving.position = point
        movement = moving
        collectionView.updateInteractiveMovementTargetPosition(CGPoint(x: point.x, y: point.y))
        let over = DragAnchor.landing(in: collectionView, snapshot: model.snapshot)
        return (windowChange(animated: true), .drag(viewer: info.id, item: moving.item, at: point, over: over))
    }

    /// `moveCancel`: everything goes back; nothing changes. nil with no movement under
    /// way (UIKit's `cancelInteractiveMovement()` does nothing then): one another's
    /// edit ended (its item deleted, or carried into another collection by this
    /// viewer's own keyboard drop, on another connection) is cancelled already.
    func cancelMove() -> (own: Outgoing, seen: ServerMessage)? {
        guard let moving = movement else { return nil }
        collectionView.cancelInteractiveMovement()
        movement = nil
        return (windowChange(animated: true), .drag(viewer: info.id, item: nil, at: moving.position))
    }

    /// `moveEnd`: the item is put back (the move, if any, is an edit like any other,
    /// whose batch this viewer receives like every viewer); says where it was shown.
    /// The item goes after the item shown before it, or first in its section.
    func endMove() throws(ProtocolError) -> (end: MovementEnd, seen: ServerMessage) {
        guard let moving = movement else { throw ProtocolError(.notMoving, "no movement under way; send moveBegin first") }
        let cv = collectionView
        let target = cv.indexPathForInteractivelyMovingItem
        cv.cancelInteractiveMovement()
        movement = nil
        let seen = ServerMessage.drag(viewer: info.id, item: nil, at: moving.position)
        let sections = model.snapshot.sectionIdentifiers
        guard let target, sections.indices.contains(target.section) else { return (.nowhere, seen) }
        if model.snapshot.indexPath(for: moving.item) == target { return (.inPlace, seen) }
        let section = sections[target.section]
        let others = model.snapshot.itemIdentifiers(inSection: section).filter { $0 != moving.item }
        let after = target.item > 0 && target.item <= others.count ? others[target.item - 1] : nil
        return (.move(item: moving.item, section: section, after: after), seen)
    }

    /// Before a batch: a movement is put down, so that the collection view presents
    /// the data source's order when the batch arrives.
    func suspendMovement() {
        if movement != nil { collectionView.cancelInteractiveMovement() }
    }

    /// After a batch (whose elements were sent where the model puts them): the
    /// movement is picked up again where the pointer is, shown in an animated window
    /// (`own`), or ends with a `move_cancelled` error if the item was deleted
    /// (`seen`: the drag's end others are shown).
    func resumeMovement() -> (own: [Outgoing], seen: ServerMessage?) {
        guard let moving = movement else { return ([], nil) }
        let cv = collectionView
        if let indexPath = model.snapshot.indexPath(for: moving.item), cv.beginInteractiveMovementForItem(at: indexPath) {
            cv.updateInteractiveMovementTargetPosition(CGPoint(x: moving.position.x, y: moving.position.y))
            return (ready ? [windowChange(animated: true)] : [], nil)
        }
        movement = nil
        return ([Outgoing(viewer: key, message: .error(code: .moveCancelled, message: "item '\(moving.item.prefix(80))' was deleted while you moved it", op: nil))],
                .drag(viewer: info.id, item: nil, at: moving.position))
    }
}
