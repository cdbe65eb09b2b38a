import Foundation

/// Beyond UIKit: a collection view that keeps no views. A mirror that reads what its
/// layout shows and nothing else (the server's window of a viewer with no state of its
/// own) has no use for cells: dequeuing, configuring, re-keying and recycling them was
/// most of a batch's cost for each viewer. Without views the collection view keeps the
/// attributes its layout gave for the display rect instead (``shownAttributes``), and
/// `displayGeneration` grows whenever it asked for them again. Selection, focus,
/// movement and self-sizing need views: whoever turns this on turns it off first.
extension CollectionView {
    /// Whether the collection view keeps no views (false: as UIKit, a view for every
    /// displayed element). Turning it on lets go of the displayed views (no
    /// `didEndDisplaying`: the views are not ended, only forgotten); turning it off
    /// makes them again at the next layout pass.
    package var keepsNoViews: Bool {
        get { viewless }
        set {
            guard newValue != viewless else { return }
            viewless = newValue
            if newValue { display.removeAll() } else { shown.reset() }
            needsDisplayUpdate = true
        }
    }

    /// Without views: asks the layout what the display rect shows, unless the layout
    /// tells that its answers are the last ones (a batch of moves in a grid of one
    /// item size: the same frames at the same index paths).
    func updateShownAttributes() {
        needsDisplayUpdate = false
        shown.update(from: collectionViewLayout, in: displayRect)
        displayGeneration += 1
    }

    /// Without views: the attributes the layout gave for the display rect, as it last asked.
    package var shownAttributes: [CollectionViewLayoutAttributes] { shown.attributes }

    /// How many elements are displayed (views, or attributes without them).
    package var displayedCount: Int {
        layoutIfNeeded()
        return viewless ? shown.attributes.count : display.table.count
    }

    /// The attributes the displayed cell of the item at `indexPath` was given (nil: not displayed).
    package func displayedAttributes(ofItemAt indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        viewless ? ShownAttributes.item(at: indexPath, in: shown.attributes) : display.table[.cell(indexPath)]?.layoutAttributes
    }

    /// Whether a cell of the item at `indexPath` is displayed.
    func displaysItem(at indexPath: IndexPath) -> Bool {
        viewless ? ShownAttributes.item(at: indexPath, in: shown.attributes) != nil : display.table[.cell(indexPath)] != nil
    }
}
