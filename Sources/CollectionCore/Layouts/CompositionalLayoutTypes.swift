import Foundation

/// Insets whose sides follow the reading direction, as UIKit's `NSDirectionalEdgeInsets`
/// (leading is left: the browser client lays out left to right).
public struct NSDirectionalEdgeInsets: Equatable, Hashable, Sendable {
    /// The inset of each side, in points.
    public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat

    /// Creates insets.
    /// - Parameters:
    ///   - top: The top inset.
    ///   - leading: The leading (left) inset.
    ///   - bottom: The bottom inset.
    ///   - trailing: The trailing (right) inset.
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        (self.top, self.leading, self.bottom, self.trailing) = (top, leading, bottom, trailing)
    }

    /// No insets.
    public static let zero = NSDirectionalEdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 0)
}

/// Edges of a rectangle, as UIKit's `NSDirectionalRectEdge`.
public struct NSDirectionalRectEdge: OptionSet, Hashable, Sendable {
    /// The set's bits.
    public let rawValue: UInt
    /// Creates edges from their bits.
    /// - Parameter rawValue: The bits, as the static members have them.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The top edge.
    public static let top = NSDirectionalRectEdge(rawValue: 1 << 0)
    /// The leading (left) edge.
    public static let leading = NSDirectionalRectEdge(rawValue: 1 << 1)
    /// The bottom edge.
    public static let bottom = NSDirectionalRectEdge(rawValue: 1 << 2)
    /// The trailing (right) edge.
    public static let trailing = NSDirectionalRectEdge(rawValue: 1 << 3)
    /// Every edge.
    public static let all: NSDirectionalRectEdge = [.top, .leading, .bottom, .trailing]
}

/// Where a boundary supplementary item sits on its section, as UIKit's `NSRectAlignment`.
public enum NSRectAlignment: Int, Sendable {
    /// On the section's edge or corner the name says (`none`: not aligned).
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
    /// - Parameter fractionalWidth: The fraction (1: the whole width).
    /// - Returns: The dimension.
    public static func fractionalWidth(_ fractionalWidth: CGFloat) -> Self { Self(.fractionalWidth, fractionalWidth) }
    /// A fraction of the container's height.
    /// - Parameter fractionalHeight: The fraction (1: the whole height).
    /// - Returns: The dimension.
    public static func fractionalHeight(_ fractionalHeight: CGFloat) -> Self { Self(.fractionalHeight, fractionalHeight) }
    /// A fixed number of points.
    /// - Parameter absoluteDimension: The points.
    /// - Returns: The dimension.
    public static func absolute(_ absoluteDimension: CGFloat) -> Self { Self(.absolute, absoluteDimension) }
    /// An estimate, replaced by the size the item's cell reports.
    /// - Parameter estimatedDimension: The estimate, in points.
    /// - Returns: The dimension.
    public static func estimated(_ estimatedDimension: CGFloat) -> Self { Self(.estimated, estimatedDimension) }

    /// True for ``fractionalWidth(_:)``.
    public var isFractionalWidth: Bool { kind == .fractionalWidth }
    /// True for ``fractionalHeight(_:)``.
    public var isFractionalHeight: Bool { kind == .fractionalHeight }
    /// True for ``absolute(_:)``.
    public var isAbsolute: Bool { kind == .absolute }
    /// True for ``estimated(_:)``.
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
    /// The width.
    public let widthDimension: NSCollectionLayoutDimension
    /// The height.
    public let heightDimension: NSCollectionLayoutDimension

    /// A size from its two dimensions.
    /// - Parameters:
    ///   - widthDimension: The width.
    ///   - heightDimension: The height.
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
    /// True for `.fixed`.
    public var isFixedSpacing: Bool { !isFlexibleSpacing }

    private init(_ spacing: CGFloat, flexible: Bool) {
        self.spacing = spacing
        isFlexibleSpacing = flexible
    }

    /// Exactly `fixedSpacing` points.
    /// - Parameter fixedSpacing: The points.
    /// - Returns: The spacing.
    public static func fixed(_ fixedSpacing: CGFloat) -> NSCollectionLayoutSpacing { .init(fixedSpacing, flexible: false) }
    /// At least `flexibleSpacing` points, with the group's spare room shared out.
    /// - Parameter flexibleSpacing: The least points.
    /// - Returns: The spacing.
    public static func flexible(_ flexibleSpacing: CGFloat) -> NSCollectionLayoutSpacing { .init(flexibleSpacing, flexible: true) }
}

/// Space around an item inside its group, as UIKit's `NSCollectionLayoutEdgeSpacing`.
public final class NSCollectionLayoutEdgeSpacing: Sendable {
    /// The spacing before the item's leading edge (nil: none).
    public let leading: NSCollectionLayoutSpacing?
    /// The spacing above the item (nil: none).
    public let top: NSCollectionLayoutSpacing?
    /// The spacing after the item's trailing edge (nil: none).
    public let trailing: NSCollectionLayoutSpacing?
    /// The spacing below the item (nil: none).
    public let bottom: NSCollectionLayoutSpacing?

    /// Spacing on each side (nil: none).
    /// - Parameters:
    ///   - leading: Before the leading edge.
    ///   - top: Above.
    ///   - trailing: After the trailing edge.
    ///   - bottom: Below.
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
    /// The edges it aligns to (none on an axis: centred on it).
    public let edges: NSDirectionalRectEdge
    /// The offset (points, or fractions of the supplementary item's size).
    public let offset: CGPoint
    /// True when ``offset`` is in points.
    public let isAbsoluteOffset: Bool
    /// True when ``offset`` is in fractions of the supplementary item's size.
    public var isFractionalOffset: Bool { !isAbsoluteOffset }

    /// Aligned to `edges`, no offset.
    /// - Parameter edges: The edges it aligns to.
    public convenience init(edges: NSDirectionalRectEdge) { self.init(edges, .zero, absolute: true) }
    /// Aligned to `edges`, moved by `absoluteOffset` points.
    /// - Parameters:
    ///   - edges: The edges it aligns to.
    ///   - absoluteOffset: The offset, in points.
    public convenience init(edges: NSDirectionalRectEdge, absoluteOffset: CGPoint) { self.init(edges, absoluteOffset, absolute: true) }
    /// Aligned to `edges`, moved by `fractionalOffset` of the supplementary item's size.
    /// - Parameters:
    ///   - edges: The edges it aligns to.
    ///   - fractionalOffset: The offset, in fractions of its size.
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
    /// Not known (`unspecified`), narrow or short (`compact`), or roomy (`regular`).
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
    /// - Parameter size: The viewport.
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
