import Foundation

/// The protocol version this code speaks; the WebSocket subprotocol is `collection.v1`.
public let protocolVersion = 1
/// The WebSocket subprotocol name.
public let subprotocolName = "collection.v1"
/// Largest client message accepted, in bytes (the transport closes with 1009 above it).
public let maxClientMessageBytes = 64 * 1024

/// A size in points.
public struct Size: Equatable, Sendable, Codable {
    public var width: Double
    public var height: Double
    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A point in content coordinates.
public struct Point: Equatable, Sendable, Codable {
    public var x: Double
    public var y: Double
    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Every message a client may send (protocol v1).
public enum ClientMessage: Equatable, Sendable {
    /// First message: who I am, how big my viewport is, where I am scrolled.
    case hello(Hello)
    /// The viewport scrolled or was resized.
    case scroll(offset: Point, viewport: Size?)
    /// Select or deselect an item.
    case select(item: String, selected: Bool)
    /// Insert `count` new items at the start of `section`.
    case insert(op: String?, section: String, count: Int)
    /// Delete these items.
    case delete(op: String?, items: [String])
    /// Shuffle the items of `section`.
    case shuffle(op: String?, section: String)

    /// The `hello` message's fields.
    public struct Hello: Equatable, Sendable {
        public var version: Int
        public var viewport: Size
        public var offset: Point
        public var name: String?
        public var lastSeq: Int?

        /// Creates a hello.
        public init(version: Int = protocolVersion, viewport: Size, offset: Point = Point(x: 0, y: 0), name: String? = nil, lastSeq: Int? = nil) {
            self.version = version
            self.viewport = viewport
            self.offset = offset
            self.name = name
            self.lastSeq = lastSeq
        }
    }

    /// The `type` field of each message.
    public static let types = ["hello", "scroll", "select", "insert", "delete", "shuffle"]

    /// Decodes one message strictly: unknown types and fields, wrong types,
    /// out-of-range numbers and oversize input are refused with a message
    /// that names the field.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> ClientMessage {
        guard bytes.count <= maxClientMessageBytes else {
            throw ProtocolError(.badMessage, "message is \(bytes.count) bytes; the limit is \(maxClientMessageBytes)")
        }
        var r = try FieldReader(JSONValue.parse(bytes), path: "")
        guard case .string(let type)? = r.fields["type"] else {
            throw ProtocolError(.badMessage, r.fields["type"] == nil ? "missing field 'type'" : "field 'type' must be a string")
        }
        let message: ClientMessage
        switch type {
        case "hello":
            let version = try r.optionalInteger("protocol", in: 0...1_000) ?? protocolVersion
            var v = try r.object("viewport")
            let viewport = Size(width: try v.number("width", in: 1...100_000), height: try v.number("height", in: 1...100_000))
            try v.finish()
            let offset = try point(r.optionalObject("offset")) ?? Point(x: 0, y: 0)
            let name = try r.optionalString("name", maxLength: 64)
            let lastSeq = try r.optionalInteger("lastSeq", in: 0...Int(Int32.max))
            message = .hello(Hello(version: version, viewport: viewport, offset: offset, name: name, lastSeq: lastSeq))
        case "scroll":
            let offset = try point(r.object("offset"))!
            var viewport: Size?
            if var v = try r.optionalObject("viewport") {
                viewport = Size(width: try v.number("width", in: 1...100_000), height: try v.number("height", in: 1...100_000))
                try v.finish()
            }
            message = .scroll(offset: offset, viewport: viewport)
        case "select":
            message = .select(item: try r.string("item"), selected: try r.bool("selected"))
        case "insert":
            message = .insert(op: try r.optionalString("op", maxLength: 64), section: try r.string("section"), count: try r.integer("count", in: 1...100))
        case "delete":
            message = .delete(op: try r.optionalString("op", maxLength: 64), items: try r.stringArray("items", count: 1...1_000))
        case "shuffle":
            message = .shuffle(op: try r.optionalString("op", maxLength: 64), section: try r.string("section"))
        default:
            throw ProtocolError(.unknownType, "unknown message type '\(type.prefix(64))'; expected one of \(types.joined(separator: ", "))")
        }
        try r.finish()
        return message
    }

    private static func point(_ reader: FieldReader?) throws(ProtocolError) -> Point? {
        guard var p = reader else { return nil }
        let point = Point(x: try p.number("x", in: -10_000_000...10_000_000), y: try p.number("y", in: -10_000_000...10_000_000))
        try p.finish()
        return point
    }

    /// The op id the client chose, for edits.
    public var op: String? {
        switch self {
        case .insert(let op, _, _), .delete(let op, _), .shuffle(let op, _): op
        default: nil
        }
    }
}
