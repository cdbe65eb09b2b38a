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
            viewer.info = ViewerAppearance.chosen(hubDelegate.hub(self, identify: viewer.info), for: viewer.info)
            actingViewer = viewer.info
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
            presence.joined(viewer.info)
        }
        viewer.presenceMark = presence.log.count
        let here = presence.now(of: viewers.ready(), except: viewer.key, in: model)
        let now = CollectionNow(epoch: epoch, sequence: sequence, sections: { self.sectionInfos }, selections: here.selections, viewers: here.viewers,
                                focuses: here.focuses, layout: layoutName, collection: name)
        if let lastSeq = hello.lastSeq, let missed = ledger.history.batches(after: lastSeq, of: hello.epoch) {
            return viewer.resume(hello, from: lastSeq, missed: missed, now: now, policy: policy)
        }
        return viewer.welcome(hello, now: now, policy: policy)
    }
}
