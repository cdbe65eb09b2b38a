import Foundation

/// What kind of element a set of layout attributes places.
public enum ElementCategory: String, Sendable, Codable {
    /// A cell, for an item.
    case cell
    /// A supplementary view: a header, a footer, a badge.
    case supplementaryView
    /// A decoration view the layout owns: a section's background, say.
    case decorationView
}

/// Where and how an element is shown, as UIKit's `UICollectionViewLayoutAttributes`.
/// A value type: a layout hands out copies and never allocates an object per item.
public struct CollectionViewLayoutAttributes: Equatable, Sendable {
    // Laid out to copy cheaply (attributes are copied for every displayed element of
    // every viewer on every batch): the numbers first, the small members last, and a
    // transform other than the identity out of line (most elements have none).

    // The index path is kept as two numbers and built when read: a layout answering
    // a rect query makes many attributes, and few of their index paths are read.
    var pathSection: Int
    var pathItem: Int

    /// The frame in content coordinates.
    public var frame: CGRect
    /// Stacking order; higher is in front.
    public var zIndex: Int = 0
    /// Opacity, 0 to 1.
    public var alpha: CGFloat = 1
    /// The supplementary or decoration kind (nil for cells).
    public var representedElementKind: String? {
        get { hasKind ? ElementKinds.name(kindID) : nil }
        set {
            hasKind = newValue != nil
            kindID = newValue.map(ElementKinds.id) ?? 0
        }
    }
    private var otherTransform: TransformBox?
    /// The kind by its number (``ElementKinds``; 0 with none): attributes hold no
    /// reference but a transform's, so most copy as plain bytes.
    private(set) var kindID: UInt32 = 0
    private var hasKind = false
    /// Whether these are a section header's (``CollectionView/elementKindSectionHeader``),
    /// told by the kind's number: no name looked up.
    package var isSectionHeader: Bool { hasKind && kindID == ElementKinds.sectionHeaderID && representedElementCategory == .supplementaryView }
    /// How many numbers the index path has (0, 1 or 2).
    var pathLength: Int { Int(pathLength8) }
    private var pathLength8: Int8
    /// Cell, supplementary or decoration view.
    public var representedElementCategory: ElementCategory
    /// Hidden elements are not shown.
    public var isHidden = false

    /// The element's index path.
    public var indexPath: IndexPath {
        get {
            switch pathLength8 {
            case 2: IndexPath(item: pathItem, section: pathSection)
            case 1: IndexPath(index: pathSection)
            default: IndexPath()
            }
        }
        set {
            pathLength8 = Int8(min(newValue.count, 2))
            pathSection = newValue.count > 0 ? newValue[0] : 0
            pathItem = newValue.count > 1 ? newValue[1] : 0
        }
    }
    /// A transform applied about the center.
    public var transform: CGAffineTransform {
        get { otherTransform?.value ?? .identity }
        set { otherTransform = TransformBox.holding(newValue) }
    }

    private init(_ category: ElementCategory, kind: String?, indexPath: IndexPath) {
        pathSection = 0
        pathItem = 0
        pathLength8 = 0
        representedElementCategory = category
        kindID = kind.map(ElementKinds.id) ?? 0
        hasKind = kind != nil
        frame = .zero
        self.indexPath = indexPath
    }

    /// Attributes of a cell.
    /// - Parameter indexPath: The item.
    public init(forCellWith indexPath: IndexPath) {
        self.init(.cell, kind: nil, indexPath: indexPath)
    }

    /// Attributes of the cell at `item` in `section`, with its frame (no IndexPath built).
    init(cellAt item: Int, inSection section: Int, frame: CGRect) {
        pathSection = section
        pathItem = item
        pathLength8 = 2
        representedElementCategory = .cell
        self.frame = frame
    }

    /// Attributes of a supplementary view of `kind` at `item` in `section`, with its
    /// frame (no IndexPath built: a layout answering a rect query makes many).
    init(supplementaryOfKind kind: String, at item: Int, inSection section: Int, frame: CGRect) {
        pathSection = section
        pathItem = item
        pathLength8 = 2
        representedElementCategory = .supplementaryView
        kindID = ElementKinds.id(kind)
        hasKind = true
        self.frame = frame
    }

    /// Attributes of a supplementary view of `kind`.
    /// - Parameters:
    ///   - kind: The element's kind.
    ///   - indexPath: Its place.
    public init(forSupplementaryViewOfKind kind: String, with indexPath: IndexPath) {
        self.init(.supplementaryView, kind: kind, indexPath: indexPath)
    }

    /// Attributes of a decoration view of `kind`.
    /// - Parameters:
    ///   - kind: The decoration's kind.
    ///   - indexPath: Its place.
    public init(forDecorationViewOfKind kind: String, with indexPath: IndexPath) {
        self.init(.decorationView, kind: kind, indexPath: indexPath)
    }

    /// The frame's size.
    public var size: CGSize {
        get { frame.size }
        set { frame.size = newValue }
    }

    /// The frame's center.
    /// Equal in every member: the frame first (what differs most often), each
    /// number compared in place (Foundation's `CGRect` and `CGAffineTransform`
    /// equality are calls, and attributes are compared for every displayed view of
    /// every viewer on every batch).
    /// - Parameters:
    ///   - a: Attributes.
    ///   - b: Other attributes.
    /// - Returns: Whether they place and show their elements alike.
    public static func == (a: CollectionViewLayoutAttributes, b: CollectionViewLayoutAttributes) -> Bool { same(a, b) }

    /// `==`, on borrowed attributes: a view compares its applied attributes without
    /// copying them out (and destroying the copy) first, where the optimizer allows.
    @inline(__always)
    static func same(_ a: borrowing CollectionViewLayoutAttributes, _ b: borrowing CollectionViewLayoutAttributes) -> Bool {
        a.frame.origin.x == b.frame.origin.x && a.frame.origin.y == b.frame.origin.y
            && a.frame.size.width == b.frame.size.width && a.frame.size.height == b.frame.size.height
            && a.pathItem == b.pathItem && a.pathSection == b.pathSection && a.pathLength == b.pathLength
            && a.zIndex == b.zIndex && a.alpha == b.alpha && a.isHidden == b.isHidden
            && a.representedElementCategory == b.representedElementCategory
            && (a.otherTransform === b.otherTransform || a.transform.sameNumbers(as: b.transform))
            && a.kindID == b.kindID && a.hasKind == b.hasKind
    }

    /// The centre of ``frame`` (setting it moves the frame).
    public var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
    }
}

/// A transform other than the identity, held out of line by layout attributes.
final class TransformBox: Sendable {
    let value: CGAffineTransform

    private init(_ value: CGAffineTransform) { self.value = value }

    /// A box for `t` (nil for the identity: no object).
    static func holding(_ t: CGAffineTransform) -> TransformBox? {
        t.sameNumbers(as: .identity) ? nil : TransformBox(t)
    }
}

extension CGAffineTransform {
    /// Equal number by number (Foundation's equality is a call).
    func sameNumbers(as o: CGAffineTransform) -> Bool {
        a == o.a && b == o.b && c == o.c && d == o.d && tx == o.tx && ty == o.ty
    }
}

/// Element kinds, as UIKit's `UICollectionView.elementKindSectionHeader` and friends.
public enum CollectionElementKind {
    /// A section header.
    public static let sectionHeader = "UICollectionElementKindSectionHeader"
    /// A section footer.
    public static let sectionFooter = "UICollectionElementKindSectionFooter"
}
