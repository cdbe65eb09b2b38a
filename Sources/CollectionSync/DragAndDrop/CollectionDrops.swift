import CollectionCore
import CollectionProtocol
import Foundation

/// Drops on one collection (`dropUpdate`, `drop`): the session a request names (a
/// drag out of this collection or another of its group, or data from outside), the
/// drop delegate's proposal, the batch a drop makes here and, for a move out of
/// another collection, there; and the answers of placeholders resolved later.
/// Its hub hands it those messages and sends what it returns.
final class CollectionDrops {
    /// The collection dropped on.
    unowned let hub: CollectionHub
    /// Answers made outside the handling of a message (a placeholder committed or
    /// deleted later), sent with the end of the turn (``CollectionHub/endTurn()``).
    var deferred: [Outgoing] = []

    init(hub: CollectionHub) { self.hub = hub }

    /// The drop session a request describes: the dragged item (read from its
    /// collection, perhaps another hub of the group) or the external data.
    func session(_ request: ClientMessage.DropRequest) throws(ProtocolError) -> DropSession {
        let location = CGPoint(x: request.at.x, y: request.at.y)
        guard let from = request.source else { return try DropSession.external(request) }
        guard let source = hub.peer(named: from.collection) else {
            throw ProtocolError(.unknownCollection, "no collection named '\(from.collection.prefix(64))'")
        }
        // What the viewer may not see there, it may not drop here either.
        if source !== hub, let who = hub.actingViewer, !(source.hubDelegate?.hub(source, permissionsOf: who) ?? .all).contains(.view) {
            throw ProtocolError(.forbidden, "\(ViewerAppearance.who(who)) may not view collection '\(source.name)'; nothing changed")
        }
        guard let content = source.model.itemContent[from.item], let indexPath = source.model.snapshot.indexPath(for: from.item) else {
            throw ProtocolError(.unknownItem, "no item with id '\(from.item.prefix(80))' in collection '\(from.collection.prefix(64))'")
        }
        if let id = from.session {
            // A drag session of the source (dragBegin, dragAdd): its drag delegate said what it carries.
            guard let session = source.dragSession(id), session.items.contains(where: { $0.localObject == from.item }) else {
                throw ProtocolError(.dropForbidden, "no drag of item '\(from.item.prefix(80))' under way in collection '\(source.name)' (session '\(id.prefix(64))' ended, or is another's); nothing changed")
            }
            return DropSession(items: session.items, location: location, sourceCollection: source.name, allowsMoveOperation: session.allowsMoveOperation)
        }
        var items = [DragItem(local: from.item, from: source.name, content: content)]
        // The source's drag delegate says what the drag carries; nothing means the item is not dragged.
        if let who = hub.actingViewer, let carried = source.hubDelegate?.hub(source, itemsForDragAt: indexPath, by: who) {
            items = carried
            guard !items.isEmpty else {
                throw ProtocolError(.dropForbidden, "collection '\(source.name)' does not let item '\(from.item.prefix(80))' be dragged; nothing changed")
            }
        }
        return DropSession(items: items, location: location, sourceCollection: source.name)
    }

    /// `dropUpdate`: the drop delegate's proposal for the pointer's place, to this viewer.
    func propose(_ request: ClientMessage.DropRequest, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let session: DropSession
        do throws(ProtocolError) {
            session = try self.session(request)
        } catch where error.code == .dropForbidden {
            // An item its collection will not let go: the pointer shows a forbidden drop.
            return [viewer.dropProposal(nil, at: request.at)]
        }
        return [viewer.dropProposal(resolve(session, viewer: viewer).drop, at: request.at)]
    }

    /// The delegate's proposal, refused (with why) for a move out of a collection
    /// that would not let this viewer move the item there.
    private func resolve(_ session: DropSession, viewer: ViewerConnection) -> (drop: ResolvedDrop, refusal: String?) {
        var resolved = viewer.collectionView.interactions.dropProposal(for: session)
        // A drag whose source does not allow moving copies instead.
        if resolved.proposal.operation == .move, !session.allowsMoveOperation { resolved.proposal.operation = .copy }
        guard resolved.proposal.operation == .move, let name = session.sourceCollection, let source = hub.peer(named: name) else { return (resolved, nil) }
        for item in session.items where item.sourceCollection == name || item.sourceCollection == nil {
            guard let id = item.localObject, let refusal = source.drops.refusalToTakeOut(id, by: viewer.info) else { continue }
            resolved.proposal.operation = .forbidden
            return (resolved, refusal)
        }
        return (resolved, nil)
    }

    /// Why `who` may not take `item` out of this collection by a move (a drop into
    /// another collection, or a reorder here), or nil when it may: the rules of a
    /// move here, whichever collection the viewer watches. Its permissions (edit),
    /// the edits this collection takes from viewers (move), and `canMoveItemAt`
    /// (the model's immovable items, the data source's and the delegate's rules,
    /// asked with `who` as the acting viewer).
    func refusalToTakeOut(_ item: String, by who: ViewerInfo) -> String? {
        let name = hub.name
        let rights = hub.hubDelegate?.hub(hub, permissionsOf: who) ?? .all
        let whom = ViewerAppearance.who(who)
        guard rights.contains(.edit) else { return "\(whom) may not edit collection '\(name)', so may not move its items out" }
        guard hub.allowedEdits.contains(.move) else { return "collection '\(name)' does not take moves from viewers" }
        guard let indexPath = hub.model.snapshot.indexPath(for: item) else { return "no item with id '\(item.prefix(80))' in collection '\(name)'" }
        let acting = hub.actingViewer
        hub.actingViewer = who
        defer { hub.actingViewer = acting }
        guard hub.store.canMoveItem(at: indexPath) else { return "item '\(item.prefix(80))' of collection '\(name)' cannot be moved (canMoveItemAt)" }
        return nil
    }

    /// `drop`: the drop delegate performs the drop on a copy of the model; the result
    /// is one numbered batch here and, for an item moved from another collection, a
    /// delete there. A forbidden (or cancelled) drop changes nothing.
    func perform(_ request: ClientMessage.DropRequest, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let session = try self.session(request)
        let (resolved, refusal) = resolve(session, viewer: viewer)
        if let refusal { throw ProtocolError(.dropForbidden, "\(refusal); nothing changed") }
        let what = session.items.first.map { $0.localObject.map { "item '\($0.prefix(80))'" } ?? "\($0.kind)" } ?? "nothing"
        let place = resolved.destinationIndexPath.map { "section \($0.section), item \($0.item)" } ?? "no index path"
        guard [.copy, .move].contains(resolved.proposal.operation) else {
            throw ProtocolError(.dropForbidden, "the drop delegate answers '\(resolved.proposal.operation.rawValue)' for dropping \(what) at \(place) of '\(hub.name)'; nothing changed")
        }
        let cv = viewer.collectionView
        let pending = PendingDrop(hub: hub, op: request.op, viewer: viewer.key, by: viewer.info.id)
        let coordinator = ModelDropCoordinator(session: session, resolved: resolved, collection: hub.name, model: hub.model, pending: pending) { [unowned hub] section in
            hub.factory.makeItem(serial: hub.ledger.takeSerial(), section: section)
        }
        let base = hub.model
        cv.dropDelegate?.collectionView(cv, performDropWith: coordinator)
        // A placeholder committed during performDrop already changed the collection;
        // the coordinator's own copy is then not committed over it.
        let model = hub.model
        let next = model == base ? coordinator.model : model
        let problems = next.checkInvariants()
        guard problems.isEmpty else {
            throw ProtocolError(.refused, "the drop delegate left the model inconsistent (\(problems.joined(separator: "; "))); nothing changed")
        }
        guard next.snapshot.numberOfItems <= hub.limits.maxItems else {
            throw ProtocolError(.refused, "the collection holds \(model.snapshot.numberOfItems) items; this drop would pass the limit of \(hub.limits.maxItems)")
        }
        let reloads = coordinator.reloadedItems.filter { model.snapshot.contains(item: $0) && next.snapshot.contains(item: $0) }.sorted()
        var out: [Outgoing] = []
        // With placeholders, the op is answered by the first to be committed (or by
        // their deletion): what resolved during performDrop goes out now, the rest later.
        let waits = !coordinator.placeholders.isEmpty
        let resolvedNow = deferred
        deferred = []
        if next != model {
            out += try hub.commit(next, reloading: reloads, op: waits ? nil : request.op, by: viewer)
        } else if let op = request.op, !waits {
            out.append(Outgoing(viewer: viewer.key, message: .ack(op: op, seq: hub.sequence)))   // dropped where it was: nothing to change
        }
        out += resolvedNow
        // A move from another collection takes the items (of that collection) out of it, in one batch.
        if resolved.proposal.operation == .move, let name = session.sourceCollection, name != hub.name, let source = hub.peer(named: name) {
            let ids = session.items.filter { $0.sourceCollection == name }.compactMap(\.localObject).filter { source.model.snapshot.contains(item: $0) }
            guard !ids.isEmpty else { return out }
            var rest = source.model
            rest.snapshot.deleteItems(ids)
            for id in ids { rest.itemContent[id] = nil }
            // Deleting an item the model holds always validates; this batch cannot be refused.
            out += (try? source.commit(rest, reloading: [], op: nil, by: viewer.info.id, ackTo: nil)) ?? []
        }
        return out
    }

    /// A placeholder of a drop was committed (with the model it leaves) or deleted.
    func resolvePlaceholder(of drop: PendingDrop, committing next: CollectionModel?) {
        let op = drop.answered ? nil : drop.op
        let limit = hub.limits.maxItems
        if let next, next != hub.model, next.checkInvariants().isEmpty, next.snapshot.numberOfItems <= limit {
            do throws(ProtocolError) {
                hub.ledger.handlingAgain(fingerprint: drop.fingerprint)
                deferred += try hub.commit(next, reloading: [], op: op, by: drop.by, ackTo: drop.viewer)
                drop.answered = drop.answered || op != nil
                return
            } catch {
                if let op { deferred.append(Outgoing(viewer: drop.viewer, message: .reject(op: op, code: error.code, message: error.message))) }
                drop.answered = true
                return
            }
        }
        guard let op else { return }
        drop.answered = true
        let why = next == nil ? "the drop delegate deleted its placeholder; nothing was dropped"
            : "the placeholder's commit changed nothing the collection can take (its limit is \(limit) items); nothing was dropped"
        deferred.append(Outgoing(viewer: drop.viewer, message: .reject(op: op, code: .dropCancelled, message: why)))
    }
}
