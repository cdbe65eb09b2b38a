import Foundation

/// Identifies a displayed element: its category, its kind (supplementary and
/// decoration views) and its index path.
///
/// Made as `.cell(indexPath)`, `.supplementary(kind, indexPath)` or
/// `.decoration(kind, indexPath)`. Held as plain numbers, not as Foundation's
/// `IndexPath` (whose every access is a call): keys are made, hashed and compared
/// for every displayed element on every batch and scroll of every viewer.
public struct ElementKey: Hashable, Sendable, CustomStringConvertible {
    // 24 bytes and no reference: the kind is held as its number (``ElementKinds``),
    // so a key is copied, hashed and compared with no reference count, and the
    // tables of displayed views keyed by it take half the memory.

    /// The index path's first number (its section; 0 when it has none).
    public let section: Int
    /// The index path's second number (its item; 0 when it has none).
    public let item: Int
    /// The kind's number (0: none, as a cell's).
    let kindID: UInt32
    /// Cell, supplementary or decoration view.
    public let category: ElementCategory
    private let length8: UInt8

    /// The supplementary or decoration kind ("" for a cell).
    public var kind: String { ElementKinds.name(kindID) }
    /// How many numbers the index path has (0, 1 or 2).
    var length: Int { Int(length8) }

    init(_ category: ElementCategory, kindID: UInt32, section: Int, item: Int, length: Int) {
        self.category = category
        self.kindID = kindID
        self.section = section
        self.item = item
        self.length8 = UInt8(truncatingIfNeeded: length)
    }

    init(_ category: ElementCategory, _ kind: String, section: Int, item: Int, length: Int) {
        self.init(category, kindID: ElementKinds.id(kind), section: section, item: item, length: length)
    }

    init(_ category: ElementCategory, _ kind: String, _ p: IndexPath) {
        let n = p.count
        self.init(category, kind, section: n > 0 ? p[0] : 0, item: n > 1 ? p[1] : 0, length: min(n, 2))
    }

    /// The cell at `item` in `section`.
    init(cellAt item: Int, inSection section: Int) {
        self.init(.cell, kindID: 0, section: section, item: item, length: 2)
    }

    /// The cell at `indexPath`.
    /// - Parameter indexPath: The item.
    /// - Returns: The key of its cell.
    public static func cell(_ indexPath: IndexPath) -> ElementKey { ElementKey(.cell, "", indexPath) }
    /// The supplementary view of `kind` at `indexPath`.
    /// - Parameters:
    ///   - kind: The element's kind.
    ///   - indexPath: Its place.
    /// - Returns: The key of the supplementary view.
    public static func supplementary(_ kind: String, _ indexPath: IndexPath) -> ElementKey { ElementKey(.supplementaryView, kind, indexPath) }
    /// The decoration view (a section's background) of `kind` at `indexPath`.
    /// - Parameters:
    ///   - kind: The decoration's kind.
    ///   - indexPath: Its place.
    /// - Returns: The key of the decoration view.
    public static func decoration(_ kind: String, _ indexPath: IndexPath) -> ElementKey { ElementKey(.decorationView, kind, indexPath) }

    /// The element's index path.
    public var indexPath: IndexPath {
        switch length8 {
        case 2: IndexPath(item: item, section: section)
        case 1: IndexPath(index: section)
        default: IndexPath()
        }
    }

    /// Whether this is a section's header or footer (supplementary views that move with their section).
    var isSectionHeaderOrFooter: Bool {
        category == .supplementaryView && (kindID == ElementKinds.sectionHeaderID || kindID == ElementKinds.sectionFooterID)
    }

    /// This key at another index path (same category and kind).
    func at(section: Int, item: Int) -> ElementKey { ElementKey(category, kindID: kindID, section: section, item: item, length: length) }

    public var description: String {
        switch category {
        case .cell: "cell\(indexPath)"
        case .supplementaryView: "supplementary(\(kind))\(indexPath)"
        case .decorationView: "decoration(\(kind))\(indexPath)"
        }
    }

    public static func == (a: ElementKey, b: ElementKey) -> Bool {
        a.section == b.section && a.item == b.item && a.kindID == b.kindID && a.category == b.category && a.length8 == b.length8
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mixed)
    }

    // Hashed by one 64-bit mix, not SipHash (see `mixedHash`): the displayed set is
    // looked up for every element on every batch of every viewer.
    public func _rawHashValue(seed: Int) -> Int { mixedHash(mixed, seed: seed) }

    /// The key's numbers folded into one.
    private var mixed: Int {
        let c = switch category { case .cell: 0; case .supplementaryView: 1; case .decorationView: 2 }
        return section &* 1_000_003 &+ item &+ (Int(length8) &* 4 &+ c) &* 7_919 &+ Int(kindID) &* 104_729
    }
}

extension CollectionViewLayoutAttributes {
    /// The index path's section and item, read without making the index path.
    package var sectionAndItem: (section: Int, item: Int) { (pathSection, pathItem) }

    /// The key of the element these attributes place.
    var elementKey: ElementKey {
        ElementKey(representedElementCategory, kindID: kindID, section: pathSection, item: pathItem, length: pathLength)
    }
}

/// A strong 64-bit mix of `value` with a dictionary's `seed` (splitmix64's
/// finalizer), for keys that answer `_rawHashValue(seed:)` themselves: SipHash was
/// most of each lookup of the small number-keyed tables searched for every element
/// of every viewer. Equal values hash equally; nearby ones spread over the table.
package func mixedHash(_ value: Int, seed: Int) -> Int {
    var z = UInt64(bitPattern: Int64(value)) &+ UInt64(bitPattern: Int64(seed)) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(bitPattern: UInt(truncatingIfNeeded: z ^ (z >> 31)))
}
