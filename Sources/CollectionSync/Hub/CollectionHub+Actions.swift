import CollectionCore
import CollectionProtocol
import Foundation

/// An action a viewer took with a named control (`data-action`): what, on which
/// item (if a cell's), with what payload.
public struct HubAction: Sendable, Equatable {
    /// The control's action name.
    public var name: String
    /// The cell's item identifier, nil for a control outside cells.
    public var item: String?
    /// Where that item is now.
    public var indexPath: IndexPath?
    /// The control's values (an input's `value`, the control's `data-*` fields).
    public var payload: [String: String]
}

/// What the app answers an action with.
public enum HubActionOutcome: Sendable, Equatable {
    /// Done; `value` goes back to the viewer (the page may show it).
    case done([String: String])
    /// The app will not, and says why (the person is told).
    case refused(String)
    /// The app could not (its database is down, say), and says why.
    case failed(String)
}

/// What a viewer asks of the app through the hub (``CollectionHubDelegate``): actions,
/// outlines expanded and collapsed, accessories chosen.
extension CollectionHub {
    /// `outline`: the app's outline expands or collapses `item`'s children.
    func setOutline(of item: String, expanded: Bool, by viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        _ = try viewer.indexPath(of: item)
        guard let done = hubDelegate?.hub(self, setOutline: item, expanded: expanded) else {
            throw ProtocolError(.refused, "collection '\(name)' has no outlines to expand")
        }
        guard done else {
            throw ProtocolError(.refused, "item '\(item.prefix(80))' has no children to \(expanded ? "expand" : "collapse"), or is \(expanded ? "expanded" : "collapsed") already; nothing changed")
        }
        return []
    }

    /// `accessory`: the app does what `item`'s accessory `name` does.
    func chooseAccessory(_ name: String, of item: String, by viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        _ = try viewer.indexPath(of: item)
        guard hubDelegate?.hub(self, chooseAccessory: name, of: item) == true else {
            throw ProtocolError(.refused, "item '\(item.prefix(80))' has no \(name) accessory with an action; nothing was done")
        }
        return []
    }

    /// `action`: handed to the app (``CollectionHubDelegate``), whose answer goes back to
    /// this viewer alone as an `actionResult` (with the action's `op`, if it had one).
    func perform(action name: String, item: String?, payload: [String: String], op: String?, by viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard let hubDelegate, hubDelegate.takesActions(self) else { throw ProtocolError(.refused, "collection '\(self.name)' takes no actions", op: op) }
        let indexPath = try item.map { item throws(ProtocolError) in try viewer.indexPath(of: item) }
        let outcome = hubDelegate.hub(self, perform: HubAction(name: name, item: item, indexPath: indexPath, payload: payload))
        return [Outgoing(viewer: viewer.key, message: .actionResult(outcome.result(op: op, name: name, item: item)))]
    }
}

extension HubActionOutcome {
    /// What the viewer that asked for action `name` (on `item`, under `op`) is told.
    func result(op: String?, name: String, item: String?) -> ServerMessage.ActionResult {
        var result = ServerMessage.ActionResult(op: op, name: name, item: item, status: "done")
        switch self {
        case .done(let value): result.value = value.isEmpty ? nil : value
        case .refused(let why): (result.status, result.message) = ("refused", String(why.prefix(1_024)))
        case .failed(let why): (result.status, result.message) = ("failed", String(why.prefix(1_024)))
        }
        return result
    }
}
