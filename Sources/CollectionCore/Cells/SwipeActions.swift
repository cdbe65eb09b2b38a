import Foundation

/// The actions a swipe on a list row reveals, as UIKit's `UISwipeActionsConfiguration`.
public struct SwipeActionsConfiguration {
    /// The actions, from the edge inwards.
    public var actions: [ContextualAction]
    /// Whether a full swipe performs the first action (UIKit's default: yes).
    public var performsFirstActionWithFullSwipe = true

    /// A configuration of `actions`.
    /// - Parameter actions: The actions, from the edge inwards.
    public init(actions: [ContextualAction]) {
        self.actions = actions
    }
}

/// One action of a row's swipe, as UIKit's `UIContextualAction`: a class, made with
/// its style, title and handler, and configurable after.
open class ContextualAction {
    /// UIKit's styles: `destructive` actions are red and may remove the row.
    public enum Style: String, Sendable {
        /// A grey button (`normal`), or a red one that may remove the row (`destructive`).
        case normal, destructive
    }

    /// What runs when a viewer chooses the action: the action, the view it was
    /// chosen from (the row's cell), and a completion to call with whether it was
    /// performed.
    public typealias Handler = (ContextualAction, View, @escaping (Bool) -> Void) -> Void

    /// Its style.
    public let style: Style
    /// Its button's title.
    open var title: String?
    /// Its button's image (drawn before the title, or alone).
    open var image: Image?
    /// Its button's colour (nil: the style's: red for destructive, grey otherwise).
    open var backgroundColor: Color?
    /// What runs when it is chosen.
    public let handler: Handler

    /// An action of `style` titled `title`.
    /// - Parameters:
    ///   - style: Normal or destructive.
    ///   - title: Its button's title.
    ///   - handler: Runs, on the server, when a viewer chooses it.
    public init(style: Style, title: String?, handler: @escaping Handler) {
        self.style = style
        self.title = title
        self.handler = handler
    }
}
