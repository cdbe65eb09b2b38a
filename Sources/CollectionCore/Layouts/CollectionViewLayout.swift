import Foundation

/// What changed, for a partial invalidation (UIKit's `UICollectionViewLayoutInvalidationContext`).
open class CollectionViewLayoutInvalidationContext {
    /// True when the data source's counts changed (set by the collection view).
    public internal(set) var invalidateEverything = false
    /// True when counts may have changed.
    public internal(set) var invalidateDataSourceCounts = false
    /// Items whose attributes must be recomputed.
    public private(set) var invalidatedItemIndexPaths: [IndexPath]?
    /// Supplementary elements to recompute, by kind.
    public private(set) var invalidatedSupplementaryIndexPaths: [String: [IndexPath]]?
    /// Change to the content size to apply.
    public var contentSizeAdjustment = CGSize.zero
    /// Change to the content offset to apply.
    public var contentOffsetAdjustment = CGPoint.zero

    /// Creates an empty context.
    public init() {}

    /// Marks items as invalid.
    /// - Parameter indexPaths: The items whose attributes must be computed again.
    public func invalidateItems(at indexPaths: [IndexPath]) {
        invalidatedItemIndexPaths = (invalidatedItemIndexPaths ?? []) + indexPaths
    }

    /// Marks supplementary elements as invalid.
    /// - Parameters:
    ///   - kind: The elements' kind.
    ///   - indexPaths: Their places.
    public func invalidateSupplementaryElements(ofKind kind: String, at indexPaths: [IndexPath]) {
        var all = invalidatedSupplementaryIndexPaths ?? [:]
        all[kind, default: []] += indexPaths
        invalidatedSupplementaryIndexPaths = all
    }
}

/// The base class of layouts, as UIKit's `UICollectionViewLayout`: subclass it and
/// override `prepare()`, `collectionViewContentSize` and the attribute queries.
/// A layout belongs to one collection view (`collectionView`).
open class CollectionViewLayout {
    /// The collection view using this layout (nil once it is gone, as UIKit's weak
    /// reference is).
    public internal(set) var collectionView: CollectionView? {
        get { owner }
        set { owner = newValue }
    }
    // Not a weak reference: the collection view clears it as it goes (`leave(_:)`
    // from its deinit). A weak reference gave every collection view a side table,
    // which sent each retain and release of it, and each read of this property,
    // down the runtime's slow path with an atomic operation on one more cold line.
    @exclusivity(unchecked) unowned(unsafe) private var owner: CollectionView?

    /// Lets go of `view` if it is this layout's collection view (it is going).
    func leave(_ view: CollectionView) {
        if let owner, owner === view { self.owner = nil }
    }
    /// True until the next `prepare()` after an invalidation.
    @exclusivity(unchecked) public private(set) var needsPrepare = true

    /// Creates a layout.
    public init() {}

    /// Notes what a batch reads of the layout (``PrefetchList``): the object, and
    /// what a layout of this package keeps beside it.
    package func gatherPrefetch(into list: inout PrefetchList) {
        list.add(self, bytes: Self.prefetchBytes)
    }

    /// Bytes of a layout object noted (all of the package's own layouts).
    package static let prefetchBytes = 472

    /// The views of decoration kinds (`register(_:forDecorationViewOfKind:)`).
    @exclusivity(unchecked) private(set) var decorationViewClasses: [String: CollectionReusableView.Type] = [:]

    /// Registers the view class of a decoration kind, as UIKit's layout does (nil
    /// removes it). The client draws the view from the template named after the kind
    /// (`tpl-<kind>`); without a registration, a plain view is made.
    /// - Parameters:
    ///   - viewClass: The class decoration views of the kind are made of (nil: none).
    ///   - elementKind: The decoration kind.
    public func register(_ viewClass: CollectionReusableView.Type?, forDecorationViewOfKind elementKind: String) {
        decorationViewClasses[elementKind] = viewClass
        invalidateLayout()
    }

    /// Beyond UIKit: whether cells size themselves (the collection view then records
    /// the sizes they report, in `selfSizedItems`, and lays out again). The flow
    /// layout's is true with an `estimatedItemSize`; the compositional layout's with
    /// an estimated dimension. A layout of the app's own that reads `selfSizedItems`
    /// returns true.
    open var selfSizingCells: Bool { false }

    /// Beyond UIKit: the sections that scroll on their own, across the layout's axis
    /// (the compositional layout's orthogonal sections). A layout of the app's own
    /// with such sections returns them, and reads each one's offset from
    /// ``CollectionViewMirror/orthogonalScrollOffsets`` in its rect queries.
    open var orthogonalScrollingRegions: [OrthogonalScrollingRegion] { [] }

    /// Computes whatever the queries need. Called before the first query after an invalidation.
    open func prepare() {}

    /// Beyond UIKit: a number that changes whenever the answers of
    /// ``layoutAttributesForElements(in:)`` may have changed; nil when the layout
    /// cannot tell (any prepare may change them, the default). A collection view
    /// without views asks the layout again only when it changed or its rect did.
    package var queryRevision: Int? { nil }

    /// The size of all content.
    open var collectionViewContentSize: CGSize { .zero }

    /// Every element whose frame intersects `rect`.
    /// - Parameter rect: A rectangle in content coordinates.
    /// - Returns: The cells', supplementary and decoration views' attributes (nil: none).
    open func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? { nil }

    /// Attributes of one item.
    /// - Parameter indexPath: The item.
    /// - Returns: Its attributes, or nil.
    open func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? { nil }

    /// Attributes of one supplementary view.
    /// - Parameters:
    ///   - elementKind: The element's kind.
    ///   - indexPath: Its place.
    /// - Returns: Its attributes, or nil.
    open func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? { nil }

    /// Attributes of one decoration view.
    /// - Parameters:
    ///   - elementKind: The decoration's kind.
    ///   - indexPath: Its place.
    /// - Returns: Its attributes, or nil.
    open func layoutAttributesForDecorationView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? { nil }

    /// Hears the changes of a batch before its animations are asked for: after
    /// `prepare()` for the new state, before the initial and final attributes. A
    /// layout keeps what it needs (say, the inserted index paths) until
    /// ``finalizeCollectionViewUpdates()``.
    /// - Parameter updateItems: The batch's changes, one per insert, delete, move or reload.
    open func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {}

    /// True for the package's own layouts, not subclassed (they do nothing in
    /// `prepare(forCollectionViewUpdates:)` and `finalizeCollectionViewUpdates()`).
    final var isPackageLayout: Bool {
        let type = type(of: self)
        return type == CollectionViewFlowLayout.self || type == CollectionViewCompositionalLayout.self
    }

    /// The batch's animations have been asked for: forget what
    /// ``prepare(forCollectionViewUpdates:)`` kept.
    open func finalizeCollectionViewUpdates() {}

    /// Where an inserted item starts its animation (asked after the batch, with its
    /// new index path): by default its final frame, transparent. The client animates
    /// from these attributes (frame, alpha, transform) to the item's frame.
    /// - Parameter itemIndexPath: The item, after the batch.
    /// - Returns: The attributes it starts from (nil: no animation).
    open func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard var attributes = layoutAttributesForItem(at: itemIndexPath) else { return nil }
        attributes.alpha = 0
        return attributes
    }

    /// Where a deleted item ends its animation (asked after the batch, with its old
    /// index path): by default the frame it was displayed at, transparent.
    /// - Parameter itemIndexPath: The item, before the batch.
    /// - Returns: The attributes it ends at (nil: no animation).
    open func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard var attributes = collectionView?.updater.attributesBeforeUpdate[itemIndexPath] else { return nil }
        attributes.alpha = 0
        return attributes
    }

    /// Initial attributes of an appearing supplementary view.
    /// - Parameters:
    ///   - kind: The element's kind.
    ///   - indexPath: Its place, after the batch.
    /// - Returns: The attributes it starts from (nil: no animation).
    open func initialLayoutAttributesForAppearingSupplementaryElement(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard var attributes = layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath) else { return nil }
        attributes.alpha = 0
        return attributes
    }

    /// Final attributes of a disappearing supplementary view.
    /// - Parameters:
    ///   - kind: The element's kind.
    ///   - indexPath: Its place, before the batch.
    /// - Returns: The attributes it ends at (nil: no animation).
    open func finalLayoutAttributesForDisappearingSupplementaryElement(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard var attributes = layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath) else { return nil }
        attributes.alpha = 0
        return attributes
    }

    /// Whether a bounds change (scroll or resize) needs a new layout. Default: a size change does.
    /// - Parameter newBounds: The bounds about to be set.
    /// - Returns: True to lay out again.
    open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let collectionView else { return false }
        return newBounds.size != collectionView.bounds.size
    }

    /// Marks the whole layout invalid.
    open func invalidateLayout() {
        needsPrepare = true
    }

    /// Marks part of the layout invalid; the default invalidates everything.
    /// - Parameter context: What is invalid.
    open func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
        invalidateLayout()
    }

    /// Runs `prepare()` if an invalidation asked for it.
    public func prepareIfNeeded() {
        guard needsPrepare else { return }
        needsPrepare = false
        prepare()
    }

    /// The index path an item dragged to `position` would move to. Default: the item
    /// under the position; else, over a section's header or footer, that section's
    /// start (the one place an empty section has, as UIKit proposes a drop into it
    /// at item 0); else the current one.
    /// - Parameters:
    ///   - previousIndexPath: Where the moving item is shown now.
    ///   - position: The pointer, in content coordinates.
    /// - Returns: The place proposed for it.
    open func targetIndexPath(forInteractivelyMovingItem previousIndexPath: IndexPath, withPosition position: CGPoint) -> IndexPath {
        guard let collectionView else { return previousIndexPath }
        if let item = collectionView.indexPathForItem(at: position) { return item }
        let probe = CGRect(x: position.x, y: position.y, width: 0.000_01, height: 0.000_01)
        let over = (layoutAttributesForElements(in: probe) ?? []).last {
            $0.representedElementCategory == .supplementaryView && $0.frame.contains(position) && !$0.isHidden
        }
        guard let section = over?.indexPath.section, section < collectionView.numberOfSections else { return previousIndexPath }
        return IndexPath(item: 0, section: section)
    }

    /// Attributes of an item being dragged: centered on the pointer, in front.
    /// - Parameters:
    ///   - indexPath: The moving item, where it is shown.
    ///   - position: The pointer, in content coordinates.
    /// - Returns: Its attributes under the pointer.
    open func layoutAttributesForInteractivelyMovingItem(at indexPath: IndexPath, withTargetPosition position: CGPoint) -> CollectionViewLayoutAttributes {
        var attributes = layoutAttributesForItem(at: indexPath) ?? CollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.center = position
        attributes.zIndex = Int.max / 2
        return attributes
    }
}
