import CollectionProtocol

/// Who is behind a connection, as the server's authentication established it.
public struct Identity: Sendable, Hashable {
    /// The user's id (stable across connections and devices).
    public var id: String
    /// The name others see.
    public var name: String
    /// What the user is (`editor`, `admin`…), for permissions.
    public var roles: Set<String>
    /// The colour others see them in (a CSS colour); nil picks one from the id.
    public var color: String?

    /// An identity.
    /// - Parameters:
    ///   - id: The user's unique id (their viewers' `user`; the colour is picked from it).
    ///   - name: The name others see.
    ///   - roles: What the user is (`editor`, `admin`…), for permissions.
    ///   - color: A CSS colour (nil: one picked from the id).
    public init(id: String, name: String, roles: Set<String> = [], color: String? = nil) {
        self.id = id
        self.name = name
        self.roles = roles
        self.color = color
    }
}

/// What a viewer may do in a collection.
public struct ViewerPermissions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Watch it: say hello, scroll, measure.
    public static let view = ViewerPermissions(rawValue: 1)
    /// Show presence: select, focus, point at items while dragging.
    public static let select = ViewerPermissions(rawValue: 2)
    /// Change it: edits, moves, drops, actions, the shared layout.
    public static let edit = ViewerPermissions(rawValue: 4)
    /// Everything.
    public static let all: ViewerPermissions = [.view, .select, .edit]
}

extension ViewerPermissions {
    /// Their names, as `welcome.can` says them: `view`, `select`, `edit`.
    public var names: [String] {
        [(ViewerPermissions.view, "view"), (.select, "select"), (.edit, "edit")].filter { contains($0.0) }.map(\.1)
    }

    /// The permission a message needs (nil: any viewer may send it).
    static func needed(for message: ClientMessage) -> (ViewerPermissions, String)? {
        switch message {
        case .hello, .scroll, .measure, .editing, .scrollToItem, .transitionBegin, .transitionUpdate, .swipeActions,
             .contextMenu: (.view, "view")
        case .select, .selectRange, .focus, .drag, .dragBegin, .dragAdd: (.select, "select in")
        case .edit, .moveBegin, .moveUpdate, .moveEnd, .drop, .dropUpdate, .action, .layout, .swipeAction, .outline, .accessory: (.edit, "edit")
        // A menu's action is the app's handler: the app decides who may run it.
        case .moveCancel, .transitionEnd, .dragEnd, .contextMenuAction, .contextMenuEnd: nil
        }
    }
}
