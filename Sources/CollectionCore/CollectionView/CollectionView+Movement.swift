import Foundation

extension CollectionView {
    /// Starts moving an item with the pointer. False when the data source says it
    /// cannot move, the index path is not an item, or a movement is under way.
    /// - Parameter indexPath: The item to move.
    /// - Returns: Whether the movement began.
    @discardableResult
    public func beginInteractiveMovementForItem(at indexPath: IndexPath) -> Bool { InteractiveMovement.begin(at: indexPath, in: self) }

    /// The item follows the pointer; the others make room at the target the layout
    /// (and the delegate) pick for this position.
    /// - Parameter targetPosition: The pointer, in content coordinates.
    public func updateInteractiveMovementTargetPosition(_ targetPosition: CGPoint) { InteractiveMovement.follow(targetPosition, in: self) }

    /// Drops the item where it is: the data source's `moveItemAt` is called once.
    public func endInteractiveMovement() { InteractiveMovement.end(in: self) }

    /// Puts everything back; the data source is not told.
    public func cancelInteractiveMovement() { InteractiveMovement.cancel(in: self) }

    /// The index path of the item being moved, where it is shown now.
    public var indexPathForInteractivelyMovingItem: IndexPath? { movement?.current }
}
