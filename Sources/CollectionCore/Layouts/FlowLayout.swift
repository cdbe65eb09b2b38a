import Foundation

/// UIKit's `UICollectionViewFlowLayout`: items flow in lines across the scrolling
/// axis, sections stack along it with headers, insets and footers.
///
/// - Full lines are justified (the spare space spread between items); the last line
///   keeps a full line's spacing; a section of one item, or a line that holds one,
///   centers it; items of different sizes are centered on their line.
/// - Sizes come from `itemSize` or from a ``CollectionViewDelegateFlowLayout``.
/// - With one size for every item nothing is stored per item: frames are computed
///   from per-section geometry. With per-item sizes, flat arrays of numbers (no
///   object per item). Rect queries are O(log n + k) either way.
open class CollectionViewFlowLayout: CollectionViewLayout {
    /// UIKit's `automaticSize`: set `estimatedItemSize` to it for self-sizing cells.
    public static let automaticSize = CGSize(width: CGFloat.greatestFiniteMagnitude, height: CGFloat.greatestFiniteMagnitude)

    // Stored properties are `@exclusivity(unchecked)` as in CollectionView (see there):
    // read for every element of every viewer's batch, never held across a call out.
    /// The size of every item (unless the delegate says otherwise).
    @exclusivity(unchecked) public var itemSize = CGSize(width: 50, height: 50) { didSet { invalidateLayout() } }
    /// Non-zero: items are sized by their cells, starting from this estimate.
    @exclusivity(unchecked) public var estimatedItemSize = CGSize.zero { didSet { invalidateLayout() } }
    /// The minimum spacing between lines.
    @exclusivity(unchecked) public var minimumLineSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// The minimum spacing between items of one line.
    @exclusivity(unchecked) public var minimumInteritemSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// Insets around each section's items (not its header and footer).
    @exclusivity(unchecked) public var sectionInset = EdgeInsets.zero { didSet { invalidateLayout() } }
    /// Where insets are measured from (no difference in a browser).
    @exclusivity(unchecked) public var sectionInsetReference = SectionInsetReference.fromContentInset { didSet { invalidateLayout() } }
    /// Header size: only the height is used when scrolling vertically, the width horizontally. Zero: none.
    @exclusivity(unchecked) public var headerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
    /// Footer size, likewise.
    @exclusivity(unchecked) public var footerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
    /// Vertical (lines are rows) or horizontal (lines are columns).
    @exclusivity(unchecked) public var scrollDirection = ScrollDirection.vertical { didSet { invalidateLayout() } }
    /// The header of the section at the top sticks to the visible bounds.
    @exclusivity(unchecked) public var sectionHeadersPinToVisibleBounds = false { didSet { invalidateLayout() } }
    /// The footer of the section at the bottom sticks to the visible bounds.
    @exclusivity(unchecked) public var sectionFootersPinToVisibleBounds = false { didSet { invalidateLayout() } }
    /// Beyond UIKit: how lines place their items (default `.justified`, UIKit's).
    @exclusivity(unchecked) public var lineAlignment = FlowLineAlignment.justified { didSet { invalidateLayout() } }

    /// zIndex of pinned headers and footers (UIKit's value).
    public static let pinnedZIndex = 1024
    /// zIndex of headers and footers that are not pinned.
    public static let supplementaryZIndex = 10

    struct Section {
        var start: CGFloat = 0, itemsStart: CGFloat = 0, itemsEnd: CGFloat = 0, footerStart: CGFloat = 0, end: CGFloat = 0
        var count = 0
        var headerExtent: CGFloat = 0, footerExtent: CGFloat = 0
        var uStart: CGFloat = 0, available: CGFloat = 0, spacing: CGFloat = 0, lineSpacing: CGFloat = 0
        // Fixed sizes.
        var columns = 1, step: CGFloat = 0, lines = 0
        // Per-item sizes: flat ranges.
        var firstItem = 0, firstLine = 0
    }

    @exclusivity(unchecked) private(set) var sections: [Section] = []
    @exclusivity(unchecked) var fixedSize: (u: CGFloat, v: CGFloat)?
    @exclusivity(unchecked) var crossLength: CGFloat = 0     // bounds extent across the scrolling axis
    @exclusivity(unchecked) var boundsSize = CGSize.zero
    @exclusivity(unchecked) var visibleBounds: CGRect?
    /// One item's place on its line (per-item sizes only): plain numbers, no object.
    struct ItemGeometry {
        var u: CGFloat, uExtent: CGFloat, vExtent: CGFloat
        var line: Int32
    }

    /// Per-item storage (only with per-item sizes).
    struct Storage {
        var items: [ItemGeometry] = []
        var lineV: [CGFloat] = [], lineExtent: [CGFloat] = [], lineFirst: [Int] = []
        /// The end of every 64th line: a small index searched first, so that a query
        /// touches few cache lines of the (large) line arrays.
        var sampledLineEnds: [CGFloat] = []
        static let sampleStride = 64
    }
    @exclusivity(unchecked) var storage = Storage()
    /// The last prepare's sizes came from the delegate and may be kept (see
    /// ``CollectionViewFlowLayoutInvalidationContext``), with the counts and axis they were for.
    @exclusivity(unchecked) var delegateMetricsValid = false
    @exclusivity(unchecked) var metricsCounts: [Int] = []
    @exclusivity(unchecked) var metricsVertical = true
    /// Items whose delegate size is asked again at the next prepare (kept metrics only).
    @exclusivity(unchecked) var itemsToAskAgain: [IndexPath] = []
    /// How many elements the last rect query found (room reserved for the next).
    @exclusivity(unchecked) var lastQueryCount = 16
    /// With one size for every item: what the last prepare computed from, apart from
    /// the counts (``metricsCounts``); nil: sizes came from elsewhere, or the layout
    /// was prepared from a context.
    @exclusivity(unchecked) var fixedInputs: FixedInputs?
    /// Grows whenever the geometry is computed (see ``queryRevision``).
    @exclusivity(unchecked) var geometryRevision = 0

    /// Creates a flow layout with UIKit's defaults (50×50 items, spacing 10).
    public override init() {}

    package override func gatherPrefetch(into list: inout PrefetchList) {
        super.gatherPrefetch(into: &list)
        list.add(&sections)
        list.add(&storage.items)
        list.add(&storage.lineV, maxBytes: 256)
        list.add(&storage.lineFirst, maxBytes: 256)
    }

    /// True with an `estimatedItemSize`.
    open override var selfSizingCells: Bool { estimatedItemSize != .zero }

    // MARK: Preparing

    /// Prepares from the collection view (its counts, bounds and delegate).
    open override func prepare() {
        guard let cv = collectionView else { return }
        // The last prepare's counts when they still hold (a batch of moves keeps
        // them): no array made.
        let sectionCount = cv.numberOfSections
        let last = metricsCounts
        let countsKept = last.count == sectionCount && (0..<sectionCount).allSatisfy({ last[$0] == cv.numberOfItems(inSection: $0) })
        let counts = countsKept ? last : (0..<sectionCount).map { cv.numberOfItems(inSection: $0) }
        let delegate = cv.delegate as? CollectionViewDelegateFlowLayout
        let bounds = cv.bounds
        // One size for every item, the last prepare's counts, and nothing else the
        // geometry is computed from changed (a batch of moves or reloads): it is kept.
        let inputs = delegate == nil && estimatedItemSize == .zero ? FixedInputs(self, boundsSize: bounds.size) : nil
        if countsKept, let inputs, inputs == fixedInputs {
            visibleBounds = bounds
            itemsToAskAgain = []
            return
        }
        var context = LayoutContext(numberOfItems: counts, boundsSize: bounds.size, visibleBounds: bounds)
        let vertical = scrollDirection == .vertical
        var sizing: DelegateSizing?
        if let delegate {
            // Every item's size is asked as its line is built; or, after an invalidation
            // that kept the delegate metrics, read from the last prepare's geometry in
            // place (the same counts give every item the same slot).
            let keep = delegateMetricsValid && metricsCounts == counts && metricsVertical == vertical && storage.items.count == counts.reduce(0, +)
            var again: [Int: [Int]] = [:]
            if keep {
                for p in itemsToAskAgain where p.count == 2 { again[p.section, default: []].append(p.item) }
                for (s, items) in again { again[s] = Set(items).filter { $0 >= 0 }.sorted() }
            }
            sizing = DelegateSizing(delegate: delegate, collectionView: cv, keep: keep, askAgain: again)
        } else if estimatedItemSize != .zero {
            // Self-sizing: measured sizes where known, the estimate elsewhere.
            let estimate = estimatedItemSize == Self.automaticSize ? itemSize : estimatedItemSize
            let sizes = cv.selfSizedItems ?? [:]
            context.sizeForItem = { sizes[$0] ?? estimate }
        }
        delegateMetricsValid = delegate != nil
        metricsCounts = counts
        metricsVertical = vertical
        itemsToAskAgain = []
        compute(context, sizing: sizing, sectionParameters: delegate.map { d in { [unowned self, unowned cv] s in
            (d.collectionView(cv, layout: self, insetForSectionAt: s),
             d.collectionView(cv, layout: self, minimumLineSpacingForSectionAt: s),
             d.collectionView(cv, layout: self, minimumInteritemSpacingForSectionAt: s),
             d.collectionView(cv, layout: self, referenceSizeForHeaderInSection: s),
             d.collectionView(cv, layout: self, referenceSizeForFooterInSection: s))
        } })
        fixedInputs = inputs
    }

    /// Any plain invalidation asks the delegate about every item again.
    open override func invalidateLayout() {
        super.invalidateLayout()
        delegateMetricsValid = false
        itemsToAskAgain = []
    }

    /// A ``CollectionViewFlowLayoutInvalidationContext`` may keep the delegate's sizes.
    open override func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
        if invalidateKeepingDelegateMetrics(context) { return }
        super.invalidateLayout(with: context)
    }

    /// Prepares from explicit inputs, with no collection view.
    /// - Parameter context: The counts, the viewport and the sizes.
    public func prepare(_ context: LayoutContext) {
        delegateMetricsValid = false
        compute(context, sizing: nil, sectionParameters: nil)
        fixedInputs = nil
    }

    /// The package's flow layout, not subclassed, without pinned headers or footers:
    /// its rect queries read nothing but the geometry, which changes only as it is
    /// computed.
    package override var queryRevision: Int? {
        guard isPackageLayout, !sectionHeadersPinToVisibleBounds, !sectionFootersPinToVisibleBounds else { return nil }
        return geometryRevision
    }

    /// Moves the visible bounds (for pinned headers and footers) without a new layout.
    /// - Parameter bounds: The part of the content shown (nil: the collection view's bounds).
    public func setVisibleBounds(_ bounds: CGRect?) {
        visibleBounds = bounds
    }

    /// Items per full line of `section` (fixed sizes), or nil with per-item sizes.
    /// - Parameter section: The section's index.
    /// - Returns: How many items a full line holds, or nil.
    public func itemsPerLine(inSection section: Int = 0) -> Int? {
        fixedSize == nil || !sections.indices.contains(section) ? nil : sections[section].columns
    }

    typealias SectionParameters = (EdgeInsets, CGFloat, CGFloat, CGSize, CGSize)

    private func compute(_ context: LayoutContext, sizing: DelegateSizing?, sectionParameters: ((Int) -> SectionParameters)?) {
        geometryRevision &+= 1
        boundsSize = context.boundsSize
        visibleBounds = context.visibleBounds
        let vertical = scrollDirection == .vertical
        crossLength = vertical ? boundsSize.width : boundsSize.height
        fixedSize = context.hasItemSizes || sizing != nil ? nil
            : (vertical ? (itemSize.width, itemSize.height) : (itemSize.height, itemSize.width))
        // Work on locals and store once: stored properties of a class pay for
        // dynamic exclusivity checks on every access in a loop.
        // Taken out, not copied: a copy shared its buffer with the property, and
        // emptying it allocated a new one on every prepare.
        var sections: [Section] = []
        swap(&sections, &self.sections)
        sections.removeAll(keepingCapacity: true)
        sections.reserveCapacity(context.numberOfItems.count)
        var lines = Storage()
        swap(&lines, &storage)
        // The last prepare's item buffer is written over in place: a new one of a
        // million items costs thousands of page faults (2 ns an item).
        var items: [ItemGeometry] = []
        swap(&items, &lines.items)
        lines.lineV.removeAll(keepingCapacity: true)
        lines.lineExtent.removeAll(keepingCapacity: true)
        lines.lineFirst.removeAll(keepingCapacity: true)
        let total = fixedSize == nil ? context.numberOfItems.reduce(0, +) : 0
        let alignment = lineAlignment
        let fixedSize = fixedSize
        let defaults = (sectionInset, minimumLineSpacing, minimumInteritemSpacing, headerReferenceSize, footerReferenceSize)
        let crossLength = crossLength

        // Per-item geometry is written once, in place, in the array's own buffer.
        Self.prepareItemBuffer(&items, count: total)
        items.withUnsafeMutableBufferPointer { buffer in
            var written = 0
            var cursor: CGFloat = 0
            for (s, count) in context.numberOfItems.enumerated() {
                let (inset, lineSpacing, spacing, header, footer) = sectionParameters?(s) ?? defaults
                var g = Section()
                g.count = count
                g.start = cursor
                g.headerExtent = max(0, vertical ? header.height : header.width)
                g.footerExtent = max(0, vertical ? footer.height : footer.width)
                g.uStart = vertical ? inset.left : inset.top
                g.available = max(0, crossLength - (vertical ? inset.left + inset.right : inset.top + inset.bottom))
                g.spacing = spacing
                g.lineSpacing = lineSpacing
                cursor += g.headerExtent + (vertical ? inset.top : inset.left)
                g.itemsStart = cursor
                if let (w, h) = fixedSize {
                    g.columns = max(1, Int(((g.available + spacing) / (w + spacing)).rounded(.down)))
                    g.step = g.columns > 1 ? w + (g.available - CGFloat(g.columns) * w) / CGFloat(g.columns - 1) : 0
                    g.lines = (count + g.columns - 1) / g.columns
                    if g.lines > 0 { cursor += CGFloat(g.lines) * h + CGFloat(g.lines - 1) * lineSpacing }
                } else {
                    g.firstItem = written
                    g.firstLine = lines.lineV.count
                    let target = buffer.baseAddress! + written
                    if let sizing, let sizes = sizing.sectionSizes(s, count: count, layout: self) {
                        cursor = sizes.withUnsafeBufferPointer { sizes in
                            FlowLines.flowItems(geometry: &g, top: cursor, vertical: vertical, alignment: alignment,
                                           items: target, lines: &lines) { sizes[$0] }
                        }
                    } else if let sizing {
                        // The delegate, asked as lines are built (one index path, its item
                        // set for each call); with kept metrics, the slot's last size.
                        let delegate = sizing.delegate, cv = sizing.collectionView
                        var path = IndexPath(item: 0, section: s)
                        let again = sizing.askAgain[s] ?? []
                        var next = 0
                        let keep = sizing.keep
                        cursor = FlowLines.flowItems(geometry: &g, top: cursor, vertical: vertical, alignment: alignment,
                                                items: target, lines: &lines) { item in
                            if keep && !(next < again.count && again[next] == item) {
                                // Not yet written over: the slot still holds the last prepare's item.
                                let kept = target[item]
                                return vertical ? CGSize(width: kept.uExtent, height: kept.vExtent) : CGSize(width: kept.vExtent, height: kept.uExtent)
                            }
                            if keep { next += 1 }
                            path[1] = item
                            return delegate.collectionView(cv, layout: self, sizeForItemAt: path)
                        }
                    } else if let sizes = context.sizesInSection?(s) {
                        if !(sizes.count == count) { fatalError("sizesInSection(\(s)) gave \(sizes.count) sizes for \(count) items") }
                        cursor = sizes.withUnsafeBufferPointer { sizes in
                            FlowLines.flowItems(geometry: &g, top: cursor, vertical: vertical, alignment: alignment,
                                           items: target, lines: &lines) { sizes[$0] }
                        }
                    } else {
                        let sizeForItem = context.sizeForItem!
                        // One index path, its item index set for each call: building one per
                        // item costs more than the layout's own work.
                        var path = IndexPath(item: 0, section: s)
                        cursor = FlowLines.flowItems(geometry: &g, top: cursor, vertical: vertical, alignment: alignment,
                                                items: target, lines: &lines) { item in
                            path[1] = item
                            return sizeForItem(path)
                        }
                    }
                    written += count
                    g.lines = lines.lineV.count - g.firstLine
                }
                g.itemsEnd = cursor
                cursor += vertical ? inset.bottom : inset.right
                g.footerStart = cursor
                cursor += g.footerExtent
                g.end = cursor
                sections.append(g)
            }
            precondition(written == total)
        }
        lines.items = items
        // Into the last prepare's buffer (a `map` made one every prepare).
        lines.sampledLineEnds.removeAll(keepingCapacity: true)
        for line in stride(from: 0, to: lines.lineV.count, by: Storage.sampleStride) { lines.sampledLineEnds.append(lines.lineV[line] + lines.lineExtent[line]) }
        // Swapped in, not copied (a copy retained every buffer, and released them
        // again); what is swapped out is what was taken out above, empty.
        swap(&storage, &lines)
        swap(&self.sections, &sections)
    }

    // MARK: Queries (implemented in FlowLayout+Queries.swift)

    open override var collectionViewContentSize: CGSize { contentSizeForQueries }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        itemAttributes(at: indexPath)
    }

    open override func layoutAttributesForSupplementaryView(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        supplementaryAttributes(ofKind: kind, at: indexPath)
    }

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        // Room for as many as the last query found, up to 64 (a window's queries mostly
        // find about as many; a query of everything now and then must not make every
        // later one reserve that much): the array grown step by step cost a fifth of
        // a query.
        var result: [CollectionViewLayoutAttributes] = []
        result.reserveCapacity(min(lastQueryCount, 64))
        forEachElement(in: rect) { result.append($0) }
        lastQueryCount = result.count + 4
        return result
    }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        if sectionHeadersPinToVisibleBounds || sectionFootersPinToVisibleBounds { visibleBounds = newBounds }
        return super.shouldInvalidateLayout(forBoundsChange: newBounds)
    }
}
