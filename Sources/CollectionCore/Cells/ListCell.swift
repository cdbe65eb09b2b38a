import Foundation

/// What a list cell shows, as UIKit's `UIListContentConfiguration`: a text, a
/// secondary text and an image.
public struct ListContentConfiguration: ContentConfiguration, Sendable, Hashable {
    /// How the texts are placed (UIKit's constructors).
    enum Style: String, Sendable, Hashable {
        /// The secondary text under the text (`cell()`, `subtitleCell()`).
        case cell
        /// The secondary text at the trailing edge, on the text's line (`valueCell()`).
        case value
    }

    /// The primary text.
    public var text: String?
    /// The secondary text.
    public var secondaryText: String?
    /// The image at the leading edge (see ``Image``; a string literal names one).
    public var image: Image?
    var style = Style.cell

    /// A configuration of these values (UIKit's `cell()` when all are nil).
    /// - Parameters:
    ///   - text: The primary text.
    ///   - secondaryText: The secondary text.
    ///   - image: The image at the leading edge.
    public init(text: String? = nil, secondaryText: String? = nil, image: Image? = nil) {
        self.text = text
        self.secondaryText = secondaryText
        self.image = image
    }

    /// UIKit's `UIListContentConfiguration.cell()`.
    /// - Returns: An empty configuration of the plain style.
    public static func cell() -> ListContentConfiguration { ListContentConfiguration() }
    /// UIKit's `subtitleCell()`: the secondary text goes under the text.
    /// - Returns: An empty configuration of the subtitle style.
    public static func subtitleCell() -> ListContentConfiguration { ListContentConfiguration() }
    /// UIKit's `valueCell()`: the secondary text sits at the trailing edge of the text's line.
    /// - Returns: An empty configuration of the value style.
    public static func valueCell() -> ListContentConfiguration {
        var configuration = ListContentConfiguration()
        configuration.style = .value
        return configuration
    }

    /// The content fields a cell drawn from it carries: `text`, `secondaryText`,
    /// `image` (the image's ``Image/source``), and `listStyle` "value" for a value cell.
    public var fields: [String: String] {
        var out: [String: String] = [:]
        out["text"] = text
        out["secondaryText"] = secondaryText
        out["image"] = image?.source
        if style == .value { out["listStyle"] = "value" }
        return out
    }

    /// A list content view showing it.
    public func makeContentView() -> any View & ContentView { ListContentView(configuration: self) }

    /// The configuration for `state`, as UIKit's: the page draws selection and
    /// highlight itself (its colours follow the row's state), so the values stay.
    public func updated(for state: any ConfigurationState) -> ListContentConfiguration { self }
}

/// A list row, as UIKit's `UICollectionViewListCell`: its content configuration
/// and accessories become its fields, which the browser client draws as a list row
/// (reuse identifier ``reuseIdentifier``, unless the page has a template for it).
open class CollectionViewListCell: CollectionViewCell {
    /// The reuse identifier the client draws list rows for.
    public static let reuseIdentifier = "list-cell"

    /// The default configuration to fill and set (UIKit's `defaultContentConfiguration()`).
    /// - Returns: An empty ``ListContentConfiguration/cell()``.
    open func defaultContentConfiguration() -> ListContentConfiguration { .cell() }

    /// The accessories at the row's edges (see ``CellAccessory``): each page draws
    /// those displayed in its viewer's editing mode, and not hidden.
    open var accessories: [CellAccessory] = [] {
        didSet { writeAccessories() }
    }

    /// How deep the row sits in an outline (its indentation).
    open var indentationLevel = 0 {
        didSet { content["indentationLevel"] = indentationLevel == 0 ? nil : String(indentationLevel) }
    }

    override func expandedStateDidChange() { writeAccessories() }

    private func writeAccessories() {
        let field = CellAccessory.field(accessories, expanded: expandedState)
        let value = field.isEmpty ? nil : field
        if content["accessories"] != value { content["accessories"] = value }
    }

    open override func prepareForReuse() {
        super.prepareForReuse()
        contentConfiguration = nil
        accessories = []
        indentationLevel = 0
    }
}
