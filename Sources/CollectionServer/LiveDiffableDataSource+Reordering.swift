import CollectionSync
import Foundation

extension LiveDiffableDataSource {
    /// Whether viewers may reorder items, and what the app hears when they do, as
    /// UIKit's `UICollectionViewDiffableDataSource.ReorderingHandlers`. Unlike UIKit,
    /// where nothing reorders without a `canReorderItem`, an app's collection takes
    /// viewers' moves by default (``LiveCollection/allowedEdits``, the delegate's
    /// `canMoveItemAt`); a `canReorderItem` narrows them to the items it allows.
    public struct ReorderingHandlers: Sendable {
        /// May this item be reordered (dragged by a viewer, or named in a `move`)?
        public var canReorderItem: (@Sendable (ItemIdentifierType) -> Bool)?
        /// A viewer's reorder was committed: the snapshot before and after. The data
        /// source's snapshot is already the final one (the app keeps its own order in step).
        public var didReorder: (@Sendable (NSDiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)?

        /// No reordering.
        public init() {}
    }

    /// The reordering handlers (UIKit's `reorderingHandlers`). Setting a
    /// `canReorderItem` lets viewers move the items it allows (the collection takes
    /// `move` edits, as if `.move` were in its `allowedEdits`); the delegate's
    /// `canMoveItemAt` and target rules still apply.
    public var reorderingHandlers: ReorderingHandlers {
        get { reordering.withLock { $0 } }
        set {
            reordering.withLock { $0 = newValue }
            let enabled = newValue.canReorderItem != nil
            if enabled { collection.onHub { _ = $0.allowedEdits.insert(.move) } }
        }
    }

    /// The data source's `canMoveItemAt` (asked with the collection locked): with
    /// reordering on, the handler's answer; without, no objection.
    func canReorder(at indexPath: IndexPath) -> Bool {
        guard let can = reordering.withLock({ $0.canReorderItem }) else { return true }
        guard let item = itemIdentifier(for: indexPath) else { return false }
        return can(item)
    }

    /// After a viewer's move committed (the snapshot already follows it): `didReorder`,
    /// with reordering on.
    func reordered(from: IndexPath, to: IndexPath) {
        guard reordering.withLock({ $0.canReorderItem != nil }), let didReorder = reordering.withLock({ $0.didReorder }) else { return }
        let final = snapshot()
        guard let item = final.itemIdentifier(at: to), from.section < final.sectionIdentifiers.count else { return }
        var initial = final
        initial.deleteItems([item])
        initial.insertItems([item], at: from.item, inSection: final.sectionIdentifiers[from.section])
        didReorder(NSDiffableDataSourceTransaction(initialSnapshot: initial, finalSnapshot: final))
    }
}
