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

extension CollectionHub {
    /// `action`: handed to the app (``CollectionHubDelegate``), whose answer goes back to
    /// this viewer alone as an `actionResult` (with the action's `op`, if it had one).
    func perform(action name: String, item: String?, payload: [String: String], op: String?, by viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard let hubDelegate, hubDelegate.takesActions(self) else { throw ProtocolError(.refused, "collection '\(self.name)' takes no actions", op: op) }
        var indexPath: IndexPath?
        if let item {
            guard let p = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'", op: op) }
            indexPath = p
        }
        let outcome = hubDelegate.hub(self, perform: HubAction(name: name, item: item, indexPath: indexPath, payload: payload))
        var result = ServerMessage.ActionResult(op: op, name: name, item: item, status: "done")
        switch outcome {
        case .done(let value): result.value = value.isEmpty ? nil : value
        case .refused(let why): (result.status, result.message) = ("refused", String(why.prefix(1_024)))
        case .failed(let why): (result.status, result.message) = ("failed", String(why.prefix(1_024)))
        }
        return [Outgoing(viewer: viewer.key, message: .actionResult(result))]
    }

    /// `scrollToItem`: the viewer's collection view scrolls the item to `position`
    /// (`scrollToItem(at:at:animated:)`); the viewer gets its new window and the
    /// offset to scroll to.
    func scroll(_ viewer: ViewerConnection, toItem item: String, at position: ClientMessage.ScrollTarget) throws(ProtocolError) -> [Outgoing] {
        guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
        let cv = viewer.collectionView
        cv.layoutIfNeeded()
        let place: ScrollPosition
        switch position {
        case .top: place = .top
        case .center: place = .centeredVertically
        case .bottom: place = .bottom
        case .nearest:
            // Only as far as needed: nothing if the item is in view already.
            guard let frame = cv.layoutAttributesForItem(at: indexPath)?.frame else { return [] }
            let top = cv.contentOffset.y, bottom = top + cv.bounds.height
            place = frame.minY < top ? .top : frame.maxY > bottom ? .bottom : .none
        }
        cv.scrollToItem(at: indexPath, at: place, animated: true)
        let (changed, removed) = viewer.refreshWindow()
        let offset = Point(x: Double(cv.contentOffset.x), y: Double(cv.contentOffset.y))
        return [Outgoing(viewer: viewer.key, message: .window(.init(contentSize: viewer.contentSize, bands: viewer.bands, add: changed, remove: removed, offset: offset)))]
    }
}
