import CollectionSync

/// Drops onto a collection, with the viewer dropping: UIKit's
/// `UICollectionViewDropDelegate`. Drops come from other collections of the server
/// (`<collection-view drop-sessions>`) and from outside the page (text, links, files).
public protocol LiveCollectionDropDelegate: AnyObject, Sendable {
    /// Whether the collection takes this kind of drop at all (by default: yes).
    /// - Parameters:
    ///   - collectionView: The collection dropped on.
    ///   - session: The drop under way: what it carries, from where.
    ///   - viewer: Who drops.
    /// - Returns: False to refuse every drop of this kind.
    func collectionView(_ collectionView: LiveCollection, canHandle session: DropSession, by viewer: Viewer) -> Bool
    /// The proposal for the pointer's place, asked as the drag hovers.
    /// - Parameters:
    ///   - collectionView: The collection dropped on.
    ///   - session: The drop under way.
    ///   - destinationIndexPath: The place under the pointer (nil: none, the end of the content say).
    ///   - viewer: Who drops.
    /// - Returns: Move, copy or forbidden, and whether into the item or between items.
    func collectionView(_ collectionView: LiveCollection, dropSessionDidUpdate session: DropSession,
                        withDestinationIndexPath destinationIndexPath: IndexPath?, by viewer: Viewer) -> CollectionViewDropProposal
    /// Performs the drop: the coordinator's `drop(_:toItemAt:)`, `drop(_:to:)` and
    /// placeholders change the collection, as one numbered batch.
    /// - Parameters:
    ///   - collectionView: The collection dropped on.
    ///   - coordinator: The drop's items, its destination, and the changes it makes.
    ///   - viewer: Who dropped.
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
    /// - Parameters:
    ///   - collectionView: The collection dragged from.
    ///   - item: The item as the collection holds it.
    ///   - indexPath: Its place.
    ///   - viewer: Who drags.
    /// - Returns: What the drag carries (empty: the item is not dragged).
    func collectionView(_ collectionView: LiveCollection, itemsForBeginning item: DragItem, at indexPath: IndexPath, by viewer: Viewer) -> [DragItem]
    /// What adding the item at `indexPath` to a drag under way adds (UIKit's
    /// `itemsForAddingTo`): by default the item, as the collection holds it.
    /// - Parameters:
    ///   - collectionView: The collection dragged from.
    ///   - session: The drag under way.
    ///   - item: The item added, as the collection holds it.
    ///   - indexPath: Its place.
    ///   - viewer: Who drags.
    /// - Returns: What the drag carries more (empty: nothing is added).
    func collectionView(_ collectionView: LiveCollection, itemsForAddingTo session: DragSession, item: DragItem, at indexPath: IndexPath, by viewer: Viewer) -> [DragItem]
    /// A viewer's drag is about to begin.
    /// - Parameters:
    ///   - collectionView: The collection dragged from.
    ///   - session: The drag.
    ///   - viewer: Who drags.
    func collectionView(_ collectionView: LiveCollection, dragSessionWillBegin session: DragSession, by viewer: Viewer)
    /// A viewer's drag ended (dropped or cancelled).
    /// - Parameters:
    ///   - collectionView: The collection dragged from.
    ///   - session: The drag.
    ///   - viewer: Who dragged.
    func collectionView(_ collectionView: LiveCollection, dragSessionDidEnd session: DragSession, by viewer: Viewer)
    /// Whether a drop may move what the drag carries (by default yes); no: it is copied.
    /// - Parameters:
    ///   - collectionView: The collection dragged from.
    ///   - session: The drag.
    ///   - viewer: Who drags.
    /// - Returns: False to make every drop of it a copy.
    func collectionView(_ collectionView: LiveCollection, dragSessionAllowsMoveOperation session: DragSession, by viewer: Viewer) -> Bool
}

extension LiveCollectionDragDelegate {
    public func collectionView(_ collectionView: LiveCollection, itemsForAddingTo session: DragSession, item: DragItem, at indexPath: IndexPath, by viewer: Viewer) -> [DragItem] {
        session.items.contains { $0.localObject == item.localObject } ? [] : [item]
    }
    public func collectionView(_ collectionView: LiveCollection, dragSessionWillBegin session: DragSession, by viewer: Viewer) {}
    public func collectionView(_ collectionView: LiveCollection, dragSessionDidEnd session: DragSession, by viewer: Viewer) {}
    public func collectionView(_ collectionView: LiveCollection, dragSessionAllowsMoveOperation session: DragSession, by viewer: Viewer) -> Bool { true }
}

/// Forwards a core drag delegate's calls to the app's, with the viewer the hub handles.
final class DragDelegateBridge: CollectionViewDragDelegate {
    let target: any LiveCollectionDragDelegate
    unowned let hub: CollectionHub
    let collection: LiveCollection

    init(target: any LiveCollectionDragDelegate, hub: CollectionHub, collection: LiveCollection) {
        self.target = target
        self.hub = hub
        self.collection = collection
    }

    private var viewer: Viewer { hub.actingViewer ?? .server }

    /// The item at `indexPath` as the collection holds it.
    private func item(at indexPath: IndexPath) -> DragItem? {
        guard let id = hub.model.snapshot.itemIdentifier(at: indexPath) else { return nil }
        return DragItem(local: id, from: hub.name, content: hub.model.itemContent[id] ?? [:])
    }

    func collectionView(_ collectionView: CollectionView, itemsForBeginning session: DragSession, at indexPath: IndexPath) -> [DragItem] {
        guard let item = item(at: indexPath) else { return [] }
        return target.collectionView(collection, itemsForBeginning: item, at: indexPath, by: viewer)
    }
    func collectionView(_ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint) -> [DragItem] {
        guard let item = item(at: indexPath) else { return [] }
        return target.collectionView(collection, itemsForAddingTo: session, item: item, at: indexPath, by: viewer)
    }
    func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession) {
        target.collectionView(collection, dragSessionWillBegin: session, by: viewer)
    }
    func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession) {
        target.collectionView(collection, dragSessionDidEnd: session, by: viewer)
    }
    func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: DragSession) -> Bool {
        target.collectionView(collection, dragSessionAllowsMoveOperation: session, by: viewer)
    }
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
        get { onHub { ($0.dropDelegate as? DropDelegateBridge)?.target } }
        set { onHub { hub in hub.dropDelegate = newValue.map { DropDelegateBridge(target: $0, hub: hub, collection: self) } } }
    }

    /// The app's drag delegate, told who drags (held strongly): it decides what a
    /// drag of an item out of this collection carries.
    public var dragDelegate: (any LiveCollectionDragDelegate)? {
        get { onApp { _, app in app.drag?.delegate } }
        set {
            onApp { hub, app in
                hub.dragDelegate = newValue.map { DragDelegateBridge(target: $0, hub: hub, collection: self) }
                app.drag = newValue.map { ($0, self) }
            }
        }
    }
}
