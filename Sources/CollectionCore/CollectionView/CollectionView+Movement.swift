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
        if !InteractiveMovement.isValid(target, from: m.current, counts: loadCountsIfNeeded()) { target = m.current }
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
            updater.keep(AppliedUpdate(kind: .batch, batch: InteractiveMovement.batch(from: m.original, to: m.current), animated: true))
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

    /// The index path the data source knows an item by (differs from the shown one
    /// only while an item is being moved interactively).
    func dataIndexPath(forPresented p: IndexPath) -> IndexPath {
        guard let movement else { return p }
        return movement.dataIndexPath(forPresented: p)
    }

    /// Shows an item at a new place without telling the data source.
    private func presentMove(from: IndexPath, to: IndexPath) {
        let (after, mapper) = InteractiveMovement.presented(from: from, to: to, counts: loadCountsIfNeeded())
        display.views.remapCells(by: mapper)
        selection.selected = Set(selection.selected.compactMap { mapper.map($0) })
        counts = after
        movement?.current = to
        collectionViewLayout.invalidateLayout()
    }
}
