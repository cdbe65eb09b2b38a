import Foundation

/// Insets whose sides follow the reading direction, as UIKit's `NSDirectionalEdgeInsets`
/// (leading is left: the browser client lays out left to right).
public struct NSDirectionalEdgeInsets: Equatable, Hashable, Sendable {
    public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat

    /// Creates insets.
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        (self.top, self.leading, self.bottom, self.trailing) = (top, leading, bottom, trailing)
    }

    /// No insets.
    public static let zero = NSDirectionalEdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 0)
}

/// Edges of a rectangle, as UIKit's `NSDirectionalRectEdge`.
public struct NSDirectionalRectEdge: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    /// Creates edges from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let top = NSDirectionalRectEdge(rawValue: 1 << 0)
    public static let leading = NSDirectionalRectEdge(rawValue: 1 << 1)
    public static let bottom = NSDirectionalRectEdge(rawValue: 1 << 2)
    public static let trailing = NSDirectionalRectEdge(rawValue: 1 << 3)
    public static let all: NSDirectionalRectEdge = [.top, .leading, .bottom, .trailing]
}

/// Where a boundary supplementary item sits on its section, as UIKit's `NSRectAlignment`.
public enum NSRectAlignment: Int, Sendable {
    case none, top, topLeading, leading, bottomLeading, bottom, bottomTrailing, trailing, topTrailing
}

/// One side of an item's size, as UIKit's `NSCollectionLayoutDimension`: a fraction
/// of its container's width or height, a fixed number of points, or an estimate the
/// item's cell corrects (self-sizing).
public final class NSCollectionLayoutDimension: Sendable, CustomStringConvertible {
    enum Kind: Sendable { case fractionalWidth, fractionalHeight, absolute, estimated }
    let kind: Kind
    /// The fraction, the points, or the estimate.
    public let dimension: CGFloat

    private init(_ kind: Kind, _ dimension: CGFloat) {
        self.kind = kind
        self.dimension = dimension
    }

    /// A fraction of the container's width.
    public static func fractionalWidth(_ fractionalWidth: CGFloat) -> Self { Self(.fractionalWidth, fractionalWidth) }
    /// A fraction of the container's height.
    public static func fractionalHeight(_ fractionalHeight: CGFloat) -> Self { Self(.fractionalHeight, fractionalHeight) }
    /// A fixed number of points.
    public static func absolute(_ absoluteDimension: CGFloat) -> Self { Self(.absolute, absoluteDimension) }
    /// An estimate, replaced by the size the item's cell reports.
    public static func estimated(_ estimatedDimension: CGFloat) -> Self { Self(.estimated, estimatedDimension) }

    public var isFractionalWidth: Bool { kind == .fractionalWidth }
    public var isFractionalHeight: Bool { kind == .fractionalHeight }
    public var isAbsolute: Bool { kind == .absolute }
    public var isEstimated: Bool { kind == .estimated }

    /// The length in a container of `container`.
    func resolve(in container: CGSize) -> CGFloat {
        switch kind {
        case .fractionalWidth: dimension * container.width
        case .fractionalHeight: dimension * container.height
        case .absolute, .estimated: dimension
        }
    }

    public var description: String { "\(kind)(\(dimension))" }
}

/// An item's width and height, as UIKit's `NSCollectionLayoutSize`.
public final class NSCollectionLayoutSize: Sendable {
    public let widthDimension: NSCollectionLayoutDimension
    public let heightDimension: NSCollectionLayoutDimension

    /// A size from its two dimensions.
    public init(widthDimension: NSCollectionLayoutDimension, heightDimension: NSCollectionLayoutDimension) {
        self.widthDimension = widthDimension
        self.heightDimension = heightDimension
    }

    func resolve(in container: CGSize) -> CGSize {
        CGSize(width: widthDimension.resolve(in: container), height: heightDimension.resolve(in: container))
    }
}

/// Space between items, as UIKit's `NSCollectionLayoutSpacing`: exactly so much, or
/// at least so much with the spare room of the group shared out.
public final class NSCollectionLayoutSpacing: Sendable {
    /// The points.
    public let spacing: CGFloat
    /// True for `.flexible`.
    public let isFlexibleSpacing: Bool
    public var isFixedSpacing: Bool { !isFlexibleSpacing }

    private init(_ spacing: CGFloat, flexible: Bool) {
        self.spacing = spacing
        isFlexibleSpacing = flexible
    }

    /// Exactly `fixedSpacing` points.
    public static func fixed(_ fixedSpacing: CGFloat) -> NSCollectionLayoutSpacing { .init(fixedSpacing, flexible: false) }
    /// At least `flexibleSpacing` points, with the group's spare room shared out.
    public static func flexible(_ flexibleSpacing: CGFloat) -> NSCollectionLayoutSpacing { .init(flexibleSpacing, flexible: true) }
}

/// Space around an item inside its group, as UIKit's `NSCollectionLayoutEdgeSpacing`.
public final class NSCollectionLayoutEdgeSpacing: Sendable {
    public let leading: NSCollectionLayoutSpacing?
    public let top: NSCollectionLayoutSpacing?
    public let trailing: NSCollectionLayoutSpacing?
    public let bottom: NSCollectionLayoutSpacing?

    /// Spacing on each side (nil: none).
    public init(leading: NSCollectionLayoutSpacing?, top: NSCollectionLayoutSpacing?, trailing: NSCollectionLayoutSpacing?, bottom: NSCollectionLayoutSpacing?) {
        self.leading = leading
        self.top = top
        self.trailing = trailing
        self.bottom = bottom
    }
}

/// Where a supplementary item is attached to its item, as UIKit's `NSCollectionLayoutAnchor`:
/// the edges it aligns to (none on an axis: centered), then an offset in points or in
/// fractions of the supplementary item's own size.
public final class NSCollectionLayoutAnchor: Sendable {
    public let edges: NSDirectionalRectEdge
    /// The offset (points, or fractions of the supplementary item's size).
    public let offset: CGPoint
    public let isAbsoluteOffset: Bool
    public var isFractionalOffset: Bool { !isAbsoluteOffset }

    /// Aligned to `edges`, no offset.
    public convenience init(edges: NSDirectionalRectEdge) { self.init(edges, .zero, absolute: true) }
    /// Aligned to `edges`, moved by `absoluteOffset` points.
    public convenience init(edges: NSDirectionalRectEdge, absoluteOffset: CGPoint) { self.init(edges, absoluteOffset, absolute: true) }
    /// Aligned to `edges`, moved by `fractionalOffset` of the supplementary item's size.
    public convenience init(edges: NSDirectionalRectEdge, fractionalOffset: CGPoint) { self.init(edges, fractionalOffset, absolute: false) }

    private init(_ edges: NSDirectionalRectEdge, _ offset: CGPoint, absolute: Bool) {
        self.edges = edges
        self.offset = offset
        isAbsoluteOffset = absolute
    }

    /// The anchor's point on `rect`, before any offset.
    func point(on rect: CGRect) -> CGPoint {
        let x = edges.contains(.leading) ? rect.minX : edges.contains(.trailing) ? rect.maxX : rect.midX
        let y = edges.contains(.top) ? rect.minY : edges.contains(.bottom) ? rect.maxY : rect.midY
        return CGPoint(x: x, y: y)
    }

    /// The offset in points for an element of `size`.
    func points(for size: CGSize) -> CGPoint {
        isAbsoluteOffset ? offset : CGPoint(x: offset.x * size.width, y: offset.y * size.height)
    }
}

/// How an orthogonally scrolling section scrolls, as UIKit's
/// `UICollectionLayoutSectionOrthogonalScrollingBehavior`.
public enum CollectionLayoutSectionOrthogonalScrollingBehavior: Int, Sendable {
    /// The section does not scroll on its own: its groups follow the layout's axis.
    case none
    /// Scrolls freely.
    case continuous
    /// Scrolls freely, coming to rest with a group's leading edge at the start.
    case continuousGroupLeadingBoundary
    /// Scrolls a page (the section's visible width) at a time.
    case paging
    /// Scrolls a group at a time, coming to rest at a group's leading edge.
    case groupPaging
    /// Scrolls a group at a time, each group centered.
    case groupPagingCentered
}

/// UIKit's `UIUserInterfaceSizeClass`.
public enum UserInterfaceSizeClass: Int, Sendable {
    case unspecified, compact, regular
}

/// The traits a layout adapts to, as UIKit's `UITraitCollection`, reduced to what a
/// browser viewer has.
public struct TraitCollection: Equatable, Sendable {
    /// Compact below 600 points of width (a phone held upright), regular above.
    public var horizontalSizeClass: UserInterfaceSizeClass
    /// Compact below 500 points of height (a phone on its side), regular above.
    public var verticalSizeClass: UserInterfaceSizeClass
    /// Pixels per point (the client renders at 1: CSS pixels).
    public var displayScale: CGFloat = 1

    /// The traits of a viewport of `size`.
    public init(containerSize size: CGSize) {
        horizontalSizeClass = size.width < 600 ? .compact : .regular
        verticalSizeClass = size.height < 500 ? .compact : .regular
    }
}

/// The space a compositional layout fills, as UIKit's `NSCollectionLayoutContainer`.
public protocol NSCollectionLayoutContainer: Sendable {
    /// The size of the container.
    var contentSize: CGSize { get }
    /// The size inside its content insets.
    var effectiveContentSize: CGSize { get }
    /// The insets of the content.
    var contentInsets: NSDirectionalEdgeInsets { get }
    /// The insets in effect (the same in a browser: no safe area or layout margins).
    var effectiveContentInsets: NSDirectionalEdgeInsets { get }
}

/// What a section provider is told, as UIKit's `NSCollectionLayoutEnvironment`.
public protocol NSCollectionLayoutEnvironment: Sendable {
    /// The space the layout fills.
    var container: any NSCollectionLayoutContainer { get }
    /// The viewer's traits.
    var traitCollection: TraitCollection { get }
}

/// The container and traits of one collection view's bounds.
struct LayoutContainer: NSCollectionLayoutContainer {
    var contentSize: CGSize
    var contentInsets: NSDirectionalEdgeInsets = .zero
    var effectiveContentSize: CGSize {
        CGSize(width: max(0, contentSize.width - contentInsets.leading - contentInsets.trailing),
               height: max(0, contentSize.height - contentInsets.top - contentInsets.bottom))
    }
    var effectiveContentInsets: NSDirectionalEdgeInsets { contentInsets }
}

struct CompositionalEnvironment: NSCollectionLayoutEnvironment {
    var container: any NSCollectionLayoutContainer
    var traitCollection: TraitCollection

    init(size: CGSize) {
        container = LayoutContainer(contentSize: size)
        traitCollection = TraitCollection(containerSize: size)
    }
}
