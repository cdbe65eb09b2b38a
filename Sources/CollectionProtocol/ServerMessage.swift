import Foundation

/// A section's identity, size, and a checksum of its item order.
public struct SectionInfo: Equatable, Sendable, Codable {
    public var id: String
    public var title: String
    public var count: Int
    /// ``orderChecksum(_:)`` of the section's item identifiers, in order.
    public var checksum: String
    /// Creates section info.
    public init(id: String, title: String, count: Int, checksum: String) {
        self.id = id
        self.title = title
        self.count = count
        self.checksum = checksum
    }
}

/// A cheap checksum of an order of identifiers: 64-bit FNV-1a over their UTF-8
/// bytes, each followed by a 0x1F separator, as 16 lowercase hex digits.
/// Inlinable, so that it is specialized for the caller's sequence (unspecialized, each
/// identifier was copied out through the generic witnesses: most of a long section's cost).
@inlinable
public func orderChecksum<S: Sequence>(_ identifiers: S) -> String where S.Element == String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for id in identifiers {
        // The bytes read in place (a native string's are contiguous): the view's
        // iterator cost several times the hashing itself, over a section of many items.
        let hashed: Void? = id.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        if hashed == nil {
            for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        hash ^= 0x1F
        hash &*= 0x0000_0100_0000_01B3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

/// A viewer as others see it.
public struct ViewerInfo: Equatable, Sendable, Codable {
    /// Unique on the server (`v3`, after the node's prefix when there are several): one per connection, what presence is keyed by.
    public var id: String
    /// The name others see.
    public var name: String
    /// The CSS colour others see the viewer's selection and cursor in.
    public var color: String
    /// The signed-in user behind this viewer (nil: anonymous). Not sent to other viewers.
    public var user: String?
    /// The user's roles, as authenticated. Not sent to other viewers.
    public var roles: Set<String> = []
    /// Whether the viewer is not signed in: its name is one it chose, which no one
    /// vouches for (sent as `"guest": true`, so that others can tell a guest called
    /// "Ana" from the signed-in Ana).
    public var guest: Bool

    private enum CodingKeys: String, CodingKey { case id, name, color, guest }

    /// Creates viewer info; a guest unless a `user` is given.
    /// - Parameters:
    ///   - id: Unique on the server, one per connection.
    ///   - name: The name others see.
    ///   - color: A CSS colour.
    ///   - user: The signed-in user (nil: anonymous).
    ///   - roles: The user's roles, as authenticated.
    ///   - guest: Whether the name is one the viewer chose (nil: when there is no `user`).
    public init(id: String, name: String, color: String, user: String? = nil, roles: Set<String> = [], guest: Bool? = nil) {
        self.id = id
        self.name = name
        self.color = color
        self.user = user
        self.roles = roles
        self.guest = guest ?? (user == nil)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        color = try c.decode(String.self, forKey: .color)
        guest = try c.decodeIfPresent(Bool.self, forKey: .guest) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(color, forKey: .color)
        if guest { try c.encode(true, forKey: .guest) }
    }
}

/// Who has selected which items.
public struct SelectionInfo: Equatable, Sendable, Codable {
    public var viewer: String
    public var items: [String]
    /// Creates selection info.
    public init(viewer: String, items: [String]) {
        self.viewer = viewer
        self.items = items
    }
}

/// Which item a viewer's focus is on.
public struct FocusInfo: Equatable, Sendable, Codable {
    public var viewer: String
    public var item: String
    /// Creates focus info.
    public init(viewer: String, item: String) {
        self.viewer = viewer
        self.item = item
    }
}

/// An item move in a batch: `[[fromSection, fromItem], [toSection, toItem]]`.
public typealias WireMove = [[Int]]

/// Every message the server sends (protocol v1). Encoded with a `type` field.
public enum ServerMessage: Equatable, Sendable {
    case welcome(Welcome)
    case window(Window)
    indirect case batch(Batch)
    case ack(op: String, seq: Int)
    case selection(viewer: String, item: String, selected: Bool)
    /// Viewers who joined and left since the last such message (sent at most once per
    /// turn of the server's loop, to viewers who were there before the change).
    case presenceChange(joined: [ViewerInfo], left: [String])
    case error(code: ErrorCode, message: String, op: String?)
    case reject(op: String, code: ErrorCode, message: String)
    case resume(Resume)
    /// A viewer's focus moved (nil item: it left).
    case focus(viewer: String, item: String?)
    /// Part of a welcome's order (``Welcome/orderFollows``): item identifiers to append
    /// to one section's, in order; the parts come right after the welcome, before
    /// anything else.
    case order(OrderPart)
    /// A viewer drags an item (nil item: the drag ended). `at` is in the dragging
    /// viewer's content; `over` says where by item, so that a watcher whose layout
    /// differs places the ghost in its own.
    case drag(viewer: String, item: String?, at: Point, over: DragAnchor? = nil)
    /// The collection switched layouts (every viewer's); animated windows came first.
    case layout(name: String, by: String)
    /// The drop delegate's proposal for a hovering drag (to the dragging viewer only).
    case dropProposal(DropProposal)
    /// This viewer's editing mode changed (to that viewer only).
    case editing(on: Bool)
    /// This viewer's drag out of the collection: its session id, what it carries
    /// (item ids, or external values), and whether a drop may move them.
    case dragSession(id: String, items: [String], allowsMove: Bool)
    /// The actions a swipe of a list row from `edge` (`leading`, `trailing`) reveals
    /// (none: it does not swipe that way); `fullSwipe`: a full swipe performs the first.
    case swipeActions(item: String, edge: String, actions: [SwipeActionInfo], fullSwipe: Bool)
    /// A viewer selected or deselected several items at once (a range).
    case selections(viewer: String, items: [String], selected: Bool)
    /// The context menu opened for `items` (nil: the delegate gives none).
    case contextMenu(items: [String], menu: MenuEntry?)
    /// What came of this viewer's `action` (to that viewer only).
    case actionResult(ActionResult)

    /// The app's answer to an `action`: done (with values for the page), refused
    /// (the app will not, and says why) or failed (it could not).
    public struct ActionResult: Equatable, Sendable, Codable {
        /// The action's `op`, when it had one.
        public var op: String?
        /// The action's name and item.
        public var name: String
        public var item: String?
        /// `done`, `refused` or `failed`.
        public var status: String
        /// Why, for people (refused or failed).
        public var message: String?
        /// What the app answers with (done): string fields the page may show.
        public var value: [String: String]?

        /// An answer.
        public init(op: String?, name: String, item: String?, status: String, message: String? = nil, value: [String: String]? = nil) {
            self.op = op
            self.name = name
            self.item = item
            self.status = status
            self.message = message
            self.value = value
        }
    }

    /// What a drop at a point would do.
    public struct DropProposal: Equatable, Sendable, Codable {
        /// "move", "copy", "forbidden" or "cancel".
        public var operation: String
        /// "insertAtDestinationIndexPath", "insertIntoDestinationIndexPath" or "unspecified".
        public var intent: String
        /// The destination index path (the insertion point, or the item dropped into).
        public var section: Int?
        public var item: Int?
        /// With the insert-into intent: the identifier of the item dropped into.
        public var target: String?
        /// The pointer the proposal answers (content coordinates).
        public var x: Double
        public var y: Double

        /// Creates a proposal message.
        public init(operation: String, intent: String, section: Int?, item: Int?, target: String?, x: Double, y: Double) {
            self.operation = operation
            self.intent = intent
            self.section = section
            self.item = item
            self.target = target
            self.x = x
            self.y = y
        }
    }

    /// The answer to `hello`.
    public struct Welcome: Equatable, Sendable, Codable {
        public var type = "welcome"
        public var protocolVersion = 1
        public var viewer: ViewerInfo
        /// Names the server's history; send it back with `hello.lastSeq` to resume.
        public var epoch: String
        public var seq: Int
        public var contentSize: Size
        public var sections: [SectionInfo]
        public var elements: [Element]
        public var selections: [SelectionInfo]
        public var viewers: [ViewerInfo]
        /// Every section's item identifiers in order, when `hello.wantOrder` asked
        /// (and the order is small: a large one comes after, in `order` messages).
        public var order: [[String]]?
        /// True when the order follows in `order` messages (``OrderPart``), the
        /// welcome itself kept small so that the first cells show at once.
        public var orderFollows: Bool?
        /// Where other viewers' focus is.
        public var focuses: [FocusInfo]
        /// The layout in use (see `layout`).
        public var layout: String = "grid"
        /// The collection's name (what drag sources call it).
        public var collection: String?
        /// What this viewer may do here: `view`, `select`, `edit` (absent: everything).
        public var can: [String]?
        /// Sections that scroll on their own (absent: none).
        public var bands: [Band]?

        enum CodingKeys: String, CodingKey {
            case type, protocolVersion = "protocol", viewer, epoch, seq, contentSize, bands, sections, elements, selections, viewers, order, orderFollows, focuses, layout, collection, can
        }

        /// Creates a welcome.
        public init(viewer: ViewerInfo, epoch: String, seq: Int, contentSize: Size, sections: [SectionInfo], elements: [Element], selections: [SelectionInfo], viewers: [ViewerInfo], order: [[String]]? = nil, focuses: [FocusInfo] = [], layout: String = "grid", collection: String? = nil) {
            self.collection = collection
            self.focuses = focuses
            self.layout = layout
            self.viewer = viewer
            self.epoch = epoch
            self.seq = seq
            self.contentSize = contentSize
            self.sections = sections
            self.elements = elements
            self.selections = selections
            self.viewers = viewers
            self.order = order
        }
    }

    /// The answer to a `hello` whose `lastSeq` is still in the server's log: the
    /// missed batches follow (with `replay: true`), then a `window` with `replace: true`.
    public struct Resume: Equatable, Sendable, Codable {
        public var type = "resume"
        public var viewer: ViewerInfo
        /// The client's `lastSeq`.
        public var fromSeq: Int
        /// The sequence number reached after the replayed batches.
        public var seq: Int
        public var selections: [SelectionInfo]
        public var viewers: [ViewerInfo]
        /// Where other viewers' focus is.
        public var focuses: [FocusInfo]
        /// The layout in use (a client that missed a switch learns it here).
        public var layout: String
        /// The collection's name.
        public var collection: String?
        /// What this viewer may do here: `view`, `select`, `edit` (absent: everything).
        public var can: [String]?

        /// Creates a resume.
        public init(viewer: ViewerInfo, fromSeq: Int, seq: Int, selections: [SelectionInfo], viewers: [ViewerInfo],
                    focuses: [FocusInfo] = [], layout: String = "grid", collection: String? = nil) {
            self.focuses = focuses
            self.layout = layout
            self.collection = collection
            self.viewer = viewer
            self.fromSeq = fromSeq
            self.seq = seq
            self.selections = selections
            self.viewers = viewers
        }
    }

    /// Elements entering and leaving the viewer's window after a scroll or resize.
    public struct Window: Equatable, Sendable, Codable {
        public var type = "window"
        public var contentSize: Size
        public var add: [Element]
        public var remove: [String]
        /// True: `add` is the whole window; drop anything else held.
        public var replace: Bool
        /// True: animate to the new frames (items making room during a move, a layout
        /// switch); false: a scroll, drawn at once.
        public var animated: Bool
        /// Where the client should scroll to (absent: stay): measured cell sizes moved
        /// the content, and the item at the top of the viewport stays where it was.
        public var offset: Point?
        /// Sections that scroll on their own (absent: none).
        public var bands: [Band]?
        /// Creates a window update.
        public init(contentSize: Size, bands: [Band]? = nil, add: [Element], remove: [String], replace: Bool = false, animated: Bool = false, offset: Point? = nil) {
            self.bands = bands
            self.contentSize = contentSize
            self.add = add
            self.remove = remove
            self.replace = replace
            self.animated = animated
            self.offset = offset
        }
    }
}

/// Where a dragged item is, by an item of the collection: at `x`, `y` (fractions of
/// that item's width and height from its top left; 0.5, 0.5 is its centre, 1, 0.5
/// just after it). A watcher places another viewer's ghost there in its own layout.
public struct DragAnchor: Hashable, Sendable, Codable {
    /// The item the drag is over (a moved item: the one whose place it would take).
    public var item: String
    /// Across that item's frame (0 its left edge, 1 its right).
    public var x: Double
    /// Down that item's frame (0 its top edge, 1 its bottom).
    public var y: Double
    /// Creates an anchor.
    public init(item: String, x: Double, y: Double) {
        self.item = item
        self.x = x
        self.y = y
    }
}

/// A part of a welcome's order: identifiers to append to section `section`'s.
public struct OrderPart: Equatable, Sendable, Codable {
    public var type = "order"
    /// The section's index.
    public var section: Int
    /// The next identifiers of that section, in order.
    public var ids: [String]
    /// True on the last part of the whole order.
    public var last: Bool

    /// Creates a part.
    public init(section: Int, ids: [String], last: Bool) {
        self.section = section
        self.ids = ids
        self.last = last
    }

    /// A welcome's order cut into parts of about `bytes` of JSON each (no part is
    /// empty but an empty order's one).
    public static func parts(of order: [[String]], bytes: Int) -> [OrderPart] {
        var parts: [OrderPart] = []
        for (section, ids) in order.enumerated() {
            var start = 0, size = 0
            for (i, id) in ids.enumerated() {
                size += id.utf8.count + 3
                if size >= bytes {
                    parts.append(OrderPart(section: section, ids: Array(ids[start...i]), last: false))
                    start = i + 1
                    size = 0
                }
            }
            if start < ids.count { parts.append(OrderPart(section: section, ids: Array(ids[start...]), last: false)) }
        }
        if parts.isEmpty { parts.append(OrderPart(section: 0, ids: [], last: true)) }
        parts[parts.count - 1].last = true
        return parts
    }
}
