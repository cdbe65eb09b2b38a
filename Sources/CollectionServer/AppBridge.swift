import CollectionProtocol
import CollectionSync

/// What a collection's data source answers its hub (a ``LiveDiffableDataSource`` or a
/// classic data source): the moves it keeps itself, outline rows, accessories, and
/// the batches it follows.
protocol AppDataSource: AnyObject {
    /// The data source's `canMoveItemAt` (asked with the collection locked).
    func canMoveItem(at indexPath: IndexPath) -> Bool
    /// A viewer's move committed: the data source's `moveItemAt`.
    func viewerMoved(from: IndexPath, to: IndexPath)
    /// A batch committed (before any viewer lays out).
    func didCommit(_ sequence: Int, by author: String, model: CollectionModel, in hub: CollectionHub)
    /// Expands or collapses an outline row; nil: the data source has no outlines.
    func setOutline(_ id: String, expanded: Bool) -> Bool?
    /// Runs the action of an item's accessory; false: it has none.
    func chooseAccessory(_ kind: String, of id: String) -> Bool
}

/// The app on one collection, as its hub asks for it (``CollectionHubDelegate``): the
/// ``LiveCollection``'s settings (viewer identity, permissions, background), the app's
/// delegate (moves, actions), its data source (the moves it keeps, outlines,
/// accessories, committed batches) and its drag delegate (what a drag carries). One
/// per collection, installed on its hub by ``CollectionServer/addCollection(named:persistence:)``;
/// read and changed under the engine's lock only.
final class AppBridge: CollectionHubDelegate {
    /// ``LiveCollection/setViewerIdentity(_:)``.
    var identify: (@Sendable (Viewer) -> Viewer)?
    /// ``LiveCollection/setPermissions(_:)``.
    var permissions: (@Sendable (Viewer) -> ViewerPermissions)?
    /// ``LiveCollection/setBackgroundView(_:)``.
    var background: (@Sendable (CollectionModel) -> CellContent?)?
    /// The app's delegate (``LiveCollection/delegate``), through its bridge.
    var delegate: DelegateBridge?
    /// The data source (held strongly, as the collection's data).
    var dataSource: (any AppDataSource)?
    /// The app's drag delegate (``LiveCollection/dragDelegate``), with the collection it names.
    var drag: (delegate: any LiveCollectionDragDelegate, collection: LiveCollection)?

    func hub(_ hub: CollectionHub, identify proposed: ViewerInfo) -> ViewerInfo { identify?(proposed) ?? proposed }

    func hub(_ hub: CollectionHub, permissionsOf viewer: ViewerInfo) -> ViewerPermissions { permissions?(viewer) ?? .all }

    func hub(_ hub: CollectionHub, canMoveItemAt indexPath: IndexPath) -> Bool {
        (dataSource?.canMoveItem(at: indexPath) ?? true) && (delegate?.canMoveItem(at: indexPath) ?? true)
    }

    func hub(_ hub: CollectionHub, didMoveItemAt from: IndexPath, to: IndexPath) {
        dataSource?.viewerMoved(from: from, to: to)
        delegate?.didMoveItem(from: from, to: to)
    }

    func hub(_ hub: CollectionHub, didCommit sequence: Int, by author: String, model: CollectionModel) {
        dataSource?.didCommit(sequence, by: author, model: model, in: hub)
    }

    func takesActions(_ hub: CollectionHub) -> Bool { delegate != nil }

    func hub(_ hub: CollectionHub, perform action: HubAction) -> HubActionOutcome {
        delegate?.perform(action) ?? .refused("no viewer acts")
    }

    func hub(_ hub: CollectionHub, itemsForDragAt indexPath: IndexPath, by viewer: ViewerInfo) -> [DragItem]? {
        guard let (delegate, collection) = drag else { return nil }
        guard let id = hub.model.snapshot.itemIdentifier(at: indexPath) else { return [] }
        let item = DragItem(local: id, from: hub.name, content: hub.model.itemContent[id] ?? [:])
        return delegate.collectionView(collection, itemsForBeginning: item, at: indexPath, by: viewer)
    }

    func hub(_ hub: CollectionHub, setOutline id: String, expanded: Bool) -> Bool? {
        dataSource?.setOutline(id, expanded: expanded)
    }

    func hub(_ hub: CollectionHub, chooseAccessory kind: String, of id: String) -> Bool {
        dataSource?.chooseAccessory(kind, of: id) ?? false
    }

    func hub(_ hub: CollectionHub, backgroundFor model: CollectionModel) -> BackgroundContent? {
        background?(model).map { BackgroundContent(template: $0.template, fields: $0.fields) }
    }
}

extension CollectionHub {
    /// The app's bridge on this hub (every hub a LiveCollection names was made by
    /// addCollection, with its bridge).
    var app: AppBridge { hubDelegate as! AppBridge }
}

extension LiveCollection {
    /// Runs `body` on the hub and the app's bridge on it, under the engine's lock.
    func onApp<T>(_ body: (CollectionHub, AppBridge) -> T) -> T {
        onHub { hub in body(hub, hub.app) }
    }
}
