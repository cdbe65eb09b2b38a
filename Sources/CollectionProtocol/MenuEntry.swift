import Foundation

/// A context menu, or one of its entries, as the client shows it: an action (no
/// `children`) or a submenu (with them). Hidden entries are left out; `index` is an
/// entry's place among its menu's entries, hidden ones counted, and a chosen action
/// is named by the indexes from the top menu down (`contextMenuAction.path`).
public struct MenuEntry: Equatable, Sendable, Codable {
    /// Its place in its menu (0 for the top menu).
    public var index: Int
    /// Its title.
    public var title: String
    /// An image: a URL, or a short text such as an emoji (absent: none).
    public var image: String?
    /// `destructive`, `disabled`, `keepsMenuPresented` (absent: none).
    public var attributes: [String]?
    /// An action's checkmark: `on` or `mixed` (absent: off).
    public var state: String?
    /// A submenu shown in its parent between separators, not as a submenu (absent: false).
    public var inline: Bool?
    /// A submenu's entries (absent: this is an action).
    public var children: [MenuEntry]?

    /// Creates an entry.
    public init(index: Int, title: String, image: String? = nil, attributes: [String]? = nil, state: String? = nil,
                inline: Bool? = nil, children: [MenuEntry]? = nil) {
        self.index = index
        self.title = title
        self.image = image
        self.attributes = attributes
        self.state = state
        self.inline = inline
        self.children = children
    }
}

extension JSONWriter {
    mutating func menu(_ m: MenuEntry) {
        beginObject()
        key("index"); int(m.index)
        key("title"); string(m.title)
        if let image = m.image { key("image"); string(image) }
        if let attributes = m.attributes { key("attributes"); strings(attributes) }
        if let state = m.state { key("state"); string(state) }
        if let inline = m.inline { key("inline"); bool(inline) }
        if let children = m.children {
            key("children")
            beginArray()
            for child in children { menu(child) }
            endArray()
        }
        endObject()
    }
}
