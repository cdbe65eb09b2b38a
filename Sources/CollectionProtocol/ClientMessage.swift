import Foundation

/// The protocol version this code speaks; the WebSocket subprotocol is `collection.v1`.
public let protocolVersion = 1
/// The WebSocket subprotocol name.
public let subprotocolName = "collection.v1"
/// Largest client message accepted, in bytes (the transport closes with 1009 above it).
public let maxClientMessageBytes = 64 * 1024

/// A size in points.
public struct Size: Hashable, Sendable, Codable {
    /// The width, in points.
    public var width: Double
    /// The height, in points.
    public var height: Double
    /// Creates a size.
    /// - Parameters:
    ///   - width: The width, in points.
    ///   - height: The height, in points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A point in content coordinates.
public struct Point: Hashable, Sendable, Codable {
    /// The distance from the content's left edge, in points.
    public var x: Double
    /// The distance from the content's top edge, in points.
    public var y: Double
    /// Creates a point.
    /// - Parameters:
    ///   - x: The distance from the left edge.
    ///   - y: The distance from the top edge.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A change a client asks for, naming items and sections by identifier.
public enum EditAction: Hashable, Sendable {
    /// `count` new items at the start of `section`.
    case insert(section: String, count: Int)
    /// Delete these items.
    case delete(items: [String])
    /// A random new order of `section`.
    case shuffle(section: String)
    /// Move `item` into `section`, just after `after` (nil: at the start).
    case move(item: String, section: String, after: String?)
    /// Refresh these items' content (a fresh cell each).
    case reload(items: [String])
}

/// An edit with the client's op id and an optional precondition on the sequence.
public struct EditRequest: Hashable, Sendable {
    /// Client-chosen id, echoed in the `ack` or `reject`.
    public var op: String?
    /// If set, the edit applies only if the last sequence number is still this one.
    public var ifSeq: Int?
    /// What to change.
    public var action: EditAction

    /// Creates an edit request.
    public init(op: String?, ifSeq: Int? = nil, action: EditAction) {
        self.op = op
        self.ifSeq = ifSeq
        self.action = action
    }
}

/// Every message a client may send (protocol v1).
public enum ClientMessage: Hashable, Sendable {
    /// First message: who I am, how big my viewport is, where I am scrolled.
    case hello(Hello)
    /// The viewport scrolled or was resized; `sectionOffsets`: how far sections that
    /// scroll on their own are scrolled, by section id (absent ones keep theirs).
    case scroll(offset: Point, viewport: Size?, sectionOffsets: [String: Double] = [:])
    /// Select or deselect an item.
    case select(item: String, selected: Bool)
    /// Change the collection.
    case edit(EditRequest)
    /// Keyboard focus moved to an item (nil: left the collection). Presence only.
    case focus(item: String?)
    /// The pointer drags an item to a point in content coordinates (nil item: the
    /// drag ended). Presence only: others see a ghost.
    case drag(item: String?, at: Point)
    /// Interactive movement (UIKit's `beginInteractiveMovementForItem`): pick the item up.
    case moveBegin(item: String)
    /// The moving item is under this point (content coordinates): the others make room.
    case moveUpdate(at: Point)
    /// Drop the moving item where it is shown: an edit, answered by ack or reject.
    case moveEnd(op: String?)
    /// Put the moving item back; nothing changes.
    case moveCancel
    /// Lift an item to drag it out of the collection: the drag delegate says what the
    /// drag carries (answered with `dragSession`).
    case dragBegin(item: String, at: Point)
    /// Add an item to this viewer's drag (the drag delegate's `itemsForAddingTo`).
    case dragAdd(item: String, at: Point)
    /// This viewer's drag ended (dropped or cancelled).
    case dragEnd
    /// Expand (or collapse) an outline's row: its children show (or hide) for everyone.
    case outline(item: String, expanded: Bool)
    /// A list row's accessory was chosen (one the server marked with an action handler).
    case accessory(item: String, name: String)
    /// Which actions a swipe of a list row from an edge reveals (answered with `swipeActions`).
    case swipeActions(item: String, trailing: Bool)
    /// Perform the action at `index` of a list row's swipe from an edge.
    case swipeAction(item: String, trailing: Bool, index: Int)
    /// Open a context menu for `items` (empty: the background) at a point in content
    /// coordinates (answered with `contextMenu`).
    case contextMenu(items: [String], at: Point)
    /// Choose the action at `path` (indexes into the open menu's entries, then a submenu's).
    case contextMenuAction(path: [Int])
    /// Close the open menu, choosing nothing.
    case contextMenuEnd
    /// Switch every viewer to the named layout (`setCollectionViewLayout(_:animated:)`).
    case layout(name: String)
    /// Start an interactive transition of this viewer's own layout to the named one
    /// (`startInteractiveTransition(to:completion:)`).
    case transitionBegin(layout: String)
    /// The transition's progress, 0 (the layout it started from) to 1 (the target).
    case transitionUpdate(progress: Double)
    /// End the transition: in the target layout (`finishInteractiveTransition()`)
    /// or back where it started (`cancelInteractiveTransition()`).
    case transitionEnd(finish: Bool)
    /// Self-sizing: the sizes the client measured for configured cells.
    case measure([MeasuredSize])
    /// A drag hovers over the collection at a point: the server answers with its
    /// drop delegate's proposal (`dropProposal`).
    case dropUpdate(DropRequest)
    /// The drag was released over the collection: the drop delegate performs it (an
    /// edit, answered by ack or reject).
    case drop(DropRequest)
    /// Editing mode on or off for this viewer (`isEditing`).
    case editing(Bool)
    /// Select (or deselect) every item from `from` to `to` in the collection's order,
    /// both included, across sections: a Shift-click. With `replace`, this viewer's
    /// other selected items are deselected.
    case selectRange(from: String, to: String, selected: Bool, replace: Bool)
    /// Scroll this viewer so that the item sits at `position` (UIKit's
    /// `scrollToItem(at:at:animated:)`): answered with a window and its offset.
    case scrollToItem(item: String, position: ScrollTarget)
    /// A named control of a cell (or of the page, with no item) was used: the app's
    /// delegate gets the action, the item, the payload and the viewer.
    case action(name: String, item: String?, payload: [String: String], op: String? = nil)

    /// Where `scrollToItem` puts the item.
    public enum ScrollTarget: String, Hashable, Sendable, CaseIterable {
        case top, center, bottom, nearest
    }

    /// What a drag carries: an item of a collection on this server, or external data.
    public struct DropRequest: Hashable, Sendable {
        /// Client-chosen id for `drop`, echoed in the ack or reject.
        public var op: String?
        /// The pointer, in content coordinates.
        public var at: Point
        /// The dragged item, when the drag started in a collection here.
        public var source: Source?
        /// External data: kind ("text", "url", "file") and value (empty while hovering:
        /// browsers reveal the data only at the drop).
        public var items: [External]

        /// Names an item of a collection on this server.
        public struct Source: Hashable, Sendable {
            public var collection: String
            public var item: String
            /// The drag session (`dragSession.session`) whose items the drop carries (nil: the item alone).
            public var session: String?
            /// Creates a source.
            public init(collection: String, item: String, session: String? = nil) {
                self.collection = collection
                self.item = item
                self.session = session
            }
        }

        /// One piece of external data.
        public struct External: Hashable, Sendable {
            public var kind: String
            public var value: String
            /// Creates external data.
            public init(kind: String, value: String) {
                self.kind = kind
                self.value = value
            }
        }

        /// Creates a drop request.
        public init(op: String? = nil, at: Point, source: Source? = nil, items: [External] = []) {
            self.op = op
            self.at = at
            self.source = source
            self.items = items
        }
    }

    /// One cell's measured size.
    public struct MeasuredSize: Hashable, Sendable {
        public var item: String
        public var size: Size
        /// Creates a measurement.
        public init(item: String, size: Size) {
            self.item = item
            self.size = size
        }
    }

    /// The `hello` message's fields.
    public struct Hello: Hashable, Sendable {
        public var version: Int
        public var viewport: Size
        public var offset: Point
        public var name: String?
        /// The last batch applied, to resume after a reconnect.
        public var lastSeq: Int?
        /// The server history `lastSeq` belongs to (from `welcome.epoch`).
        public var epoch: String?
        /// Ask for every section's item identifiers in order (for a full mirror).
        public var wantOrder: Bool
        /// Which collection to watch, on a server with several (nil: the first).
        public var collection: String?

        /// Creates a hello.
        public init(version: Int = protocolVersion, viewport: Size, offset: Point = Point(x: 0, y: 0), name: String? = nil,
                    lastSeq: Int? = nil, epoch: String? = nil, wantOrder: Bool = false, collection: String? = nil) {
            self.version = version
            self.viewport = viewport
            self.offset = offset
            self.name = name
            self.lastSeq = lastSeq
            self.epoch = epoch
            self.wantOrder = wantOrder
            self.collection = collection
        }
    }

    /// The `type` field of each message.
    public static let types = ["hello", "scroll", "select", "insert", "delete", "shuffle", "move", "reload", "focus", "drag",
                               "moveBegin", "moveUpdate", "moveEnd", "moveCancel", "layout", "measure",
                               "dropUpdate", "drop", "editing", "selectRange", "scrollToItem", "action",
                               "transitionBegin", "transitionUpdate", "transitionEnd", "dragBegin", "dragAdd", "dragEnd", "swipeActions", "swipeAction", "outline",
                               "accessory",
                               "contextMenu", "contextMenuAction", "contextMenuEnd"]
    /// The accessories an `accessory` message may name (UIKit's cell accessories).
    public static let accessoryKinds: Set<String> = ["disclosureIndicator", "checkmark", "delete", "insert", "reorder", "outlineDisclosure", "custom"]
    /// Most sections a `scroll` gives offsets for.
    public static let maxSectionOffsets = 100
    /// Most payload entries an `action` carries, and the longest value.
    public static let maxActionPayload = (entries: 16, valueBytes: 1_024)
    /// Kinds of external data a drop may carry.
    public static let externalKinds = ["text", "url", "file"]
    /// Types answered with `ack` or `reject` (edits, `moveEnd` and `drop`).
    public static let editTypes: Set<String> = ["insert", "delete", "shuffle", "move", "reload", "moveEnd", "drop"]

    /// Whether handling it may change a collection's contents: an edit, a move
    /// or drop ending, a handler the app runs (an action, a swipe or menu action, a
    /// selection or an outline its delegate may answer with a change). The rest
    /// only look or change what one viewer sees.
    public var mayChangeContents: Bool {
        switch self {
        case .edit, .moveEnd, .drop, .action, .swipeAction, .contextMenuAction, .select, .selectRange, .outline, .accessory: true
        default: false
        }
    }

    /// The op id the client chose, for edits.
    public var op: String? {
        switch self {
        case .edit(let request): request.op
        case .moveEnd(let op): op
        case .drop(let request): request.op
        default: nil
        }
    }
}
