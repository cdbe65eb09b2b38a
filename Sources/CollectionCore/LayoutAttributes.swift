import Foundation

/// What kind of element a set of layout attributes places.
public enum ElementCategory: String, Sendable, Codable {
    case cell
    case supplementaryView
    case decorationView
}

/// Where and how an element is shown, as UIKit's `UICollectionViewLayoutAttributes`.
/// A value type: a layout hands out copies and never allocates an object per item.
public struct CollectionViewLayoutAttributes: Equatable, Sendable {
    /// The element's index path.
    public var indexPath: IndexPath
    /// Cell, supplementary or decoration view.
    public var representedElementCategory: ElementCategory
    /// The supplementary or decoration kind (nil for cells).
    public var representedElementKind: String?
    /// The frame in content coordinates.
    public var frame: CGRect
    /// Stacking order; higher is in front.
    public var zIndex: Int = 0
    /// Opacity, 0 to 1.
    public var alpha: CGFloat = 1
    /// Hidden elements are not shown.
    public var isHidden = false
    /// A transform applied about the center.
    public var transform: CGAffineTransform = .identity

    /// Attributes of a cell.
    public init(forCellWith indexPath: IndexPath) {
        self.indexPath = indexPath
        representedElementCategory = .cell
        frame = .zero
    }

    /// Attributes of a supplementary view of `kind`.
    public init(forSupplementaryViewOfKind kind: String, with indexPath: IndexPath) {
        self.indexPath = indexPath
        representedElementCategory = .supplementaryView
        representedElementKind = kind
        frame = .zero
    }

    /// Attributes of a decoration view of `kind`.
    public init(forDecorationViewOfKind kind: String, with indexPath: IndexPath) {
        self.indexPath = indexPath
        representedElementCategory = .decorationView
        representedElementKind = kind
        frame = .zero
    }

    /// The frame's size.
    public var size: CGSize {
        get { frame.size }
        set { frame.size = newValue }
    }

    /// The frame's center.
    public var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
    }
}

/// Element kinds, as UIKit's `UICollectionView.elementKindSectionHeader` and friends.
public enum CollectionElementKind {
    /// A section header.
    public static let sectionHeader = "UICollectionElementKindSectionHeader"
    /// A section footer.
    public static let sectionFooter = "UICollectionElementKindSectionFooter"
}
