import Foundation

/// One element placed by the layout, with what the browser needs to draw it.
public struct Element: Equatable, Sendable, Codable {
    /// Stable key: `i:<item id>` for cells, `h:<section id>` for headers.
    public var key: String
    /// `cell` or `header`.
    public var kind: String
    /// Reuse identifier: which template draws it.
    public var reuse: String
    /// Section index.
    public var section: Int
    /// Item index (cells only).
    public var item: Int?
    /// `[x, y, width, height]` in content coordinates.
    public var frame: [Double]
    /// Stacking order.
    public var zIndex: Int
    /// Opacity.
    public var alpha: Double
    /// Hidden elements are not drawn.
    public var hidden: Bool
    /// Content fields for the template.
    public var content: [String: String]

    /// Creates an element.
    public init(key: String, kind: String, reuse: String, section: Int, item: Int?, frame: [Double], zIndex: Int = 0, alpha: Double = 1, hidden: Bool = false, content: [String: String]) {
        self.key = key
        self.kind = kind
        self.reuse = reuse
        self.section = section
        self.item = item
        self.frame = frame
        self.zIndex = zIndex
        self.alpha = alpha
        self.hidden = hidden
        self.content = content
    }
}

/// A section's identity and size.
public struct SectionInfo: Equatable, Sendable, Codable {
    public var id: String
    public var title: String
    public var count: Int
    /// Creates section info.
    public init(id: String, title: String, count: Int) {
        self.id = id
        self.title = title
        self.count = count
    }
}

/// A viewer as others see it.
public struct ViewerInfo: Equatable, Sendable, Codable {
    public var id: String
    public var name: String
    public var color: String
    /// Creates viewer info.
    public init(id: String, name: String, color: String) {
        self.id = id
        self.name = name
        self.color = color
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

/// An item move in a batch: `[[fromSection, fromItem], [toSection, toItem]]`.
public typealias WireMove = [[Int]]

/// Every message the server sends (protocol v1). Encoded with a `type` field.
public enum ServerMessage: Equatable, Sendable {
    case welcome(Welcome)
    case window(Window)
    case batch(Batch)
    case ack(op: String, seq: Int)
    case selection(viewer: String, item: String, selected: Bool)
    case presence(viewers: [ViewerInfo])
    case error(code: ErrorCode, message: String, op: String?)

    /// The answer to `hello`.
    public struct Welcome: Equatable, Sendable, Codable {
        public var type = "welcome"
        public var protocolVersion = 1
        public var viewer: ViewerInfo
        public var seq: Int
        public var contentSize: Size
        public var sections: [SectionInfo]
        public var elements: [Element]
        public var selections: [SelectionInfo]
        public var viewers: [ViewerInfo]

        enum CodingKeys: String, CodingKey {
            case type, protocolVersion = "protocol", viewer, seq, contentSize, sections, elements, selections, viewers
        }

        /// Creates a welcome.
        public init(viewer: ViewerInfo, seq: Int, contentSize: Size, sections: [SectionInfo], elements: [Element], selections: [SelectionInfo], viewers: [ViewerInfo]) {
            self.viewer = viewer
            self.seq = seq
            self.contentSize = contentSize
            self.sections = sections
            self.elements = elements
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
        /// Creates a window update.
        public init(contentSize: Size, add: [Element], remove: [String]) {
            self.contentSize = contentSize
            self.add = add
            self.remove = remove
        }
    }

    /// One numbered change to the model, in this viewer's index paths and layout.
    public struct Batch: Equatable, Sendable, Codable {
        public var type = "batch"
        public var seq: Int
        /// The viewer whose edit this was.
        public var by: String
        public var deletes: [[Int]]
        /// Identifiers of the deleted items.
        public var deletedIds: [String]
        public var inserts: [[Int]]
        public var moves: [WireMove]
        public var sections: [SectionInfo]
        public var contentSize: Size
        /// Every element in the window after the batch (new attributes for all).
        public var elements: [Element]
        /// Keys that were in the window before and are not after.
        public var remove: [String]
        /// Creates a batch.
        public init(seq: Int, by: String, deletes: [[Int]], deletedIds: [String], inserts: [[Int]], moves: [WireMove], sections: [SectionInfo], contentSize: Size, elements: [Element], remove: [String]) {
            self.seq = seq
            self.by = by
            self.deletes = deletes
            self.deletedIds = deletedIds
            self.inserts = inserts
            self.moves = moves
            self.sections = sections
            self.contentSize = contentSize
            self.elements = elements
            self.remove = remove
        }
    }

    private struct Ack: Codable { var type = "ack"; var op: String; var seq: Int }
    private struct Selection: Codable { var type = "selection"; var viewer: String; var item: String; var selected: Bool }
    private struct Presence: Codable { var type = "presence"; var viewers: [ViewerInfo] }
    private struct ErrorBody: Codable { var type = "error"; var code: ErrorCode; var message: String; var op: String? }

    /// The JSON text of this message as UTF-8 bytes.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data: Data
        do {
            switch self {
            case .welcome(let w): data = try encoder.encode(w)
            case .window(let w): data = try encoder.encode(w)
            case .batch(let b): data = try encoder.encode(b)
            case .ack(let op, let seq): data = try encoder.encode(Ack(op: op, seq: seq))
            case .selection(let v, let i, let s): data = try encoder.encode(Selection(viewer: v, item: i, selected: s))
            case .presence(let viewers): data = try encoder.encode(Presence(viewers: viewers))
            case .error(let code, let message, let op): data = try encoder.encode(ErrorBody(code: code, message: message, op: op))
            }
        } catch {
            preconditionFailure("encoding a server message cannot fail: \(error)")
        }
        return [UInt8](data)
    }
}
