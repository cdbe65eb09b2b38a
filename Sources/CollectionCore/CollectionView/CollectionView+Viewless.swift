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
            if newValue {
                displayed.removeAll()
                spareDisplayed.removeAll()
            } else {
                shownAttributes = []
                shownQuery = nil
            }
            needsDisplayUpdate = true
        }
    }

    /// Without views: asks the layout what the display rect shows, unless the layout
    /// tells that its answers are the last ones (a batch of moves in a grid of one
    /// item size: the same frames at the same index paths).
    func updateShownAttributes() {
        needsDisplayUpdate = false
        let layout = collectionViewLayout
        let rect = displayRect
        let query = layout.queryRevision.map { (layout: ObjectIdentifier(layout), revision: $0, rect: rect) }
        if let query, let last = shownQuery, query.layout == last.layout && query.revision == last.revision && query.rect == last.rect {
            // The same answers: the attributes kept (the items at their index paths may differ).
        } else {
            shownAttributes = layout.layoutAttributesForElements(in: rect) ?? []
            shownQuery = query
        }
        displayGeneration += 1
    }

    /// How many elements are displayed (views, or attributes without them).
    package var displayedCount: Int {
        layoutIfNeeded()
        return viewless ? shownAttributes.count : displayed.count
    }

    /// The attributes the displayed cell of the item at `indexPath` was given (nil: not displayed).
    package func displayedAttributes(ofItemAt indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard viewless else { return displayed[.cell(indexPath)]?.layoutAttributes }
        return shownAttributes.first { $0.representedElementCategory == .cell && $0.indexPath == indexPath }
    }

    /// Whether a cell of the item at `indexPath` is displayed.
    func displaysItem(at indexPath: IndexPath) -> Bool {
        viewless ? displayedAttributes(ofItemAt: indexPath) != nil : displayed[.cell(indexPath)] != nil
    }

    /// Without views: the attributes of the displayed cells a batch takes away (what
    /// their views would hold), by their index paths before it.
    func vanishedWithoutViews(_ batch: BatchUpdate, _ mapper: IndexPathMapper) -> [IndexPath: CollectionViewLayoutAttributes] {
        var vanished: [IndexPath: CollectionViewLayoutAttributes] = [:]
        guard !batch.deletedItems.isEmpty || !batch.deletedSections.isEmpty else { return vanished }
        for a in shownAttributes where a.representedElementCategory == .cell {
            let p = a.indexPath
            if mapper.map(section: p.section, item: p.item) == nil { vanished[p] = a }
        }
        return vanished
    }
}
