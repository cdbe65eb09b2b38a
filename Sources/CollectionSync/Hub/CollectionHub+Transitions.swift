import CollectionCore
import CollectionProtocol
import Foundation

/// Interactive transitions: one viewer's own layout moves, as its client's pinch
/// or slider says, between the layout it has and another of the collection's
/// layouts (`startInteractiveTransition(to:completion:)`), with every frame from
/// the server. Finishing switches that viewer's layout alone; the `layout` message
/// is what switches everyone's.
extension CollectionHub {
    func beginTransition(to name: String, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard policy.layoutNames.contains(name) else {
            throw ProtocolError(.badMessage, "no layout named '\(name.prefix(64))'; expected one of \(policy.layoutNames.joined(separator: ", "))")
        }
        guard viewer.state.transitionTarget == nil else {
            throw ProtocolError(.badMessage, "a transition to '\(viewer.state.transitionTarget ?? "")' is under way: end it first (transitionEnd)")
        }
        guard name != viewer.layoutName else { throw ProtocolError(.badMessage, "this viewer's layout is '\(name)' already") }
        guard viewer.movement == nil else { throw ProtocolError(.badMessage, "an item is being moved: end the movement first") }
        viewer.state.beginTransition(to: name, policy: policy)
        return transitionWindow(viewer, animated: false)
    }

    func updateTransition(_ progress: Double, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard viewer.state.updateTransition(progress) else { throw ProtocolError(.notTransitioning, "no transition under way (send transitionBegin)") }
        return transitionWindow(viewer, animated: false)
    }

    func endTransition(finish: Bool, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard viewer.state.endTransition(finish: finish) else { throw ProtocolError(.notTransitioning, "no transition under way (send transitionBegin)") }
        var out = transitionWindow(viewer, animated: true)
        // The viewer's own layout changed: it alone is told, as of a switch it made.
        if finish { out.append(Outgoing(viewer: viewer.key, message: .layout(name: viewer.layoutName, by: viewer.info.id))) }
        return out
    }

    private func transitionWindow(_ viewer: ViewerConnection, animated: Bool) -> [Outgoing] {
        let (changed, removed) = viewer.refreshWindow()
        return [Outgoing(viewer: viewer.key, message: .window(.init(contentSize: viewer.contentSize, bands: viewer.bands, add: changed, remove: removed, animated: animated)))]
    }
}

extension CollectionHub {
    /// `layout`: every viewer's collection view switches to the named layout
    /// (`setCollectionViewLayout(_:animated:)`) and gets its window animated to
    /// the new frames; then everyone hears the new name. Not an edit: no sequence number.
    func switchLayout(to name: String, by sender: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard policy.layoutNames.contains(name) else {
            throw ProtocolError(.badMessage, "no layout named '\(name.prefix(64))'; expected one of \(policy.layoutNames.joined(separator: ", "))")
        }
        return switchLayout(to: name, by: sender.info.id, relaying: true)
    }

    /// The switch itself, for a viewer here or (not relayed again) one of another node.
    func switchLayout(to name: String, by id: String, relaying: Bool) -> [Outgoing] {
        // (A viewer may have a layout of its own, from an interactive transition it finished.)
        guard name != layoutName || viewers.values.contains(where: { $0.layoutName != name }) else { return [] }
        layoutName = name
        let out = oncePerState { viewer in
            suspendMovement(of: viewer)
            viewer.switchLayout(to: name, policy: policy)
            guard viewer.ready else { return (nil, []) }
            let (changed, removed) = viewer.refreshWindow()
            return (.window(.init(contentSize: viewer.contentSize, bands: viewer.bands, add: changed, remove: removed, animated: true)), resumeMovement(of: viewer))
        }
        reindexSharedStates()
        return out + broadcast(.layout(name: name, by: id), relaying: relaying)
    }
}
