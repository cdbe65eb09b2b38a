import Foundation

/// An item being dragged to a new place.
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
