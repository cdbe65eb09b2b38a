import Foundation

/// How a list row's separators look, as UIKit's `UIListSeparatorConfiguration`. A
/// list configuration's ``CollectionLayoutListConfiguration/separatorConfiguration``
/// applies to every row; its `itemSeparatorHandler` may change it row by row.
public struct ListSeparatorConfiguration: Sendable, Hashable {
    /// Whether a separator shows (UIKit's `UIListSeparatorConfiguration.Visibility`).
    public enum Visibility: Sendable, Hashable {
        /// As the list's appearance and the row's place say (between rows, not after the last).
        case automatic
        /// Always shown.
        case visible
        /// Never shown.
        case hidden
    }

    /// The separator above the row (shown only when set to `visible`).
    public var topSeparatorVisibility = Visibility.automatic
    /// The separator below the row.
    public var bottomSeparatorVisibility = Visibility.automatic
    /// Where the top separator starts and ends; nil: at the row's text, to its trailing edge.
    public var topSeparatorInsets: NSDirectionalEdgeInsets?
    /// Where the bottom separator starts and ends; nil: at the row's text, to its trailing edge.
    public var bottomSeparatorInsets: NSDirectionalEdgeInsets?
    /// The separators' colour, a CSS colour (UIKit's `UIColor`); nil: the list's own.
    public var color: String?

    /// The separators of a list of `listAppearance`.
    /// - Parameter listAppearance: The list's appearance (every appearance starts from the same separators).
    public init(listAppearance: CollectionLayoutListConfiguration.Appearance) {}
}

/// How a row's separators are drawn, worked out for its place in the list.
public struct ListRowSeparators: Sendable, Hashable {
    /// Separators above and below the row.
    public var top = false, bottom = false
    /// The top separator's insets (nil: the list's own).
    public var topInsets: NSDirectionalEdgeInsets?
    /// The bottom separator's insets (nil: the list's own).
    public var bottomInsets: NSDirectionalEdgeInsets?
    /// The separators' CSS colour (nil: the list's own).
    public var color: String?

    /// No separators.
    public init() {}
}

extension ListSeparatorConfiguration {
    /// The separators of a row that, by the list's own rule, `separates` from the next.
    func resolved(separates: Bool) -> ListRowSeparators {
        var out = ListRowSeparators()
        out.top = topSeparatorVisibility == .visible
        out.bottom = bottomSeparatorVisibility == .visible || (bottomSeparatorVisibility == .automatic && separates)
        out.topInsets = topSeparatorInsets
        out.bottomInsets = bottomSeparatorInsets
        out.color = color
        return out
    }
}
