import Foundation

/// A data source driven by snapshots, as UIKit's `UICollectionViewDiffableDataSource`:
/// `apply` diffs the new snapshot against the current one and performs the
/// batch, so counts and updates can never disagree.
open class CollectionViewDiffableDataSource<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: CollectionViewDataSource {
    /// Makes the cell for an item.
    public typealias CellProvider = (CollectionView, IndexPath, ItemIdentifierType) -> CollectionViewCell?
    /// Makes a supplementary view.
    public typealias SupplementaryViewProvider = (CollectionView, String, IndexPath) -> CollectionReusableView?
    /// The snapshot of this data source's identifiers.
    public typealias Snapshot = NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// The snapshot of one section's items, as a tree.
    public typealias SectionSnapshot = NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>

    /// Interactive reordering hooks (UIKit's `ReorderingHandlers`).
    public struct ReorderingHandlers {
        /// Whether an item may be reordered (nil: no reordering).
        public var canReorderItem: ((ItemIdentifierType) -> Bool)?
        /// Before the reorder is applied: the transaction it will make.
        public var willReorder: ((NSDiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)?
        /// After: the transaction it made (apply `finalSnapshot` to your model).
        public var didReorder: ((NSDiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)?
        /// No reordering.
        public init() {}
    }

    private weak var collectionView: CollectionView?
    private let cellProvider: CellProvider
    private var current = Snapshot()
    private var sectionSnapshots: [SectionIdentifierType: SectionSnapshot] = [:]
    /// Supplementary views (headers, footers).
    public var supplementaryViewProvider: SupplementaryViewProvider?
    /// Reordering hooks.
    public var reorderingHandlers = ReorderingHandlers()

    /// Creates the data source and makes it the collection view's.
    /// - Parameters:
    ///   - collectionView: The collection view whose data source it becomes (held weakly).
    ///   - cellProvider: Makes the cell for an item: dequeue it from the collection view and configure it.
    public init(collectionView: CollectionView, cellProvider: @escaping CellProvider) {
        self.collectionView = collectionView
        self.cellProvider = cellProvider
        collectionView.dataSource = self
    }

    /// A copy of the current snapshot.
    /// - Returns: The sections and items shown now.
    public func snapshot() -> Snapshot { current }

    /// Makes `snapshot` current: diffs it against the current one and performs the
    /// resulting batch (reloads and reconfigures included). Without animation the
    /// batch is applied all the same, marked not animated.
    /// - Parameters:
    ///   - snapshot: The sections and items to show.
    ///   - animatingDifferences: Whether the client animates the batch.
    ///   - completion: Called once the batch is applied.
    public func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {
        guard let collectionView, collectionView.counts != nil else {
            current = cleared(snapshot)
            self.collectionView?.reloadData()
            completion?()
            return
        }
        var batch = BatchUpdate(from: current, to: snapshot)
        let reloadedSections = Set(snapshot.reloadedSectionIdentifiers)
        for id in snapshot.reloadedItemIdentifiers {
            if let p = current.indexPath(for: id), !batch.deletedItems.contains(p), !batch.movedItems.contains(where: { $0.from == p }) {
                batch.reloadedItems.append(p)
            }
        }
        for id in snapshot.reconfiguredItemIdentifiers {
            if let p = current.indexPath(for: id), !batch.deletedItems.contains(p) { batch.reconfiguredItems.append(p) }
        }
        for section in reloadedSections {
            if let o = current.indexOfSection(section), let n = snapshot.indexOfSection(section),
               !batch.deletedSections.contains(o) {
                batch.deletedSections.append(o)
                batch.insertedSections.append(n)
                batch.deletedItems.removeAll { $0.section == o }
                batch.reloadedItems.removeAll { $0.section == o }
                batch.reconfiguredItems.removeAll { $0.section == o }
                batch.insertedItems.removeAll { $0.section == n }
                // Moves touching the reloaded section become a delete and an insert elsewhere.
                for m in batch.movedItems where m.from.section == o || m.to.section == n {
                    if m.from.section != o { batch.deletedItems.append(m.from) }
                    if m.to.section != n { batch.insertedItems.append(m.to) }
                }
                batch.movedItems.removeAll { $0.from.section == o || $0.to.section == n }
            }
        }
        let before = current.sectionCounts
        current = cleared(snapshot)
        do {
            try batch.validate(countsBefore: before, countsAfter: current.sectionCounts)
            collectionView.updater.apply(batch, countsBefore: before, countsAfter: current.sectionCounts, animated: animatingDifferences, in: collectionView)
        } catch {
            // Cannot happen for a diff; fall back to a reload rather than show a wrong state.
            collectionView.reloadData()
        }
        completion?()
    }

    /// Makes `snapshot` current with a full reload (no diff, no animation).
    /// - Parameters:
    ///   - snapshot: The sections and items to show.
    ///   - completion: Called once they are.
    public func applySnapshotUsingReloadData(_ snapshot: Snapshot, completion: (() -> Void)? = nil) {
        current = cleared(snapshot)
        collectionView?.reloadData()
        completion?()
    }

    private func cleared(_ snapshot: Snapshot) -> Snapshot {
        var s = snapshot
        s.reloadedItemIdentifiers = []
        s.reconfiguredItemIdentifiers = []
        s.reloadedSectionIdentifiers = []
        return s
    }

    /// Applies a section snapshot to one section: its visible items become the
    /// section's items (the section is appended if new).
    /// - Parameters:
    ///   - snapshot: The section's items, as a tree (collapsed items' children are not shown).
    ///   - section: The section.
    ///   - animatingDifferences: Whether the client animates the batch.
    ///   - completion: Called once the batch is applied.
    public func apply(_ snapshot: SectionSnapshot, to section: SectionIdentifierType, animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {
        sectionSnapshots[section] = snapshot
        var full = current
        if full.indexOfSection(section) == nil { full.appendSections([section]) }
        full.setItems(snapshot.visibleItems, inSection: section)
        apply(full, animatingDifferences: animatingDifferences, completion: completion)
    }

    /// The section snapshot last applied to `section` (or a flat one of its items).
    /// - Parameter section: The section.
    /// - Returns: Its section snapshot.
    public func snapshot(for section: SectionIdentifierType) -> SectionSnapshot {
        if let s = sectionSnapshots[section] { return s }
        var flat = SectionSnapshot()
        flat.append(current.itemIdentifiers(inSection: section))
        return flat
    }

    /// The item at `indexPath`.
    /// - Parameter indexPath: A section and item.
    /// - Returns: The item's identifier, or nil.
    public func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? { current.itemIdentifier(at: indexPath) }
    /// Where an item is.
    /// - Parameter itemIdentifier: The item.
    /// - Returns: Its index path, or nil when it is not shown.
    public func indexPath(for itemIdentifier: ItemIdentifierType) -> IndexPath? { current.indexPath(for: itemIdentifier) }
    /// The section at `index`.
    /// - Parameter index: The section's index.
    /// - Returns: Its identifier, or nil.
    public func sectionIdentifier(for index: Int) -> SectionIdentifierType? {
        current.sectionIdentifiers.indices.contains(index) ? current.sectionIdentifiers[index] : nil
    }
    /// The index of a section.
    /// - Parameter sectionIdentifier: The section.
    /// - Returns: Its index, or nil.
    public func index(for sectionIdentifier: SectionIdentifierType) -> Int? { current.indexOfSection(sectionIdentifier) }

    // MARK: CollectionViewDataSource

    public func numberOfSections(in collectionView: CollectionView) -> Int { current.numberOfSections }

    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        current.numberOfItems(inSectionAt: section)
    }

    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        guard let item = current.itemIdentifier(at: indexPath), let cell = cellProvider(collectionView, indexPath, item) else {
            fatalError("the cell provider returned no cell for \(indexPath)")
        }
        // An outline's expanded items are expanded in their cells' configuration state.
        if let section = current.sectionIdentifier(containingItem: item), let outline = sectionSnapshots[section] {
            cell.expandedState = outline.isExpanded(item)
        } else {
            cell.expandedState = false
        }
        return cell
    }

    public func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView {
        supplementaryViewProvider?(collectionView, kind, indexPath) ?? CollectionReusableView(reuseIdentifier: "")
    }

    public func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        guard let canReorder = reorderingHandlers.canReorderItem, let item = current.itemIdentifier(at: indexPath) else { return false }
        return canReorder(item)
    }

    public func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        guard let item = current.itemIdentifier(at: sourceIndexPath) else { return }
        var next = current
        next.deleteItems([item])
        let section = next.sectionIdentifiers[destinationIndexPath.section]
        next.insertItems([item], at: destinationIndexPath.item, inSection: section)
        let transaction = NSDiffableDataSourceTransaction(initialSnapshot: current, finalSnapshot: next)
        reorderingHandlers.willReorder?(transaction)
        current = next
        reorderingHandlers.didReorder?(transaction)
    }
}

/// Short name.
public typealias DiffableDataSource<S: Hashable & Sendable, I: Hashable & Sendable> = CollectionViewDiffableDataSource<S, I>
