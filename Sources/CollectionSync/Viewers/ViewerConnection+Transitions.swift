import CollectionCore
import CollectionProtocol
import Foundation

/// Interactive transitions: one viewer's own layout moves, as its client's pinch
/// or slider says, between the layout it has and another of the collection's
/// layouts (`startInteractiveTransition(to:completion:)`), with every frame from
/// the server. Finishing switches that viewer's layout alone; the `layout` message
/// is what switches everyone's.
extension ViewerConnection {
    func beginTransition(to name: String, policy: LayoutPolicy) throws(ProtocolError) -> [Outgoing] {
        guard policy.layoutNames.contains(name) else {
            throw ProtocolError(.badMessage, "no layout named '\(name.prefix(64))'; expected one of \(policy.layoutNames.joined(separator: ", "))")
        }
        guard state.transitionTarget == nil else {
            throw ProtocolError(.badMessage, "a transition to '\(state.transitionTarget ?? "")' is under way: end it first (transitionEnd)")
        }
        guard name != layoutName else { throw ProtocolError(.badMessage, "this viewer's layout is '\(name)' already") }
        guard movement == nil else { throw ProtocolError(.badMessage, "an item is being moved: end the movement first") }
        state.beginTransition(to: name, policy: policy)
        return [windowChange()]
    }

    func updateTransition(_ progress: Double) throws(ProtocolError) -> [Outgoing] {
        guard state.updateTransition(progress) else { throw ProtocolError(.notTransitioning, "no transition under way (send transitionBegin)") }
        return [windowChange()]
    }

    func endTransition(finish: Bool) throws(ProtocolError) -> [Outgoing] {
        guard state.endTransition(finish: finish) else { throw ProtocolError(.notTransitioning, "no transition under way (send transitionBegin)") }
        var out = [windowChange(animated: true)]
        // The viewer's own layout changed: it alone is told, as of a switch it made.
        if finish { out.append(Outgoing(viewer: key, message: .layout(name: layoutName, by: info.id))) }
        return out
    }
}
