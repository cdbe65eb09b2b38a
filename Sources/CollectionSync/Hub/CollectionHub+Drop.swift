import CollectionCore
import CollectionProtocol
import Foundation

extension CollectionHub {
    /// The drop session a request describes: the dragged item (read from its
    /// collection, perhaps another hub of the group) or the external data.
    func dropSession(_ request: ClientMessage.DropRequest) throws(ProtocolError) -> DropSession {
        let location = CGPoint(x: request.at.x, y: request.at.y)
        guard let source = request.source else { return try DropSession.external(request) }
        guard let hub = peer(named: source.collection) else {
            throw ProtocolError(.unknownCollection, "no collection named '\(source.collection.prefix(64))'")
        }
        // What the viewer may not see there, it may not drop here either.
        if hub !== self, let who = actingViewer, !(hub.hubDelegate?.hub(hub, permissionsOf: who) ?? .all).contains(.view) {
            throw ProtocolError(.forbidden, "\(who.user.map { "user '\($0.prefix(64))'" } ?? "an anonymous viewer") may not view collection '\(hub.name)'; nothing changed")
        }
        guard let content = hub.model.itemContent[source.item], let indexPath = hub.model.snapshot.indexPath(for: source.item) else {
            throw ProtocolError(.unknownItem, "no item with id '\(source.item.prefix(80))' in collection '\(source.collection.prefix(64))'")
        }
        if let id = source.session {
            // A drag session of the source (dragBegin, dragAdd): its drag delegate said what it carries.
            guard let session = hub.dragSession(id), session.items.contains(where: { $0.localObject == source.item }) else {
                throw ProtocolError(.dropForbidden, "no drag of item '\(source.item.prefix(80))' under way in collection '\(hub.name)' (session '\(id.prefix(64))' ended, or is another's); nothing changed")
            }
            return DropSession(items: session.items, location: location, sourceCollection: hub.name, allowsMoveOperation: session.allowsMoveOperation)
        }
        var items = [DragItem(local: source.item, from: hub.name, content: content)]
        // The source's drag delegate says what the drag carries; nothing means the item is not dragged.
        if let who = actingViewer, let carried = hub.hubDelegate?.hub(hub, itemsForDragAt: indexPath, by: who) {
            items = carried
            guard !items.isEmpty else {
                throw ProtocolError(.dropForbidden, "collection '\(hub.name)' does not let item '\(source.item.prefix(80))' be dragged; nothing changed")
            }
        }
        return DropSession(items: items, location: location, sourceCollection: hub.name)
    }

    /// `dropUpdate`: the drop delegate's proposal for the pointer's place, to this viewer.
    func proposeDrop(_ request: ClientMessage.DropRequest, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let session: DropSession
        do throws(ProtocolError) {
            session = try dropSession(request)
        } catch where error.code == .dropForbidden {
            // An item its collection will not let go: the pointer shows a forbidden drop.
            return [viewer.dropProposal(nil, at: request.at)]
        }
        return [viewer.dropProposal(resolve(session, viewer: viewer).drop, at: request.at)]
    }

    /// The delegate's proposal, refused (with why) for a move out of a collection
    /// that would not let this viewer move the item there.
    private func resolve(_ session: DropSession, viewer: ViewerConnection) -> (drop: ResolvedDrop, refusal: String?) {
        var resolved = viewer.collectionView.dropProposal(for: session)
        // A drag whose source does not allow moving copies instead.
        if resolved.proposal.operation == .move, !session.allowsMoveOperation { resolved.proposal.operation = .copy }
        guard resolved.proposal.operation == .move, let source = session.sourceCollection, let hub = peer(named: source) else { return (resolved, nil) }
        for item in session.items where item.sourceCollection == source || item.sourceCollection == nil {
            guard let id = item.localObject, let refusal = hub.refusalToTakeOut(id, by: viewer.info) else { continue }
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
        let rights = hubDelegate?.hub(self, permissionsOf: who) ?? .all
        let whom = who.user.map { "user '\($0.prefix(64))'" } ?? "an anonymous viewer"
        guard rights.contains(.edit) else { return "\(whom) may not edit collection '\(name)', so may not move its items out" }
        guard allowedEdits.contains(.move) else { return "collection '\(name)' does not take moves from viewers" }
        guard let indexPath = model.snapshot.indexPath(for: item) else { return "no item with id '\(item.prefix(80))' in collection '\(name)'" }
        let acting = actingViewer
        actingViewer = who
        defer { actingViewer = acting }
        guard store.canMoveItem(at: indexPath) else { return "item '\(item.prefix(80))' of collection '\(name)' cannot be moved (canMoveItemAt)" }
        return nil
    }

    /// `drop`: the drop delegate performs the drop on a copy of the model; the result
    /// is one numbered batch here and, for an item moved from another collection, a
    /// delete there. A forbidden (or cancelled) drop changes nothing.
    func performDrop(_ request: ClientMessage.DropRequest, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let session = try dropSession(request)
        let (resolved, refusal) = resolve(session, viewer: viewer)
        if let refusal { throw ProtocolError(.dropForbidden, "\(refusal); nothing changed") }
        let what = session.items.first.map { $0.localObject.map { "item '\($0.prefix(80))'" } ?? "\($0.kind)" } ?? "nothing"
        let place = resolved.destinationIndexPath.map { "section \($0.section), item \($0.item)" } ?? "no index path"
        guard [.copy, .move].contains(resolved.proposal.operation) else {
            throw ProtocolError(.dropForbidden, "the drop delegate answers '\(resolved.proposal.operation.rawValue)' for dropping \(what) at \(place) of '\(name)'; nothing changed")
        }
        let cv = viewer.collectionView
        let pending = PendingDrop(hub: self, op: request.op, viewer: viewer.key, by: viewer.info.id)
        let coordinator = ModelDropCoordinator(session: session, resolved: resolved, collection: name, model: model, pending: pending) { [unowned self] section in
            defer { nextSerial += 1 }
            return factory.makeItem(serial: nextSerial, section: section)
        }
        let base = model
        cv.dropDelegate?.collectionView(cv, performDropWith: coordinator)
        // A placeholder committed during performDrop already changed the collection;
        // the coordinator's own copy is then not committed over it.
        let next = model == base ? coordinator.model : model
        let problems = next.checkInvariants()
        guard problems.isEmpty else {
            throw ProtocolError(.refused, "the drop delegate left the model inconsistent (\(problems.joined(separator: "; "))); nothing changed")
        }
        guard next.snapshot.numberOfItems <= limits.maxItems else {
            throw ProtocolError(.refused, "the collection holds \(model.snapshot.numberOfItems) items; this drop would pass the limit of \(limits.maxItems)")
        }
        let reloads = coordinator.reloadedItems.filter { model.snapshot.contains(item: $0) && next.snapshot.contains(item: $0) }.sorted()
        var out: [Outgoing] = []
        // With placeholders, the op is answered by the first to be committed (or by
        // their deletion): what resolved during performDrop goes out now, the rest later.
        let waits = !coordinator.placeholders.isEmpty
        let resolvedNow = deferredOutgoing
        deferredOutgoing = []
        if next != model {
            out += try commit(next, reloading: reloads, op: waits ? nil : request.op, by: viewer)
        } else if let op = request.op, !waits {
            out.append(Outgoing(viewer: viewer.key, message: .ack(op: op, seq: sequence)))   // dropped where it was: nothing to change
        }
        out += resolvedNow
        // A move from another collection takes the items (of that collection) out of it, in one batch.
        if resolved.proposal.operation == .move, let sourceName = session.sourceCollection, sourceName != name, let source = peer(named: sourceName) {
            let ids = session.items.filter { $0.sourceCollection == sourceName }.compactMap(\.localObject).filter { source.model.snapshot.contains(item: $0) }
            guard !ids.isEmpty else { return out }
            var rest = source.model
            rest.snapshot.deleteItems(ids)
            for id in ids { rest.itemContent[id] = nil }
            // Deleting an item the model holds always validates; this batch cannot be refused.
            out += (try? source.commit(rest, reloading: [], op: nil, by: viewer.info.id, ackTo: nil)) ?? []
        }
        return out
    }
}
