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
        let selections = orderedViewers().filter(\.ready)
            .map { SelectionInfo(viewer: $0.info.id, items: $0.selection(in: model).sorted()) }
            .filter { !$0.items.isEmpty } + remote.selectionInfos(in: model.snapshot)
        let now = CollectionNow(epoch: epoch, sequence: sequence, sections: { self.sectionInfos }, selections: selections, viewers: presence(),
                                focuses: focuses(except: viewer.key) + remote.focusInfos(in: model.snapshot), layout: layoutName, collection: name)
        if let lastSeq = hello.lastSeq, let missed = history.batches(after: lastSeq, of: hello.epoch) {
            return viewer.resume(hello, from: lastSeq, missed: missed, now: now, policy: policy)
        }
        return viewer.welcome(hello, now: now, policy: policy)
    }
}
