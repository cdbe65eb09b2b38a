import CollectionCore
import CollectionProtocol
import Foundation

/// Where a drag shows, named by item so that watchers with other layouts place its
/// ghost in theirs: the anchors one viewer's collection view gives.
extension DragAnchor {
    /// Where the item `collectionView` moves interactively would land: over the item
    /// whose place it would take (itself while it would not move), or just after the
    /// last of a section it would end. nil: nothing is moving.
    /// - Parameters:
    ///   - collectionView: A viewer's collection view.
    ///   - snapshot: The model it shows.
    static func landing(in collectionView: CollectionView, snapshot: Snapshot<String, String>) -> DragAnchor? {
        guard let target = collectionView.indexPathForInteractivelyMovingItem else { return nil }
        let sections = snapshot.sectionIdentifiers
        guard sections.indices.contains(target.section) else { return nil }
        let items = snapshot.itemIdentifiers(inSection: sections[target.section])
        if target.item < items.count { return DragAnchor(item: items[target.item], x: 0.5, y: 0.5) }
        return items.last.map { DragAnchor(item: $0, x: 1, y: 0.5) }
    }

    /// Where a point of a viewer's content is, by the item under it (its fractions of
    /// that item's frame), for a drag the page reports itself. nil: no item there.
    /// - Parameters:
    ///   - point: A point in the content of `collectionView`.
    ///   - collectionView: A viewer's collection view.
    ///   - snapshot: The model it shows.
    static func under(_ point: Point, in collectionView: CollectionView, snapshot: Snapshot<String, String>) -> DragAnchor? {
        guard let indexPath = collectionView.indexPathForItem(at: CGPoint(x: point.x, y: point.y)),
              let item = snapshot.itemIdentifier(at: indexPath),
              let frame = collectionView.layoutAttributesForItem(at: indexPath)?.frame, frame.width > 0, frame.height > 0 else { return nil }
        return DragAnchor(item: item, x: (point.x - frame.minX) / frame.width, y: (point.y - frame.minY) / frame.height)
    }
}
