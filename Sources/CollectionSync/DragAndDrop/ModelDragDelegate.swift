import CollectionCore
import Foundation

/// The drag delegate a collection has until the app sets its own: a drag carries
/// the item lifted, and any item added to it, as the collection holds them.
final class ModelDragDelegate: CollectionViewDragDelegate {
    unowned let store: SharedModel
    let collection: String

    init(store: SharedModel, collection: String) {
        self.store = store
        self.collection = collection
    }

    private func item(at indexPath: IndexPath) -> [DragItem] {
        guard let id = store.model.snapshot.itemIdentifier(at: indexPath) else { return [] }
        return [DragItem(local: id, from: collection, content: store.model.itemContent[id] ?? [:])]
    }

    func collectionView(_ collectionView: CollectionView, itemsForBeginning session: DragSession, at indexPath: IndexPath) -> [DragItem] {
        item(at: indexPath)
    }

    func collectionView(_ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint) -> [DragItem] {
        let added = item(at: indexPath)
        // An item already carried is not carried twice.
        return added.filter { a in !session.items.contains { $0.localObject == a.localObject } }
    }
}
