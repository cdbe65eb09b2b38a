/// Identifies one WebSocket connection for the life of a server.
public struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number lws's per-session data holds.
    public let rawValue: UInt64
    /// Wraps a raw identifier.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: ConnectionID, b: ConnectionID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "c\(rawValue)" }
}

/// What the transport reports, always on its service thread, in order per connection.
public enum WebSocketEvent: Sendable {
    /// A WebSocket handshake completed on `path` with the bound `subprotocol`;
    /// `credential` is what ``WebSocketServerConfiguration/admit`` accepted it with.
    case opened(ConnectionID, subprotocol: String, path: String, credential: (any Sendable)?)
    /// A whole message arrived (reassembled, size-checked, UTF-8 checked when text).
    case message(ConnectionID, [UInt8], binary: Bool)
    /// The connection is gone; no more events for it.
    case closed(ConnectionID)
    /// A turn of the service loop ended, in which at least one other event was
    /// reported: a place to send what was gathered during the turn.
    case turnEnded
}

/// WebSocket close codes the transport uses (RFC 6455 §7.4.1).
public enum CloseCode: Int32, Sendable {
    case normal = 1000
    case goingAway = 1001
    case protocolError = 1002
    case unsupportedData = 1003
    case invalidPayload = 1007
    case policyViolation = 1008
    case messageTooBig = 1009
    case internalError = 1011
}

/// Errors starting a server or client.
public enum TransportError: Error, CustomStringConvertible, Sendable {
    case cannotCreateContext(String)
    case connectFailed(String)
    case timedOut(String)
    case closed

    public var description: String {
        switch self {
        case .cannotCreateContext(let why): why
        case .connectFailed(let why): "connection failed: \(why)"
        case .timedOut(let what): "timed out waiting for \(what)"
        case .closed: "connection closed"
        }
    }
}

/// What a server's service thread waits on for its connections.
public enum EventLoop: String, Sendable {
    /// libev's epoll loop, through lws's libev plugin: a turn looks at the ready
    /// connections only.
    case epoll
    /// lws's own `poll()` loop, where that plugin is missing: a turn walks every connection.
    case poll
}
