import CollectionProtocol
import CollectionSync
import Foundation

/// What happens when a viewer expands or collapses a row of an outline, as UIKit's
/// `UICollectionViewDiffableDataSource.SectionSnapshotHandlers`: each may refuse,
/// or hear of it first. Without them every row with children expands and collapses.
public struct SectionSnapshotHandlers<ItemIdentifierType: Hashable & Sendable>: Sendable {
    /// Whether the row of this item may expand (false: the viewer's expand is refused).
    public var shouldExpandItem: (@Sendable (ItemIdentifierType) -> Bool)?
    /// Told before the row of this item expands.
    public var willExpandItem: (@Sendable (ItemIdentifierType) -> Void)?
    /// Whether the row of this item may collapse (false: the viewer's collapse is refused).
    public var shouldCollapseItem: (@Sendable (ItemIdentifierType) -> Bool)?
    /// Told before the row of this item collapses.
    public var willCollapseItem: (@Sendable (ItemIdentifierType) -> Void)?

    /// No handlers.
    public init() {}
}

extension LiveDiffableDataSource {
    /// Applies a section snapshot to one section (UIKit's `apply(_:to:animatingDifferences:)`):
    /// its visible items become the section's items, in one numbered batch (the
    /// section is appended if new); rows whose expansion changed are configured
    /// again, so that their outline disclosure shows it.
    ///
    /// - Parameters:
    ///   - sectionSnapshot: The section's items, their outline and what is expanded.
    ///   - section: The section it fills.
    ///   - animatingDifferences: Whether viewers animate the change.
    /// - Returns: The batch's sequence number.
    /// - Throws: ``ProtocolError`` when the change is not made (and nothing changed).
    @discardableResult
    public func apply(_ sectionSnapshot: NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>, to section: SectionIdentifierType,
                      animatingDifferences: Bool = true) async throws(ProtocolError) -> Int {
        let old = snapshot(for: section)
        setSectionSnapshot(sectionSnapshot, for: section)
        return try await apply(sectionSnapshot, to: section, after: old, animatingDifferences: animatingDifferences)
    }

    /// Shows `sectionSnapshot` (kept already) in `section`, from `old` (what the rows'
    /// disclosures showed before it).
    private func apply(_ sectionSnapshot: NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>, to section: SectionIdentifierType,
                       after old: NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>, animatingDifferences: Bool) async throws(ProtocolError) -> Int {
        var next = snapshot()
        if next.indexOfSection(section) == nil { next.appendSections([section]) }
        next.setItems(sectionSnapshot.visibleItems, inSection: section)
        next.reconfigureItems(sectionSnapshot.items.filter { old.isExpanded($0) != sectionSnapshot.isExpanded($0) && next.contains(item: $0) })
        return try await apply(next, animatingDifferences: animatingDifferences)
    }

    /// The section snapshot last applied to `section`, or a flat one of its items.
    ///
    /// - Parameter section: A section of the data source.
    /// - Returns: Its section snapshot.
    public func snapshot(for section: SectionIdentifierType) -> NSDiffableDataSourceSectionSnapshot<ItemIdentifierType> {
        if let kept = sectionSnapshot(for: section) { return kept }
        var flat = NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>()
        let current = snapshot()
        if current.indexOfSection(section) != nil { flat.append(current.itemIdentifiers(inSection: section)) }
        return flat
    }

    /// A viewer's `outline` message: expands or collapses the row with wire id `id`
    /// (when it has children, and the handlers agree), as a batch of its own.
    /// Returns false when there is nothing to expand or collapse. The section's
    /// outline is kept at once, so that the next message (E-mail, then Push, in one
    /// turn) starts from it rather than undoing it; each batch shows the latest.
    func toggleOutline(_ id: String, expanded: Bool) -> Bool {
        guard let item = typedItem(id), let section = snapshot().sectionIdentifier(containingItem: item),
              var outline = sectionSnapshot(for: section), !outline.snapshot(of: item).items.isEmpty, outline.isExpanded(item) != expanded else { return false }
        let before = outline
        let handlers = sectionSnapshotHandlers
        if expanded {
            guard handlers.shouldExpandItem?(item) ?? true else { return false }
            handlers.willExpandItem?(item)
            outline.expand([item])
        } else {
            guard handlers.shouldCollapseItem?(item) ?? true else { return false }
            handlers.willCollapseItem?(item)
            outline.collapse([item])
        }
        setSectionSnapshot(outline, for: section)
        Task {
            guard let latest = self.sectionSnapshot(for: section) else { return }
            _ = try? await self.apply(latest, to: section, after: before, animatingDifferences: true)
        }
        return true
    }
}

extension LiveDiffableDataSource {
    /// What happens when a viewer expands or collapses an outline's row (UIKit's `sectionSnapshotHandlers`).
    public var sectionSnapshotHandlers: SectionSnapshotHandlers<ItemIdentifierType> {
        get { outlines.withLock { $0.handlers } }
        set { outlines.withLock { $0.handlers = newValue } }
    }

    func sectionSnapshot(for section: SectionIdentifierType) -> NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>? {
        outlines.withLock { $0.sectionSnapshots[section] }
    }

    func setSectionSnapshot(_ snapshot: NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>, for section: SectionIdentifierType) {
        outlines.withLock { $0.sectionSnapshots[section] = snapshot }
    }

    func typedItem(_ id: String) -> ItemIdentifierType? { state.withLock { $0.items[id] } }
}
