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

    /// Decodes one message strictly: unknown types and fields, wrong types,
    /// out-of-range numbers and oversize input are refused with a message
    /// that names the field.
    /// A refused edit whose `op` could be read carries it in the error (``ProtocolError/op``),
    /// so that it is answered with `reject`, like any other refused edit.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> ClientMessage {
        guard bytes.count <= maxClientMessageBytes else {
            throw ProtocolError(.badMessage, "message is \(bytes.count) bytes; the limit is \(maxClientMessageBytes)")
        }
        let value = try JSONValue.parse(bytes)
        do throws(ProtocolError) {
            return try decode(value)
        } catch {
            var refused = error
            refused.op = editOp(in: value)
            throw refused
        }
    }

    /// Types answered with `ack` or `reject` (edits, `moveEnd` and `drop`).
    public static let editTypes: Set<String> = ["insert", "delete", "shuffle", "move", "reload", "moveEnd", "drop"]

    /// The `op` of an edit, read leniently from a message that may not decode: the
    /// message is a JSON object whose `type` is an edit type (or `action`) and whose `op` is a
    /// string of at most 64 bytes. Nil otherwise.
    public static func editOp(in bytes: [UInt8]) -> String? {
        guard bytes.count <= maxClientMessageBytes, let value = try? JSONValue.parse(bytes) else { return nil }
        return editOp(in: value)
    }

    private static func editOp(in value: JSONValue) -> String? {
        guard case .object(let fields) = value, case .string(let type)? = fields["type"], editTypes.contains(type) || type == "action",
              case .string(let op)? = fields["op"], op.utf8.count <= 64 else { return nil }
        return op
    }

    private static func decode(_ value: JSONValue) throws(ProtocolError) -> ClientMessage {
        var r = try FieldReader(value, path: "")
        guard case .string(let type)? = r.fields["type"] else {
            throw ProtocolError(.badMessage, r.fields["type"] == nil ? "missing field 'type'" : "field 'type' must be a string")
        }
        let message: ClientMessage
        switch type {
        case "hello":
            let version = try r.optionalInteger("protocol", in: 0...1_000) ?? protocolVersion
            let viewport = try size(r.object("viewport"))
            let offset = try point(r.optionalObject("offset")) ?? Point(x: 0, y: 0)
            let name = try r.optionalString("name", maxLength: 64)
            let lastSeq = try r.optionalInteger("lastSeq", in: 0...Int(Int32.max))
            let epoch = try r.optionalString("epoch", maxLength: 64)
            let wantOrder = try r.optionalBool("wantOrder") ?? false
            let collection = try r.optionalString("collection", maxLength: 64)
            message = .hello(Hello(version: version, viewport: viewport, offset: offset, name: name, lastSeq: lastSeq, epoch: epoch,
                                   wantOrder: wantOrder, collection: collection))
        case "scroll":
            let offset = try point(r.object("offset"))!
            let viewport = try r.optionalObject("viewport").map { reader throws(ProtocolError) in try size(reader) }
            var sectionOffsets: [String: Double] = [:]
            if var offsets = try r.optionalObject("sectionOffsets") {
                guard offsets.fields.count <= maxSectionOffsets else {
                    throw ProtocolError(.badMessage, "field 'sectionOffsets' holds \(offsets.fields.count) sections; the limit is \(maxSectionOffsets)")
                }
                for key in offsets.fields.keys.sorted() {
                    guard key.utf8.count <= 200 else { throw ProtocolError(.badMessage, "field 'sectionOffsets' names a section id longer than 200 bytes") }
                    sectionOffsets[key] = try offsets.number(key, in: 0...10_000_000)
                }
                try offsets.finish()
            }
            message = .scroll(offset: offset, viewport: viewport, sectionOffsets: sectionOffsets)
        case "select":
            message = .select(item: try r.string("item"), selected: try r.bool("selected"))
        case "focus":
            message = .focus(item: try r.optionalString("item"))
        case "drag":
            let item = try r.optionalString("item")
            let x = try r.optionalNumber("x", in: -10_000_000...10_000_000) ?? 0
            let y = try r.optionalNumber("y", in: -10_000_000...10_000_000) ?? 0
            message = .drag(item: item, at: Point(x: x, y: y))
        case "moveBegin":
            message = .moveBegin(item: try r.string("item"))
        case "moveUpdate":
            message = .moveUpdate(at: Point(x: try r.number("x", in: -10_000_000...10_000_000), y: try r.number("y", in: -10_000_000...10_000_000)))
        case "moveEnd":
            message = .moveEnd(op: try r.optionalString("op", maxLength: 64))
        case "moveCancel":
            message = .moveCancel
        case "layout":
            message = .layout(name: try r.string("name", maxLength: 64))
        case "dragBegin", "dragAdd":
            let item = try r.string("item")
            let at = Point(x: try r.number("x", in: -10_000_000...10_000_000), y: try r.number("y", in: -10_000_000...10_000_000))
            message = type == "dragBegin" ? .dragBegin(item: item, at: at) : .dragAdd(item: item, at: at)
        case "dragEnd":
            message = .dragEnd
        case "outline":
            message = .outline(item: try r.string("item"), expanded: try r.bool("expanded"))
        case "accessory":
            let item = try r.string("item")
            let name = try r.string("name", maxLength: 32)
            guard Self.accessoryKinds.contains(name) else {
                throw ProtocolError(.badMessage, "field 'name' must name a cell accessory (\(Self.accessoryKinds.sorted().joined(separator: ", "))), not '\(name.prefix(32))'")
            }
            message = .accessory(item: item, name: name)
        case "contextMenu":
            let items = try r.stringArray("items", count: 0...1_000)
            guard Set(items).count == items.count else { throw ProtocolError(.badMessage, "field 'items' names an item twice") }
            message = .contextMenu(items: items, at: Point(x: try r.number("x", in: -10_000_000...10_000_000), y: try r.number("y", in: -10_000_000...10_000_000)))
        case "contextMenuAction":
            message = .contextMenuAction(path: try r.integerArray("path", count: 1...8, in: 0...255))
        case "contextMenuEnd":
            message = .contextMenuEnd
        case "swipeActions", "swipeAction":
            let item = try r.string("item")
            let edge = try r.string("edge", maxLength: 16)
            guard edge == "leading" || edge == "trailing" else {
                throw ProtocolError(.badMessage, "field 'edge' must be leading or trailing, not '\(edge.prefix(16))'")
            }
            message = type == "swipeActions" ? .swipeActions(item: item, trailing: edge == "trailing")
                : .swipeAction(item: item, trailing: edge == "trailing", index: try r.integer("index", in: 0...64))
        case "transitionBegin":
            message = .transitionBegin(layout: try r.string("layout", maxLength: 64))
        case "transitionUpdate":
            message = .transitionUpdate(progress: try r.number("progress", in: 0...1))
        case "transitionEnd":
            message = .transitionEnd(finish: try r.bool("finish"))
        case "measure":
            var sizes: [MeasuredSize] = []
            for var entry in try r.objectArray("sizes", count: 1...500) {
                sizes.append(MeasuredSize(item: try entry.string("item"), size: Size(width: try entry.number("width", in: 1...100_000),
                                                                                     height: try entry.number("height", in: 1...100_000))))
                try entry.finish()
            }
            message = .measure(sizes)
        case "dropUpdate", "drop":
            let request = try dropRequest(&r, hovering: type == "dropUpdate")
            message = type == "drop" ? .drop(request) : .dropUpdate(request)
        case "editing":
            message = .editing(try r.bool("on"))
        case "selectRange":
            message = .selectRange(from: try r.string("from"), to: try r.string("to"), selected: try r.optionalBool("selected") ?? true,
                                   replace: try r.optionalBool("replace") ?? false)
        case "scrollToItem":
            let item = try r.string("item")
            let raw = try r.optionalString("position", maxLength: 16) ?? "nearest"
            guard let position = ScrollTarget(rawValue: raw) else {
                throw ProtocolError(.badMessage, "field 'position' must be one of top, center, bottom, nearest, not '\(raw.prefix(16))'")
            }
            message = .scrollToItem(item: item, position: position)
        case "action":
            let name = try r.string("name", maxLength: 64)
            guard !name.isEmpty else { throw ProtocolError(.badMessage, "field 'name' must not be empty") }
            let item = try r.optionalString("item")
            let op = try r.optionalString("op", maxLength: 64)
            var payload: [String: String] = [:]
            if let p = try r.optionalObject("payload") {
                guard p.fields.count <= maxActionPayload.entries else {
                    throw ProtocolError(.badMessage, "field 'payload' holds \(p.fields.count) entries; the limit is \(maxActionPayload.entries)")
                }
                for (key, value) in p.fields {
                    guard key.utf8.count <= 64, case .string(let text) = value, text.utf8.count <= maxActionPayload.valueBytes else {
                        throw ProtocolError(.badMessage, "field 'payload.\(key.prefix(64))' must be a string of at most \(maxActionPayload.valueBytes) bytes (keys at most 64)")
                    }
                    payload[key] = text
                }
            }
            message = .action(name: name, item: item, payload: payload, op: op)
        case "insert", "delete", "shuffle", "move", "reload":
            let op = try r.optionalString("op", maxLength: 64)
            let ifSeq = try r.optionalInteger("ifSeq", in: 0...Int(Int32.max))
            let action: EditAction
            switch type {
            case "insert": action = .insert(section: try r.string("section"), count: try r.integer("count", in: 1...100))
            case "delete":
                let items = try r.stringArray("items", count: 1...1_000)
                guard Set(items).count == items.count else { throw ProtocolError(.badMessage, "field 'items' names an item twice") }
                action = .delete(items: items)
            case "shuffle": action = .shuffle(section: try r.string("section"))
            case "move": action = .move(item: try r.string("item"), section: try r.string("section"), after: try r.optionalString("after"))
            default: action = .reload(items: try r.stringArray("items", count: 1...1_000))
            }
            message = .edit(EditRequest(op: op, ifSeq: ifSeq, action: action))
        default:
            throw ProtocolError(.unknownType, "unknown message type '\(type.prefix(64))'; expected one of \(types.joined(separator: ", "))")
        }
        try r.finish()
        return message
    }

    /// `source` (an item here) or `items` (external data), exactly one of them.
    private static func dropRequest(_ r: inout FieldReader, hovering: Bool) throws(ProtocolError) -> DropRequest {
        let op = hovering ? nil : try r.optionalString("op", maxLength: 64)
        let at = Point(x: try r.number("x", in: -10_000_000...10_000_000), y: try r.number("y", in: -10_000_000...10_000_000))
        var source: DropRequest.Source?
        if var s = try r.optionalObject("source") {
            source = DropRequest.Source(collection: try s.string("collection", maxLength: 64), item: try s.string("item"),
                                        session: try s.optionalString("session", maxLength: 64))
            try s.finish()
        }
        var items: [DropRequest.External] = []
        if r.fields["items"] != nil {
            for var entry in try r.objectArray("items", count: 1...20) {
                let kind = try entry.string("kind", maxLength: 8)
                guard externalKinds.contains(kind) else {
                    throw ProtocolError(.badMessage, "field '\(entry.path).kind' must be one of \(externalKinds.joined(separator: ", ")), not '\(kind.prefix(16))'")
                }
                // While hovering, browsers show only the kinds; the values come with the drop.
                let value = hovering ? (try entry.optionalString("value", maxLength: 2_000) ?? "") : try entry.string("value", maxLength: 2_000)
                items.append(DropRequest.External(kind: kind, value: value))
                try entry.finish()
            }
        }
        guard (source == nil) != items.isEmpty else {
            throw ProtocolError(.badMessage, "a \(hovering ? "dropUpdate" : "drop") carries either 'source' (an item here) or 'items' (external data), exactly one")
        }
        return DropRequest(op: op, at: at, source: source, items: items)
    }

    private static func size(_ reader: FieldReader) throws(ProtocolError) -> Size {
        var v = reader
        let size = Size(width: try v.number("width", in: 1...100_000), height: try v.number("height", in: 1...100_000))
        try v.finish()
        return size
    }

    private static func point(_ reader: FieldReader?) throws(ProtocolError) -> Point? {
        guard var p = reader else { return nil }
        let point = Point(x: try p.number("x", in: -10_000_000...10_000_000), y: try p.number("y", in: -10_000_000...10_000_000))
        try p.finish()
        return point
    }

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
