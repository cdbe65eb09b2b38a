import Foundation

/// Beyond UIKit: what a person does to a collection view through a client (presses,
/// selects, focuses, drags, drops, opens a context menu), carried out as UIKit's
/// private gesture recognizers and interactions carry out a touch: asking and telling
/// the delegates in UIKit's order. A server's viewer calls these for the person who
/// acted; an app's test can call them to act as one. UIKit's own surface (selecting
/// without the delegate, moving, updating) stays on ``CollectionView``.
public struct CollectionViewInteractions {
    /// The collection view acted on.
    public unowned let collectionView: CollectionView

    init(_ collectionView: CollectionView) { self.collectionView = collectionView }

    // MARK: Touch (UIKit does this from touches)

    /// Pointer down on an item: highlights it if allowed (shouldHighlight → didHighlight).
    /// - Parameter indexPath: The item pressed.
    /// - Returns: Whether the item is highlighted.
    @discardableResult
    public func pressItem(at indexPath: IndexPath) -> Bool {
        let cv = collectionView
        guard cv.isValid(indexPath), cv.selectionAllowed else { return false }
        if let current = cv.selection.highlighted { unhighlight(current) }
        guard cv.delegate?.collectionView(cv, shouldHighlightItemAt: indexPath) ?? true else { return false }
        cv.selection.highlighted = indexPath
        (cv.display.table[.cell(indexPath)] as? CollectionViewCell)?.isHighlighted = true
        cv.delegate?.collectionView(cv, didHighlightItemAt: indexPath)
        return true
    }

    /// Pointer released on the highlighted item: unhighlights, then selects (or, with
    /// multiple selection, toggles), asking and telling the delegate.
    /// - Parameter indexPath: The item under the pointer when it was released.
    /// - Returns: Whether the selection changed.
    @discardableResult
    public func releaseItem(at indexPath: IndexPath) -> Bool {
        guard collectionView.selection.highlighted == indexPath else {
            cancelPress()
            return false
        }
        unhighlight(indexPath)
        return toggleFromUser(indexPath)
    }

    /// Pointer left or was cancelled: unhighlights without selecting.
    public func cancelPress() {
        if let current = collectionView.selection.highlighted { unhighlight(current) }
    }

    private func unhighlight(_ indexPath: IndexPath) {
        let cv = collectionView
        cv.selection.highlighted = nil
        (cv.display.table[.cell(indexPath)] as? CollectionViewCell)?.isHighlighted = false
        cv.delegate?.collectionView(cv, didUnhighlightItemAt: indexPath)
    }

    /// A person's selection gesture on `indexPath`, with the delegate's say: selects
    /// (deselecting the others without multiple selection) or, with multiple
    /// selection, deselects a selected item.
    /// - Parameter indexPath: The item.
    /// - Returns: Whether the selection changed.
    @discardableResult
    public func toggleFromUser(_ indexPath: IndexPath) -> Bool {
        let cv = collectionView
        guard cv.isValid(indexPath), cv.selectionAllowed else { return false }
        let delegate = cv.delegate
        if cv.selection.selected.contains(indexPath) {
            guard cv.multipleSelectionAllowed else { return false }
            guard delegate?.collectionView(cv, shouldDeselectItemAt: indexPath) ?? true else { return false }
            cv.setSelected(false, indexPath)
            delegate?.collectionView(cv, didDeselectItemAt: indexPath)
            return true
        }
        guard delegate?.collectionView(cv, shouldSelectItemAt: indexPath) ?? true else { return false }
        if !cv.multipleSelectionAllowed {
            for p in cv.selection.selected.sorted() where delegate?.collectionView(cv, shouldDeselectItemAt: p) ?? true {
                cv.setSelected(false, p)
                delegate?.collectionView(cv, didDeselectItemAt: p)
            }
        }
        cv.setSelected(true, indexPath)
        delegate?.collectionView(cv, didSelectItemAt: indexPath)
        return true
    }

    // MARK: Focus (UIKit's focus engine)

    /// Moves focus to an item if allowed and the delegate agrees; with
    /// `selectionFollowsFocus`, the focused item is selected as a person would.
    /// - Parameter indexPath: The item.
    /// - Returns: Whether the item took focus.
    @discardableResult
    public func focusItem(at indexPath: IndexPath) -> Bool {
        let cv = collectionView
        guard cv.isEditing ? cv.allowsFocusDuringEditing : cv.allowsFocus, cv.isValid(indexPath), cv.delegate?.collectionView(cv, canFocusItemAt: indexPath) ?? true else { return false }
        let previous = cv.selection.focused
        cv.selection.focused = indexPath
        cv.selection.lastFocused = indexPath
        cv.delegate?.collectionView(cv, didUpdateFocusIn: CollectionViewFocusUpdateContext(previouslyFocusedIndexPath: previous, nextFocusedIndexPath: indexPath),
                                    with: FocusAnimationCoordinator())
        if cv.selectionFollowsFocus && !cv.selection.selected.contains(indexPath) { toggleFromUser(indexPath) }
        return true
    }

    /// Focus leaves the collection view.
    public func resignFocus() {
        let cv = collectionView
        guard let previous = cv.selection.focused else { return }
        cv.selection.focused = nil
        cv.delegate?.collectionView(cv, didUpdateFocusIn: CollectionViewFocusUpdateContext(previouslyFocusedIndexPath: previous, nextFocusedIndexPath: nil),
                                    with: FocusAnimationCoordinator())
    }

    /// Where focus goes when the collection view takes it: the last focused item when
    /// `remembersLastFocusedIndexPath` is on and it still exists, else the first item.
    public var preferredFocusIndexPath: IndexPath? {
        let cv = collectionView
        if cv.remembersLastFocusedIndexPath, let last = cv.selection.lastFocused, cv.isValid(last) { return last }
        for s in 0..<cv.numberOfSections where cv.numberOfItems(inSection: s) > 0 { return IndexPath(item: 0, section: s) }
        return nil
    }
}

extension CollectionView {
    /// Beyond UIKit: a person's presses, selections, focus, drags, drops and context
    /// menus on this collection view, with the delegates' say (``CollectionViewInteractions``).
    public var interactions: CollectionViewInteractions { CollectionViewInteractions(self) }
}
