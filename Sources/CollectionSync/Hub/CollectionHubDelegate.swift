import CollectionCore
import CollectionProtocol
import Foundation

/// What a hub asks of the app on it, in one place: who a viewer is and what it may
/// do, whether an item may move and who is told when it moved, each committed batch,
/// the app's actions, outline rows and accessories, what a drag out of the collection
/// carries, and the background view. The library's `LiveCollection` answers for the
/// app's data source, delegate and drag delegate; a hub without one answers as the
/// defaults below say. Asked with ``CollectionHub/actingViewer`` set when a viewer's
/// message is being handled. Held strongly by the hub (``CollectionHub/hubDelegate``).
///
/// The collection view's own delegates (``CollectionHub/delegate``, the drop and drag
/// delegates) are UIKit's and installed on every viewer's collection view; this one is
/// the hub's.
package protocol CollectionHubDelegate: AnyObject {
    /// The identity others see for a viewer saying hello, given the one the hub
    /// proposes (the hello's name, a colour). Default: the proposal.
    func hub(_ hub: CollectionHub, identify proposed: ViewerInfo) -> ViewerInfo
    /// What a viewer may do here, decided at its hello from who it is. Default: everything.
    func hub(_ hub: CollectionHub, permissionsOf viewer: ViewerInfo) -> ViewerPermissions
    /// Whether the item at `indexPath` may be moved (the data source's and the
    /// delegate's `canMoveItemAt`); the model's immovable items never are. Default: true.
    func hub(_ hub: CollectionHub, canMoveItemAt indexPath: IndexPath) -> Bool
    /// A viewer's move committed (UIKit's `moveItemAt`: the data source's, then the delegate's).
    func hub(_ hub: CollectionHub, didMoveItemAt from: IndexPath, to: IndexPath)
    /// Every committed batch: its number, who made it (a viewer id or
    /// ``CollectionHub/serverAuthor``), and the model after it, before any viewer lays out.
    func hub(_ hub: CollectionHub, didCommit sequence: Int, by author: String, model: CollectionModel)
    /// Whether the collection takes actions at all (others are refused before their
    /// item is looked up). Default: false.
    func takesActions(_ hub: CollectionHub) -> Bool
    /// A viewer's action (a named control of a cell or the page), when it takes actions.
    /// - Returns: the app's answer.
    func hub(_ hub: CollectionHub, perform action: HubAction) -> HubActionOutcome
    /// What a drag of the item at `indexPath` carries, for the viewer dragging it.
    /// - Returns: the items (none: it is not dragged); nil for the default drag items.
    func hub(_ hub: CollectionHub, itemsForDragAt indexPath: IndexPath, by viewer: ViewerInfo) -> [DragItem]?
    /// Expands (true) or collapses the outline row with this id.
    /// - Returns: nil when the collection has no outlines; false when the row has
    ///   nothing to expand or collapse.
    func hub(_ hub: CollectionHub, setOutline id: String, expanded: Bool) -> Bool?
    /// Runs the action of the accessory of `kind` of the item `id` (a viewer chose it).
    /// - Returns: false when the item has no such accessory with an action.
    func hub(_ hub: CollectionHub, chooseAccessory kind: String, of id: String) -> Bool
    /// The background view for the model, asked after every batch once the hub was
    /// told the background follows the model (``CollectionHub/setBackgroundFollowsModel(_:)``).
    func hub(_ hub: CollectionHub, backgroundFor model: CollectionModel) -> BackgroundContent?
}

extension CollectionHubDelegate {
    package func hub(_ hub: CollectionHub, identify proposed: ViewerInfo) -> ViewerInfo { proposed }
    package func hub(_ hub: CollectionHub, permissionsOf viewer: ViewerInfo) -> ViewerPermissions { .all }
    package func hub(_ hub: CollectionHub, canMoveItemAt indexPath: IndexPath) -> Bool { true }
    package func hub(_ hub: CollectionHub, didMoveItemAt from: IndexPath, to: IndexPath) {}
    package func hub(_ hub: CollectionHub, didCommit sequence: Int, by author: String, model: CollectionModel) {}
    package func takesActions(_ hub: CollectionHub) -> Bool { false }
    package func hub(_ hub: CollectionHub, perform action: HubAction) -> HubActionOutcome { .refused("no viewer acts") }
    package func hub(_ hub: CollectionHub, itemsForDragAt indexPath: IndexPath, by viewer: ViewerInfo) -> [DragItem]? { nil }
    package func hub(_ hub: CollectionHub, setOutline id: String, expanded: Bool) -> Bool? { nil }
    package func hub(_ hub: CollectionHub, chooseAccessory kind: String, of id: String) -> Bool { false }
    package func hub(_ hub: CollectionHub, backgroundFor model: CollectionModel) -> BackgroundContent? { nil }
}
