import CollectionSync

/// Drops onto a collection, with the viewer dropping: UIKit's
/// `UICollectionViewDropDelegate`. Drops come from other collections of the server
/// (`<collection-view drop-sessions>`) and from outside the page (text, links, files).
public protocol LiveCollectionDropDelegate: AnyObject, Sendable {
    /// Whether the collection takes this kind of drop at all (by default: yes).
    func collectionView(_ collectionView: LiveCollection, canHandle session: DropSession, by viewer: Viewer) -> Bool
    /// The proposal for the pointer's place, asked as the drag hovers.
    func collectionView(_ collectionView: LiveCollection, dropSessionDidUpdate session: DropSession,
                        withDestinationIndexPath destinationIndexPath: IndexPath?, by viewer: Viewer) -> CollectionViewDropProposal
    /// Performs the drop: the coordinator's `drop(_:toItemAt:)`, `drop(_:to:)` and
    /// placeholders change the collection, as one numbered batch.
    func collectionView(_ collectionView: LiveCollection, performDropWith coordinator: any CollectionViewDropCoordinator, by viewer: Viewer)
}

extension LiveCollectionDropDelegate {
    public func collectionView(_ collectionView: LiveCollection, canHandle session: DropSession, by viewer: Viewer) -> Bool { true }
}

/// Drags out of a collection (to another of the server's), with the viewer
/// dragging: UIKit's `UICollectionViewDragDelegate`.
public protocol LiveCollectionDragDelegate: AnyObject, Sendable {
    /// What a drag of the item carries (UIKit's `collectionView(_:itemsForBeginning:at:)`):
    /// no items, and the item is not dragged (the drop is forbidden). `item` is the
    /// item as the collection holds it; return it, changed or not, to let it go.
    func collectionView(_ collectionView: LiveCollection, itemsForBeginning item: DragItem, at indexPath: IndexPath, by viewer: Viewer) -> [DragItem]
}

/// Forwards a core drop delegate's calls to the app's, with the viewer the hub handles.
final class DropDelegateBridge: CollectionViewDropDelegate {
    let target: any LiveCollectionDropDelegate
    unowned let hub: CollectionHub
    let collection: LiveCollection

    init(target: any LiveCollectionDropDelegate, hub: CollectionHub, collection: LiveCollection) {
        self.target = target
        self.hub = hub
        self.collection = collection
    }

    private var viewer: Viewer { hub.actingViewer ?? .server }

    func collectionView(_ collectionView: CollectionView, canHandle session: DropSession) -> Bool {
        target.collectionView(collection, canHandle: session, by: viewer)
    }
    func collectionView(_ collectionView: CollectionView, dropSessionDidUpdate session: DropSession,
                        withDestinationIndexPath destinationIndexPath: IndexPath?) -> CollectionViewDropProposal {
        target.collectionView(collection, dropSessionDidUpdate: session, withDestinationIndexPath: destinationIndexPath, by: viewer)
    }
    func collectionView(_ collectionView: CollectionView, performDropWith coordinator: any CollectionViewDropCoordinator) {
        target.collectionView(collection, performDropWith: coordinator, by: viewer)
    }
}

extension LiveCollection {
    /// The app's drop delegate, told who drops (held strongly). Replaces a drop
    /// delegate set with ``setDropDelegate(_:)``.
    public var dropDelegate: (any LiveCollectionDropDelegate)? {
        get { read { ($0.dropDelegate as? DropDelegateBridge)?.target } }
        set { read { hub in hub.dropDelegate = newValue.map { DropDelegateBridge(target: $0, hub: hub, collection: self) } } }
    }

    /// The app's drag delegate, told who drags (held strongly): it decides what a
    /// drag of an item out of this collection carries.
    public var dragDelegate: (any LiveCollectionDragDelegate)? {
        get { read { $0.dragDelegateHolder as? any LiveCollectionDragDelegate } }
        set {
            read { hub in
                hub.dragDelegateHolder = newValue
                guard let delegate = newValue else { return hub.dragItems = nil }
                hub.dragItems = { [unowned hub, self] indexPath, viewer in
                    guard let id = hub.model.snapshot.itemIdentifier(at: indexPath) else { return [] }
                    let item = DragItem(local: id, from: hub.name, content: hub.model.itemContent[id] ?? [:])
                    return delegate.collectionView(self, itemsForBeginning: item, at: indexPath, by: viewer)
                }
            }
        }
    }
}
