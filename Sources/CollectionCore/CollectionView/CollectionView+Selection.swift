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
    public func deselectItem(at indexPath: IndexPath, animated: Bool) {
        setSelected(false, indexPath)
    }

    // MARK: Input from the user (UIKit does this from touches)

    /// Pointer down on an item: highlights it if allowed (shouldHighlight → didHighlight).
    @discardableResult
    public func pressItem(at indexPath: IndexPath) -> Bool {
        guard isValid(indexPath), selectionAllowed else { return false }
        if let current = selection.highlighted { unhighlight(current) }
        guard delegate?.collectionView(self, shouldHighlightItemAt: indexPath) ?? true else { return false }
        selection.highlighted = indexPath
        (display.table[.cell(indexPath)] as? CollectionViewCell)?.isHighlighted = true
        delegate?.collectionView(self, didHighlightItemAt: indexPath)
        return true
    }

    /// Pointer released on the highlighted item: unhighlights, then selects (or, with
    /// multiple selection, toggles), asking and telling the delegate. Returns whether
    /// the selection changed.
    @discardableResult
    public func releaseItem(at indexPath: IndexPath) -> Bool {
        guard selection.highlighted == indexPath else {
            cancelPress()
            return false
        }
        unhighlight(indexPath)
        return toggleFromUser(indexPath)
    }

    /// Pointer left or was cancelled: unhighlights without selecting.
    public func cancelPress() {
        if let current = selection.highlighted { unhighlight(current) }
    }

    private func unhighlight(_ indexPath: IndexPath) {
        selection.highlighted = nil
        (display.table[.cell(indexPath)] as? CollectionViewCell)?.isHighlighted = false
        delegate?.collectionView(self, didUnhighlightItemAt: indexPath)
    }

    /// A user's selection gesture on `indexPath`, with the delegate's say.
    @discardableResult
    public func toggleFromUser(_ indexPath: IndexPath) -> Bool {
        guard isValid(indexPath), selectionAllowed else { return false }
        if selection.selected.contains(indexPath) {
            guard multipleSelectionAllowed else { return false }
            guard delegate?.collectionView(self, shouldDeselectItemAt: indexPath) ?? true else { return false }
            setSelected(false, indexPath)
            delegate?.collectionView(self, didDeselectItemAt: indexPath)
            return true
        }
        guard delegate?.collectionView(self, shouldSelectItemAt: indexPath) ?? true else { return false }
        if !multipleSelectionAllowed {
            for p in selection.selected.sorted() where delegate?.collectionView(self, shouldDeselectItemAt: p) ?? true {
                setSelected(false, p)
                delegate?.collectionView(self, didDeselectItemAt: p)
            }
        }
        setSelected(true, indexPath)
        delegate?.collectionView(self, didSelectItemAt: indexPath)
        return true
    }

    // MARK: Focus

    var focusAllowed: Bool { isEditing ? allowsFocusDuringEditing : allowsFocus }

    /// Moves focus to an item if allowed and the delegate agrees; with
    /// `selectionFollowsFocus`, the focused item is selected as a user would.
    @discardableResult
    public func focusItem(at indexPath: IndexPath) -> Bool {
        guard focusAllowed, isValid(indexPath), delegate?.collectionView(self, canFocusItemAt: indexPath) ?? true else { return false }
        let previous = selection.focused
        selection.focused = indexPath
        selection.lastFocused = indexPath
        delegate?.collectionView(self, didUpdateFocusIn: CollectionViewFocusUpdateContext(previouslyFocusedIndexPath: previous, nextFocusedIndexPath: indexPath),
                                 with: FocusAnimationCoordinator())
        if selectionFollowsFocus && !selection.selected.contains(indexPath) { toggleFromUser(indexPath) }
        return true
    }

    /// Focus leaves the collection view.
    public func resignFocus() {
        guard let previous = selection.focused else { return }
        selection.focused = nil
        delegate?.collectionView(self, didUpdateFocusIn: CollectionViewFocusUpdateContext(previouslyFocusedIndexPath: previous, nextFocusedIndexPath: nil),
                                 with: FocusAnimationCoordinator())
    }

    /// Where focus goes when the collection view takes it: the last focused item when
    /// `remembersLastFocusedIndexPath` is on and it still exists, else the first item.
    public var preferredFocusIndexPath: IndexPath? {
        if remembersLastFocusedIndexPath, let last = selection.lastFocused, isValid(last) { return last }
        for s in 0..<numberOfSections where numberOfItems(inSection: s) > 0 { return IndexPath(item: 0, section: s) }
        return nil
    }
}
