import Foundation

/// The size and item counts a layout is computed for: what UIKit's layout
/// reads from its collection view.
public struct LayoutContext: Equatable, Sendable {
    /// Items in each section.
    public var numberOfItems: [Int]
    /// The collection view's bounds size.
    public var boundsSize: CGSize

    /// Creates a context.
    public init(numberOfItems: [Int], boundsSize: CGSize) {
        self.numberOfItems = numberOfItems
        self.boundsSize = boundsSize
    }
}

/// UIKit's `UICollectionViewFlowLayout` for vertical scrolling with a fixed item size:
/// items flow in lines; full lines are justified (the spare width spread between
/// items), the last line keeps the columns of a full one, and a section of one item
/// (or a line that fits one) centers it. Headers and footers take the full width.
///
/// Nothing is stored per item: frames are computed from per-section geometry, so
/// `prepare` is O(sections) and a rect query is O(log sections + k).
public final class CollectionViewFlowLayout: @unchecked Sendable {
    /// The size of every item.
    public var itemSize = CGSize(width: 50, height: 50)
    /// The minimum spacing between lines.
    public var minimumLineSpacing: CGFloat = 10
    /// The minimum spacing between items of one line.
    public var minimumInteritemSpacing: CGFloat = 10
    /// Insets around each section's items (not its header and footer).
    public var sectionInset = EdgeInsets.zero
    /// Header size; only the height is used. Zero: no header.
    public var headerReferenceSize = CGSize.zero
    /// Footer size; only the height is used. Zero: no footer.
    public var footerReferenceSize = CGSize.zero

    struct Section {
        var top: CGFloat          // where the section starts (its header)
        var itemsTop: CGFloat     // first line's top
        var count: Int
        var lines: Int
        var footerTop: CGFloat
        var bottom: CGFloat
    }

    private(set) var sections: [Section] = []
    private var columns = 1
    private var columnX: CGFloat = 0      // first column's x
    private var columnStep: CGFloat = 0   // distance between columns
    private var width: CGFloat = 0

    /// Creates a flow layout with UIKit's defaults (50×50 items, spacing 10).
    public init() {}

    /// Recomputes geometry for `context` (UIKit's `prepare()`).
    public func prepare(_ context: LayoutContext) {
        width = context.boundsSize.width
        let available = max(0, width - sectionInset.left - sectionInset.right)
        let w = itemSize.width, s = minimumInteritemSpacing
        columns = max(1, Int(((available + s) / (w + s)).rounded(.down)))
        if columns == 1 {
            columnX = sectionInset.left + (available - w) / 2
            columnStep = 0
        } else {
            columnX = sectionInset.left
            columnStep = w + (available - CGFloat(columns) * w) / CGFloat(columns - 1)
        }
        sections.removeAll(keepingCapacity: true)
        var y: CGFloat = 0
        for count in context.numberOfItems {
            let top = y
            y += headerReferenceSize.height
            y += sectionInset.top
            let itemsTop = y
            let lines = (count + columns - 1) / columns
            if lines > 0 {
                y += CGFloat(lines) * itemSize.height + CGFloat(lines - 1) * minimumLineSpacing
            }
            y += sectionInset.bottom
            let footerTop = y
            y += footerReferenceSize.height
            sections.append(Section(top: top, itemsTop: itemsTop, count: count, lines: lines, footerTop: footerTop, bottom: y))
        }
    }

    /// Items per full line after the last `prepare`.
    public var itemsPerLine: Int { columns }

    /// The size of all content (UIKit's `collectionViewContentSize`).
    public var collectionViewContentSize: CGSize {
        CGSize(width: width, height: sections.last?.bottom ?? 0)
    }

    /// The frame of item `item` in section `section`, without allocating.
    public func frameForItem(_ item: Int, inSection section: Int) -> CGRect {
        let geometry = sections[section]
        let line = item / columns
        let column = item % columns
        var x = columnX + CGFloat(column) * columnStep
        if geometry.count == 1 && columns > 1 {
            x = sectionInset.left + (width - sectionInset.left - sectionInset.right - itemSize.width) / 2
        }
        let y = geometry.itemsTop + CGFloat(line) * (itemSize.height + minimumLineSpacing)
        return CGRect(x: x, y: y, width: itemSize.width, height: itemSize.height)
    }

    /// Attributes of the item at `indexPath`, or nil when out of range.
    public func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section),
              (0..<sections[indexPath.section].count).contains(indexPath.item) else { return nil }
        var attributes = CollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.frame = frameForItem(indexPath.item, inSection: indexPath.section)
        return attributes
    }

    /// Attributes of a section header or footer, or nil when the section has none.
    public func layoutAttributesForSupplementaryView(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count >= 1, sections.indices.contains(indexPath.section) else { return nil }
        let geometry = sections[indexPath.section]
        let frame: CGRect
        switch kind {
        case CollectionElementKind.sectionHeader where headerReferenceSize.height > 0:
            frame = CGRect(x: 0, y: geometry.top, width: width, height: headerReferenceSize.height)
        case CollectionElementKind.sectionFooter where footerReferenceSize.height > 0:
            frame = CGRect(x: 0, y: geometry.footerTop, width: width, height: footerReferenceSize.height)
        default:
            return nil
        }
        var attributes = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: kind, with: IndexPath(item: 0, section: indexPath.section))
        attributes.frame = frame
        attributes.zIndex = 10
        return attributes
    }

    /// Every element whose frame intersects `rect`, in section order, headers first.
    public func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes] {
        var result: [CollectionViewLayoutAttributes] = []
        forEachElement(in: rect) { result.append($0) }
        return result
    }

    /// Calls `body` for every element intersecting `rect`, without building an array.
    public func forEachElement(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        guard !sections.isEmpty, rect.maxY > 0 || rect.minY <= 0 else { return }
        var s = firstSection(endingAfter: rect.minY)
        while s < sections.count, sections[s].top < rect.maxY {
            let geometry = sections[s]
            if let header = layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionHeader, at: IndexPath(item: 0, section: s)),
               header.frame.intersects(rect) {
                body(header)
            }
            if geometry.lines > 0 {
                let pitch = itemSize.height + minimumLineSpacing
                let firstLine = max(0, Int(((rect.minY - geometry.itemsTop - itemSize.height) / pitch).rounded(.down)))
                var line = firstLine
                while line < geometry.lines {
                    let lineTop = geometry.itemsTop + CGFloat(line) * pitch
                    if lineTop >= rect.maxY { break }
                    let start = line * columns
                    let end = min(start + columns, geometry.count)
                    for item in start..<end {
                        let frame = frameForItem(item, inSection: s)
                        if frame.intersects(rect) {
                            var attributes = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: s))
                            attributes.frame = frame
                            body(attributes)
                        }
                    }
                    line += 1
                }
            }
            if let footer = layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionFooter, at: IndexPath(item: 0, section: s)),
               footer.frame.intersects(rect) {
                body(footer)
            }
            s += 1
        }
    }

    /// The index path of the item whose frame contains `point` (cells only).
    public func indexPathForItem(at point: CGPoint) -> IndexPath? {
        let probe = CGRect(x: point.x, y: point.y, width: 0.000_1, height: 0.000_1)
        var found: IndexPath?
        forEachElement(in: probe) { attributes in
            if attributes.representedElementCategory == .cell, attributes.frame.contains(point) { found = attributes.indexPath }
        }
        return found
    }

    /// Binary search: the first section whose bottom is after `y`.
    private func firstSection(endingAfter y: CGFloat) -> Int {
        var low = 0, high = sections.count
        while low < high {
            let mid = (low + high) / 2
            if sections[mid].bottom <= y { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
