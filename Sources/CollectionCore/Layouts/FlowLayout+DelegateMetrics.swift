import Foundation

/// What a flow layout's invalidation recomputes, as UIKit's
/// `UICollectionViewFlowLayoutInvalidationContext`.
open class CollectionViewFlowLayoutInvalidationContext: CollectionViewLayoutInvalidationContext {
    /// Ask the delegate for every item's size again (default false, as in UIKit: the
    /// sizes it gave are kept, and only the invalidated items are asked again).
    public var invalidateFlowLayoutDelegateMetrics = false
    /// Recompute the layout's attributes (default true). False, with the delegate
    /// metrics kept too, leaves the layout as it is.
    public var invalidateFlowLayoutAttributes = true
}

extension CollectionViewFlowLayout {
    /// Invalidates with a flow context that keeps the delegate's sizes: the next
    /// `prepare()` reuses them, asking the delegate only about the context's
    /// invalidated items. Any other invalidation (a plain ``invalidateLayout()``, a
    /// change of counts) asks about every item again, as UIKit does.
    func invalidateKeepingDelegateMetrics(_ context: CollectionViewLayoutInvalidationContext) -> Bool {
        guard let flow = context as? CollectionViewFlowLayoutInvalidationContext, !flow.invalidateFlowLayoutDelegateMetrics,
              !context.invalidateEverything, !context.invalidateDataSourceCounts, delegateMetricsValid else { return false }
        if !flow.invalidateFlowLayoutAttributes && (context.invalidatedItemIndexPaths ?? []).isEmpty { return true }
        invalidateLayout()   // drops the metrics; kept again below
        delegateMetricsValid = true
        itemsToAskAgain += context.invalidatedItemIndexPaths ?? []
        return true
    }

    /// Makes `items` a buffer of `count` items for a prepare to write over: the last
    /// one's when it is not far too large, else a new one. The same count keeps every
    /// item as it was (a prepare that keeps the delegate's sizes reads them). In
    /// place: a buffer passed in and returned was held twice during the call, and
    /// the prepare's first write copied it whole.
    static func prepareItemBuffer(_ items: inout [ItemGeometry], count: Int) {
        if items.count != count && items.capacity > 2 * count + 1_024 { items = [] }
        if items.count > count {
            items.removeLast(items.count - count)
        } else if items.count < count {
            items.reserveCapacity(count)
            items.append(contentsOf: repeatElement(ItemGeometry(u: 0, uExtent: 0, vExtent: 0, line: 0), count: count - items.count))
        }
        // None (fixed sizes): a buffer of its own all the same, kept from one prepare to
        // the next. The shared empty array, made writable, was a new buffer each time.
        if items.capacity == 0 { items.reserveCapacity(1) }
    }
}

/// Where a prepare takes its item sizes from a ``CollectionViewDelegateFlowLayout``:
/// the delegate asked as each section's lines are built (no array of sizes), or,
/// with `keep`, the sizes of the last prepare read from the item buffer before each
/// item is written over, the delegate asked only about `askAgain` (sorted, per section).
struct DelegateSizing {
    let delegate: any CollectionViewDelegateFlowLayout
    /// Held by the prepare that made this for as long as it runs.
    unowned(unsafe) let collectionView: CollectionView
    let keep: Bool
    let askAgain: [Int: [Int]]

    /// Section `s`'s sizes when the delegate gives a whole section at once (asked
    /// unless the metrics are kept and none of its items is to be asked again).
    func sectionSizes(_ s: Int, count: Int, layout: CollectionViewFlowLayout) -> [CGSize]? {
        if keep && askAgain[s] == nil { return nil }
        guard let sizes = delegate.collectionView(collectionView, layout: layout, sizesForItemsInSection: s) else { return nil }
        if !(sizes.count == count) { fatalError("sizesForItemsInSection \(s) gave \(sizes.count) sizes for \(count) items") }
        return sizes
    }
}
