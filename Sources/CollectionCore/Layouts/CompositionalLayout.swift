import Foundation

/// UIKit's `UICollectionViewCompositionalLayout`: sections built from items and
/// groups, one section description for all or one per section from a provider.
///
/// - A section repeats its group until its items run out; the last group keeps the
///   places of a full one.
/// - Sections whose cells have no measured sizes keep one laid-out group and place
///   every cell from it (nothing per item); a section with self-sized cells (an
///   estimated dimension and sizes the cells reported) keeps one frame per cell.
/// - An orthogonally scrolling section lays its groups out across the layout's
///   axis, in a band as deep as its group.
open class CollectionViewCompositionalLayout: CollectionViewLayout {
    /// The layout's settings; setting them invalidates the layout.
    public var configuration: CollectionViewCompositionalLayoutConfiguration { didSet { invalidateLayout() } }
    private let sectionProvider: CollectionViewCompositionalLayoutSectionProvider


    /// Every section laid out from `section`.
    /// - Parameter section: The section every section is laid out from.
    public convenience init(section: NSCollectionLayoutSection) {
        self.init(section: section, configuration: CollectionViewCompositionalLayoutConfiguration())
    }

    /// Every section laid out from `section`, with `configuration`.
    /// - Parameters:
    ///   - section: The section every section is laid out from.
    ///   - configuration: The scroll direction, spacing between sections, and boundary items.
    public convenience init(section: NSCollectionLayoutSection, configuration: CollectionViewCompositionalLayoutConfiguration) {
        self.init(sectionProvider: { _, _ in section }, configuration: configuration)
    }

    /// Each section laid out from what `sectionProvider` returns for it (nil: an empty section).
    /// - Parameter sectionProvider: Given a section's index and the layout environment, its section.
    public convenience init(sectionProvider: @escaping CollectionViewCompositionalLayoutSectionProvider) {
        self.init(sectionProvider: sectionProvider, configuration: CollectionViewCompositionalLayoutConfiguration())
    }

    /// Each section from `sectionProvider`, with `configuration`.
    /// - Parameters:
    ///   - sectionProvider: Given a section's index and the layout environment, its section.
    ///   - configuration: The scroll direction, spacing between sections, and boundary items.
    public init(sectionProvider: @escaping CollectionViewCompositionalLayoutSectionProvider, configuration: CollectionViewCompositionalLayoutConfiguration) {
        self.sectionProvider = sectionProvider
        self.configuration = configuration
    }

    /// One section's geometry.
    struct SectionGeometry {
        /// Along the scrolling axis.
        var start: CGFloat = 0, end: CGFloat = 0
        var frame = CGRect.zero
        var count = 0
        /// The laid-out group: its cells' frames relative to its origin.
        var slots: [LeafSlot] = []
        /// Where the first group goes, and the step to the next (along x or y).
        var origin = CGPoint.zero
        var pitch: CGFloat = 0
        var stepsAlongX = false
        /// One frame per cell, for sections with self-sized cells.
        var frames: [CGRect]?
        var frameSlots: [Int] = []
        /// Headers and footers, where they sit unpinned; which are pinned and whether they lead.
        var boundary: [CollectionViewLayoutAttributes] = []
        var pinned: [(index: Int, leads: Bool)] = []
        var decorations: [CollectionViewLayoutAttributes] = []
        var hasBadges = false
        var orthogonal = CollectionLayoutSectionOrthogonalScrollingBehavior.none
        /// The section, when it is a list (held by reference: the geometry stays small).
        var listSection: NSCollectionLayoutSection?
        /// The list configuration of a list section.
        var list: CollectionLayoutListConfiguration? { listSection?.listConfiguration }

        /// The frame of cell `item` and the slot that defines it.
        func cell(_ item: Int) -> (CGRect, LeafSlot)? {
            if let frames {
                guard frames.indices.contains(item) else { return nil }
                return (frames[item], slots[frameSlots[item]])
            }
            guard !slots.isEmpty, item >= 0, item < count else { return nil }
            let group = item / slots.count
            let slot = slots[item % slots.count]
            let step = CGFloat(group) * pitch
            return (slot.frame.offsetBy(dx: origin.x + (stepsAlongX ? step : 0), dy: origin.y + (stepsAlongX ? 0 : step)), slot)
        }
    }

    private(set) var sections: [SectionGeometry] = []
    private(set) var globals: [CollectionViewLayoutAttributes] = []
    private(set) var globalPinned: [(index: Int, leads: Bool)] = []
    private var contentSize = CGSize.zero
    private var regions: [OrthogonalScrollingRegion] = []
    /// Whether any section is a list (`list(using:layoutEnvironment:)`).
    public private(set) var hasListSections = false
    private var estimates = false
    /// How far a badge reaches out of its cell, at most.
    private(set) var overhang: CGFloat = 0
    /// Where pinned headers and footers are kept in sight with no collection view.
    private(set) var visibleBounds: CGRect?
    private var vertical: Bool { configuration.scrollDirection == .vertical }

    /// True when a section has an item of estimated width or height.
    open override var selfSizingCells: Bool { estimates }

    /// Moves the visible bounds (for pinned headers and footers) without a new layout.
    /// - Parameter bounds: The part of the content shown (nil: the collection view's bounds).
    public func setVisibleBounds(_ bounds: CGRect?) { visibleBounds = bounds }

    open override var collectionViewContentSize: CGSize { contentSize }

    /// The sections with an `orthogonalScrollingBehavior`, each in a scroller as wide
    /// as the layout (as deep as its groups, and its badges' reach).
    open override var orthogonalScrollingRegions: [OrthogonalScrollingRegion] { regions }

    /// Every cell, header, footer, badge and background whose frame meets `rect`.
    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var out: [CollectionViewLayoutAttributes] = []
        forEachElement(in: rect) { out.append($0) }
        return out
    }

    /// The attributes of the cell at `indexPath`.
    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        itemAttributes(at: indexPath)
    }

    /// A header, a footer (`[section, 0]`, or `[0]` for the whole layout's) or a badge (the item's index path).
    open override func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        supplementaryAttributes(ofKind: elementKind, at: indexPath)
    }

    /// A section's background (`[section, 0]`).
    open override func layoutAttributesForDecorationView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        decorationAttributes(ofKind: elementKind, at: indexPath)
    }

    /// Lays out every section from the collection view's counts and bounds.
    open override func prepare() {
        guard let cv = collectionView else { return }
        let counts = (0..<cv.numberOfSections).map { cv.numberOfItems(inSection: $0) }
        prepare(counts: counts, boundsSize: cv.bounds.size, measured: cv.selfSizedItems ?? [:], visibleBounds: cv.bounds)
    }

    /// Lays out sections of `counts` items in bounds of `boundsSize`, with the sizes
    /// cells reported in `measured` (no collection view needed).
    /// - Parameters:
    ///   - counts: Each section's item count.
    ///   - boundsSize: The viewport.
    ///   - measured: Sizes cells reported, by item.
    ///   - visibleBounds: The part of the content shown, for pinned headers (nil: none).
    public func prepare(counts: [Int], boundsSize: CGSize, measured: [IndexPath: CGSize] = [:], visibleBounds: CGRect? = nil) {
        self.visibleBounds = visibleBounds
        let environment = CompositionalEnvironment(size: boundsSize)
        let vertical = self.vertical
        var cursor: CGFloat = 0
        sections = []
        sections.reserveCapacity(counts.count)
        estimates = false
        overhang = 0
        let measuredSections = Set(measured.keys.map(\.section))
        var solvedGroups: [ObjectIdentifier: (section: NSCollectionLayoutSection, solved: SolvedGroup)] = [:]
        globals = []
        globalPinned = []
        regions = []
        hasListSections = false
        place(configuration.boundarySupplementaryItems, leading: true, in: CGRect(origin: .zero, size: boundsSize), cursor: &cursor,
              path: IndexPath(index: 0), into: &globals, pinned: &globalPinned)
        for (s, count) in counts.enumerated() {
            if s > 0 { cursor += configuration.interSectionSpacing }
            guard let section = sectionProvider(s, environment) else {
                sections.append(SectionGeometry(start: cursor, end: cursor, count: 0))
                continue
            }
            var g = SectionGeometry()
            g.count = count
            g.start = cursor
            g.orthogonal = section.orthogonalScrollingBehavior
            if section.listConfiguration != nil {
                g.listSection = section
                hasListSections = true
            }
            var insets = section.contentInsets
            let plainContainer = CGSize(width: max(0, boundsSize.width - insets.leading - insets.trailing),
                                        height: max(0, boundsSize.height - insets.top - insets.bottom))
            let supplementaryBox = section.supplementariesFollowContentInsets
                ? CGRect(x: insets.leading, y: insets.top, width: plainContainer.width, height: plainContainer.height)
                : CGRect(origin: .zero, size: boundsSize)
            // Boundary items across the layout's axis (a `.top` header of a section in a
            // horizontal layout, a `.leading` one in a vertical layout) take room across
            // it when they extend the boundary, as UIKit's do: the content starts after
            // them, and the section is at least as long as they are along the axis (an
            // empty column still shows its header, and the next does not cover it).
            var alongAtLeast: CGFloat = 0
            for item in section.boundarySupplementaryItems where item.extendsBoundary && !item.leads(vertical: vertical) && !item.trails(vertical: vertical) {
                let size = item.layoutSize.resolve(in: supplementaryBox.size)
                switch (vertical, item.alignment) {
                case (false, .top): insets.top += size.height
                case (false, .bottom): insets.bottom += size.height
                case (true, .leading): insets.leading += size.width
                case (true, .trailing): insets.trailing += size.width
                default: continue
                }
                alongAtLeast = max(alongAtLeast, vertical ? size.height : size.width)
            }
            let container = CGSize(width: max(0, boundsSize.width - insets.leading - insets.trailing),
                                   height: max(0, boundsSize.height - insets.top - insets.bottom))
            let leading = section.boundarySupplementaryItems.filter { $0.leads(vertical: vertical) }
            let trailing = section.boundarySupplementaryItems.filter { $0.trails(vertical: vertical) }
            let path = IndexPath(item: 0, section: s)
            place(leading, leading: true, in: supplementaryBox, cursor: &cursor, path: path, into: &g.boundary, pinned: &g.pinned)
            cursor += vertical ? insets.top : insets.leading
            let solver = GroupSolver(environment: environment)
            // A provider often returns the same section for many: its group is laid out once.
            let solved: SolvedGroup
            // (The entry holds the section, so that no other takes its address while the cache lives.)
            if let cached = solvedGroups[ObjectIdentifier(section)], cached.section === section, cached.solved.container == container {
                solved = cached.solved
            } else {
                solved = solve(section.group, in: container, solver)
                solvedGroups[ObjectIdentifier(section)] = (section, solved)
            }
            let (leaves, groupSize, estimated) = (solved.leaves, solved.size, solved.estimated)
            g.slots = leaves
            g.hasBadges = solved.overhang != nil
            overhang = max(overhang, solved.overhang ?? 0)
            estimates = estimates || estimated
            let orthogonal = section.orthogonalScrollingBehavior != .none
            // Groups step along the layout's axis, or across it when the section scrolls on its own.
            g.stepsAlongX = vertical == orthogonal
            let groupAlong = g.stepsAlongX ? groupSize.width : groupSize.height
            g.pitch = groupAlong + section.interGroupSpacing
            var start = vertical ? CGPoint(x: insets.leading, y: cursor) : CGPoint(x: cursor, y: insets.top)
            if section.orthogonalScrollingBehavior == .groupPagingCentered {
                if vertical { start.x += max(0, (container.width - groupSize.width) / 2) } else { start.y += max(0, (container.height - groupSize.height) / 2) }
            }
            g.origin = start
            let groups = leaves.isEmpty ? 0 : (count + leaves.count - 1) / leaves.count
            var depth: CGFloat
            if estimated && measuredSections.contains(s) {
                depth = selfSized(&g, section: section, s: s, solver: solver, container: container, measured: measured, vertical: vertical)
            } else if orthogonal {
                depth = groups > 0 ? (vertical ? groupSize.height : groupSize.width) : 0
            } else {
                depth = groups > 0 ? CGFloat(groups) * g.pitch - section.interGroupSpacing : 0
            }
            depth = max(0, depth)
            if orthogonal {
                regions.append(region(of: g, section: s, depth: depth, groups: groups, spacing: section.interGroupSpacing,
                                      insets: insets, badgeReach: solved.overhang ?? 0, boundsSize: boundsSize))
            }
            cursor += depth + (vertical ? insets.bottom : insets.trailing)
            cursor = max(cursor, g.start + alongAtLeast)
            place(trailing, leading: false, in: supplementaryBox, cursor: &cursor, path: path, into: &g.boundary, pinned: &g.pinned)
            g.end = cursor
            g.frame = vertical ? CGRect(x: 0, y: g.start, width: boundsSize.width, height: g.end - g.start)
                               : CGRect(x: g.start, y: 0, width: g.end - g.start, height: boundsSize.height)
            // Boundary items that take no room of their own sit on the finished section.
            for item in section.boundarySupplementaryItems where !item.leads(vertical: vertical) && !item.trails(vertical: vertical) {
                var a = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: item.elementKind, with: path)
                a.frame = Self.aligned(item, in: g.frame)
                a.zIndex = item.zIndex
                g.boundary.append(a)
            }
            for decoration in section.decorationItems {
                var a = CollectionViewLayoutAttributes(forDecorationViewOfKind: decoration.elementKind, with: path)
                let i = decoration.contentInsets
                a.frame = CGRect(x: g.frame.minX + i.leading, y: g.frame.minY + i.top,
                                 width: max(0, g.frame.width - i.leading - i.trailing), height: max(0, g.frame.height - i.top - i.bottom))
                a.zIndex = decoration.zIndex
                g.decorations.append(a)
            }
            sections.append(g)
        }
        place(configuration.boundarySupplementaryItems, leading: false, in: CGRect(origin: .zero, size: boundsSize), cursor: &cursor,
              path: IndexPath(index: 0), into: &globals, pinned: &globalPinned)
        contentSize = vertical ? CGSize(width: boundsSize.width, height: cursor) : CGSize(width: cursor, height: boundsSize.height)
    }

    /// The scroller of an orthogonal section: across the whole layout, as deep as its
    /// groups (and the reach of their badges), its content from the leading inset to
    /// the trailing one (a centred group's margin on both sides).
    private func region(of g: SectionGeometry, section s: Int, depth: CGFloat, groups: Int, spacing: CGFloat,
                        insets: NSDirectionalEdgeInsets, badgeReach: CGFloat, boundsSize: CGSize) -> OrthogonalScrollingRegion {
        let horizontal = vertical
        let lead = horizontal ? g.origin.x : g.origin.y
        var end: CGFloat
        if let frames = g.frames {
            end = frames.map { horizontal ? $0.maxX : $0.maxY }.max() ?? lead
        } else {
            end = groups > 0 ? lead + CGFloat(groups) * g.pitch - spacing : lead
        }
        let leadingInset = horizontal ? insets.leading : insets.top
        end += (horizontal ? insets.trailing : insets.bottom) + max(0, lead - leadingInset)
        let across = horizontal ? g.origin.y : g.origin.x
        let frame = horizontal
            ? CGRect(x: 0, y: across - badgeReach, width: boundsSize.width, height: depth + 2 * badgeReach)
            : CGRect(x: across - badgeReach, y: 0, width: depth + 2 * badgeReach, height: boundsSize.height)
        return OrthogonalScrollingRegion(section: s, frame: frame, scrollsHorizontally: horizontal, contentLength: end,
                                         behavior: g.orthogonal, groupPitch: g.pitch)
    }

    /// A group laid out in a container: its cells, its size, whether any cell is
    /// estimated, and how far its badges reach out of their cells (nil: no badges).
    struct SolvedGroup {
        var container: CGSize
        var leaves: [LeafSlot]
        var size: CGSize
        var estimated: Bool
        var overhang: CGFloat?
    }

    private func solve(_ group: NSCollectionLayoutGroup, in container: CGSize, _ solver: GroupSolver) -> SolvedGroup {
        var leaves: [LeafSlot] = []
        let size = solver.layout(group, in: container, leaves: &leaves)
        var overhang: CGFloat?
        for leaf in leaves {
            for badge in leaf.item.supplementaryItems {
                let b = badge.frame(on: leaf.frame), f = leaf.frame
                overhang = max(overhang ?? 0, f.minX - b.minX, b.maxX - f.maxX, f.minY - b.minY, b.maxY - f.maxY)
            }
        }
        let estimated = leaves.contains { $0.item.layoutSize.widthDimension.isEstimated || $0.item.layoutSize.heightDimension.isEstimated }
        return SolvedGroup(container: container, leaves: leaves, size: size, estimated: estimated, overhang: overhang)
    }

    /// A section whose cells reported sizes: each group laid out with them, one frame per cell. Returns the depth used.
    private func selfSized(_ g: inout SectionGeometry, section: NSCollectionLayoutSection, s: Int, solver: GroupSolver,
                           container: CGSize, measured: [IndexPath: CGSize], vertical: Bool) -> CGFloat {
        var frames: [CGRect] = [], frameSlots: [Int] = []
        frames.reserveCapacity(g.count)
        var position: CGFloat = 0, depth: CGFloat = 0
        while frames.count < g.count {
            var solver = solver
            let first = frames.count
            solver.measured = { measured[IndexPath(item: first + $0, section: s)] }
            var leaves: [LeafSlot] = []
            let size = solver.layout(section.group, in: container, leaves: &leaves)
            guard !leaves.isEmpty else { break }
            let dx = g.origin.x + (g.stepsAlongX ? position : 0), dy = g.origin.y + (g.stepsAlongX ? 0 : position)
            for (k, leaf) in leaves.prefix(g.count - first).enumerated() {
                frames.append(leaf.frame.offsetBy(dx: dx, dy: dy))
                frameSlots.append(k % g.slots.count)
            }
            position += (g.stepsAlongX ? size.width : size.height) + section.interGroupSpacing
            depth = max(depth, g.stepsAlongX ? size.height : size.width)
        }
        g.frames = frames
        g.frameSlots = frameSlots
        // Along the axis the groups' steps add up; across it (orthogonal) the deepest group counts.
        let along = max(0, position - section.interGroupSpacing)
        return (g.stepsAlongX == vertical) ? depth : along
    }

    /// Places leading (or trailing) boundary items that take room, one after another from `cursor`.
    private func place(_ items: [NSCollectionLayoutBoundarySupplementaryItem], leading: Bool, in box: CGRect, cursor: inout CGFloat,
                       path: IndexPath, into attributes: inout [CollectionViewLayoutAttributes], pinned: inout [(index: Int, leads: Bool)]) {
        let vertical = self.vertical
        for item in items where leading ? item.leads(vertical: vertical) : item.trails(vertical: vertical) {
            cursor += item.spaceBefore
            let size = item.layoutSize.resolve(in: box.size)
            var a = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: item.elementKind, with: path)
            a.frame = vertical ? CGRect(x: box.minX + item.offset.x, y: cursor + item.offset.y, width: size.width, height: size.height)
                               : CGRect(x: cursor + item.offset.x, y: box.minY + item.offset.y, width: size.width, height: size.height)
            a.zIndex = item.zIndex   // the item's own, as UIKit's (a pinned header wants one above the cells')
            if item.pinToVisibleBounds { pinned.append((attributes.count, leading)) }
            attributes.append(a)
            if item.extendsBoundary { cursor += vertical ? size.height : size.width }
        }
    }

    /// A boundary item placed on `frame` by its alignment, without taking room.
    private static func aligned(_ item: NSCollectionLayoutBoundarySupplementaryItem, in frame: CGRect) -> CGRect {
        let size = item.layoutSize.resolve(in: frame.size)
        let edges: NSDirectionalRectEdge = switch item.alignment {
        case .none: []
        case .top: .top
        case .topLeading: [.top, .leading]
        case .leading: .leading
        case .bottomLeading: [.bottom, .leading]
        case .bottom: .bottom
        case .bottomTrailing: [.bottom, .trailing]
        case .trailing: .trailing
        case .topTrailing: [.top, .trailing]
        }
        let anchor = NSCollectionLayoutAnchor(edges: edges)
        let point = anchor.point(on: frame), own = anchor.point(on: CGRect(origin: .zero, size: size))
        return CGRect(x: point.x - own.x + item.offset.x, y: point.y - own.y + item.offset.y, width: size.width, height: size.height)
    }
}
