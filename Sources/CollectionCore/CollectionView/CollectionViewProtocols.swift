import Foundation

/// Provides the collection's data, as UIKit's `UICollectionViewDataSource`.
/// `numberOfSections(in:)`, the supplementary, `canMoveItemAt` and `moveItemAt`
/// methods are optional.
///
/// One difference from UIKit: Swift on Linux cannot ask whether an optional method
/// is implemented, so items are movable only when `canMoveItemAt` returns true (the
/// default is false); implement it together with `moveItemAt`.
public protocol CollectionViewDataSource: AnyObject {
    /// The number of sections (by default 1).
    /// - Parameter collectionView: The collection view asking.
    /// - Returns: How many sections the collection view shows.
    func numberOfSections(in collectionView: CollectionView) -> Int
    /// The number of items in a section.
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - section: The section's index.
    /// - Returns: How many items the section holds.
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// The cell for an item, dequeued from `collectionView` and configured.
    /// - Parameters:
    ///   - collectionView: The collection view asking; dequeue the cell from it.
    ///   - indexPath: The item's place.
    /// - Returns: A cell from ``CollectionView/dequeueReusableCell(withReuseIdentifier:for:)`` (or a registration).
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell
    /// The view of a supplementary element the layout asks for (a header or footer, say).
    /// - Parameters:
    ///   - collectionView: The collection view asking; dequeue the view from it.
    ///   - kind: The element's kind (``CollectionView/elementKindSectionHeader``, or a layout's own).
    ///   - indexPath: The element's place.
    /// - Returns: A view from ``CollectionView/dequeueReusableSupplementaryView(ofKind:withReuseIdentifier:for:)``.
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView
    /// Whether an item may be moved (by default false).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - indexPath: The item's place.
    /// - Returns: True to let a person reorder it.
    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool
    /// Moves an item in the data: the collection view has already shown it at its new place.
    /// - Parameters:
    ///   - collectionView: The collection view the move was made in.
    ///   - sourceIndexPath: Where the item was.
    ///   - destinationIndexPath: Where it is now.
    func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath)
}

extension CollectionViewDataSource {
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    public func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView {
        CollectionReusableView(reuseIdentifier: "")
    }
    public func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool { false }
    public func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {}
}

extension CollectionViewDataSource {
    /// The item count of each section it reports for `collectionView` (a negative count is 0).
    func itemCounts(in collectionView: CollectionView) -> [Int] {
        (0..<max(0, numberOfSections(in: collectionView))).map { max(0, self.collectionView(collectionView, numberOfItemsInSection: $0)) }
    }
}

/// Reacts to selection, highlight, focus, display and movement, as UIKit's
/// `UICollectionViewDelegate`. Every method is optional.
public protocol CollectionViewDelegate: AnyObject {
    /// Whether an item lights up while a person presses it (by default true).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - indexPath: The pressed item.
    /// - Returns: False to leave it unhighlighted (and unselected by that press).
    func collectionView(_ collectionView: CollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool
    /// An item was highlighted by a press.
    /// - Parameters:
    ///   - collectionView: The collection view it is in.
    ///   - indexPath: The highlighted item.
    func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: IndexPath)
    /// The press ended or was cancelled: the item is no longer highlighted.
    /// - Parameters:
    ///   - collectionView: The collection view it is in.
    ///   - indexPath: The item.
    func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: IndexPath)
    /// Whether a person may select an item (by default true); not asked when the app selects.
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - indexPath: The item to be selected.
    /// - Returns: False to refuse the selection.
    func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
    /// Whether a person may deselect an item (by default true).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - indexPath: The item to be deselected.
    /// - Returns: False to keep it selected.
    func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool
    /// A person selected an item.
    /// - Parameters:
    ///   - collectionView: The collection view it is in.
    ///   - indexPath: The selected item.
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath)
    /// A person deselected an item (or selecting another one deselected it).
    /// - Parameters:
    ///   - collectionView: The collection view it is in.
    ///   - indexPath: The deselected item.
    func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath)
    /// A cell is about to be displayed (it came near the viewer's window).
    /// - Parameters:
    ///   - collectionView: The collection view displaying it.
    ///   - cell: The configured cell.
    ///   - indexPath: Its item.
    func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath)
    /// A cell left the display (scrolled away, deleted or reloaded) and goes back to its reuse queue.
    /// - Parameters:
    ///   - collectionView: The collection view that displayed it.
    ///   - cell: The cell.
    ///   - indexPath: The item it showed.
    func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath)
    /// A supplementary view is about to be displayed.
    /// - Parameters:
    ///   - collectionView: The collection view displaying it.
    ///   - view: The configured view.
    ///   - elementKind: Its kind.
    ///   - indexPath: Its place.
    func collectionView(_ collectionView: CollectionView, willDisplaySupplementaryView view: CollectionReusableView, forElementKind elementKind: String, at indexPath: IndexPath)
    /// A supplementary view left the display.
    /// - Parameters:
    ///   - collectionView: The collection view that displayed it.
    ///   - view: The view.
    ///   - elementKind: Its kind.
    ///   - indexPath: The place it had.
    func collectionView(_ collectionView: CollectionView, didEndDisplayingSupplementaryView view: CollectionReusableView, forElementOfKind elementKind: String, at indexPath: IndexPath)
    /// Whether an item may take keyboard focus (by default true, when ``CollectionView/allowsFocus`` is on).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - indexPath: The item.
    /// - Returns: False to pass over it.
    func collectionView(_ collectionView: CollectionView, canFocusItemAt indexPath: IndexPath) -> Bool
    /// Focus moved.
    /// - Parameters:
    ///   - collectionView: The collection view focus moved in.
    ///   - context: The items focus left and went to.
    ///   - coordinator: Runs animations alongside the change.
    func collectionView(_ collectionView: CollectionView, didUpdateFocusIn context: CollectionViewFocusUpdateContext, with coordinator: FocusAnimationCoordinator)
    /// Where an item being moved may go: return `proposedIndexPath` to allow the
    /// layout's choice, or another place (a cell kept within its section, say).
    /// - Parameters:
    ///   - collectionView: The collection view the item moves in.
    ///   - originalIndexPath: Where the item was when the movement began.
    ///   - currentIndexPath: Where it is shown now.
    ///   - proposedIndexPath: Where the layout would put it.
    /// - Returns: The place it goes.
    func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath, atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath
    /// The older form of the method above, which by default calls it (as in UIKit).
    /// - Parameters:
    ///   - collectionView: The collection view the item moves in.
    ///   - currentIndexPath: Where the item is shown now.
    ///   - proposedIndexPath: Where the layout would put it.
    /// - Returns: The place it goes (by default `proposedIndexPath`).
    func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveFromItemAt currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath
    /// The layout an interactive transition runs (a subclass for a transition of its own).
    /// - Parameters:
    ///   - collectionView: The collection view whose layout changes.
    ///   - fromLayout: The layout it has now.
    ///   - toLayout: The layout it goes to.
    /// - Returns: The transition layout (by default a ``CollectionViewTransitionLayout`` between the two).
    func collectionView(_ collectionView: CollectionView, transitionLayoutForOldLayout fromLayout: CollectionViewLayout, newLayout toLayout: CollectionViewLayout) -> CollectionViewTransitionLayout
    /// The context menu for `indexPaths` (empty: the background), asked for at
    /// `point` in content coordinates.
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - indexPaths: The items the menu is for (empty: the background).
    ///   - point: Where the person asked, in content coordinates.
    /// - Returns: The menu's configuration, or nil for no menu (the default).
    func collectionView(_ collectionView: CollectionView, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint) -> ContextMenuConfiguration?
}

/// What changed when focus moved (UIKit's `UICollectionViewFocusUpdateContext`).
public struct CollectionViewFocusUpdateContext: Sendable, Equatable {
    /// The item focus left (nil: it came from outside the collection view).
    public var previouslyFocusedIndexPath: IndexPath?
    /// The item focus went to (nil: it left the collection view).
    public var nextFocusedIndexPath: IndexPath?

    /// Creates a context.
    /// - Parameters:
    ///   - previouslyFocusedIndexPath: The item focus left (nil: from outside).
    ///   - nextFocusedIndexPath: The item focus goes to (nil: outside).
    public init(previouslyFocusedIndexPath: IndexPath?, nextFocusedIndexPath: IndexPath?) {
        self.previouslyFocusedIndexPath = previouslyFocusedIndexPath
        self.nextFocusedIndexPath = nextFocusedIndexPath
    }
}

/// Runs animations alongside a focus change (UIKit's `UIFocusAnimationCoordinator`).
/// The browser draws focus itself, so the animations run at once.
public final class FocusAnimationCoordinator {
    /// Creates a coordinator.
    public init() {}
    /// Runs `animations` now, then `completion`.
    /// - Parameters:
    ///   - animations: What to animate with the focus change.
    ///   - completion: Run after them.
    public func addCoordinatedAnimations(_ animations: (() -> Void)?, completion: (() -> Void)? = nil) {
        animations?()
        completion?()
    }
}

extension CollectionViewDelegate {
    public func collectionView(_ collectionView: CollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, willDisplaySupplementaryView view: CollectionReusableView, forElementKind elementKind: String, at indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, didEndDisplayingSupplementaryView view: CollectionReusableView, forElementOfKind elementKind: String, at indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, canFocusItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, didUpdateFocusIn context: CollectionViewFocusUpdateContext, with coordinator: FocusAnimationCoordinator) {}
    /// By default, the older `targetIndexPathForMoveFromItemAt:toProposedIndexPath:` decides (as in UIKit).
    public func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath, atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath {
        self.collectionView(collectionView, targetIndexPathForMoveFromItemAt: currentIndexPath, toProposedIndexPath: proposedIndexPath)
    }
    public func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveFromItemAt currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath {
        proposedIndexPath
    }
    /// By default, UIKit's own transition layout.
    public func collectionView(_ collectionView: CollectionView, transitionLayoutForOldLayout fromLayout: CollectionViewLayout, newLayout toLayout: CollectionViewLayout) -> CollectionViewTransitionLayout {
        CollectionViewTransitionLayout(currentLayout: fromLayout, nextLayout: toLayout)
    }
    /// By default, no menu.
    public func collectionView(_ collectionView: CollectionView, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint) -> ContextMenuConfiguration? { nil }
}

/// Told which items are about to come into view, as UIKit's `UICollectionViewDataSourcePrefetching`.
public protocol CollectionViewDataSourcePrefetching: AnyObject {
    /// Items are coming near the window: start loading what their cells will need.
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - indexPaths: The items, nearest first.
    func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath])
    /// Items asked for before are no longer coming (the viewer scrolled the other way); by default nothing.
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - indexPaths: The items.
    func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
}

extension CollectionViewDataSourcePrefetching {
    public func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) {}
}
