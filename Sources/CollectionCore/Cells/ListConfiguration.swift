import Foundation

/// How a list section looks and behaves, as UIKit's `UICollectionLayoutListConfiguration`:
/// its appearance, headers and footers, separators and swipe actions. Make a
/// section of it with ``NSCollectionLayoutSection/list(using:layoutEnvironment:)``,
/// or a whole layout with ``CollectionViewCompositionalLayout/list(using:)``.
///
/// Rows are as wide as the section allows and 44 points high by estimate (cells
/// size themselves). The geometry of each appearance:
///
/// | appearance | row insets (leading, trailing) | section top, bottom | header, footer height |
/// |---|---|---|---|
/// | `plain` | 0, 0 | 0, 0 | 28, 28 |
/// | `grouped` | 0, 0 | 20, 20 | 38, 28 |
/// | `insetGrouped` | 20, 20 | 20, 20 | 38, 28 |
/// | `sidebar` | 10, 10 | 8, 8 | 32, 28 |
/// | `sidebarPlain` | 0, 0 | 0, 0 | 32, 28 |
///
/// A header takes the place of the top space, and a footer of the bottom space: the
/// header sits right above the rows, the footer right under them.
///
/// Separators run between the rows of a section (not after its last row), but in
/// the sidebar appearances, which have none.
public struct CollectionLayoutListConfiguration: Sendable {
    /// UIKit's list appearances.
    public enum Appearance: String, Sendable, CaseIterable {
        /// Rows edge to edge (`plain`), in grouped sections (`grouped`), in rounded
        /// inset groups (`insetGrouped`), or a sidebar's, grouped or not.
        case plain, grouped, insetGrouped, sidebar, sidebarPlain
    }

    /// Where a section's header comes from.
    public enum HeaderMode: Sendable {
        /// No header.
        case none
        /// A supplementary view of kind `elementKindSectionHeader`.
        case supplementary
        /// The section's first item is its header (an outline's parent, say).
        case firstItemInSection
    }

    /// Where a section's footer comes from.
    public enum FooterMode: Sendable {
        /// No footer (`none`), or a supplementary view of kind `elementKindSectionFooter`.
        case none, supplementary
    }

    /// The list's appearance.
    public var appearance: Appearance
    /// Whether rows have separators between them (never in the sidebar appearances).
    public var showsSeparators = true
    /// Headers: none, supplementary views, or each section's first item.
    public var headerMode = HeaderMode.none
    /// Footers: none, or supplementary views.
    public var footerMode = FooterMode.none
    /// How rows' separators look (UIKit's `separatorConfiguration`).
    public var separatorConfiguration: ListSeparatorConfiguration
    /// Changes the separators of one row (UIKit's `itemSeparatorHandler`): given its
    /// index path and the list's configuration, returns the row's.
    public var itemSeparatorHandler: (@Sendable (IndexPath, ListSeparatorConfiguration) -> ListSeparatorConfiguration)?
    /// Extra space above each section's supplementary header (UIKit's `headerTopPadding`; nil: none).
    public var headerTopPadding: CGFloat?
    /// The actions a swipe from the trailing edge of a row reveals (nil: none).
    public var trailingSwipeActionsConfigurationProvider: (@Sendable (IndexPath) -> SwipeActionsConfiguration?)?
    /// The actions a swipe from the leading edge of a row reveals (nil: none).
    public var leadingSwipeActionsConfigurationProvider: (@Sendable (IndexPath) -> SwipeActionsConfiguration?)?

    /// A configuration of `appearance`.
    /// - Parameter appearance: The list's appearance.
    public init(appearance: Appearance) {
        self.appearance = appearance
        separatorConfiguration = ListSeparatorConfiguration(listAppearance: appearance)
    }

    /// The section's insets around its rows.
    var contentInsets: NSDirectionalEdgeInsets {
        let header = headerMode == .supplementary, footer = footerMode == .supplementary
        switch appearance {
        case .plain, .sidebarPlain: return NSDirectionalEdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 0)
        case .grouped: return NSDirectionalEdgeInsets(top: header ? 0 : 20, leading: 0, bottom: footer ? 0 : 20, trailing: 0)
        case .insetGrouped: return NSDirectionalEdgeInsets(top: header ? 0 : 20, leading: 20, bottom: footer ? 0 : 20, trailing: 20)
        case .sidebar: return NSDirectionalEdgeInsets(top: header ? 0 : 8, leading: 10, bottom: footer ? 0 : 8, trailing: 10)
        }
    }

    var headerHeight: CGFloat {
        switch appearance {
        case .plain: 28
        case .grouped, .insetGrouped: 38
        case .sidebar, .sidebarPlain: 32
        }
    }

    static let footerHeight: CGFloat = 28
    /// Rows' estimated height.
    public static let estimatedRowHeight: CGFloat = 44

    /// Whether rows of this configuration are separated.
    var separates: Bool { showsSeparators && appearance != .sidebar && appearance != .sidebarPlain }
}

/// Where a row sits in its list section, for drawing it (beyond UIKit, whose list
/// cells learn it from private layout attributes).
public struct ListRowStyle: Sendable, Hashable {
    /// The row's place in its section (an inset group rounds the first and last rows' corners).
    public enum Position: String, Sendable {
        /// The first of several rows, a middle one, the last, or the only one.
        case first, middle, last, only
    }

    /// The list's appearance.
    public var appearance: CollectionLayoutListConfiguration.Appearance
    /// The row's place in its section.
    public var position: Position
    /// A separator below the row.
    public var separator: Bool { separators.bottom }
    /// The row's separators: above, below, their insets and colour.
    public var separators: ListRowSeparators
    /// The row is its section's header (``CollectionLayoutListConfiguration/HeaderMode/firstItemInSection``).
    public var isHeader: Bool

    /// Creates a style.
    /// - Parameters:
    ///   - appearance: The list's appearance.
    ///   - position: The row's place in its section.
    ///   - separator: Whether a separator runs below the row.
    ///   - isHeader: Whether the row is its section's header.
    public init(appearance: CollectionLayoutListConfiguration.Appearance, position: Position, separator: Bool, isHeader: Bool) {
        var separators = ListRowSeparators()
        separators.bottom = separator
        self.init(appearance: appearance, position: position, separators: separators, isHeader: isHeader)
    }

    /// Creates a style with the row's separators.
    /// - Parameters:
    ///   - appearance: The list's appearance.
    ///   - position: The row's place in its section.
    ///   - separators: The row's separators.
    ///   - isHeader: Whether the row is its section's header.
    public init(appearance: CollectionLayoutListConfiguration.Appearance, position: Position, separators: ListRowSeparators, isHeader: Bool) {
        self.appearance = appearance
        self.position = position
        self.separators = separators
        self.isHeader = isHeader
    }
}

extension NSCollectionLayoutSection {
    /// A list section (UIKit's `list(using:layoutEnvironment:)`): one full-width row per
    /// item, of an estimated 44 points, with the configuration's insets, header and footer.
    /// - Parameters:
    ///   - configuration: The list's appearance, header and footer, separators and swipe actions.
    ///   - layoutEnvironment: The section provider's environment.
    /// - Returns: The section.
    public static func list(using configuration: CollectionLayoutListConfiguration, layoutEnvironment: any NSCollectionLayoutEnvironment) -> NSCollectionLayoutSection {
        let row = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(CollectionLayoutListConfiguration.estimatedRowHeight))
        let section = NSCollectionLayoutSection(group: .horizontal(layoutSize: row, subitems: [NSCollectionLayoutItem(layoutSize: row)]))
        section.contentInsets = configuration.contentInsets
        var boundary: [NSCollectionLayoutBoundarySupplementaryItem] = []
        if configuration.headerMode == .supplementary {
            let header = NSCollectionLayoutBoundarySupplementaryItem(
                layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(configuration.headerHeight)),
                elementKind: CollectionView.elementKindSectionHeader, alignment: .top)
            header.spaceBefore = max(0, configuration.headerTopPadding ?? 0)
            boundary.append(header)
        }
        if configuration.footerMode == .supplementary {
            boundary.append(NSCollectionLayoutBoundarySupplementaryItem(
                layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(CollectionLayoutListConfiguration.footerHeight)),
                elementKind: CollectionView.elementKindSectionFooter, alignment: .bottom))
        }
        section.boundarySupplementaryItems = boundary
        section.listConfiguration = configuration
        return section
    }
}

extension CollectionViewCompositionalLayout {
    /// A layout whose every section is a list of `configuration` (UIKit's `list(using:)`).
    /// - Parameter configuration: The list's appearance, header and footer, separators and swipe actions.
    /// - Returns: The layout.
    public static func list(using configuration: CollectionLayoutListConfiguration) -> CollectionViewCompositionalLayout {
        CollectionViewCompositionalLayout { _, environment in NSCollectionLayoutSection.list(using: configuration, layoutEnvironment: environment) }
    }

    /// How the row at `indexPath` is drawn, when its section is a list (nil otherwise).
    /// - Parameter indexPath: The row's item.
    /// - Returns: Its place in the section, separators and whether it is a header.
    public func listRowStyle(at indexPath: IndexPath) -> ListRowStyle? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section), let list = sections[indexPath.section].list else { return nil }
        let count = sections[indexPath.section].count
        guard indexPath.item >= 0, indexPath.item < count else { return nil }
        let isHeader = list.headerMode == .firstItemInSection && indexPath.item == 0
        let first = list.headerMode == .firstItemInSection ? 1 : 0
        let position: ListRowStyle.Position
        if isHeader { position = .only }
        else if indexPath.item == first && indexPath.item == count - 1 { position = .only }
        else if indexPath.item == first { position = .first }
        else if indexPath.item == count - 1 { position = .last }
        else { position = .middle }
        // The sidebars, a list without separators and header rows draw none, whatever a
        // row's configuration would say (so the handler is not asked).
        guard list.separates && !isHeader else {
            return ListRowStyle(appearance: list.appearance, position: position, separators: ListRowSeparators(), isHeader: isHeader)
        }
        var configuration = list.separatorConfiguration
        if let handler = list.itemSeparatorHandler { configuration = handler(indexPath, configuration) }
        let separators = configuration.resolved(separates: indexPath.item < count - 1)
        return ListRowStyle(appearance: list.appearance, position: position, separators: separators, isHeader: isHeader)
    }

    /// The swipe actions of the row at `indexPath` from its trailing (or leading) edge, if its section is a list with some.
    /// - Parameters:
    ///   - indexPath: The row's item.
    ///   - trailing: The trailing edge's (true) or the leading edge's.
    /// - Returns: The actions, or nil.
    public func swipeActionsConfiguration(at indexPath: IndexPath, trailing: Bool) -> SwipeActionsConfiguration? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section), let list = sections[indexPath.section].list else { return nil }
        let provider = trailing ? list.trailingSwipeActionsConfigurationProvider : list.leadingSwipeActionsConfigurationProvider
        return provider?(indexPath)
    }
}
