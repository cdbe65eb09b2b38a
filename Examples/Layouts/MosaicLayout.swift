import CollectionServer
import Foundation

/// A mosaic of rows, written as a UIKit app writes a `UICollectionViewLayout`
/// subclass: a full-width photo, then rows that cycle through two halves, a large
/// two-thirds photo beside two stacked ones, and the mirror of that. Every section
/// starts a new mosaic, under no header; sections are `rowSpacing` apart.
open class MosaicLayout: CollectionViewLayout {
    /// How a row divides its width.
    public enum Row: CaseIterable, Sendable {
        /// One item, the whole width.
        case full
        /// Two items side by side.
        case halves
        /// One item two thirds wide, two stacked in the last third.
        case largeFirst
        /// Two stacked in the first third, one item two thirds wide.
        case largeLast

        /// Items the row holds.
        public var count: Int {
            switch self {
            case .full: 1
            case .halves: 2
            case .largeFirst, .largeLast: 3
            }
        }
    }

    /// Height of a row.
    public var rowHeight: CGFloat = 200 { didSet { invalidateLayout() } }
    /// Space between rows, and between the items of a row.
    public var spacing: CGFloat = 2 { didSet { invalidateLayout() } }

    private var frames: [[CGRect]] = []
    private var contentHeight: CGFloat = 0

    /// A mosaic with 200-point rows, 2 points apart.
    public override init() {}

    /// The rows of a section of `count` items: full, then halves, large-first,
    /// large-last, halves… with the last row fitting what is left (one: full; two: halves).
    public static func rows(forItems count: Int) -> [Row] {
        var rows: [Row] = []
        var left = count
        var next = Row.full
        while left > 0 {
            let row: Row = left == 1 ? .full : left == 2 ? .halves : next
            rows.append(row)
            left -= row.count
            next = switch row {
            case .full: .halves
            case .halves: .largeFirst
            case .largeFirst: .largeLast
            case .largeLast: .halves
            }
        }
        return rows
    }

    /// The frames of `row` in `rect`, in item order.
    public func frames(of row: Row, in rect: CGRect) -> [CGRect] {
        let s = spacing
        switch row {
        case .full:
            return [rect]
        case .halves:
            let w = (rect.width - s) / 2
            return [CGRect(x: rect.minX, y: rect.minY, width: w, height: rect.height),
                    CGRect(x: rect.minX + w + s, y: rect.minY, width: w, height: rect.height)]
        case .largeFirst, .largeLast:
            let large = ((rect.width - s) * 2 / 3).rounded(.down)
            let small = rect.width - s - large
            let h = (rect.height - s) / 2
            let largeX = row == .largeFirst ? rect.minX : rect.minX + small + s
            let smallX = row == .largeFirst ? rect.minX + large + s : rect.minX
            let big = CGRect(x: largeX, y: rect.minY, width: large, height: rect.height)
            let top = CGRect(x: smallX, y: rect.minY, width: small, height: h)
            let bottom = CGRect(x: smallX, y: rect.minY + h + s, width: small, height: h)
            return row == .largeFirst ? [big, top, bottom] : [top, bottom, big]
        }
    }

    open override func prepare() {
        guard let cv = collectionView else { return }
        let width = cv.bounds.width
        var y: CGFloat = 0
        frames = (0..<cv.numberOfSections).map { section in
            var sectionFrames: [CGRect] = []
            for row in Self.rows(forItems: cv.numberOfItems(inSection: section)) {
                sectionFrames += frames(of: row, in: CGRect(x: 0, y: y, width: width, height: rowHeight))
                y += rowHeight + spacing
            }
            return sectionFrames
        }
        contentHeight = max(0, y - spacing)
    }

    open override var collectionViewContentSize: CGSize {
        CGSize(width: collectionView?.bounds.width ?? 0, height: contentHeight)
    }

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var out: [CollectionViewLayoutAttributes] = []
        for (section, sectionFrames) in frames.enumerated() {
            // Rows go down in order: skip to the first that reaches the rect, stop past it.
            guard let last = sectionFrames.last, last.maxY > rect.minY else { continue }
            if let first = sectionFrames.first, first.minY >= rect.maxY { break }
            for (item, frame) in sectionFrames.enumerated() where frame.maxY > rect.minY && frame.minY < rect.maxY && frame.maxX > rect.minX && frame.minX < rect.maxX {
                out.append(attributes(item, section, frame))
            }
        }
        return out
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard frames.indices.contains(indexPath.section), frames[indexPath.section].indices.contains(indexPath.item) else { return nil }
        return attributes(indexPath.item, indexPath.section, frames[indexPath.section][indexPath.item])
    }

    private func attributes(_ item: Int, _ section: Int, _ frame: CGRect) -> CollectionViewLayoutAttributes {
        var a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: section))
        a.frame = frame
        return a
    }
}
