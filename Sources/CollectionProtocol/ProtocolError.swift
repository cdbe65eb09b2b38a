/// Error codes sent in `error` messages (docs/PROTOCOL.md lists them).
public enum ErrorCode: String, Sendable, Codable, CaseIterable {
    /// The message is not JSON, or nests too deeply.
    case badJSON = "bad_json"
    /// A field is missing, of the wrong type, out of range, or unknown.
    case badMessage = "bad_message"
    /// The `type` is not one of this protocol version's.
    case unknownType = "unknown_type"
    /// A binary frame arrived; the protocol is text only.
    case binaryUnsupported = "binary_unsupported"
    /// A message other than `hello` came before `hello`.
    case notReady = "not_ready"
    /// `hello` asked for a protocol version the server does not speak.
    case unsupportedVersion = "unsupported_version"
    /// An item identifier that is not in the collection.
    case unknownItem = "unknown_item"
    /// A section identifier that is not in the collection.
    case unknownSection = "unknown_section"
    /// The edit would produce an invalid batch (the message says which counts disagree).
    case invalidBatch = "invalid_batch"
    /// The edit is refused by the data source (e.g. too many items).
    case refused = "refused"
    /// The data source says the item cannot move (`canMoveItemAt`).
    case notMovable = "not_movable"
    /// The edit's `ifSeq` is no longer the last sequence number.
    case stale = "stale"
    /// Too many messages per second from this client; the message was dropped.
    case rateLimited = "rate_limited"
    /// `moveUpdate` or `moveEnd` with no interactive movement under way.
    case notMoving = "not_moving"
    /// `transitionUpdate` or `transitionEnd` with no interactive transition under way.
    case notTransitioning = "not_transitioning"
    /// The item being moved was deleted by another viewer: the movement ended.
    case moveCancelled = "move_cancelled"
    /// The drop delegate does not allow this drop here (its proposal was forbidden or cancel).
    case dropForbidden = "drop_forbidden"
    /// The drop delegate deleted the placeholder it dropped (or its commit could not
    /// be taken): nothing was dropped.
    case dropCancelled = "drop_cancelled"
    /// `contextMenuAction` with no context menu open.
    case noMenu = "no_menu"
    /// `dragBegin` of an item the drag delegate gives no items for, or `dragAdd` with no drag under way.
    case notDraggable = "not_draggable"
    /// `hello` or a drop named a collection this server does not hold.
    case unknownCollection = "unknown_collection"
    /// The edit's `op` was already accepted for a different edit: a retry must
    /// repeat the same edit, and a new edit needs a new op id.
    case opReused = "op_reused"
    /// The edit could not be kept (the data folder is read-only, the disk is
    /// full): nothing changed, and viewers keep watching. Try again later.
    case storageUnavailable = "storage_unavailable"
    /// The database several servers share cannot be reached (the server connects
    /// again, with backoff): nothing changed, and viewers keep watching. Send the
    /// edit again once it is back.
    case unavailable
    /// This viewer's identity may not do that in this collection (view, select or edit).
    case forbidden
}

/// A client message that cannot be accepted; the model does not change.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Machine-readable code.
    public var code: ErrorCode
    /// Human-readable message naming what was wrong.
    public var message: String
    /// The op id of the refused edit, when the message was an edit with a readable
    /// `op` (even if the rest of it could not be decoded): it is answered `reject`.
    public var op: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of refusal (sent as the `error` message's `code`).
    ///   - message: Why, for the person (sent as its `message`).
    ///   - op: The refused edit's op id, when there was one.
    public init(_ code: ErrorCode, _ message: String, op: String? = nil) {
        self.code = code
        self.message = message
        self.op = op
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
