import CollectionCore
import CollectionProtocol
import Foundation

/// `hello`: a viewer's first message (its name, viewport, and perhaps where it was),
/// answered with a `welcome`, or a `resume` and the batches it missed.
extension CollectionHub {
    func greet(_ viewer: ViewerConnection, _ hello: ClientMessage.Hello) throws(ProtocolError) -> [Outgoing] {
        guard hello.version == protocolVersion else {
            throw ProtocolError(.unsupportedVersion, "this server speaks protocol \(protocolVersion), not \(hello.version)")
        }
        if let collection = hello.collection, collection != name {
            throw ProtocolError(.unknownCollection, "this connection watches '\(name)', not '\(collection.prefix(64))'")
        }
        let first = !viewer.ready
        // The display name others see: a signed-in user's own, else the hello's when it has one worth showing.
        if first, viewer.info.user == nil, let name = hello.name.map(ViewerAppearance.displayName), !name.isEmpty { viewer.info.name = name }
        if first, let hubDelegate {
            var chosen = hubDelegate.hub(self, identify: viewer.info)
            chosen.id = viewer.info.id   // ids stay the server's: unique, and what presence is keyed by
            chosen.user = viewer.info.user   // who it is, and its roles, are authentication's
            chosen.roles = viewer.info.roles
            chosen.name = ViewerAppearance.displayName(chosen.name)
            if !ViewerAppearance.isSafeColor(chosen.color) { chosen.color = viewer.info.color }
            viewer.info = chosen
            actingViewer = chosen
        }
        if first {
            viewer.permissions = hubDelegate?.hub(self, permissionsOf: viewer.info) ?? .all
            guard viewer.permissions.contains(.view) else {
                throw ProtocolError(.forbidden, "\(viewer.info.user.map { "user '\($0.prefix(64))'" } ?? "an anonymous viewer") may not view collection '\(name)'")
            }
        }
        viewer.ready = true
        // Presence changes from now on reach this viewer; those before are in its answer.
        if first {
            presenceEvents.joined(viewer.info)
            if relaysPresence { relayed.append(.presenceChange(joined: [viewer.info], left: [])) }
        }
        viewer.presenceMark = presenceEvents.count
        viewer.window = [:]
        viewer.show(viewport: hello.viewport, offset: hello.offset, policy: policy)
        // The window was emptied: every element comes back as changed, in order.
        let (elements, _) = viewer.refreshWindow(force: true)
        let selections = orderedViewers().filter(\.ready)
            .map { SelectionInfo(viewer: $0.info.id, items: $0.selection(in: model).sorted()) }
            .filter { !$0.items.isEmpty } + remote.selectionInfos(in: model.snapshot)
        var out: [Outgoing] = []
        // What this viewer may do, said only when it is not everything.
        let can = viewer.permissions == .all ? nil : viewer.permissions.names
        if let lastSeq = hello.lastSeq, let missed = history.batches(after: lastSeq, of: hello.epoch) {
            // Resume: the missed batches (structure only), then the whole window.
            var resume = ServerMessage.Resume(
                viewer: viewer.info, fromSeq: lastSeq, seq: sequence, selections: selections, viewers: presence(),
                focuses: focuses(except: viewer.key) + remote.focusInfos(in: model.snapshot), layout: layoutName, collection: name)
            resume.can = can
            out.append(Outgoing(viewer: viewer.key, message: .resume(resume)))
            for b in missed {
                out.append(Outgoing(viewer: viewer.key, message: .batch(.init(
                    seq: b.seq, by: b.by, deletes: b.deletes, deletedIds: b.deletedIds, inserts: b.inserts, insertedIds: b.insertedIds,
                    moves: b.moves, reloads: b.reloads, replay: true, sections: b.sections, contentSize: viewer.contentSize,
                    elements: [], remove: []))))
            }
            out.append(Outgoing(viewer: viewer.key, message: .window(.init(contentSize: viewer.contentSize, bands: viewer.bands, add: elements, remove: [], replace: true))))
        } else {
            let order = hello.wantOrder ? model.snapshot.sectionIdentifiers.map { model.snapshot.itemIdentifiers(inSection: $0) } : nil
            // A large order follows the welcome in parts: the welcome stays small, so
            // that the page draws its first cells before it reads 100,000 ids.
            let inline = order.map { $0.reduce(0) { $0 + $1.count } <= Self.inlineOrderItems } ?? true
            var welcome = ServerMessage.Welcome(
                viewer: viewer.info, epoch: epoch, seq: sequence, contentSize: viewer.contentSize, sections: sectionInfos,
                elements: elements, selections: selections, viewers: presence(),
                order: inline ? order : nil,
                focuses: focuses(except: viewer.key) + remote.focusInfos(in: model.snapshot), layout: layoutName, collection: name)
            welcome.can = can
            welcome.bands = viewer.bands
            if !inline { welcome.orderFollows = true }
            out.append(Outgoing(viewer: viewer.key, message: .welcome(welcome)))
            if let order, !inline {
                for part in OrderPart.parts(of: order, bytes: Self.orderPartBytes) {
                    out.append(Outgoing(viewer: viewer.key, message: .order(part)))
                }
            }
        }
        return out
    }

    /// Orders of at most this many items come inside the welcome; larger ones after it.
    static let inlineOrderItems = 2_000
    /// About how many bytes of ids an `order` message holds.
    static let orderPartBytes = 48 * 1024
}
