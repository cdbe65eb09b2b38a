import Foundation

/// The smallest part of a compositional layout, as UIKit's `NSCollectionLayoutItem`:
/// one cell, with its size, insets and spacing, and the supplementary items
/// (badges) attached to it.
open class NSCollectionLayoutItem: @unchecked Sendable {
    /// The item's size, against its group.
    public let layoutSize: NSCollectionLayoutSize
    /// Insets of the cell within the space the item takes (not on an estimated side).
    public var contentInsets = NSDirectionalEdgeInsets.zero
    /// Space around the item in its group.
    public var edgeSpacing: NSCollectionLayoutEdgeSpacing?
    /// Supplementary items attached to each cell of this item (badges).
    public let supplementaryItems: [NSCollectionLayoutSupplementaryItem]

    /// An item of `layoutSize`.
    /// - Parameter layoutSize: Its size, relative to its group.
    public convenience init(layoutSize: NSCollectionLayoutSize) {
        self.init(layoutSize: layoutSize, supplementaryItems: [])
    }

    /// An item of `layoutSize` with supplementary items attached.
    /// - Parameters:
    ///   - layoutSize: Its size, relative to its group.
    ///   - supplementaryItems: Views attached to each of its cells.
    public init(layoutSize: NSCollectionLayoutSize, supplementaryItems: [NSCollectionLayoutSupplementaryItem]) {
        self.layoutSize = layoutSize
        self.supplementaryItems = supplementaryItems
    }
}

/// One frame of a custom group, as UIKit's `NSCollectionLayoutGroupCustomItem`.
public final class NSCollectionLayoutGroupCustomItem: Sendable {
    /// The frame, relative to the group.
    public let frame: CGRect
    /// Stacking order.
    public let zIndex: Int

    /// An item at `frame`.
    /// - Parameter frame: The frame, relative to the group.
    public convenience init(frame: CGRect) { self.init(frame: frame, zIndex: 0) }
    /// An item at `frame` at stacking order `zIndex`.
    /// - Parameters:
    ///   - frame: The frame, relative to the group.
    ///   - zIndex: Its stacking order.
    public init(frame: CGRect, zIndex: Int) {
        self.frame = frame
        self.zIndex = zIndex
    }
}

/// UIKit's `NSCollectionLayoutGroupCustomItemProvider`.
public typealias NSCollectionLayoutGroupCustomItemProvider = @Sendable (any NSCollectionLayoutEnvironment) -> [NSCollectionLayoutGroupCustomItem]

/// Items laid out along a path, as UIKit's `NSCollectionLayoutGroup`: in a row
/// (horizontal), a column (vertical), or at frames of the app's (custom). A group is
/// an item, so groups nest. A section repeats its group until its items run out.
open class NSCollectionLayoutGroup: NSCollectionLayoutItem, @unchecked Sendable {
    enum Arrangement {
        case horizontal, vertical
        case custom(NSCollectionLayoutGroupCustomItemProvider)
    }

    let arrangement: Arrangement
    /// The items (and groups) it lays out, in order; repeated while they fit, unless ``count`` is set.
    public let subitems: [NSCollectionLayoutItem]
    /// With `subitem:count:`, exactly this many, sized to share the group; nil otherwise.
    public let count: Int?
    /// Space between subitems along the group's axis.
    public var interItemSpacing: NSCollectionLayoutSpacing?

    init(_ arrangement: Arrangement, layoutSize: NSCollectionLayoutSize, subitems: [NSCollectionLayoutItem], count: Int?) {
        self.arrangement = arrangement
        self.subitems = subitems
        self.count = count.map { max(1, $0) }
        super.init(layoutSize: layoutSize, supplementaryItems: [])
    }

    /// A row of `subitems`, repeated while the next one fits.
    /// - Parameters:
    ///   - layoutSize: The group's size.
    ///   - subitems: The items, in order.
    /// - Returns: The group.
    open class func horizontal(layoutSize: NSCollectionLayoutSize, subitems: [NSCollectionLayoutItem]) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(.horizontal, layoutSize: layoutSize, subitems: subitems, count: nil)
    }

    /// A row of exactly `count` of `subitem`, sharing the group's width (its own width is not used).
    /// - Parameters:
    ///   - layoutSize: The group's size.
    ///   - subitem: The item repeated.
    ///   - count: How many (at least 1).
    /// - Returns: The group.
    open class func horizontal(layoutSize: NSCollectionLayoutSize, repeatingSubitem subitem: NSCollectionLayoutItem, count: Int) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(.horizontal, layoutSize: layoutSize, subitems: [subitem], count: count)
    }

    /// UIKit's older name of ``horizontal(layoutSize:repeatingSubitem:count:)``.
    /// - Parameters:
    ///   - layoutSize: The group's size.
    ///   - subitem: The item repeated.
    ///   - count: How many (at least 1).
    /// - Returns: The group.
    open class func horizontal(layoutSize: NSCollectionLayoutSize, subitem: NSCollectionLayoutItem, count: Int) -> NSCollectionLayoutGroup {
        horizontal(layoutSize: layoutSize, repeatingSubitem: subitem, count: count)
    }

    /// A column of `subitems`, repeated while the next one fits.
    /// - Parameters:
    ///   - layoutSize: The group's size.
    ///   - subitems: The items, in order.
    /// - Returns: The group.
    open class func vertical(layoutSize: NSCollectionLayoutSize, subitems: [NSCollectionLayoutItem]) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(.vertical, layoutSize: layoutSize, subitems: subitems, count: nil)
    }

    /// A column of exactly `count` of `subitem`, sharing the group's height.
    /// - Parameters:
    ///   - layoutSize: The group's size.
    ///   - subitem: The item repeated.
    ///   - count: How many (at least 1).
    /// - Returns: The group.
    open class func vertical(layoutSize: NSCollectionLayoutSize, repeatingSubitem subitem: NSCollectionLayoutItem, count: Int) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(.vertical, layoutSize: layoutSize, subitems: [subitem], count: count)
    }

    /// UIKit's older name of ``vertical(layoutSize:repeatingSubitem:count:)``.
    /// - Parameters:
    ///   - layoutSize: The group's size.
    ///   - subitem: The item repeated.
    ///   - count: How many (at least 1).
    /// - Returns: The group.
    open class func vertical(layoutSize: NSCollectionLayoutSize, subitem: NSCollectionLayoutItem, count: Int) -> NSCollectionLayoutGroup {
        vertical(layoutSize: layoutSize, repeatingSubitem: subitem, count: count)
    }

    /// Items at the frames `itemProvider` returns (one cell per frame).
    /// - Parameters:
    ///   - layoutSize: The group's size.
    ///   - itemProvider: Given the layout environment, the frames of the group's cells.
    /// - Returns: The group.
    open class func custom(layoutSize: NSCollectionLayoutSize, itemProvider: @escaping NSCollectionLayoutGroupCustomItemProvider) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(.custom(itemProvider), layoutSize: layoutSize, subitems: [], count: nil)
    }
}

/// A view attached to an item (a badge), as UIKit's `NSCollectionLayoutSupplementaryItem`.
open class NSCollectionLayoutSupplementaryItem: NSCollectionLayoutItem, @unchecked Sendable {
    /// Its kind (the client draws it from the template registered for the kind).
    public let elementKind: String
    /// Where it is attached to its item.
    public let containerAnchor: NSCollectionLayoutAnchor
    /// Which point of it sits on the container's anchor (nil: the same edges as the container's).
    public let itemAnchor: NSCollectionLayoutAnchor?
    /// Stacking order (in front of the cells by default).
    public var zIndex = 1

    /// A supplementary item of `elementKind`, attached at `containerAnchor`.
    /// - Parameters:
    ///   - layoutSize: Its size.
    ///   - elementKind: Its kind.
    ///   - containerAnchor: Where it is attached to its item.
    public convenience init(layoutSize: NSCollectionLayoutSize, elementKind: String, containerAnchor: NSCollectionLayoutAnchor) {
        self.init(layoutSize: layoutSize, elementKind: elementKind, containerAnchor: containerAnchor, itemAnchor: nil)
    }

    /// A supplementary item whose `itemAnchor` point sits on its container's `containerAnchor` point.
    /// - Parameters:
    ///   - layoutSize: Its size.
    ///   - elementKind: Its kind.
    ///   - containerAnchor: Where it is attached to its item.
    ///   - itemAnchor: Which point of it sits there (nil: the same edges).
    public init(layoutSize: NSCollectionLayoutSize, elementKind: String, containerAnchor: NSCollectionLayoutAnchor, itemAnchor: NSCollectionLayoutAnchor?) {
        self.elementKind = elementKind
        self.containerAnchor = containerAnchor
        self.itemAnchor = itemAnchor
        super.init(layoutSize: layoutSize, supplementaryItems: [])
    }

    /// Its frame on a container at `container`.
    func frame(on container: CGRect) -> CGRect {
        let size = layoutSize.resolve(in: container.size)
        let anchor = containerAnchor.point(on: container)
        let shift = containerAnchor.points(for: size)
        var origin: CGPoint
        if let itemAnchor {
            // The item anchor's point of the supplementary sits on the container's.
            let own = itemAnchor.point(on: CGRect(origin: .zero, size: size))
            let more = itemAnchor.points(for: size)
            origin = CGPoint(x: anchor.x - own.x + more.x, y: anchor.y - own.y + more.y)
        } else {
            // Its own edges line up with the container's.
            let own = containerAnchor.point(on: CGRect(origin: .zero, size: size))
            origin = CGPoint(x: anchor.x - own.x, y: anchor.y - own.y)
        }
        origin.x += shift.x
        origin.y += shift.y
        return CGRect(origin: origin, size: size)
    }
}

/// A header or footer of a section or of the whole layout, as UIKit's
/// `NSCollectionLayoutBoundarySupplementaryItem`.
open class NSCollectionLayoutBoundarySupplementaryItem: NSCollectionLayoutSupplementaryItem, @unchecked Sendable {
    /// Which side of the section it sits on.
    public let alignment: NSRectAlignment
    /// A move from there, in points.
    public let offset: CGPoint
    /// Whether it takes room of its own (a header pushes the section's items down).
    public var extendsBoundary = true
    /// Whether it stays in sight while its section is.
    public var pinToVisibleBounds = false
    /// Room left before it along the layout's axis (a list's `headerTopPadding`).
    var spaceBefore: CGFloat = 0

    /// A boundary item of `elementKind` on the `alignment` side.
    /// - Parameters:
    ///   - layoutSize: Its size, relative to the section.
    ///   - elementKind: Its kind (``CollectionView/elementKindSectionHeader``, say).
    ///   - alignment: The side or corner of the section it sits on.
    public convenience init(layoutSize: NSCollectionLayoutSize, elementKind: String, alignment: NSRectAlignment) {
        self.init(layoutSize: layoutSize, elementKind: elementKind, alignment: alignment, absoluteOffset: .zero)
    }

    /// A boundary item of `elementKind` on the `alignment` side, moved by `absoluteOffset`.
    /// - Parameters:
    ///   - layoutSize: Its size, relative to the section.
    ///   - elementKind: Its kind.
    ///   - alignment: The side or corner of the section it sits on.
    ///   - absoluteOffset: How far it is moved from there, in points.
    public init(layoutSize: NSCollectionLayoutSize, elementKind: String, alignment: NSRectAlignment, absoluteOffset: CGPoint) {
        self.alignment = alignment
        offset = absoluteOffset
        super.init(layoutSize: layoutSize, elementKind: elementKind, containerAnchor: NSCollectionLayoutAnchor(edges: []), itemAnchor: nil)
    }

    /// Whether it comes before the content along `vertical` (top) or horizontal (leading) scrolling.
    func leads(vertical: Bool) -> Bool {
        vertical ? [.top, .topLeading, .topTrailing].contains(alignment) : [.leading, .topLeading, .bottomLeading].contains(alignment)
    }

    /// Whether it comes after the content.
    func trails(vertical: Bool) -> Bool {
        vertical ? [.bottom, .bottomLeading, .bottomTrailing].contains(alignment) : [.trailing, .topTrailing, .bottomTrailing].contains(alignment)
    }
}

/// A view behind a section (its background), as UIKit's `NSCollectionLayoutDecorationItem`.
open class NSCollectionLayoutDecorationItem: NSCollectionLayoutItem, @unchecked Sendable {
    /// Its kind (the layout's `register(_:forDecorationViewOfKind:)` names what draws it).
    public let elementKind: String
    /// Stacking order: behind the cells by default.
    public var zIndex = -1

    init(elementKind: String) {
        self.elementKind = elementKind
        super.init(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .fractionalHeight(1)), supplementaryItems: [])
    }

    /// A background filling its section (less its `contentInsets`).
    /// - Parameter elementKind: The kind of decoration view (registered on the layout).
    /// - Returns: The decoration item.
    open class func background(elementKind: String) -> NSCollectionLayoutDecorationItem {
        NSCollectionLayoutDecorationItem(elementKind: elementKind)
    }
}

/// A section of a compositional layout, as UIKit's `NSCollectionLayoutSection`: its
/// group, repeated until the section's items run out, with insets, spacing,
/// headers and footers, backgrounds, and scrolling of its own across the layout.
open class NSCollectionLayoutSection: @unchecked Sendable {
    /// The group repeated for the section's items.
    public let group: NSCollectionLayoutGroup
    /// Insets around the groups (headers and footers sit outside them).
    public var contentInsets = NSDirectionalEdgeInsets.zero
    /// Space between groups.
    public var interGroupSpacing: CGFloat = 0
    /// Scrolling across the layout's axis: the groups go sideways in a band of their own.
    public var orthogonalScrollingBehavior = CollectionLayoutSectionOrthogonalScrollingBehavior.none
    /// The list configuration of a section made by `list(using:layoutEnvironment:)`.
    var listConfiguration: CollectionLayoutListConfiguration?
    /// Headers and footers.
    public var boundarySupplementaryItems: [NSCollectionLayoutBoundarySupplementaryItem] = []
    /// Whether headers and footers are inset like the content (across the axis).
    public var supplementariesFollowContentInsets = true
    /// Backgrounds.
    public var decorationItems: [NSCollectionLayoutDecorationItem] = []

    /// A section repeating `group`.
    /// - Parameter group: The group repeated for the section's items.
    public init(group: NSCollectionLayoutGroup) {
        self.group = group
    }
}

/// Settings of a whole compositional layout, as UIKit's
/// `UICollectionViewCompositionalLayoutConfiguration`.
open class CollectionViewCompositionalLayoutConfiguration: @unchecked Sendable {
    /// The axis the layout scrolls along.
    public var scrollDirection = ScrollDirection.vertical
    /// Space between sections.
    public var interSectionSpacing: CGFloat = 0
    /// Headers and footers of the whole layout.
    public var boundarySupplementaryItems: [NSCollectionLayoutBoundarySupplementaryItem] = []

    /// The defaults: vertical, no spacing, no global headers.
    public init() {}
}

/// UIKit's `UICollectionViewCompositionalLayoutSectionProvider`.
public typealias CollectionViewCompositionalLayoutSectionProvider = (Int, any NSCollectionLayoutEnvironment) -> NSCollectionLayoutSection?
