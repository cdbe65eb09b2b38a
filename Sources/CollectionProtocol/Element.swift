/// One element placed by the layout, with what the browser needs to draw it.
///
/// A value type whose members live in one shared box, copied only when a copy is
/// changed: a server copies each element several times on its way to a viewer
/// (its window, what was sent, the batch), and a copy is then one reference.
public struct Element: Equatable, Sendable, Codable {
    private final class Box: @unchecked Sendable {   // never changed once shared: see `unique()`
        var key: String
        var kind: String
        var reuse: String
        var section: Int
        var item: Int?
        /// The frame's four numbers, kept in place (no array to make per element),
        /// or `otherFrame` for a frame that is not four numbers (only ever decoded).
        var x: Double, y: Double, width: Double, height: Double
        var otherFrame: [Double]?
        var zIndex: Int
        var alpha: Double
        var hidden: Bool
        var transform: [Double]?
        var content: [String: String]
        /// `"key":…,"kind":…,"reuse":…` and `"content":{…}` as JSON, once made (they
        /// stay as the element moves; nil until ``Element/prepareEncoding()``).
        var encodedHead: [UInt8]?
        var encodedContent: [UInt8]?

        init(key: String, kind: String, reuse: String, section: Int, item: Int?, frame: [Double], zIndex: Int, alpha: Double, hidden: Bool,
             transform: [Double]?, content: [String: String]) {
            self.key = key
            self.kind = kind
            self.reuse = reuse
            self.section = section
            self.item = item
            if frame.count == 4 {
                (x, y, width, height) = (frame[0], frame[1], frame[2], frame[3])
                otherFrame = nil
            } else {
                (x, y, width, height) = (0, 0, 0, 0)
                otherFrame = frame
            }
            self.zIndex = zIndex
            self.alpha = alpha
            self.hidden = hidden
            self.transform = transform
            self.content = content
        }

        func copy() -> Box {
            let box = Box(key: key, kind: kind, reuse: reuse, section: section, item: item, frame: otherFrame ?? [x, y, width, height],
                          zIndex: zIndex, alpha: alpha, hidden: hidden, transform: transform, content: content)
            box.encodedHead = encodedHead
            box.encodedContent = encodedContent
            return box
        }
    }

    private var box: Box

    private mutating func unique() {
        if !isKnownUniquelyReferenced(&box) { box = box.copy() }
    }

    /// Stable key: `i:<item id>` for cells, `h:<section id>` for headers.
    public var key: String {
        get { box.key }
        set { unique(); box.key = newValue; box.encodedHead = nil }
    }
    /// `cell` or `header`.
    public var kind: String {
        get { box.kind }
        set { unique(); box.kind = newValue; box.encodedHead = nil }
    }
    /// Reuse identifier: which template draws it.
    public var reuse: String {
        get { box.reuse }
        set { unique(); box.reuse = newValue; box.encodedHead = nil }
    }
    /// Section index.
    public var section: Int {
        get { box.section }
        set { unique(); box.section = newValue }
    }
    /// Item index (cells only).
    public var item: Int? {
        get { box.item }
        set { unique(); box.item = newValue }
    }
    /// `[x, y, width, height]` in content coordinates.
    public var frame: [Double] {
        get { box.otherFrame ?? [box.x, box.y, box.width, box.height] }
        set {
            unique()
            if newValue.count == 4 {
                (box.x, box.y, box.width, box.height) = (newValue[0], newValue[1], newValue[2], newValue[3])
                box.otherFrame = nil
            } else {
                box.otherFrame = newValue
            }
        }
    }

    /// The frame's four numbers (nil: a frame of another length).
    var frameNumbers: (x: Double, y: Double, width: Double, height: Double)? {
        box.otherFrame == nil ? (box.x, box.y, box.width, box.height) : nil
    }

    /// Whether the frame is `[x, y, width, height]`.
    package func hasFrame(x: Double, y: Double, width: Double, height: Double) -> Bool {
        box.otherFrame == nil && box.x == x && box.y == y && box.width == width && box.height == height
    }
    /// Stacking order, within ±``Element/zIndexBound`` (CSS's and JavaScript's safe range).
    public var zIndex: Int {
        get { box.zIndex }
        set { unique(); box.zIndex = newValue }
    }
    /// Opacity.
    public var alpha: Double {
        get { box.alpha }
        set { unique(); box.alpha = newValue }
    }
    /// Hidden elements are not drawn.
    public var hidden: Bool {
        get { box.hidden }
        set { unique(); box.hidden = newValue }
    }
    /// An affine transform about the element's center, `[a, b, c, d, tx, ty]`
    /// (absent: none), as a layout's attributes set it.
    public var transform: [Double]? {
        get { box.transform }
        set { unique(); box.transform = newValue }
    }
    /// Content fields for the template.
    public var content: [String: String] {
        get { box.content }
        set { unique(); box.content = newValue; box.encodedContent = nil }
    }

    /// The largest stacking order sent: layouts may use any `Int` (UIKit's moving
    /// item sits at a huge zIndex), but CSS takes 32-bit integers.
    public static let zIndexBound = 2_147_483_647

    /// Creates an element.
    public init(key: String, kind: String, reuse: String, section: Int, item: Int?, frame: [Double], zIndex: Int = 0, alpha: Double = 1, hidden: Bool = false, transform: [Double]? = nil, content: [String: String]) {
        box = Box(key: key, kind: kind, reuse: reuse, section: section, item: item, frame: frame,
                  zIndex: min(max(zIndex, -Self.zIndexBound), Self.zIndexBound), alpha: alpha, hidden: hidden, transform: transform, content: content)
    }

    /// The same element at another place: only the members a layout sets change.
    /// (One box made, the strings and content shared.)
    package func placed(section: Int, item: Int?, x: Double, y: Double, width: Double, height: Double, zIndex: Int, alpha: Double, hidden: Bool,
                        transform: [Double]?) -> Element {
        var e = self
        e.box = Box(key: box.key, kind: box.kind, reuse: box.reuse, section: section, item: item, frame: [],
                    zIndex: min(max(zIndex, -Self.zIndexBound), Self.zIndexBound), alpha: alpha, hidden: hidden, transform: transform, content: box.content)
        (e.box.x, e.box.y, e.box.width, e.box.height, e.box.otherFrame) = (x, y, width, height, nil)
        e.box.encodedHead = box.encodedHead
        e.box.encodedContent = box.encodedContent
        return e
    }

    /// Encodes the members that stay as the element moves (its key, kind, reuse
    /// identifier and content) now, for every message it goes into and every copy
    /// ``placed(section:item:x:y:width:height:zIndex:alpha:hidden:transform:)`` makes of it.
    package mutating func prepareEncoding() {
        guard box.encodedHead == nil || box.encodedContent == nil else { return }
        unique()
        var head = JSONWriter(capacity: 128)
        head.beginObject()
        head.elementHead(key: box.key, kind: box.kind, reuse: box.reuse)
        head.endObject()
        box.encodedHead = head.membersOfObject
        var content = JSONWriter(capacity: 128)
        content.beginObject()
        content.elementContent(box.content)
        content.endObject()
        box.encodedContent = content.membersOfObject
    }

    /// ``prepareEncoding()``, taking the JSON from `cache` when an element with the
    /// same key, kind, reuse identifier and content was prepared before (every viewer
    /// of a collection sends the same items), and leaving it there otherwise.
    package mutating func prepareEncoding(using cache: ElementEncodingCache) {
        guard box.encodedHead == nil || box.encodedContent == nil else { return }
        if let known = cache.entries[box.key], known.kind == box.kind, known.reuse == box.reuse, known.content == box.content {
            unique()
            box.encodedHead = known.head
            box.encodedContent = known.body
            return
        }
        prepareEncoding()
        if cache.entries.count >= ElementEncodingCache.capacity { cache.entries.removeAll(keepingCapacity: true) }
        cache.entries[box.key] = ElementEncodingCache.Entry(kind: box.kind, reuse: box.reuse, content: box.content,
                                                            head: box.encodedHead ?? [], body: box.encodedContent ?? [])
    }

    /// What ``prepareEncoding()`` made (nil: not made).
    var encodedParts: (head: [UInt8], content: [UInt8])? {
        guard let head = box.encodedHead, let content = box.encodedContent else { return nil }
        return (head, content)
    }

    /// Whether both are the very same value (one box): true means equal, false may
    /// still be equal.
    package func isSameValue(as other: Element) -> Bool { box === other.box }

    public static func == (a: Element, b: Element) -> Bool {
        if a.box === b.box { return true }
        let x = a.box, y = b.box
        return x.section == y.section && x.item == y.item && x.x == y.x && x.y == y.y && x.width == y.width && x.height == y.height
            && x.otherFrame == y.otherFrame && x.zIndex == y.zIndex && x.alpha == y.alpha
            && x.hidden == y.hidden && x.transform == y.transform && x.key == y.key && x.kind == y.kind && x.reuse == y.reuse && x.content == y.content
    }

    private enum CodingKeys: String, CodingKey {
        case key, kind, reuse, section, item, frame, zIndex, alpha, hidden, transform, content
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        box = Box(key: try c.decode(String.self, forKey: .key), kind: try c.decode(String.self, forKey: .kind),
                  reuse: try c.decode(String.self, forKey: .reuse), section: try c.decode(Int.self, forKey: .section),
                  item: try c.decodeIfPresent(Int.self, forKey: .item), frame: try c.decode([Double].self, forKey: .frame),
                  zIndex: try c.decode(Int.self, forKey: .zIndex), alpha: try c.decode(Double.self, forKey: .alpha),
                  hidden: try c.decode(Bool.self, forKey: .hidden), transform: try c.decodeIfPresent([Double].self, forKey: .transform),
                  content: try c.decode([String: String].self, forKey: .content))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(kind, forKey: .kind)
        try c.encode(reuse, forKey: .reuse)
        try c.encode(section, forKey: .section)
        try c.encodeIfPresent(item, forKey: .item)
        try c.encode(frame, forKey: .frame)
        try c.encode(zIndex, forKey: .zIndex)
        try c.encode(alpha, forKey: .alpha)
        try c.encode(hidden, forKey: .hidden)
        try c.encodeIfPresent(transform, forKey: .transform)
        try c.encode(content, forKey: .content)
    }
}

/// The JSON of elements' fixed members by element key, shared by the viewers of one
/// collection (used from the one thread that serves them): the same item's content is
/// encoded once, not once per viewer. Holds at most ``capacity`` entries (then starts over).
package final class ElementEncodingCache {
    struct Entry {
        var kind: String
        var reuse: String
        var content: [String: String]
        var head: [UInt8]
        var body: [UInt8]
    }

    var entries: [String: Entry] = [:]
    static let capacity = 20_000

    package init() {}
}
