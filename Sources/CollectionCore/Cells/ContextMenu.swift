import Foundation

/// An entry of a menu, as UIKit's `UIMenuElement`: an ``Action`` or a ``Menu``.
open class MenuElement: @unchecked Sendable {
    /// How an entry looks and behaves (UIKit's `UIMenuElement.Attributes`).
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Drawn as destructive (red).
        public static let destructive = Attributes(rawValue: 1)
        /// Shown, but cannot be chosen.
        public static let disabled = Attributes(rawValue: 2)
        /// Not shown.
        public static let hidden = Attributes(rawValue: 4)
        /// Choosing it leaves the menu open.
        public static let keepsMenuPresented = Attributes(rawValue: 8)
    }

    /// Whether an action shows a checkmark (UIKit's `UIMenuElement.State`).
    public enum State: String, Sendable {
        /// No checkmark (`off`), a checkmark (`on`), or a dash (`mixed`).
        case off, on, mixed
    }

    /// The entry's title.
    public let title: String
    /// An image: a URL, or a short text such as an emoji (the page draws it before the title).
    public let image: String?

    init(title: String, image: String?) {
        self.title = title
        self.image = image
    }
}

/// A menu entry that runs a handler when chosen, as UIKit's `UIAction`. The handler
/// runs on the server, while ``CollectionView`` (and, in CollectionServer, the
/// viewer who chose it) is known.
public final class Action: MenuElement, @unchecked Sendable {
    /// The action's identifier (the app's own).
    public let identifier: String?
    /// A longer title, for assistive technology.
    public let discoverabilityTitle: String?
    /// Destructive, disabled, hidden, keeps the menu presented.
    public let attributes: Attributes
    /// A checkmark: on, off or mixed.
    public let state: State
    /// Runs when the action is chosen.
    public let handler: (Action) -> Void

    /// An action, as UIKit's `UIAction(title:image:identifier:discoverabilityTitle:attributes:state:handler:)`.
    /// - Parameters:
    ///   - title: What the entry reads.
    ///   - image: A URL, or a short text such as an emoji.
    ///   - identifier: The app's own identifier.
    ///   - discoverabilityTitle: A longer title, for assistive technology.
    ///   - attributes: Destructive, disabled, hidden, keeps the menu presented.
    ///   - state: Its checkmark.
    ///   - handler: Runs, on the server, when a viewer chooses it.
    public init(title: String = "", image: String? = nil, identifier: String? = nil, discoverabilityTitle: String? = nil,
                attributes: Attributes = [], state: State = .off, handler: @escaping (Action) -> Void) {
        self.identifier = identifier
        self.discoverabilityTitle = discoverabilityTitle
        self.attributes = attributes
        self.state = state
        self.handler = handler
        super.init(title: title, image: image)
    }
}

/// A menu, or a submenu of one, as UIKit's `UIMenu`.
public final class Menu: MenuElement, @unchecked Sendable {
    /// How a menu shows (UIKit's `UIMenu.Options`).
    public struct Options: OptionSet, Sendable, Hashable {
        /// The set's bits.
        public let rawValue: Int
        /// Options from their bits.
        /// - Parameter rawValue: The bits, as the static members have them.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Its children are shown in the parent, between separators, not as a submenu.
        public static let displayInline = Options(rawValue: 1)
        /// Drawn as destructive.
        public static let destructive = Options(rawValue: 2)
        /// Its actions are a choice of one: the chosen one shows a checkmark.
        public static let singleSelection = Options(rawValue: 4)
    }

    /// The menu's identifier (the app's own).
    public let identifier: String?
    /// Inline, destructive, single selection.
    public let options: Options
    /// Its actions and submenus, in order.
    public let children: [MenuElement]

    /// A menu, as UIKit's `UIMenu(title:image:identifier:options:children:)`.
    /// - Parameters:
    ///   - title: The menu's title (a submenu's entry reads it).
    ///   - image: A URL, or a short text such as an emoji.
    ///   - identifier: The app's own identifier.
    ///   - options: Inline, destructive, single selection.
    ///   - children: Its actions and submenus, in order.
    public init(title: String = "", image: String? = nil, identifier: String? = nil, options: Options = [], children: [MenuElement] = []) {
        self.identifier = identifier
        self.options = options
        self.children = children
        super.init(title: title, image: image)
    }

    /// The entry at `path` (indexes into `children`, then into a submenu's): nil if
    /// there is none.
    /// - Parameter path: Indexes into ``children``, then into a submenu's.
    /// - Returns: The entry there, or nil.
    public func element(at path: [Int]) -> MenuElement? {
        guard let first = path.first, children.indices.contains(first) else { return nil }
        let child = children[first]
        if path.count == 1 { return child }
        return (child as? Menu)?.element(at: Array(path.dropFirst()))
    }
}

/// Makes the view controller a context menu previews (UIKit's `UIContextMenuContentPreviewProvider`).
public typealias ContextMenuContentPreviewProvider = () -> CollectionViewController?
/// Makes a context menu's menu from the suggested actions (UIKit's `UIContextMenuActionProvider`).
public typealias ContextMenuActionProvider = ([MenuElement]) -> Menu?

/// What a context menu shows, as UIKit's `UIContextMenuConfiguration`: made by the
/// delegate's `collectionView(_:contextMenuConfigurationForItemsAt:point:)`.
public final class ContextMenuConfiguration: @unchecked Sendable {
    /// The app's identifier of the menu.
    public let identifier: String?
    /// A preview: the page shows none, so it is never called.
    public let previewProvider: ContextMenuContentPreviewProvider?
    /// Makes the menu (nil: no menu).
    public let actionProvider: ContextMenuActionProvider?

    /// A configuration, as UIKit's `UIContextMenuConfiguration(identifier:previewProvider:actionProvider:)`.
    /// - Parameters:
    ///   - identifier: The app's identifier of the menu.
    ///   - previewProvider: A preview (never called: the page shows none).
    ///   - actionProvider: Makes the menu from the suggested actions (none are suggested).
    public init(identifier: String? = nil, previewProvider: ContextMenuContentPreviewProvider? = nil, actionProvider: ContextMenuActionProvider? = nil) {
        self.identifier = identifier
        self.previewProvider = previewProvider
        self.actionProvider = actionProvider
    }
}

/// A collection view's context menu (UIKit's `UIContextMenuInteraction`): the menu
/// shown now, for which items and where.
public final class ContextMenuInteraction {
    /// The configuration the delegate gave for the menu shown (nil: none is shown).
    public internal(set) var presentedConfiguration: ContextMenuConfiguration?
    /// The menu shown (nil: none).
    public internal(set) var presentedMenu: Menu?
    /// The items it is for (empty: the collection view's background).
    public internal(set) var presentedIndexPaths: [IndexPath] = []
    /// Where it was asked for, in the collection view's content coordinates.
    public internal(set) var presentedLocation = CGPoint.zero

    init() {}

    /// Where the menu was asked for, in the collection view's coordinates
    /// (UIKit's `location(in:)`, with the collection view as the view).
    /// - Parameter collectionView: The collection view the menu is in.
    /// - Returns: ``presentedLocation``.
    public func location(in collectionView: CollectionView) -> CGPoint { presentedLocation }

    /// Closes the menu, running no action.
    public func dismissMenu() {
        presentedConfiguration = nil
        presentedMenu = nil
        presentedIndexPaths = []
    }
}

extension CollectionViewInteractions {
    /// Asks the delegate for a context menu for `indexPaths` (empty: the background)
    /// at `point` and, when it gives one, shows it: ``CollectionView/contextMenuInteraction`` holds
    /// it until ``performContextMenuAction(at:)`` or `dismissMenu()`. Returns the
    /// menu, or nil when the delegate gives none (the open menu, if any, closes).
    /// - Parameters:
    ///   - indexPaths: The items the menu is for (empty: the background).
    ///   - point: Where it was asked for, in content coordinates.
    /// - Returns: The menu shown, or nil.
    @discardableResult
    public func presentContextMenu(forItemsAt indexPaths: [IndexPath], point: CGPoint) -> Menu? {
        let cv = collectionView
        let interaction = cv.contextMenuInteraction ?? ContextMenuInteraction()
        interaction.dismissMenu()
        guard let configuration = cv.delegate?.collectionView(cv, contextMenuConfigurationForItemsAt: indexPaths, point: point),
              let menu = configuration.actionProvider?([]) else {
            return nil
        }
        interaction.presentedConfiguration = configuration
        interaction.presentedMenu = menu
        interaction.presentedIndexPaths = indexPaths
        interaction.presentedLocation = point
        cv.contextMenuInteraction = interaction
        return menu
    }

    /// Runs the action at `path` of the menu shown (see ``Menu/element(at:)``) and,
    /// unless it keeps the menu presented, closes the menu. Returns the action run:
    /// nil when no menu is shown or there is no enabled, visible action there.
    /// - Parameter path: The action's place in the menu (``Menu/element(at:)``).
    /// - Returns: The action run, or nil.
    @discardableResult
    public func performContextMenuAction(at path: [Int]) -> Action? {
        guard let interaction = collectionView.contextMenuInteraction, let menu = interaction.presentedMenu,
              let action = menu.element(at: path) as? Action,
              action.attributes.isDisjoint(with: [.disabled, .hidden]) else { return nil }
        if !action.attributes.contains(.keepsMenuPresented) { interaction.dismissMenu() }
        action.handler(action)
        return action
    }
}
