import CollectionProtocol
import MessageBytes

/// A message for one viewer (the transport connection's raw key).
public struct Outgoing: Sendable, Equatable {
    /// Which viewer.
    public var viewer: UInt64
    /// What to send.
    public var message: ServerMessage
    /// The message's encoding, once made (at once for a message several viewers get).
    private var encoding: SplicedBytes?

    /// Creates an outgoing message; `encodeNow` encodes it at once (for a message
    /// that goes to several viewers: copies made with ``init(viewer:sameAs:)`` share it).
    public init(viewer: UInt64, message: ServerMessage, encodeNow: Bool = false) {
        self.viewer = viewer
        self.message = message
        encoding = encodeNow ? message.encodedMessage() : nil
    }

    /// The same message (and encoding) as `other`, for another viewer.
    public init(viewer: UInt64, sameAs other: Outgoing) {
        self = other
        self.viewer = viewer
    }

    /// A refusal of a message from `key`: by op when the message had a readable
    /// op id (`reject`), else an `error`.
    package static func refusal(_ error: ProtocolError, to key: UInt64) -> Outgoing {
        if let op = error.op { return Outgoing(viewer: key, message: .reject(op: op, code: error.code, message: error.message)) }
        return Outgoing(viewer: key, message: .error(code: error.code, message: error.message, op: nil))
    }

    /// Encodes the message now (if it was not), so that ``bytes`` costs nothing more.
    public mutating func encode() {
        if encoding == nil { encoding = message.encodedMessage() }
    }

    /// ``encode()``, written in `writer`'s buffer before it is copied out.
    mutating func encode(using writer: inout JSONWriter) {
        if encoding == nil { encoding = message.encodedMessage(using: &writer) }
    }

    /// The bytes to send.
    public var bytes: [UInt8] { encoding?.joined() ?? message.encoded() }

    /// The bytes to send, a batch's members shared by its viewers apart (see
    /// ``SplicedBytes``): what a server hands its transport.
    public var encodedMessage: SplicedBytes { encoding ?? message.encodedMessage() }

    /// How many bytes the message takes (read in place once encoded: no copy of it,
    /// so no retain of its buffers).
    public var byteCount: Int {
        if let count = encoding?.count { return count }
        return message.encodedMessage().count
    }

    /// Same viewer and message (how it was encoded does not matter).
    public static func == (a: Outgoing, b: Outgoing) -> Bool { a.viewer == b.viewer && a.message == b.message }
}
