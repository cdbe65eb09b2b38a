import Foundation

/// What a list cell shows, as UIKit's `UIListContentConfiguration`: a text, a
/// secondary text and an image (a URL, or a short text such as an emoji).
public struct ListContentConfiguration: Sendable, Hashable {
    public var text: String?
    public var secondaryText: String?
    public var image: String?

    /// An empty configuration (UIKit's `cell()`).
    public init(text: String? = nil, secondaryText: String? = nil, image: String? = nil) {
        self.text = text
        self.secondaryText = secondaryText
        self.image = image
    }

    /// UIKit's `UIListContentConfiguration.cell()`.
    public static func cell() -> ListContentConfiguration { ListContentConfiguration() }
    /// UIKit's `subtitleCell()`: the same fields; the secondary text goes under the text.
    public static func subtitleCell() -> ListContentConfiguration { ListContentConfiguration() }

    /// The content fields a cell drawn from it carries (`text`, `secondaryText`, `image`).
    public var fields: [String: String] {
        var out: [String: String] = [:]
        out["text"] = text
        out["secondaryText"] = secondaryText
        out["image"] = image
        return out
    }
}

/// A view at a list cell's edge, as UIKit's `UICellAccessory`.
public struct CellAccessory: Sendable, Hashable {
    /// What the client draws: `disclosureIndicator`, `checkmark`, `delete`, `reorder`,
    /// `outlineDisclosure` (with `expanded` or `collapsed`).
    public let name: String

    public static func disclosureIndicator() -> CellAccessory { CellAccessory(name: "disclosureIndicator") }
    public static func checkmark() -> CellAccessory { CellAccessory(name: "checkmark") }
    /// Shown in editing mode; choosing it deletes the row (the `delete` action).
    public static func delete() -> CellAccessory { CellAccessory(name: "delete") }
    /// A handle to reorder the row by (an interactive movement).
    public static func reorder() -> CellAccessory { CellAccessory(name: "reorder") }
    /// Expands or collapses the row's children in an outline (`isExpanded`: shown expanded).
    public static func outlineDisclosure(isExpanded: Bool = false) -> CellAccessory {
        CellAccessory(name: isExpanded ? "outlineDisclosure:expanded" : "outlineDisclosure:collapsed")
    }

    /// The accessories as a cell's `accessories` field: their names, space-separated.
    public static func field(_ accessories: [CellAccessory]) -> String { accessories.map(\.name).joined(separator: " ") }
}

/// A list row, as UIKit's `UICollectionViewListCell`: its content configuration
/// and accessories become its fields, which the browser client draws as a list row
/// (reuse identifier ``reuseIdentifier``, unless the page has a template for it).
open class CollectionViewListCell: CollectionViewCell {
    /// The reuse identifier the client draws list rows for.
    public static let reuseIdentifier = "list-cell"

    /// The default configuration to fill and set (UIKit's `defaultContentConfiguration()`).
    open func defaultContentConfiguration() -> ListContentConfiguration { .cell() }

    /// What the cell shows: setting it writes its fields.
    open var contentConfiguration: ListContentConfiguration? {
        didSet {
            for key in ["text", "secondaryText", "image"] { content[key] = contentConfiguration?.fields[key] }
        }
    }

    /// The accessories at the row's trailing edge (or leading, for `delete` and `outlineDisclosure`).
    open var accessories: [CellAccessory] = [] {
        didSet { content["accessories"] = accessories.isEmpty ? nil : CellAccessory.field(accessories) }
    }

    /// How deep the row sits in an outline (its indentation).
    open var indentationLevel = 0 {
        didSet { content["indentationLevel"] = indentationLevel == 0 ? nil : String(indentationLevel) }
    }

    open override func prepareForReuse() {
        super.prepareForReuse()
        contentConfiguration = nil
        accessories = []
        indentationLevel = 0
    }
}
