import Foundation

/// An item being dragged to a new place (``CollectionView/beginInteractiveMovementForItem(at:)``):
/// where it started, where it is shown, the pointer; and the steps of a movement,
/// carried out on the collection view that keeps it (its `movement`).
package struct InteractiveMovement {
    let original: IndexPath
    var current: IndexPath
    var position: CGPoint

    /// The index path the data source knows the item presented at `p` by: the moving
    /// item taken out of the presented order and put back at its original place.
    func dataIndexPath(forPresented p: IndexPath) -> IndexPath {
        guard original != current else { return p }
        if p == current { return original }
        var q = p
        if q.section == current.section && q.item > current.item { q.item -= 1 }
        if q.section == original.section && q.item >= original.item { q.item += 1 }
        return q
    }

    /// The counts after the moving item is shown at `to` instead of `from` (`counts`
    /// before), and the mapping of every index path.
    static func presented(from: IndexPath, to: IndexPath, counts before: [Int]) -> (after: [Int], mapper: IndexPathMapper) {
        var after = before
        after[from.section] -= 1
        after[to.section] += 1
        return (after, IndexPathMapper(batch(from: from, to: to), countsBefore: before, countsAfter: after))
    }

    /// The batch of one move, `from` → `to`.
    static func batch(from: IndexPath, to: IndexPath) -> BatchUpdate {
        var batch = BatchUpdate()
        batch.movedItems = [ItemMove(from: from, to: to)]
        return batch
    }

    /// Whether an item shown at `current` may be shown at `target` next (`counts`, the
    /// counts shown): a place among the items of its own section, or any place in
    /// another, its end included (an empty section's only place is item 0).
    package static func isValid(_ target: IndexPath, from current: IndexPath, counts: [Int]) -> Bool {
        guard target.count == 2, target.section >= 0, target.section < counts.count, target.item >= 0 else { return false }
        let count = counts[target.section]
        return target.section == current.section ? target.item < count : target.item <= count
    }
}

// The steps, as UIKit's reordering gesture takes them.
extension InteractiveMovement {
    static func begin(at indexPath: IndexPath, in cv: CollectionView) -> Bool {
        guard cv.movement == nil, cv.isValid(indexPath), let dataSource = cv.dataSource,
              dataSource.collectionView(cv, canMoveItemAt: indexPath) else { return false }
        let center = cv.layoutAttributesForItem(at: indexPath)?.center ?? .zero
        cv.movement = InteractiveMovement(original: indexPath, current: indexPath, position: center)
        cv.needsDisplayUpdate = true
        return true
    }

    static func follow(_ position: CGPoint, in cv: CollectionView) {
        guard var m = cv.movement else { return }
        m.position = position
        cv.movement = m
        let proposed = cv.collectionViewLayout.targetIndexPath(forInteractivelyMovingItem: m.current, withPosition: position)
        var target = cv.delegate?.collectionView(cv, targetIndexPathForMoveOfItemFromOriginalIndexPath: m.original,
                                                 atCurrentIndexPath: m.current, toProposedIndexPath: proposed) ?? proposed
        if !isValid(target, from: m.current, counts: cv.loadCountsIfNeeded()) { target = m.current }
        if target != m.current { present(from: m.current, to: target, in: cv) }
        cv.needsDisplayUpdate = true
    }

    static func end(in cv: CollectionView) {
        guard let m = cv.movement else { return }
        cv.movement = nil
        if m.original != m.current {
            cv.dataSource?.collectionView(cv, moveItemAt: m.original, to: m.current)
            cv.counts = cv.fetchCounts()
            cv.updater.keep(AppliedUpdate(kind: .batch, batch: batch(from: m.original, to: m.current), animated: true))
        }
        cv.needsDisplayUpdate = true
    }

    static func cancel(in cv: CollectionView) {
        guard let m = cv.movement else { return }
        if m.original != m.current { present(from: m.current, to: m.original, in: cv) }
        cv.movement = nil
        cv.needsDisplayUpdate = true
    }

    /// Shows the moving item at a new place without telling the data source.
    private static func present(from: IndexPath, to: IndexPath, in cv: CollectionView) {
        let (after, mapper) = presented(from: from, to: to, counts: cv.loadCountsIfNeeded())
        cv.display.views.remapCells(by: mapper)
        cv.selection.selected = Set(cv.selection.selected.compactMap { mapper.map($0) })
        cv.counts = after
        cv.movement?.current = to
        cv.collectionViewLayout.invalidateLayout()
    }
}
