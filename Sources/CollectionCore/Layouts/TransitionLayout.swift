import Foundation

/// UIKit's `UICollectionViewTransitionLayout`: the layout a collection view uses
/// during an interactive transition (``CollectionView/startInteractiveTransition(to:completion:)``),
/// placing every element between where `currentLayout` and `nextLayout` put it,
/// `transitionProgress` of the way. Elements in only one of the two layouts fade
/// in or out.
open class CollectionViewTransitionLayout: CollectionViewLayout {
    /// The layout the transition starts from.
    public let currentLayout: CollectionViewLayout
    /// The layout the transition goes to.
    public let nextLayout: CollectionViewLayout
    /// How far along the transition is, from 0 (`currentLayout`) to 1 (`nextLayout`).
    /// Setting it moves the elements (no new `prepare()`).
    public var transitionProgress: CGFloat = 0 {
        didSet { if transitionProgress != oldValue { collectionView?.needsDisplayUpdate = true } }
    }
    private var animatedValues: [String: CGFloat] = [:]

    /// A transition from `currentLayout` to `newLayout`.
    /// - Parameters:
    ///   - currentLayout: The layout the transition starts from.
    ///   - newLayout: The layout it goes to.
    public init(currentLayout: CollectionViewLayout, nextLayout newLayout: CollectionViewLayout) {
        self.currentLayout = currentLayout
        self.nextLayout = newLayout
        super.init()
    }

    /// Keeps a value the app animates along with the transition (UIKit's animated keys).
    /// - Parameters:
    ///   - value: The value.
    ///   - key: Its name.
    public func updateValue(_ value: CGFloat, forAnimatedKey key: String) { animatedValues[key] = value }

    /// A value kept with ``updateValue(_:forAnimatedKey:)`` (0 if none).
    /// - Parameter key: The value's name.
    /// - Returns: The value.
    public func value(forAnimatedKey key: String) -> CGFloat { animatedValues[key] ?? 0 }

    /// Both layouts belong to the collection view while the transition runs.
    func adopt(_ collectionView: CollectionView) {
        currentLayout.collectionView = collectionView
        nextLayout.collectionView = collectionView
    }

    /// Ends the interactive transition this layout runs in `collectionView`: installs
    /// the next layout (finished) or the current one (cancelled), then calls the
    /// transition's completion.
    func end(finished: Bool, in collectionView: CollectionView) {
        guard let transition = collectionView.interactiveTransition, transition.layout === self else { return }
        collectionView.interactiveTransition = nil
        currentLayout.collectionView = nil
        nextLayout.collectionView = nil
        if finished {
            // Sizes cells measured for the old layout do not hold in the new one.
            collectionView.setCollectionViewLayout(nextLayout, animated: true)
        } else {
            collectionView.collectionViewLayout = currentLayout
        }
        transition.completion?(true, finished)
    }

    override func leave(_ view: CollectionView) {
        super.leave(view)
        currentLayout.leave(view)
        nextLayout.leave(view)
    }

    open override func prepare() {
        currentLayout.prepareIfNeeded()
        nextLayout.prepareIfNeeded()
    }

    open override func invalidateLayout() {
        super.invalidateLayout()
        currentLayout.invalidateLayout()
        nextLayout.invalidateLayout()
    }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        currentLayout.shouldInvalidateLayout(forBoundsChange: newBounds) || nextLayout.shouldInvalidateLayout(forBoundsChange: newBounds)
    }

    open override var selfSizingCells: Bool { false }

    open override var collectionViewContentSize: CGSize {
        let a = currentLayout.collectionViewContentSize, b = nextLayout.collectionViewContentSize
        return CGSize(width: mix(a.width, b.width), height: mix(a.height, b.height))
    }

    /// Every element either layout has in `rect`, placed between its two places.
    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var seen: Set<ElementKey> = []
        var out: [CollectionViewLayoutAttributes] = []
        for (layout, isCurrent) in [(currentLayout, true), (nextLayout, false)] {
            for a in layout.layoutAttributesForElements(in: rect) ?? [] {
                let key = Self.key(of: a)
                guard seen.insert(key).inserted else { continue }
                let other = attributes(for: key, in: isCurrent ? nextLayout : currentLayout)
                out.append(isCurrent ? blend(a, other) : blend(other, a))
            }
        }
        return out
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        between(.cell(indexPath))
    }

    open override func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        between(.supplementary(elementKind, indexPath))
    }

    open override func layoutAttributesForDecorationView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        between(.decoration(elementKind, indexPath))
    }

    private func between(_ key: ElementKey) -> CollectionViewLayoutAttributes? {
        let from = attributes(for: key, in: currentLayout), to = attributes(for: key, in: nextLayout)
        guard from != nil || to != nil else { return nil }
        return blend(from, to)
    }

    private static func key(of a: CollectionViewLayoutAttributes) -> ElementKey { a.elementKey }

    private func attributes(for key: ElementKey, in layout: CollectionViewLayout) -> CollectionViewLayoutAttributes? {
        switch key.category {
        case .cell: layout.layoutAttributesForItem(at: key.indexPath)
        case .supplementaryView: layout.layoutAttributesForSupplementaryView(ofKind: key.kind, at: key.indexPath)
        case .decorationView: layout.layoutAttributesForDecorationView(ofKind: key.kind, at: key.indexPath)
        }
    }

    private func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * transitionProgress }

    /// The element `transitionProgress` of the way from `from` to `to`; one missing
    /// on a side is the other, transparent.
    private func blend(_ from: CollectionViewLayoutAttributes?, _ to: CollectionViewLayoutAttributes?) -> CollectionViewLayoutAttributes {
        var start = from ?? to!, end = to ?? from!
        if from == nil { start.alpha = 0 }
        if to == nil { end.alpha = 0 }
        var out = transitionProgress < 0.5 ? start : end
        out.frame = CGRect(x: mix(start.frame.minX, end.frame.minX), y: mix(start.frame.minY, end.frame.minY),
                           width: mix(start.frame.width, end.frame.width), height: mix(start.frame.height, end.frame.height))
        out.alpha = mix(start.alpha, end.alpha)
        return out
    }
}
