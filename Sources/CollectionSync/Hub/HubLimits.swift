/// Limits on what one client may ask, and on what one collection holds. Each has a
/// default; docs/PROTOCOL.md lists them.
public struct HubLimits: Sendable {
    /// Most items the collection may hold: an insert or drop past it is `refused`.
    public var maxItems = 100_000
    /// Messages per second per client, on average.
    public var messagesPerSecond: Double = 200
    /// Messages a client may send at once.
    public var messageBurst: Double = 400
    /// Bytes per second the server may send because of one client's messages (its
    /// windows, and every copy of the batches and selections it causes), on average.
    /// A client past it has its messages dropped (`rate_limited`) until it is back
    /// under: limiting by cost, not by count, so that cheap-to-send, expensive-to-answer
    /// messages cannot crowd out the other viewers.
    public var outputBytesPerSecond: Double = 16 * 1024 * 1024
    /// Bytes of such output a client may cause at once.
    public var outputBurst: Double = 32 * 1024 * 1024
    /// Seconds of the server's time per second that one client's messages may take
    /// (handling them, and performing, laying out and encoding what they cause for
    /// every viewer), on average. Past it, its messages are dropped (`rate_limited`)
    /// until it is back under: no client can take the whole server.
    public var serverTimeShare: Double = 0.25
    /// Seconds of the server's time one client's messages may take at once.
    public var serverTimeBurst: Double = 0.5
    /// Batches kept for resuming clients.
    public var replayLogCapacity = 1_000
    /// Accepted op ids remembered, so that a retried edit gets its first ack.
    public var rememberedOps = 10_000
    /// Most items one `selectRange` may cover.
    public var maxRangeSelection = 10_000
    /// The largest viewport the server lays out for, each way: a larger one is laid
    /// out at this size.
    public var maxViewport: Double = 4_096
    /// The most elements one window may hold: a viewport whose window would hold more
    /// gets a window with less above and below it (and, past that, a shorter one).
    public var maxWindowElements = 2_000

    /// The defaults.
    public init() {}
}

/// The edits viewers may send (`edit` messages and the moves they make by hand).
public struct ViewerEdits: OptionSet, Sendable, Hashable {
    /// The set's bits.
    public let rawValue: Int
    /// Creates a set from its raw bits.
    /// - Parameter rawValue: The bits, as the static members have them.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `insert`: new items made by the hub's item factory.
    public static let insert = ViewerEdits(rawValue: 1)
    /// `delete`.
    public static let delete = ViewerEdits(rawValue: 2)
    /// `shuffle`.
    public static let shuffle = ViewerEdits(rawValue: 4)
    /// `reload`.
    public static let reload = ViewerEdits(rawValue: 8)
    /// `move`, `moveEnd` and drops that reorder (each item still asks `canMoveItemAt`).
    public static let move = ViewerEdits(rawValue: 16)
    /// Every edit.
    public static let all: ViewerEdits = [.insert, .delete, .shuffle, .reload, .move]
}
