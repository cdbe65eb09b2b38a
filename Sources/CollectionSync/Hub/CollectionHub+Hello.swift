import CollectionCore
import CollectionProtocol
import Foundation

/// `hello`: a viewer's first message (its name, viewport, and perhaps where it was),
/// answered with a `welcome`, or a `resume` and the batches it missed.
extension CollectionHub {
    func greet(_ viewer: ViewerConnection, _ hello: ClientMessage.Hello) throws(ProtocolError) -> [Outgoing] {
        try hello.check(watching: name)
        if !viewer.ready {
            // The display name others see: a signed-in user's own, else the hello's when it has one worth showing.
            if viewer.info.user == nil, let name = hello.name.map(ViewerAppearance.displayName), !name.isEmpty { viewer.info.name = name }
            if let hubDelegate {
                viewer.info = ViewerAppearance.chosen(hubDelegate.hub(self, identify: viewer.info), for: viewer.info)
                actingViewer = viewer.info
            }
            viewer.permissions = hubDelegate?.hub(self, permissionsOf: viewer.info) ?? .all
            guard viewer.permissions.contains(.view) else {
                throw ProtocolError(.forbidden, "\(ViewerAppearance.who(viewer.info)) may not view collection '\(name)'")
            }
            // Presence changes from now on reach this viewer; those before are in its answer.
            presence.joined(viewer.info)
        }
        viewer.ready = true
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

extension ClientMessage.Hello {
    /// Throws unless this hello speaks this server's protocol and names `collection` (or none).
    func check(watching collection: String) throws(ProtocolError) {
        guard version == protocolVersion else {
            throw ProtocolError(.unsupportedVersion, "this server speaks protocol \(protocolVersion), not \(version)")
        }
        if let named = self.collection, named != collection {
            throw ProtocolError(.unknownCollection, "this connection watches '\(collection)', not '\(named.prefix(64))'")
        }
    }
}
