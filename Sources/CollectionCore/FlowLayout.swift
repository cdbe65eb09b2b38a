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

    /// The size of every item (unless the delegate says otherwise).
    public var itemSize = CGSize(width: 50, height: 50) { didSet { invalidateLayout() } }
    /// Non-zero: items are sized by their cells, starting from this estimate.
    public var estimatedItemSize = CGSize.zero { didSet { invalidateLayout() } }
    /// The minimum spacing between lines.
    public var minimumLineSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// The minimum spacing between items of one line.
    public var minimumInteritemSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// Insets around each section's items (not its header and footer).
    public var sectionInset = EdgeInsets.zero { didSet { invalidateLayout() } }
    /// Where insets are measured from (no difference in a browser).
    public var sectionInsetReference = SectionInsetReference.fromContentInset { didSet { invalidateLayout() } }
    /// Header size: only the height is used when scrolling vertically, the width horizontally. Zero: none.
    public var headerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
    /// Footer size, likewise.
    public var footerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
    /// Vertical (lines are rows) or horizontal (lines are columns).
    public var scrollDirection = ScrollDirection.vertical { didSet { invalidateLayout() } }
    /// The header of the section at the top sticks to the visible bounds.
    public var sectionHeadersPinToVisibleBounds = false { didSet { invalidateLayout() } }
    /// The footer of the section at the bottom sticks to the visible bounds.
    public var sectionFootersPinToVisibleBounds = false { didSet { invalidateLayout() } }
    /// Beyond UIKit: how lines place their items (default `.justified`, UIKit's).
    public var lineAlignment = FlowLineAlignment.justified { didSet { invalidateLayout() } }

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

    private(set) var sections: [Section] = []
    private var fixedSize: (u: CGFloat, v: CGFloat)?
    private var crossLength: CGFloat = 0     // bounds extent across the scrolling axis
    private var boundsSize = CGSize.zero
    private var visibleBounds: CGRect?
    // Per-item storage (only with per-item sizes).
    private var itemU: [CGFloat] = [], itemUExtent: [CGFloat] = [], itemVExtent: [CGFloat] = []
    private var itemLine: [Int32] = []
    private var lineV: [CGFloat] = [], lineExtent: [CGFloat] = [], lineFirst: [Int] = []

    /// Creates a flow layout with UIKit's defaults (50×50 items, spacing 10).
    public override init() {}

    // MARK: Preparing

    /// Prepares from the collection view (its counts, bounds and delegate).
    open override func prepare() {
        guard let cv = collectionView else { return }
        let counts = (0..<cv.numberOfSections).map { cv.numberOfItems(inSection: $0) }
        let delegate = cv.delegate as? CollectionViewDelegateFlowLayout
        var context = LayoutContext(numberOfItems: counts, boundsSize: cv.bounds.size, visibleBounds: cv.bounds)
        if let delegate {
            context.sizeForItem = { [unowned self, unowned cv] in delegate.collectionView(cv, layout: self, sizeForItemAt: $0) }
        } else if let sizes = cv.selfSizedItems, !sizes.isEmpty || estimatedItemSize != .zero {
            let estimate = estimatedItemSize == Self.automaticSize ? itemSize : estimatedItemSize
            context.sizeForItem = { sizes[$0] ?? estimate }
        }
        compute(context, sectionParameters: delegate.map { d in { [unowned self, unowned cv] s in
            (d.collectionView(cv, layout: self, insetForSectionAt: s),
             d.collectionView(cv, layout: self, minimumLineSpacingForSectionAt: s),
             d.collectionView(cv, layout: self, minimumInteritemSpacingForSectionAt: s),
             d.collectionView(cv, layout: self, referenceSizeForHeaderInSection: s),
             d.collectionView(cv, layout: self, referenceSizeForFooterInSection: s))
        } })
    }

    /// Prepares from explicit inputs, with no collection view.
    public func prepare(_ context: LayoutContext) {
        compute(context, sectionParameters: nil)
    }

    /// Moves the visible bounds (for pinned headers and footers) without a new layout.
    public func setVisibleBounds(_ bounds: CGRect?) {
        visibleBounds = bounds
    }

    /// Items per full line of `section` (fixed sizes), or nil with per-item sizes.
    public func itemsPerLine(inSection section: Int = 0) -> Int? {
        fixedSize == nil || !sections.indices.contains(section) ? nil : sections[section].columns
    }

    typealias SectionParameters = (EdgeInsets, CGFloat, CGFloat, CGSize, CGSize)

    private func compute(_ context: LayoutContext, sectionParameters: ((Int) -> SectionParameters)?) {
        boundsSize = context.boundsSize
        visibleBounds = context.visibleBounds
        let vertical = scrollDirection == .vertical
        crossLength = vertical ? boundsSize.width : boundsSize.height
        fixedSize = context.sizeForItem == nil
            ? (vertical ? (itemSize.width, itemSize.height) : (itemSize.height, itemSize.width)) : nil
        sections.removeAll(keepingCapacity: true)
        sections.reserveCapacity(context.numberOfItems.count)
        itemU.removeAll(keepingCapacity: true); itemUExtent.removeAll(keepingCapacity: true)
        itemVExtent.removeAll(keepingCapacity: true); itemLine.removeAll(keepingCapacity: true)
        lineV.removeAll(keepingCapacity: true); lineExtent.removeAll(keepingCapacity: true); lineFirst.removeAll(keepingCapacity: true)
        if fixedSize == nil {
            let total = context.numberOfItems.reduce(0, +)
            itemU.reserveCapacity(total); itemUExtent.reserveCapacity(total)
            itemVExtent.reserveCapacity(total); itemLine.reserveCapacity(total)
        }

        var cursor: CGFloat = 0
        for (s, count) in context.numberOfItems.enumerated() {
            let (inset, lineSpacing, spacing, header, footer) = sectionParameters?(s)
                ?? (sectionInset, minimumLineSpacing, minimumInteritemSpacing, headerReferenceSize, footerReferenceSize)
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
                g.firstItem = itemU.count
                g.firstLine = lineV.count
                cursor = flowItems(section: s, geometry: &g, top: cursor, sizeForItem: context.sizeForItem!)
                g.lines = lineV.count - g.firstLine
            }
            g.itemsEnd = cursor
            cursor += vertical ? inset.bottom : inset.right
            g.footerStart = cursor
            cursor += g.footerExtent
            g.end = cursor
            sections.append(g)
        }
    }

    /// Breaks one section's items into lines and places them; returns the end of the last line.
    private func flowItems(section s: Int, geometry g: inout Section, top: CGFloat, sizeForItem: (IndexPath) -> CGSize) -> CGFloat {
        let vertical = scrollDirection == .vertical
        var v = top
        var previousGap: CGFloat?
        var previousCount = 0
        var lineStart = 0
        var used: CGFloat = 0
        var lineMax: CGFloat = 0
        var index = 0
        let base = itemU.count

        func closeLine(end: Int, isLast: Bool) {
            let m = end - lineStart
            guard m > 0 else { return }
            if !lineV.isEmpty && lineV.count > g.firstLine { v += g.lineSpacing }
            let lineIndex = Int32(lineV.count)
            lineV.append(v); lineExtent.append(lineMax); lineFirst.append(base + lineStart)
            var sum: CGFloat = 0
            for k in lineStart..<end { sum += itemUExtent[base + k] }
            let (start, gap) = placement(count: m, sum: sum, available: g.available, spacing: g.spacing, isLast: isLast,
                                         sectionCount: g.count, previousGap: previousGap, previousCount: previousCount,
                                         uniform: uniformExtent(base + lineStart, base + end))
            var u = g.uStart + start
            for k in lineStart..<end {
                itemU[base + k] = u
                itemLine[base + k] = lineIndex
                u += itemUExtent[base + k] + gap
            }
            previousGap = m > 1 ? gap : previousGap
            previousCount = m
            v += lineMax
            lineStart = end
            used = 0
            lineMax = 0
        }

        while index < g.count {
            let size = sizeForItem(IndexPath(item: index, section: s))
            let uExtent = max(0, vertical ? size.width : size.height)
            let vExtent = max(0, vertical ? size.height : size.width)
            if index > lineStart && used + g.spacing + uExtent > g.available {
                closeLine(end: index, isLast: false)
            }
            itemU.append(0); itemUExtent.append(uExtent); itemVExtent.append(vExtent); itemLine.append(0)
            used += (index > lineStart ? g.spacing : 0) + uExtent
            lineMax = max(lineMax, vExtent)
            index += 1
        }
        closeLine(end: g.count, isLast: true)
        return v
    }

    private func uniformExtent(_ from: Int, _ to: Int) -> CGFloat? {
        guard from < to else { return nil }
        let first = itemUExtent[from]
        for k in from..<to where itemUExtent[k] != first { return nil }
        return first
    }

    /// Where a line of `count` items totalling `sum` starts, and the gap between its items.
    private func placement(count m: Int, sum: CGFloat, available: CGFloat, spacing s: CGFloat, isLast: Bool,
                           sectionCount: Int, previousGap: CGFloat?, previousCount: Int, uniform: CGFloat?) -> (CGFloat, CGFloat) {
        let packed = sum + CGFloat(m - 1) * s
        switch lineAlignment {
        case .leading: return (0, s)
        case .center: return ((available - packed) / 2, s)
        case .trailing: return (available - packed, s)
        case .justified:
            if m == 1 {
                let centered = sectionCount == 1 || !isLast || previousCount == 1
                return (centered ? (available - sum) / 2 : 0, s)
            }
            if !isLast { return (0, (available - sum) / CGFloat(m - 1)) }
            if let gap = previousGap, sum + CGFloat(m - 1) * gap <= available + 0.000_1 { return (0, gap) }
            if let w = uniform {
                // The spacing a full line of such items would have: the same columns.
                let n = max(1, Int(((available + s) / (w + s)).rounded(.down)))
                if n > 1 { return (0, (available - CGFloat(n) * w) / CGFloat(n - 1)) }
            }
            return (0, s)
        }
    }

    // MARK: Queries

    open override var collectionViewContentSize: CGSize {
        let length = sections.last?.end ?? 0
        return scrollDirection == .vertical ? CGSize(width: boundsSize.width, height: length) : CGSize(width: length, height: boundsSize.height)
    }

    private func rect(u: CGFloat, v: CGFloat, uExtent: CGFloat, vExtent: CGFloat) -> CGRect {
        scrollDirection == .vertical
            ? CGRect(x: u, y: v, width: uExtent, height: vExtent)
            : CGRect(x: v, y: u, width: vExtent, height: uExtent)
    }

    /// The frame of an item without building attributes (no allocation).
    public func frameForItem(_ item: Int, inSection section: Int) -> CGRect {
        let g = sections[section]
        if let (w, h) = fixedSize {
            let line = item / g.columns, column = item % g.columns
            let inLine = min(g.columns, g.count - line * g.columns)
            let u: CGFloat
            switch lineAlignment {
            case .justified:
                if g.columns == 1 || g.count == 1 { u = g.uStart + (g.available - w) / 2 }
                else { u = g.uStart + CGFloat(column) * g.step }
            case .leading: u = g.uStart + CGFloat(column) * (w + g.spacing)
            case .center:
                let packed = CGFloat(inLine) * w + CGFloat(inLine - 1) * g.spacing
                u = g.uStart + (g.available - packed) / 2 + CGFloat(column) * (w + g.spacing)
            case .trailing:
                let packed = CGFloat(inLine) * w + CGFloat(inLine - 1) * g.spacing
                u = g.uStart + g.available - packed + CGFloat(column) * (w + g.spacing)
            }
            return rect(u: u, v: g.itemsStart + CGFloat(line) * (h + g.lineSpacing), uExtent: w, vExtent: h)
        }
        let k = g.firstItem + item
        let line = Int(itemLine[k])
        let v = lineV[line] + (lineExtent[line] - itemVExtent[k]) / 2
        return rect(u: itemU[k], v: v, uExtent: itemUExtent[k], vExtent: itemVExtent[k])
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section),
              (0..<sections[indexPath.section].count).contains(indexPath.item) else { return nil }
        var attributes = CollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.frame = frameForItem(indexPath.item, inSection: indexPath.section)
        return attributes
    }

    open override func layoutAttributesForSupplementaryView(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count >= 1, sections.indices.contains(indexPath.section) else { return nil }
        let g = sections[indexPath.section]
        let vertical = scrollDirection == .vertical
        var v: CGFloat, extent: CGFloat, pinned = false
        switch kind {
        case CollectionElementKind.sectionHeader where g.headerExtent > 0:
            (v, extent) = (g.start, g.headerExtent)
            if sectionHeadersPinToVisibleBounds, let b = visibleBounds {
                let top = vertical ? b.minY : b.minX
                v = min(max(top, g.start), g.footerStart - extent)
                pinned = true
            }
        case CollectionElementKind.sectionFooter where g.footerExtent > 0:
            (v, extent) = (g.footerStart, g.footerExtent)
            if sectionFootersPinToVisibleBounds, let b = visibleBounds {
                let bottom = vertical ? b.maxY : b.maxX
                v = max(min(bottom - extent, g.footerStart), g.start + g.headerExtent)
                pinned = true
            }
        default:
            return nil
        }
        var attributes = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: kind, with: IndexPath(item: 0, section: indexPath.section))
        attributes.frame = rect(u: 0, v: v, uExtent: crossLength, vExtent: extent)
        attributes.zIndex = pinned ? Self.pinnedZIndex : Self.supplementaryZIndex
        return attributes
    }

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var result: [CollectionViewLayoutAttributes] = []
        forEachElement(in: rect) { result.append($0) }
        return result
    }

    /// Calls `body` for every element intersecting `rect`, in section order (header,
    /// items, footer), without building an array. O(log sections + log lines + k).
    public func forEachElement(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        guard !sections.isEmpty, !rect.isNull else { return }
        let vertical = scrollDirection == .vertical
        let vMin = vertical ? rect.minY : rect.minX, vMax = vertical ? rect.maxY : rect.maxX
        var s = firstSection(endingAfter: vMin)
        while s < sections.count, sections[s].start < vMax {
            let g = sections[s]
            let path = IndexPath(item: 0, section: s)
            if let header = layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionHeader, at: path), header.frame.intersects(rect) {
                body(header)
            }
            if g.lines > 0 { forEachItem(in: rect, section: s, vMin: vMin, vMax: vMax, body) }
            if let footer = layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionFooter, at: path), footer.frame.intersects(rect) {
                body(footer)
            }
            s += 1
        }
    }

    private func forEachItem(in rect: CGRect, section s: Int, vMin: CGFloat, vMax: CGFloat, _ body: (CollectionViewLayoutAttributes) -> Void) {
        let g = sections[s]
        func emit(_ item: Int) {
            let frame = frameForItem(item, inSection: s)
            guard frame.intersects(rect) else { return }
            var attributes = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: s))
            attributes.frame = frame
            body(attributes)
        }
        if let (_, h) = fixedSize {
            let pitch = h + g.lineSpacing
            var line = max(0, Int(((vMin - g.itemsStart - h) / pitch).rounded(.down)))
            while line < g.lines, g.itemsStart + CGFloat(line) * pitch < vMax {
                for item in (line * g.columns)..<min((line + 1) * g.columns, g.count) { emit(item) }
                line += 1
            }
            return
        }
        // Binary search the first line ending after vMin.
        var low = g.firstLine, high = g.firstLine + g.lines
        while low < high {
            let mid = (low + high) / 2
            if lineV[mid] + lineExtent[mid] <= vMin { low = mid + 1 } else { high = mid }
        }
        var line = low
        while line < g.firstLine + g.lines, lineV[line] < vMax {
            let first = lineFirst[line] - g.firstItem
            let end = line + 1 < g.firstLine + g.lines ? lineFirst[line + 1] - g.firstItem : g.count
            for item in first..<end { emit(item) }
            line += 1
        }
    }

    /// Binary search: the first section whose end is after `v`.
    private func firstSection(endingAfter v: CGFloat) -> Int {
        var low = 0, high = sections.count
        while low < high {
            let mid = (low + high) / 2
            if sections[mid].end <= v { low = mid + 1 } else { high = mid }
        }
        return low
    }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        if sectionHeadersPinToVisibleBounds || sectionFootersPinToVisibleBounds { visibleBounds = newBounds }
        return super.shouldInvalidateLayout(forBoundsChange: newBounds)
    }
}
