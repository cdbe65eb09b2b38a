import Foundation

extension CollectionView {
    var selectionAllowed: Bool { isEditing ? allowsSelectionDuringEditing : allowsSelection }
    var multipleSelectionAllowed: Bool { isEditing ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection }

    func trimSelectionIfSingle() {
        guard !multipleSelectionAllowed else { return }
        for p in selection.beyondSingle { setSelected(false, p) }
    }

    func setSelected(_ isSelected: Bool, _ indexPath: IndexPath) {
        if isSelected { selection.selected.insert(indexPath) } else { selection.selected.remove(indexPath) }
        (display.table[.cell(indexPath)] as? CollectionViewCell)?.isSelected = isSelected
    }

    /// The selected items in index-path order (UIKit returns an optional array).
    public var indexPathsForSelectedItems: [IndexPath]? { selection.selected.sorted() }

    /// Selects an item (nil deselects all) without asking or telling the delegate,
    /// and scrolls it to `scrollPosition`. Without multiple selection, the others are deselected.
    /// - Parameters:
    ///   - indexPath: The item (nil: deselect all).
    ///   - animated: Whether the client animates the scroll.
    ///   - scrollPosition: Where to scroll it (`.none`: leave the offset).
    public func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath else {
            for p in selection.selected { setSelected(false, p) }
            return
        }
        guard isValid(indexPath), selectionAllowed else { return }
        if !multipleSelectionAllowed { for p in selection.selected where p != indexPath { setSelected(false, p) } }
        setSelected(true, indexPath)
        if !scrollPosition.isEmpty { scrollToItem(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects an item without asking or telling the delegate.
    /// - Parameters:
    ///   - indexPath: The item.
    ///   - animated: Kept for UIKit's signature (the client draws the change).
    public func deselectItem(at indexPath: IndexPath, animated: Bool) {
        setSelected(false, indexPath)
    }
}
