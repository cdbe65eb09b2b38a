import CollectionCore
import Foundation

/// The coordinator a hub hands its drop delegate: the delegate changes `model`
/// (the destination collection's) and the hub commits the result as one numbered
/// batch. With a move, items dragged from another collection are deleted there
/// afterwards, in a batch of that collection's own.
public final class ModelDropCoordinator: CollectionViewDropCoordinator {
    public let items: [CollectionViewDropItem]
    public let destinationIndexPath: IndexPath?
    public let proposal: CollectionViewDropProposal
    public let session: DropSession
    /// The name of the collection dropped onto.
    public let collection: String
    /// The destination's model as the drop leaves it.
    public var model: CollectionModel
    /// Items whose content the drop changed (a folder's count, say): their cells are reloaded.
    public var reloadedItems: Set<String> = []
    private let makeItem: (String) -> (id: String, content: [String: String])
    /// The placeholders dropped (see ``drop(_:to:)``).
    public private(set) var placeholders: [ModelDropPlaceholderContext] = []
    /// What the drop's placeholders answer to.
    let pending: PendingDrop

    init(session: DropSession, resolved: ResolvedDrop, collection: String, model: CollectionModel, pending: PendingDrop,
         makeItem: @escaping (String) -> (id: String, content: [String: String])) {
        items = session.items.map { item in
            let here = item.localObject != nil && item.sourceCollection == collection
            return CollectionViewDropItem(dragItem: item, sourceIndexPath: here ? item.localObject.flatMap { model.snapshot.indexPath(for: $0) } : nil)
        }
        self.pending = pending
        self.session = session
        destinationIndexPath = resolved.destinationIndexPath
        proposal = resolved.proposal
        self.collection = collection
        self.model = model
        self.makeItem = makeItem
    }

    /// True for a dragged item of this very collection.
    /// - Parameter item: A dropped item.
    /// - Returns: Whether it was dragged out of this collection.
    public func isFromThisCollection(_ item: DragItem) -> Bool { item.localObject != nil && item.sourceCollection == collection }

    /// The dropped items' drag items.
    private var dragItems: [DragItem] { items.map(\.dragItem) }

    /// UIKit's `drop(_:toItemAt:)`: the item settles at `indexPath` (the browser
    /// animates it; the animation here runs at once).
    /// - Parameters:
    ///   - dragItem: The dropped item.
    ///   - indexPath: Where it settles.
    /// - Returns: The animation: what is added to it runs at once (the browser animates the drop).
    @discardableResult
    public func drop(_ dragItem: DragItem, toItemAt indexPath: IndexPath) -> any DragAnimating { ImmediateDragAnimation() }

    /// UIKit's `drop(_:to:)`: a placeholder stands where `dragItem` goes while its data
    /// loads. The dropping viewer keeps showing its own placeholder, and the drop's
    /// `op` is not answered, until the returned context is committed (a numbered batch,
    /// and the `ack`) or deleted (a `reject` with `drop_cancelled`): during
    /// `performDrop`, or later.
    /// - Parameters:
    ///   - dragItem: The dropped item.
    ///   - placeholder: Where the placeholder stands and what it shows.
    /// - Returns: The context to commit (with the item's data) or delete.
    @discardableResult
    public func drop(_ dragItem: DragItem, to placeholder: CollectionViewDropPlaceholder) -> any CollectionViewDropPlaceholderContext {
        let context = ModelDropPlaceholderContext(dragItem: dragItem, placeholder: placeholder, pending: pending)
        placeholders.append(context)
        return context
    }

    /// Inserts the dragged items at `indexPath`, in order: items of this collection
    /// move there (or, with `.copy`, are copied under new identifiers); items of another
    /// collection come in with their identifier and content (a new identifier if this
    /// collection has theirs, or with `.copy`); external data becomes new items whose
    /// content `content` gives (starting from the data source's fresh item).
    /// Returns the identifiers inserted.
    /// - Parameters:
    ///   - indexPath: Where the first item goes.
    ///   - content: The content of an item made from external data, given the drag item and the data source's fresh content.
    /// - Returns: The identifiers inserted, in order.
    @discardableResult
    public func insertItems(at indexPath: IndexPath,
                            content: (DragItem, _ fresh: [String: String]) -> [String: String] = { item, fresh in item.content.isEmpty ? fresh : item.content }) -> [String] {
        let sections = model.snapshot.sectionIdentifiers
        guard sections.indices.contains(indexPath.section) else { return [] }
        let section = sections[indexPath.section]
        let moving = Set(dragItems.filter { isFromThisCollection($0) && proposal.operation == .move }.compactMap(\.localObject))
        // The item the drop goes before: the first at or after the index path that is not itself moving.
        let existing = model.snapshot.itemIdentifiers(inSection: section)
        let anchor = existing.dropFirst(min(indexPath.item, existing.count)).first { !moving.contains($0) }
        model.snapshot.deleteItems(Array(moving))
        var inserted: [String] = []
        for item in dragItems {
            var id: String
            var fields: [String: String]
            if let local = item.localObject, moving.contains(local) {
                id = local
                fields = model.itemContent[local] ?? item.content
            } else {
                let fresh = makeItem(section)
                id = fresh.id
                if let local = item.localObject, proposal.operation == .move, !model.snapshot.contains(item: local), !isFromThisCollection(item) {
                    id = local
                }
                fields = content(item, fresh.content)
            }
            guard !model.snapshot.contains(item: id) else { continue }
            if let anchor { model.snapshot.insertItems([id], beforeItem: anchor) } else { model.snapshot.appendItems([id], toSection: section) }
            model.itemContent[id] = fields
            inserted.append(id)
        }
        return inserted
    }

    /// Removes a dragged item of this collection (say it went into a folder).
    /// - Parameter id: The item's identifier (nothing happens when the collection does not hold it).
    public func removeItem(_ id: String) {
        guard model.snapshot.contains(item: id) else { return }
        model.snapshot.deleteItems([id])
        model.itemContent[id] = nil
        reloadedItems.remove(id)
    }
}
