import Foundation

/// An item being dragged to a new place.
struct InteractiveMovement {
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
        var batch = BatchUpdate()
        batch.movedItems = [ItemMove(from: from, to: to)]
        return (after, IndexPathMapper(batch, countsBefore: before, countsAfter: after))
    }
}
