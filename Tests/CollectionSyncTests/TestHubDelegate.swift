import CollectionProtocol
import CollectionSync
import Foundation

/// A hub delegate whose answers the test gives; unanswered questions get the defaults.
final class TestHubDelegate: CollectionHubDelegate {
    var permissions: ((ViewerInfo) -> ViewerPermissions)?
    var canMove: ((CollectionHub, IndexPath) -> Bool)?
    var background: ((CollectionModel) -> BackgroundContent?)?

    func hub(_ hub: CollectionHub, permissionsOf viewer: ViewerInfo) -> ViewerPermissions { permissions?(viewer) ?? .all }
    func hub(_ hub: CollectionHub, canMoveItemAt indexPath: IndexPath) -> Bool { canMove?(hub, indexPath) ?? true }
    func hub(_ hub: CollectionHub, backgroundFor model: CollectionModel) -> BackgroundContent? { background?(model) }
}
