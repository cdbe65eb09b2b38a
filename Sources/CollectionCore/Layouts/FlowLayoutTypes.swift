import Foundation

/// Scrolling axis, as UIKit's `UICollectionView.ScrollDirection`.
public enum ScrollDirection: Sendable, Equatable {
    /// Content grows downward; lines run across.
    case vertical
    /// Content grows to the right; lines run down.
    case horizontal
}

/// How lines place their items. UIKit's behaviour is `.justified`; the others are
/// the most requested additions ("left-aligned flow layout").
public enum FlowLineAlignment: Sendable, Equatable {
    /// UIKit: full lines spread their spare space between items; the last line keeps
    /// the previous line's spacing; a line of one item is centered.
    case justified
    /// Items packed at the start with the minimum spacing.
    case leading
    /// Items packed in the middle.
    case center
    /// Items packed at the end.
    case trailing
}

/// Where section insets are measured from (UIKit's `SectionInsetReference`). The
/// browser has no safe area or layout margins, so all three measure from the content inset.
public enum SectionInsetReference: Sendable, Equatable {
    /// From the content inset (UIKit's default).
    case fromContentInset
    /// From the safe area (here, the content inset).
    case fromSafeArea
    /// From the layout margins (here, the content inset).
    case fromLayoutMargins
}

/// Per-item and per-section sizes from a delegate, as UIKit's
/// `UICollectionViewDelegateFlowLayout`. Every method is optional: the defaults
/// return the layout's own properties.
public protocol CollectionViewDelegateFlowLayout: CollectionViewDelegate {
    /// The size of one item (by default the layout's `itemSize`).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - collectionViewLayout: Its flow layout.
    ///   - indexPath: The item.
    /// - Returns: The item's size.
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize
    /// Beyond UIKit: the sizes of every item of a section at once, or nil (the default)
    /// to be asked `sizeForItemAt` item by item. An array must hold the section's item
    /// count. Faster for large sections: no index path is built or read per item
    /// (Foundation's `IndexPath` costs ~8 ns an item to set and read on Linux).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - collectionViewLayout: Its flow layout.
    ///   - section: The section's index.
    /// - Returns: One size per item, or nil.
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizesForItemsInSection section: Int) -> [CGSize]?
    /// A section's insets (by default the layout's `sectionInset`).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - collectionViewLayout: Its flow layout.
    ///   - section: The section's index.
    /// - Returns: The insets around the section's items.
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, insetForSectionAt section: Int) -> EdgeInsets
    /// The least space between a section's lines (by default the layout's `minimumLineSpacing`).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - collectionViewLayout: Its flow layout.
    ///   - section: The section's index.
    /// - Returns: The spacing, in points.
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, minimumLineSpacingForSectionAt section: Int) -> CGFloat
    /// The least space between items of a line (by default the layout's `minimumInteritemSpacing`).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - collectionViewLayout: Its flow layout.
    ///   - section: The section's index.
    /// - Returns: The spacing, in points.
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, minimumInteritemSpacingForSectionAt section: Int) -> CGFloat
    /// A section header's size; only its height counts when scrolling vertically (by default the layout's `headerReferenceSize`).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - collectionViewLayout: Its flow layout.
    ///   - section: The section's index.
    /// - Returns: The size (zero: no header).
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, referenceSizeForHeaderInSection section: Int) -> CGSize
    /// A section footer's size (by default the layout's `footerReferenceSize`).
    /// - Parameters:
    ///   - collectionView: The collection view asking.
    ///   - collectionViewLayout: Its flow layout.
    ///   - section: The section's index.
    /// - Returns: The size (zero: no footer).
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, referenceSizeForFooterInSection section: Int) -> CGSize
}

extension CollectionViewDelegateFlowLayout {
    private func flow(_ layout: CollectionViewLayout) -> CollectionViewFlowLayout? { layout as? CollectionViewFlowLayout }
    public func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        flow(collectionViewLayout)?.itemSize ?? .zero
    }
    public func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizesForItemsInSection section: Int) -> [CGSize]? {
        nil
    }
    public func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, insetForSectionAt section: Int) -> EdgeInsets {
        flow(collectionViewLayout)?.sectionInset ?? .zero
    }
    public func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, minimumLineSpacingForSectionAt section: Int) -> CGFloat {
        flow(collectionViewLayout)?.minimumLineSpacing ?? 0
    }
    public func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, minimumInteritemSpacingForSectionAt section: Int) -> CGFloat {
        flow(collectionViewLayout)?.minimumInteritemSpacing ?? 0
    }
    public func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, referenceSizeForHeaderInSection section: Int) -> CGSize {
        flow(collectionViewLayout)?.headerReferenceSize ?? .zero
    }
    public func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, referenceSizeForFooterInSection section: Int) -> CGSize {
        flow(collectionViewLayout)?.footerReferenceSize ?? .zero
    }
}

/// The inputs of a layout pass when no collection view drives it (tests, benchmarks,
/// a server computing layouts for viewers): counts, bounds, and optional sizes.
public struct LayoutContext {
    /// Items in each section.
    public var numberOfItems: [Int]
    /// The collection view's bounds size.
    public var boundsSize: CGSize
    /// Visible bounds, for pinned headers and footers (origin = scroll offset).
    public var visibleBounds: CGRect?
    /// Per-item sizes, asked one item at a time (as UIKit's delegate is).
    public var sizeForItem: ((IndexPath) -> CGSize)?
    /// Per-item sizes, a whole section at a time (faster; wins over `sizeForItem`).
    /// Each array must hold the section's item count.
    public var sizesInSection: ((Int) -> [CGSize])?

    /// Creates a context. Without sizes, every item is the layout's `itemSize`.
    /// - Parameters:
    ///   - numberOfItems: Each section's item count.
    ///   - boundsSize: The viewport.
    ///   - visibleBounds: The part of the content shown (nil: all of it), for layouts that work lazily.
    ///   - sizeForItem: Each item's size.
    ///   - sizesInSection: Each section's item sizes at once (wins over `sizeForItem`).
    public init(numberOfItems: [Int], boundsSize: CGSize, visibleBounds: CGRect? = nil,
                sizeForItem: ((IndexPath) -> CGSize)? = nil, sizesInSection: ((Int) -> [CGSize])? = nil) {
        self.numberOfItems = numberOfItems
        self.boundsSize = boundsSize
        self.visibleBounds = visibleBounds
        self.sizeForItem = sizeForItem
        self.sizesInSection = sizesInSection
    }

    /// True when items have their own sizes.
    var hasItemSizes: Bool { sizeForItem != nil || sizesInSection != nil }
}

extension CollectionViewFlowLayout {
    /// What a prepare with one size for every item computes the geometry from, apart
    /// from the counts: equal inputs and counts give the same geometry.
    struct FixedInputs: Equatable {
        let boundsSize: CGSize
        let itemSize: CGSize
        let lineSpacing: CGFloat, interitemSpacing: CGFloat
        let sectionInset: EdgeInsets
        let header: CGSize, footer: CGSize
        let direction: ScrollDirection
        let alignment: FlowLineAlignment

        init(_ layout: CollectionViewFlowLayout, boundsSize: CGSize) {
            self.boundsSize = boundsSize
            itemSize = layout.itemSize
            lineSpacing = layout.minimumLineSpacing
            interitemSpacing = layout.minimumInteritemSpacing
            sectionInset = layout.sectionInset
            header = layout.headerReferenceSize
            footer = layout.footerReferenceSize
            direction = layout.scrollDirection
            alignment = layout.lineAlignment
        }
    }
}
