import CollectionCore
import CollectionProtocol
import Foundation

/// The item a viewer is moving interactively, and where its pointer is.
struct ViewerMovement {
    var item: String
    var position: Point
}

extension CollectionHub {
    /// How a refusal names an item to the person: its title (or a list row's text)
    /// in quotes, else `item 'id'`.
    func named(_ item: String) -> String {
        let content = model.itemContent[item]
        if let name = content?["title"] ?? content?["text"], !name.isEmpty {
            return name.count > 80 ? "“\(name.prefix(79))…”" : "“\(name)”"
        }
        return "item '\(item.prefix(80))'"
    }

    /// `moveBegin`: the viewer's collection view picks the item up (UIKit's
    /// `beginInteractiveMovementForItem(at:)`, which asks `canMoveItemAt`).
    func beginMove(_ item: String, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
        guard allowedEdits.contains(.move) else { throw ProtocolError(.notMovable, "collection '\(name)' does not take moves from viewers") }
        let cv = viewer.collectionView
        if viewer.movement != nil {
            cv.cancelInteractiveMovement()
            viewer.movement = nil
        }
        guard cv.beginInteractiveMovementForItem(at: indexPath) else {
            throw ProtocolError(.notMovable, "\(named(item)) cannot be moved")
        }
        let center = cv.layoutAttributesForItem(at: indexPath).map { Point(x: $0.center.x, y: $0.center.y) } ?? Point(x: 0, y: 0)
        viewer.movement = ViewerMovement(item: item, position: center)
        return movementWindow(viewer) + broadcast(.drag(viewer: viewer.info.id, item: item, at: center, over: DragAnchor(item: item, x: 0.5, y: 0.5)), except: viewer.key)
    }

    /// `moveUpdate`: the item follows the pointer; the others make room where the
    /// layout (and the delegate's `targetIndexPathForMoveOfItemFromOriginalIndexPath`) say.
    func updateMove(to point: Point, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard var movement = viewer.movement else { throw ProtocolError(.notMoving, "no movement under way; send moveBegin first") }
        movement.position = point
        viewer.movement = movement
        viewer.collectionView.updateInteractiveMovementTargetPosition(CGPoint(x: point.x, y: point.y))
        let over = movingAnchor(movement.item, viewer: viewer)
        return movementWindow(viewer) + broadcast(.drag(viewer: viewer.info.id, item: movement.item, at: point, over: over), except: viewer.key)
    }

    /// Where a moving item would land, by item (so that watchers with other layouts
    /// place its ghost in theirs): over the item whose place it would take (itself
    /// while it would not move), or just after the last of a section it would end.
    func movingAnchor(_ item: String, viewer: ViewerConnection) -> DragAnchor? {
        guard let target = viewer.collectionView.indexPathForInteractivelyMovingItem else { return nil }
        let sections = model.snapshot.sectionIdentifiers
        guard sections.indices.contains(target.section) else { return nil }
        let items = model.snapshot.itemIdentifiers(inSection: sections[target.section])
        if target.item < items.count { return DragAnchor(item: items[target.item], x: 0.5, y: 0.5) }
        return items.last.map { DragAnchor(item: $0, x: 1, y: 0.5) }
    }

    /// Where a point of `viewer`'s content is, by the item under it (its fractions of
    /// that item's frame), for a drag the page reports itself.
    func anchor(at point: Point, viewer: ViewerConnection) -> DragAnchor? {
        let cv = viewer.collectionView
        guard let indexPath = cv.indexPathForItem(at: CGPoint(x: point.x, y: point.y)),
              let item = model.snapshot.itemIdentifier(at: indexPath),
              let frame = cv.layoutAttributesForItem(at: indexPath)?.frame, frame.width > 0, frame.height > 0 else { return nil }
        return DragAnchor(item: item, x: (point.x - frame.minX) / frame.width, y: (point.y - frame.minY) / frame.height)
    }

    /// `moveCancel`: everything goes back; nothing changes.
    func cancelMove(viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard let movement = viewer.movement else { throw ProtocolError(.notMoving, "no movement under way") }
        viewer.collectionView.cancelInteractiveMovement()
        viewer.movement = nil
        return movementWindow(viewer) + broadcast(.drag(viewer: viewer.info.id, item: nil, at: movement.position), except: viewer.key)
    }

    /// `moveEnd`: the drop is an edit like `move` (numbered, acked, sent to every
    /// viewer). The item goes where it is shown now: after the item shown before
    /// it, or first in its section. A drop where it started is acked with the
    /// current sequence number and changes nothing.
    func endMove(op: String?, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard let movement = viewer.movement else { throw ProtocolError(.notMoving, "no movement under way; send moveBegin first") }
        let cv = viewer.collectionView
        let target = cv.indexPathForInteractivelyMovingItem
        // The model is changed through the hub's edit path, so the collection view
        // puts the item back and then receives the batch like every other viewer.
        cv.cancelInteractiveMovement()
        viewer.movement = nil
        var out = broadcast(.drag(viewer: viewer.info.id, item: nil, at: movement.position), except: viewer.key)
        let sections = model.snapshot.sectionIdentifiers
        guard let target, sections.indices.contains(target.section) else { return out + movementWindow(viewer) }
        let section = sections[target.section]
        let others = model.snapshot.itemIdentifiers(inSection: section).filter { $0 != movement.item }
        let after = target.item > 0 && target.item <= others.count ? others[target.item - 1] : nil
        if model.snapshot.indexPath(for: movement.item) == target {
            out += movementWindow(viewer)
            if let op { out.append(Outgoing(viewer: viewer.key, message: .ack(op: op, seq: sequence))) }
            return out
        }
        do {
            out += try apply(EditRequest(op: op, ifSeq: nil, action: .move(item: movement.item, section: section, after: after)), from: viewer)
        } catch {
            out += movementWindow(viewer)
            if let op { out.append(Outgoing(viewer: viewer.key, message: .reject(op: op, code: error.code, message: error.message))) }
            else { out.append(Outgoing(viewer: viewer.key, message: .error(code: error.code, message: error.message, op: nil))) }
        }
        return out
    }

    /// The mover's window after a movement step, animated.
    private func movementWindow(_ viewer: ViewerConnection) -> [Outgoing] {
        let (changed, removed) = viewer.refreshWindow()
        return [Outgoing(viewer: viewer.key, message: .window(.init(contentSize: viewer.contentSize, bands: viewer.bands, add: changed, remove: removed, animated: true)))]
    }

    /// Before a batch: a viewer's movement is put down, so that its collection view
    /// presents the data source's order when the batch arrives.
    func suspendMovement(of viewer: ViewerConnection) {
        if viewer.movement != nil { viewer.collectionView.cancelInteractiveMovement() }
    }

    /// After a batch (whose elements were sent where the model puts them): the
    /// movement is picked up again where the pointer is, shown in an animated window,
    /// or ends (with a `move_cancelled` error) if the item was deleted.
    func resumeMovement(of viewer: ViewerConnection) -> [Outgoing] {
        guard let movement = viewer.movement else { return [] }
        let cv = viewer.collectionView
        if let indexPath = model.snapshot.indexPath(for: movement.item), cv.beginInteractiveMovementForItem(at: indexPath) {
            cv.updateInteractiveMovementTargetPosition(CGPoint(x: movement.position.x, y: movement.position.y))
            return viewer.ready ? movementWindow(viewer) : []
        }
        viewer.movement = nil
        return [Outgoing(viewer: viewer.key, message: .error(code: .moveCancelled, message: "item '\(movement.item.prefix(80))' was deleted while you moved it", op: nil))]
            + broadcast(.drag(viewer: viewer.info.id, item: nil, at: movement.position), except: viewer.key)
    }
}
