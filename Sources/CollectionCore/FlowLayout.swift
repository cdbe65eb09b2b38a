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
    private var storage = Storage()

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
        } else if estimatedItemSize != .zero {
            // Self-sizing: measured sizes where known, the estimate elsewhere.
            let estimate = estimatedItemSize == Self.automaticSize ? itemSize : estimatedItemSize
            let sizes = cv.selfSizedItems ?? [:]
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
        fixedSize = context.hasItemSizes ? nil
            : (vertical ? (itemSize.width, itemSize.height) : (itemSize.height, itemSize.width))
        // Work on locals and store once: stored properties of a class pay for
        // dynamic exclusivity checks on every access in a loop.
        var sections = self.sections
        sections.removeAll(keepingCapacity: true)
        sections.reserveCapacity(context.numberOfItems.count)
        var lines = Storage()
        swap(&lines, &storage)
        lines.items = []
        lines.lineV.removeAll(keepingCapacity: true)
        lines.lineExtent.removeAll(keepingCapacity: true)
        lines.lineFirst.removeAll(keepingCapacity: true)
        let total = fixedSize == nil ? context.numberOfItems.reduce(0, +) : 0
        let alignment = lineAlignment
        let fixedSize = fixedSize
        let defaults = (sectionInset, minimumLineSpacing, minimumInteritemSpacing, headerReferenceSize, footerReferenceSize)
        let crossLength = crossLength

        // Per-item geometry is written once, in place, in the array's own buffer.
        let items = [ItemGeometry](unsafeUninitializedCapacity: total) { buffer, initialized in
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
                    if let sizes = context.sizesInSection?(s) {
                        if !(sizes.count == count) { fatalError("sizesInSection(\(s)) gave \(sizes.count) sizes for \(count) items") }
                        cursor = sizes.withUnsafeBufferPointer { sizes in
                            Self.flowItems(geometry: &g, top: cursor, vertical: vertical, alignment: alignment,
                                           items: target, lines: &lines) { sizes[$0] }
                        }
                    } else {
                        let sizeForItem = context.sizeForItem!
                        cursor = Self.flowItems(geometry: &g, top: cursor, vertical: vertical, alignment: alignment,
                                                items: target, lines: &lines) { sizeForItem(IndexPath(item: $0, section: s)) }
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
            initialized = written
        }
        lines.items = items
        lines.sampledLineEnds = stride(from: 0, to: lines.lineV.count, by: Storage.sampleStride).map { lines.lineV[$0] + lines.lineExtent[$0] }
        storage = lines
        self.sections = sections
    }

    /// Breaks one section's items into lines and places them; returns the end of the last line.
    @inline(__always)
    private static func flowItems(geometry g: inout Section, top: CGFloat, vertical: Bool, alignment: FlowLineAlignment,
                                  items: UnsafeMutablePointer<ItemGeometry>, lines st: inout Storage,
                                  size sizeOf: (Int) -> CGSize) -> CGFloat {
        var v = top
        var previousGap: CGFloat?
        var previousCount = 0
        var lineStart = 0
        var used: CGFloat = 0
        var sum: CGFloat = 0
        var uniform = true
        var lineMax: CGFloat = 0
        let base = g.firstItem

        func closeLine(end: Int, isLast: Bool) {
            let m = end - lineStart
            guard m > 0 else { return }
            if st.lineV.count > g.firstLine { v += g.lineSpacing }
            let lineIndex = Int32(st.lineV.count)
            st.lineV.append(v); st.lineExtent.append(lineMax); st.lineFirst.append(base + lineStart)
            let uniformWidth: CGFloat? = uniform ? items[lineStart].uExtent : nil
            let (start, gap) = placement(alignment, count: m, sum: sum, available: g.available, spacing: g.spacing, isLast: isLast,
                                         sectionCount: g.count, previousGap: previousGap, previousCount: previousCount, uniform: uniformWidth)
            var u = g.uStart + start
            for k in lineStart..<end {
                items[k].u = u
                items[k].line = lineIndex
                u += items[k].uExtent + gap
            }
            previousGap = m > 1 ? gap : previousGap
            previousCount = m
            v += lineMax
            lineStart = end
            used = 0
            sum = 0
            uniform = true
            lineMax = 0
        }

        var index = 0
        while index < g.count {
            let size = sizeOf(index)
            let uExtent = max(0, vertical ? size.width : size.height)
            let vExtent = max(0, vertical ? size.height : size.width)
            if index > lineStart && used + g.spacing + uExtent > g.available {
                closeLine(end: index, isLast: false)
            }
            (items + index).initialize(to: ItemGeometry(u: 0, uExtent: uExtent, vExtent: vExtent, line: 0))
            if index > lineStart && uExtent != items[lineStart].uExtent { uniform = false }
            sum += uExtent
            used += (index > lineStart ? g.spacing : 0) + uExtent
            lineMax = max(lineMax, vExtent)
            index += 1
        }
        closeLine(end: g.count, isLast: true)
        return v
    }

    /// Where a line of `count` items totalling `sum` starts, and the gap between its items.
    private static func placement(_ alignment: FlowLineAlignment, count m: Int, sum: CGFloat, available: CGFloat, spacing s: CGFloat, isLast: Bool,
                                  sectionCount: Int, previousGap: CGFloat?, previousCount: Int, uniform: CGFloat?) -> (CGFloat, CGFloat) {
        let packed = sum + CGFloat(m - 1) * s
        switch alignment {
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


    /// Fixed sizes: where the first item of a line of `inLine` items starts, and the
    /// distance from one item to the next.
    @inline(__always)
    private static func fixedLine(_ g: Section, inLine: Int, width w: CGFloat, alignment: FlowLineAlignment) -> (CGFloat, CGFloat) {
        switch alignment {
        case .justified:
            if g.columns == 1 || g.count == 1 { return (g.uStart + (g.available - w) / 2, 0) }
            return (g.uStart, g.step)
        case .leading:
            return (g.uStart, w + g.spacing)
        case .center:
            let packed = CGFloat(inLine) * w + CGFloat(inLine - 1) * g.spacing
            return (g.uStart + (g.available - packed) / 2, w + g.spacing)
        case .trailing:
            let packed = CGFloat(inLine) * w + CGFloat(inLine - 1) * g.spacing
            return (g.uStart + g.available - packed, w + g.spacing)
        }
    }

    @inline(__always)
    private static func makeRect(_ vertical: Bool, u: CGFloat, v: CGFloat, uExtent: CGFloat, vExtent: CGFloat) -> CGRect {
        vertical ? CGRect(x: u, y: v, width: uExtent, height: vExtent) : CGRect(x: v, y: u, width: vExtent, height: uExtent)
    }

    /// The frame of an item without building attributes (no allocation).
    public func frameForItem(_ item: Int, inSection section: Int) -> CGRect {
        let g = sections[section]
        let vertical = scrollDirection == .vertical
        if let (w, h) = fixedSize {
            let line = item / g.columns
            let (u0, step) = Self.fixedLine(g, inLine: min(g.columns, g.count - line * g.columns), width: w, alignment: lineAlignment)
            return Self.makeRect(vertical, u: u0 + CGFloat(item - line * g.columns) * step,
                                 v: g.itemsStart + CGFloat(line) * (h + g.lineSpacing), uExtent: w, vExtent: h)
        }
        let geometry = storage.items[g.firstItem + item]
        let line = Int(geometry.line)
        let v = storage.lineV[line] + (storage.lineExtent[line] - geometry.vExtent) / 2
        return Self.makeRect(vertical, u: geometry.u, v: v, uExtent: geometry.uExtent, vExtent: geometry.vExtent)
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
        attributes.frame = Self.makeRect(vertical, u: 0, v: v, uExtent: crossLength, vExtent: extent)
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
            if g.lines > 0 {
                forEachItem(in: rect, section: s, vMin: vMin, vMax: vMax) { section, item, frame in
                    body(CollectionViewLayoutAttributes(cellAt: item, inSection: section, frame: frame))
                }
            }
            if let footer = layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionFooter, at: path), footer.frame.intersects(rect) {
                body(footer)
            }
            s += 1
        }
    }

    /// Calls `body` with the section, item and frame of every item intersecting
    /// `rect`: the same answer as the attributes query, without building attributes
    /// or index paths (for hot paths such as a server tracking many windows).
    public func forEachItemFrame(in rect: CGRect, _ body: (_ section: Int, _ item: Int, _ frame: CGRect) -> Void) {
        guard !sections.isEmpty, !rect.isNull else { return }
        let vertical = scrollDirection == .vertical
        let vMin = vertical ? rect.minY : rect.minX, vMax = vertical ? rect.maxY : rect.maxX
        var s = firstSection(endingAfter: vMin)
        while s < sections.count, sections[s].start < vMax {
            if sections[s].lines > 0 { forEachItem(in: rect, section: s, vMin: vMin, vMax: vMax, body) }
            s += 1
        }
    }

    @inline(__always)
    private static func intersects(_ a: CGRect, _ b: CGRect) -> Bool {
        a.origin.x < b.origin.x + b.size.width && b.origin.x < a.origin.x + a.size.width
            && a.origin.y < b.origin.y + b.size.height && b.origin.y < a.origin.y + a.size.height
            && a.size.width > 0 && a.size.height > 0
    }

    private func forEachItem(in rect: CGRect, section s: Int, vMin: CGFloat, vMax: CGFloat, _ body: (Int, Int, CGRect) -> Void) {
        let g = sections[s]
        let vertical = scrollDirection == .vertical
        if let (w, h) = fixedSize {
            let alignment = lineAlignment
            let uMin = vertical ? rect.minX : rect.minY, uMax = vertical ? rect.maxX : rect.maxY
            let pitch = h + g.lineSpacing
            var line = max(0, Int(((vMin - g.itemsStart - h) / pitch).rounded(.down)))
            while line < g.lines {
                let v = g.itemsStart + CGFloat(line) * pitch
                if v >= vMax { break }
                if v + h > vMin && h > 0 && w > 0 {
                    let start = line * g.columns, end = min(start + g.columns, g.count)
                    let (u0, step) = Self.fixedLine(g, inLine: end - start, width: w, alignment: alignment)
                    var u = u0
                    for item in start..<end {
                        if u + w > uMin && u < uMax {
                            body(s, item, Self.makeRect(vertical, u: u, v: v, uExtent: w, vExtent: h))
                        }
                        u += step
                    }
                }
                line += 1
            }
            return
        }
        // Binary search the first line ending after vMin.
        storage.lineV.withUnsafeBufferPointer { lineV in
            storage.lineExtent.withUnsafeBufferPointer { lineExtent in
                storage.lineFirst.withUnsafeBufferPointer { lineFirst in
                    storage.items.withUnsafeBufferPointer { items in
                        // Narrow with the sampled index, then search at most one stride of lines.
                        let samples = storage.sampledLineEnds
                        var sLow = 0, sHigh = samples.count
                        while sLow < sHigh {
                            let mid = (sLow + sHigh) / 2
                            if samples[mid] <= vMin { sLow = mid + 1 } else { sHigh = mid }
                        }
                        let stride = Storage.sampleStride
                        let lastLine = g.firstLine + g.lines
                        var low = (sLow - 1) * stride + 1, high = sLow * stride + 1
                        if high <= g.firstLine {
                            (low, high) = (g.firstLine, g.firstLine)        // every line of this section ends after vMin
                        } else if low >= lastLine {
                            (low, high) = (lastLine, lastLine)              // none does
                        } else {
                            (low, high) = (max(low, g.firstLine), min(high, lastLine))
                        }
                        while low < high {
                            let mid = (low + high) / 2
                            if lineV[mid] + lineExtent[mid] <= vMin { low = mid + 1 } else { high = mid }
                        }
                        var line = low
                        let uMin = vertical ? rect.minX : rect.minY, uMax = vertical ? rect.maxX : rect.maxY
                        while line < lastLine, lineV[line] < vMax {
                            let end = line + 1 < lastLine ? lineFirst[line + 1] : g.firstItem + g.count
                            for k in lineFirst[line]..<end {
                                let geometry = items[k]
                                if geometry.u + geometry.uExtent <= uMin || geometry.u >= uMax { continue }
                                let v = lineV[line] + (lineExtent[line] - geometry.vExtent) / 2
                                let frame = Self.makeRect(vertical, u: geometry.u, v: v, uExtent: geometry.uExtent, vExtent: geometry.vExtent)
                                if Self.intersects(frame, rect) { body(s, k - g.firstItem, frame) }
                            }
                            line += 1
                        }
                    }
                }
            }
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
