import Foundation

/// Where `scrollToItem` puts an item, as UIKit's `UICollectionView.ScrollPosition`.
public struct ScrollPosition: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Leave the offset alone.
    public static let none: ScrollPosition = []
    public static let top = ScrollPosition(rawValue: 1 << 0)
    public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
    public static let bottom = ScrollPosition(rawValue: 1 << 2)
    public static let left = ScrollPosition(rawValue: 1 << 3)
    public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
    public static let right = ScrollPosition(rawValue: 1 << 5)
}

extension ScrollPosition {
    /// The offset of `bounds` that shows `frame` at this position (each axis it does
    /// not name keeps `bounds`' origin).
    func offset(showing frame: CGRect, in bounds: CGRect) -> CGPoint {
        var offset = bounds.origin
        if contains(.top) { offset.y = frame.minY }
        else if contains(.centeredVertically) { offset.y = frame.midY - bounds.height / 2 }
        else if contains(.bottom) { offset.y = frame.maxY - bounds.height }
        if contains(.left) { offset.x = frame.minX }
        else if contains(.centeredHorizontally) { offset.x = frame.midX - bounds.width / 2 }
        else if contains(.right) { offset.x = frame.maxX - bounds.width }
        return offset
    }
}

extension CollectionView {
    /// Scrolls so that the item sits at `scrollPosition`, clamped to the content.
    public func scrollToItem(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        guard let frame = layoutAttributesForItem(at: indexPath)?.frame else { return }
        setContentOffset(scrollPosition.offset(showing: frame, in: bounds), animated: animated)
    }

    /// Sets the scroll offset, clamped to the content.
    public func setContentOffset(_ offset: CGPoint, animated: Bool) {
        let size = contentSize
        contentOffset = CGPoint(x: min(max(0, offset.x), max(0, size.width - bounds.width)),
                                y: min(max(0, offset.y), max(0, size.height - bounds.height)))
    }
}
