import Foundation

/// Where `scrollToItem` puts an item, as UIKit's `UICollectionView.ScrollPosition`.
public struct ScrollPosition: OptionSet, Sendable, Hashable {
    /// The set's bits.
    public let rawValue: UInt
    /// Creates a set from its bits.
    /// - Parameter rawValue: The bits, as the static members have them.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Leave the offset alone.
    public static let none: ScrollPosition = []
    /// The item's top at the top of the bounds.
    public static let top = ScrollPosition(rawValue: 1 << 0)
    /// The item centred vertically.
    public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
    /// The item's bottom at the bottom of the bounds.
    public static let bottom = ScrollPosition(rawValue: 1 << 2)
    /// The item's left edge at the left of the bounds.
    public static let left = ScrollPosition(rawValue: 1 << 3)
    /// The item centred horizontally.
    public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
    /// The item's right edge at the right of the bounds.
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
    /// - Parameters:
    ///   - indexPath: The item.
    ///   - scrollPosition: Where in the bounds it goes, along each axis.
    ///   - animated: Whether the client animates the scroll.
    public func scrollToItem(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        guard let frame = layoutAttributesForItem(at: indexPath)?.frame else { return }
        setContentOffset(scrollPosition.offset(showing: frame, in: bounds), animated: animated)
    }

    /// Sets the scroll offset, clamped to the content.
    /// - Parameters:
    ///   - offset: The new origin of the bounds.
    ///   - animated: Whether the client animates the scroll.
    public func setContentOffset(_ offset: CGPoint, animated: Bool) {
        let size = contentSize
        contentOffset = CGPoint(x: min(max(0, offset.x), max(0, size.width - bounds.width)),
                                y: min(max(0, offset.y), max(0, size.height - bounds.height)))
    }
}
