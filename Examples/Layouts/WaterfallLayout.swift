import CollectionServer
import Foundation

/// Columns of items of different heights, each item put in the column that is
/// shortest so far (a "waterfall", or masonry). Written as a UIKit app writes a
/// `UICollectionViewLayout` subclass; heights come from `heightForItem`, given the
/// column width. Sections follow one another, each starting level.
open class WaterfallLayout: CollectionViewLayout {
    /// Columns: as many of at least this width as fit (at least `minimumColumns`).
    public var columnWidth: CGFloat { didSet { invalidateLayout() } }
    /// The fewest columns.
    public var minimumColumns = 2 { didSet { invalidateLayout() } }
    /// Space between columns, between items of a column, and around the content.
    public var spacing: CGFloat = 8 { didSet { invalidateLayout() } }
    /// The height of an item whose width is the column width.
    public let heightForItem: @Sendable (IndexPath, CGFloat) -> CGFloat

    private var frames: [[CGRect]] = []
    /// The batch under way's inserted and deleted items (UIKit's way: kept from
    /// `prepare(forCollectionViewUpdates:)` to `finalizeCollectionViewUpdates()`).
    private var inserted: Set<IndexPath> = []
    private var deleted: Set<IndexPath> = []
    private var contentHeight: CGFloat = 0
    /// Per section, the greatest height of an item, so that a rect query can skip ahead.
    private var tallest: [CGFloat] = []

    /// A waterfall of columns at least `columnWidth` wide.
    public init(columnWidth: CGFloat, heightForItem: @escaping @Sendable (IndexPath, CGFloat) -> CGFloat) {
        self.columnWidth = columnWidth
        self.heightForItem = heightForItem
    }

    /// How many columns fit `width`, and how wide each is.
    public func columns(for width: CGFloat) -> (count: Int, width: CGFloat) {
        let available = max(0, width - 2 * spacing)
        let count = max(minimumColumns, Int((available + spacing) / (columnWidth + spacing)))
        return (count, max(0, (available - spacing * CGFloat(count - 1)) / CGFloat(count)))
    }

    open override func prepare() {
        guard let cv = collectionView else { return }
        let (count, width) = columns(for: cv.bounds.width)
        var top = spacing
        frames = []
        tallest = []
        for section in 0..<cv.numberOfSections {
            var heights = Array(repeating: top, count: count)
            var sectionFrames: [CGRect] = []
            var tallestHere: CGFloat = 0
            for item in 0..<cv.numberOfItems(inSection: section) {
                // The shortest column; the leftmost of equals.
                let column = heights.indices.min { heights[$0] < heights[$1] }!
                let h = max(0, heightForItem(IndexPath(item: item, section: section), width))
                sectionFrames.append(CGRect(x: spacing + CGFloat(column) * (width + spacing), y: heights[column], width: width, height: h))
                heights[column] += h + spacing
                tallestHere = max(tallestHere, h)
            }
            frames.append(sectionFrames)
            tallest.append(tallestHere)
            top = heights.max() ?? top
        }
        contentHeight = top
    }

    open override var collectionViewContentSize: CGSize {
        CGSize(width: collectionView?.bounds.width ?? 0, height: contentHeight)
    }

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var out: [CollectionViewLayoutAttributes] = []
        for (section, sectionFrames) in frames.enumerated() {
            // Each item goes where the shortest column ends, so tops never go up:
            // binary search for the first that may reach the rect (starting at most
            // one tallest item above it), stop at the first that starts below it.
            var low = 0, high = sectionFrames.count
            while low < high {
                let mid = (low + high) / 2
                if sectionFrames[mid].minY < rect.minY - tallest[section] { low = mid + 1 } else { high = mid }
            }
            for item in low..<sectionFrames.count {
                let frame = sectionFrames[item]
                if frame.minY >= rect.maxY { break }
                if frame.maxY > rect.minY && frame.minY < rect.maxY && frame.maxX > rect.minX && frame.minX < rect.maxX {
                    var a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: section))
                    a.frame = frame
                    out.append(a)
                }
            }
        }
        return out
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard frames.indices.contains(indexPath.section), frames[indexPath.section].indices.contains(indexPath.item) else { return nil }
        var a = CollectionViewLayoutAttributes(forCellWith: indexPath)
        a.frame = frames[indexPath.section][indexPath.item]
        return a
    }

    open override func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {
        super.prepare(forCollectionViewUpdates: updateItems)
        for update in updateItems {
            switch update.updateAction {
            case .insert: if let p = update.indexPathAfterUpdate, p.count == 2 { inserted.insert(p) }
            case .delete: if let p = update.indexPathBeforeUpdate, p.count == 2 { deleted.insert(p) }
            default: break
            }
        }
    }

    open override func finalizeCollectionViewUpdates() {
        super.finalizeCollectionViewUpdates()
        inserted = []
        deleted = []
    }

    /// An inserted item drops into its place from its own height above, fading in.
    open override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard var a = super.initialLayoutAttributesForAppearingItem(at: itemIndexPath) else { return nil }
        if inserted.contains(itemIndexPath) { a.frame = a.frame.offsetBy(dx: 0, dy: -a.frame.height) }
        return a
    }

    /// A deleted item shrinks to a fifth of its size where it was, fading out.
    open override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard var a = super.finalLayoutAttributesForDisappearingItem(at: itemIndexPath) else { return nil }
        if deleted.contains(itemIndexPath) { a.transform = CGAffineTransform(scaleX: 0.2, y: 0.2) }
        return a
    }
}
