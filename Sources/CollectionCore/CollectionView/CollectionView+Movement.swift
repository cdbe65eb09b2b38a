import Foundation

extension CollectionView {
    /// Starts moving an item with the pointer. False when the data source says it
    /// cannot move, the index path is not an item, or a movement is under way.
    @discardableResult
    public func beginInteractiveMovementForItem(at indexPath: IndexPath) -> Bool {
        guard movement == nil, isValid(indexPath), let dataSource,
              dataSource.collectionView(self, canMoveItemAt: indexPath) else { return false }
        let center = layoutAttributesForItem(at: indexPath)?.center ?? .zero
        movement = InteractiveMovement(original: indexPath, current: indexPath, position: center)
        needsDisplayUpdate = true
        return true
    }

    /// The item follows the pointer; the others make room at the target the layout
    /// (and the delegate) pick for this position.
    public func updateInteractiveMovementTargetPosition(_ targetPosition: CGPoint) {
        guard var m = movement else { return }
        m.position = targetPosition
        movement = m
        let proposed = collectionViewLayout.targetIndexPath(forInteractivelyMovingItem: m.current, withPosition: targetPosition)
        var target = delegate?.collectionView(self, targetIndexPathForMoveOfItemFromOriginalIndexPath: m.original,
                                              atCurrentIndexPath: m.current, toProposedIndexPath: proposed) ?? proposed
        if !isValidMoveTarget(target, from: m.current) { target = m.current }
        if target != m.current { presentMove(from: m.current, to: target) }
        needsDisplayUpdate = true
    }

    /// Drops the item where it is: the data source's `moveItemAt` is called once.
    public func endInteractiveMovement() {
        guard let m = movement else { return }
        movement = nil
        if m.original != m.current {
            dataSource?.collectionView(self, moveItemAt: m.original, to: m.current)
            counts = fetchCounts()
            var batch = BatchUpdate()
            batch.movedItems = [ItemMove(from: m.original, to: m.current)]
            recordAppliedUpdate(AppliedUpdate(kind: .batch, batch: batch, animated: true))
        }
        needsDisplayUpdate = true
    }

    /// Puts everything back; the data source is not told.
    public func cancelInteractiveMovement() {
        guard let m = movement else { return }
        if m.original != m.current { presentMove(from: m.current, to: m.original) }
        movement = nil
        needsDisplayUpdate = true
    }

    /// The index path of the item being moved, where it is shown now.
    public var indexPathForInteractivelyMovingItem: IndexPath? { movement?.current }

    /// Where an item shown at `current` may be shown next: a place among the items of
    /// its own section, or any place in another, its end included (an empty
    /// section's only place is item 0).
    func isValidMoveTarget(_ target: IndexPath, from current: IndexPath) -> Bool {
        guard target.count == 2, target.section >= 0, target.section < numberOfSections, target.item >= 0 else { return false }
        let count = numberOfItems(inSection: target.section)
        return target.section == current.section ? target.item < count : target.item <= count
    }

    /// Shows an item at a new place without telling the data source.
    private func presentMove(from: IndexPath, to: IndexPath) {
        let (after, mapper) = InteractiveMovement.presented(from: from, to: to, counts: loadCountsIfNeeded())
        display.remapCells(by: mapper)
        selection.selected = Set(selection.selected.compactMap { mapper.map($0) })
        counts = after
        movement?.current = to
        collectionViewLayout.invalidateLayout()
    }
}
