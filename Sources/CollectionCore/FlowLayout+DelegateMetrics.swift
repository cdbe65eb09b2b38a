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

    /// The sizes of section `s`'s items from the delegate: the ones kept from the last
    /// prepare (`previous`, that prepare's geometry) where valid, else asked, one
    /// reused index path for every call.
    /// (Generic over the delegate's type, so that the existential is opened once
    /// per section rather than at every call.)
    func delegateSizes<D: CollectionViewDelegateFlowLayout>(_ delegate: D, of cv: CollectionView, section s: Int, count: Int, vertical: Bool,
                                                            kept previous: (items: [ItemGeometry], first: Int)?, askAgain: [Int]) -> [CGSize] {
        var path = IndexPath(item: 0, section: s)
        guard let previous else {
            return [CGSize](unsafeUninitializedCapacity: count) { buffer, initialized in
                for item in 0..<count {
                    path[1] = item
                    (buffer.baseAddress! + item).initialize(to: delegate.collectionView(cv, layout: self, sizeForItemAt: path))
                }
                initialized = count
            }
        }
        var sizes = previous.items.withUnsafeBufferPointer { items in
            (0..<count).map { i -> CGSize in
                let g = items[previous.first + i]
                return vertical ? CGSize(width: g.uExtent, height: g.vExtent) : CGSize(width: g.vExtent, height: g.uExtent)
            }
        }
        for item in askAgain where item < count {
            path[1] = item
            sizes[item] = delegate.collectionView(cv, layout: self, sizeForItemAt: path)
        }
        return sizes
    }
}
