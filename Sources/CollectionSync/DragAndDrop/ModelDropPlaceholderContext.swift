import CollectionCore
import CollectionProtocol
import Foundation

/// One drop's answer while its placeholders wait: its op, who dropped, and whether
/// the op was answered yet.
final class PendingDrop {
    weak var hub: CollectionHub?
    let op: String?
    let viewer: UInt64
    let by: String
    /// The drop message's fingerprint, its op kept with it when committed later.
    let fingerprint: UInt64
    var answered = false

    init(hub: CollectionHub, op: String?, viewer: UInt64, by: String) {
        self.hub = hub
        self.op = op
        fingerprint = hub.ledger.fingerprint
        self.viewer = viewer
        self.by = by
    }
}

/// The hub's placeholder context (UIKit's `UICollectionViewDropPlaceholderContext`):
/// commit it when the item's data is ready, or delete it. Call it on the hub's
/// thread; what it sends goes out with the end of the server's turn
/// (``CollectionHub/endTurn()``), or with the drop's own answer when it is resolved
/// during `performDrop`.
public final class ModelDropPlaceholderContext: CollectionViewDropPlaceholderContext {
    public let dragItem: DragItem
    /// The placeholder: where the item goes, and the template that draws it.
    public let placeholder: CollectionViewDropPlaceholder
    /// The collection as it is when the commit starts: `commitInsertion`'s closure changes it.
    public var model = CollectionModel()
    /// Whether the placeholder was committed or deleted.
    public private(set) var isResolved = false
    private let pending: PendingDrop

    init(dragItem: DragItem, placeholder: CollectionViewDropPlaceholder, pending: PendingDrop) {
        self.dragItem = dragItem
        self.placeholder = placeholder
        self.pending = pending
    }

    /// Inserts the real item: `dataSourceUpdates` gets the placeholder's index path
    /// (kept within the section as it is now) and changes ``model`` (say with
    /// ``insertItem(content:at:)``); the change is committed as one numbered batch,
    /// which answers the drop's op.
    @discardableResult
    public func commitInsertion(dataSourceUpdates: (IndexPath) -> Void) -> Bool {
        guard !isResolved, let hub = pending.hub else { return false }
        isResolved = true
        model = hub.model
        let sections = model.snapshot.sectionIdentifiers
        var at = placeholder.insertionIndexPath
        if !sections.isEmpty {
            at.section = min(max(at.section, 0), sections.count - 1)
            at.item = min(max(at.item, 0), model.snapshot.numberOfItems(inSection: sections[at.section]))
        }
        dataSourceUpdates(at)
        hub.drops.resolvePlaceholder(of: pending, committing: model)
        return true
    }

    /// Removes the placeholder: nothing is dropped (the op is rejected with
    /// `drop_cancelled`, unless an earlier placeholder of the drop committed).
    @discardableResult
    public func deletePlaceholder() -> Bool {
        guard !isResolved, let hub = pending.hub else { return false }
        isResolved = true
        hub.drops.resolvePlaceholder(of: pending, committing: nil)
        return true
    }

    /// The browser draws the placeholder from its template; nothing to redo here.
    public func setNeedsCellUpdate() {}

    /// Inserts a new item (an identifier from the collection's data source) with
    /// `content` at `indexPath` of ``model``; returns its identifier.
    @discardableResult
    public func insertItem(content: [String: String], at indexPath: IndexPath) -> String? {
        guard let hub = pending.hub, model.snapshot.sectionIdentifiers.indices.contains(indexPath.section) else { return nil }
        let section = model.snapshot.sectionIdentifiers[indexPath.section]
        let id = hub.makeItemIdentifier(in: section)
        model.snapshot.insertItems([id], at: min(indexPath.item, model.snapshot.numberOfItems(inSection: section)), inSection: section)
        model.itemContent[id] = content
        return id
    }
}

extension CollectionHub {
    /// A fresh identifier from the data source's item factory.
    func makeItemIdentifier(in section: String) -> String {
        factory.makeItem(serial: ledger.takeSerial(), section: section).id
    }
}
