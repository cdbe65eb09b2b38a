import CollectionCore

/// One element placed by the layout, with what the browser needs to draw it.
///
/// A value type: its place (section, item, frame, stacking, opacity) is held in
/// line, and what stays as it moves (key, kind, reuse identifier, content, and their
/// JSON once made) in one shared, unchanging ``Element/Identity``. A server copies
/// each element several times on its way to a viewer (its window, what was sent,
/// the batch), and every viewer of a collection shows the same items: a copy or a
/// new place makes no object, and the viewers of one item share its identity.
public struct Element: Equatable, Sendable, Codable {
    /// What stays as an element moves, never changed once made (a change makes
    /// another): shared by the element's copies and by every viewer's element of
    /// the same item.
    package final class Identity: Sendable {
        /// The key, its hash worked out once (the tables of every viewer's window are
        /// keyed by it).
        package let hashedKey: HashedString
        var key: String { hashedKey.string }
        let kind: String
        package let reuse: String
        package let content: [String: String]
        /// `"key":…,"kind":…,"reuse":…` and `"content":{…}` as JSON (nil until
        /// ``Element/prepareEncoding()``).
        let encodedHead: [UInt8]?
        let encodedContent: [UInt8]?

        convenience init(key: String, kind: String, reuse: String, content: [String: String], encodedHead: [UInt8]? = nil, encodedContent: [UInt8]? = nil) {
            self.init(hashedKey: HashedString(key), kind: kind, reuse: reuse, content: content, encodedHead: encodedHead, encodedContent: encodedContent)
        }

        init(hashedKey: HashedString, kind: String, reuse: String, content: [String: String], encodedHead: [UInt8]? = nil, encodedContent: [UInt8]? = nil) {
            self.hashedKey = hashedKey
            self.kind = kind
            self.reuse = reuse
            self.content = content
            self.encodedHead = encodedHead
            self.encodedContent = encodedContent
        }

        /// The same identity with its JSON made.
        func encoded() -> Identity {
            var head = JSONWriter(capacity: 128)
            head.beginObject()
            head.elementHead(key: key, kind: kind, reuse: reuse)
            head.endObject()
            var body = JSONWriter(capacity: 128)
            body.beginObject()
            body.elementContent(content)
            body.endObject()
            return Identity(hashedKey: hashedKey, kind: kind, reuse: reuse, content: content, encodedHead: head.membersOfObject, encodedContent: body.membersOfObject)
        }

        package func same(kind: String, reuse: String, content: [String: String]) -> Bool {
            self.kind == kind && self.reuse == reuse && self.content == content
        }
    }

    /// Members rarely set: a frame not of four numbers (only ever decoded) and a transform.
    final class Extras: Sendable {
        let otherFrame: [Double]?
        let transform: [Double]?

        private init(otherFrame: [Double]?, transform: [Double]?) {
            self.otherFrame = otherFrame
            self.transform = transform
        }

        /// Extras holding these (nil when both are: no object made).
        static func make(otherFrame: [Double]?, transform: [Double]?) -> Extras? {
            otherFrame == nil && transform == nil ? nil : Extras(otherFrame: otherFrame, transform: transform)
        }
    }

    /// What stays as the element moves (shared by its copies).
    package private(set) var identity: Identity
    /// Section index.
    public var section: Int
    var itemIndex: Int
    var hasItem: Bool
    /// The frame's four numbers, in line (no array per element), unless `extras`
    /// holds a frame of another length.
    var x: Double, y: Double, width: Double, height: Double
    /// Stacking order, within ±``Element/zIndexBound`` (CSS's and JavaScript's safe range).
    public var zIndex: Int
    /// Opacity.
    public var alpha: Double
    /// Hidden elements are not drawn.
    public var hidden: Bool
    var extras: Extras?

    /// The key, its hash worked out once (see ``HashedString``).
    package var hashedKey: HashedString { identity.hashedKey }

    /// Stable key: `i:<item id>` for cells, `h:<section id>` for headers.
    public var key: String {
        get { identity.key }
        set { identity = Identity(key: newValue, kind: identity.kind, reuse: identity.reuse, content: identity.content) }
    }
    /// `cell` or `header`.
    public var kind: String {
        get { identity.kind }
        set { identity = Identity(key: identity.key, kind: newValue, reuse: identity.reuse, content: identity.content) }
    }
    /// Reuse identifier: which template draws it.
    public var reuse: String {
        get { identity.reuse }
        set { identity = Identity(key: identity.key, kind: identity.kind, reuse: newValue, content: identity.content) }
    }
    /// Content fields for the template.
    public var content: [String: String] {
        get { identity.content }
        set { identity = Identity(key: identity.key, kind: identity.kind, reuse: identity.reuse, content: newValue) }
    }
    /// Item index (cells only).
    public var item: Int? {
        get { hasItem ? itemIndex : nil }
        set { (itemIndex, hasItem) = (newValue ?? 0, newValue != nil) }
    }
    /// `[x, y, width, height]` in content coordinates.
    public var frame: [Double] {
        get { extras?.otherFrame ?? [x, y, width, height] }
        set {
            if newValue.count == 4 {
                (x, y, width, height) = (newValue[0], newValue[1], newValue[2], newValue[3])
                if extras?.otherFrame != nil { extras = Extras.make(otherFrame: nil, transform: extras?.transform) }
            } else {
                (x, y, width, height) = (0, 0, 0, 0)
                extras = Extras.make(otherFrame: newValue, transform: extras?.transform)
            }
        }
    }
    /// An affine transform about the element's center, `[a, b, c, d, tx, ty]`
    /// (absent: none), as a layout's attributes set it.
    public var transform: [Double]? {
        get { extras?.transform }
        set { extras = Extras.make(otherFrame: extras?.otherFrame, transform: newValue) }
    }

    /// The frame's four numbers (nil: a frame of another length).
    var frameNumbers: (x: Double, y: Double, width: Double, height: Double)? {
        extras?.otherFrame == nil ? (x, y, width, height) : nil
    }

    /// Whether the frame is `[x, y, width, height]`.
    package func hasFrame(x: Double, y: Double, width: Double, height: Double) -> Bool {
        extras?.otherFrame == nil && self.x == x && self.y == y && self.width == width && self.height == height
    }

    /// The largest stacking order sent: layouts may use any `Int` (UIKit's moving
    /// item sits at a huge zIndex), but CSS takes 32-bit integers.
    public static let zIndexBound = 2_147_483_647

    private init(identity: Identity, section: Int, item: Int?, x: Double, y: Double, width: Double, height: Double, otherFrame: [Double]?,
                 zIndex: Int, alpha: Double, hidden: Bool, transform: [Double]?) {
        self.identity = identity
        self.section = section
        (itemIndex, hasItem) = (item ?? 0, item != nil)
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
        self.zIndex = min(max(zIndex, -Self.zIndexBound), Self.zIndexBound)
        self.alpha = alpha
        self.hidden = hidden
        extras = Extras.make(otherFrame: otherFrame, transform: transform)
    }

    /// Creates an element.
    public init(key: String, kind: String, reuse: String, section: Int, item: Int?, frame: [Double], zIndex: Int = 0, alpha: Double = 1, hidden: Bool = false, transform: [Double]? = nil, content: [String: String]) {
        let four = frame.count == 4
        self.init(identity: Identity(key: key, kind: kind, reuse: reuse, content: content), section: section, item: item,
                  x: four ? frame[0] : 0, y: four ? frame[1] : 0, width: four ? frame[2] : 0, height: four ? frame[3] : 0,
                  otherFrame: four ? nil : frame, zIndex: zIndex, alpha: alpha, hidden: hidden, transform: transform)
    }

    /// An element ready to encode, its identity taken from `cache` when a viewer of
    /// the collection made one with the same key, kind, reuse identifier and content
    /// (the usual case: every viewer shows the same items), and left there otherwise.
    package init(key: String, kind: String, reuse: String, section: Int, item: Int?, x: Double, y: Double, width: Double, height: Double,
                 zIndex: Int, alpha: Double, hidden: Bool, transform: [Double]?, content: [String: String], cache: ElementEncodingCache) {
        let identity: Identity
        let hashedKey = HashedString(key)
        if let known = cache.known(key: hashedKey, kind: kind, reuse: reuse, content: content) {
            identity = known
        } else {
            identity = Identity(hashedKey: hashedKey, kind: kind, reuse: reuse, content: content).encoded()
            cache.keep(identity)
        }
        self.init(identity: identity, section: section, item: item, x: x, y: y, width: width, height: height, otherFrame: nil,
                  zIndex: zIndex, alpha: alpha, hidden: hidden, transform: transform)
    }

    /// An element of an identity that ``identity`` gave before (its JSON made), at a
    /// place: no key to hash, no cache to look it up in.
    package init(identity: Identity, section: Int, item: Int?, x: Double, y: Double, width: Double, height: Double,
                 zIndex: Int, alpha: Double, hidden: Bool, transform: [Double]?) {
        self.init(identity: identity, section: section, item: item, x: x, y: y, width: width, height: height, otherFrame: nil,
                  zIndex: zIndex, alpha: alpha, hidden: hidden, transform: transform)
    }

    /// Puts the element at another place, in place: only the members a layout sets
    /// change (its identity stays). Returns whether any of them did.
    package mutating func place(section: Int, item: Int?, x: Double, y: Double, width: Double, height: Double, zIndex: Int, alpha: Double, hidden: Bool,
                                transform: [Double]?) -> Bool {
        let z = min(max(zIndex, -Self.zIndexBound), Self.zIndexBound)
        if extras?.otherFrame == nil && self.section == section && self.item == item && self.x == x && self.y == y && self.width == width
            && self.height == height && self.zIndex == z && self.alpha == alpha && self.hidden == hidden && extras?.transform == transform {
            return false
        }
        self.section = section
        self.item = item
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
        self.zIndex = z
        self.alpha = alpha
        self.hidden = hidden
        extras = Extras.make(otherFrame: nil, transform: transform)
        return true
    }

    /// Encodes the members that stay as the element moves (its key, kind, reuse
    /// identifier and content) now, for every message it goes into and every copy
    /// ``place(section:item:x:y:width:height:zIndex:alpha:hidden:transform:)`` makes.
    package mutating func prepareEncoding() {
        guard identity.encodedHead == nil || identity.encodedContent == nil else { return }
        identity = identity.encoded()
    }

    /// ``prepareEncoding()``, taking the JSON from `cache` when an element with the
    /// same key, kind, reuse identifier and content was prepared before (every viewer
    /// of a collection sends the same items), and leaving it there otherwise.
    package mutating func prepareEncoding(using cache: ElementEncodingCache) {
        guard identity.encodedHead == nil || identity.encodedContent == nil else { return }
        if let known = cache.known(key: identity.hashedKey, kind: identity.kind, reuse: identity.reuse, content: identity.content) {
            identity = known
            return
        }
        prepareEncoding()
        cache.keep(identity)
    }

    /// The JSON of the key, kind and reuse identifier, and of the content, as
    /// ``prepareEncoding()`` made them (nil: not made; both are made together).
    var encodedHead: [UInt8]? { identity.encodedHead }
    var encodedContent: [UInt8]? { identity.encodedContent }

    /// Whether both are the very same value (one identity, the same numbers): true
    /// means equal, false may still be equal. No string or content is compared.
    package func isSameValue(as other: Element) -> Bool {
        identity === other.identity && extras === other.extras && section == other.section && itemIndex == other.itemIndex
            && hasItem == other.hasItem && x == other.x && y == other.y && width == other.width && height == other.height
            && zIndex == other.zIndex && alpha == other.alpha && hidden == other.hidden
    }

    public static func == (a: Element, b: Element) -> Bool {
        if a.isSameValue(as: b) { return true }
        let (x, y) = (a.identity, b.identity)
        return a.section == b.section && a.item == b.item && a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height
            && a.extras?.otherFrame == b.extras?.otherFrame && a.zIndex == b.zIndex && a.alpha == b.alpha && a.hidden == b.hidden
            && a.transform == b.transform && (x === y || (x.key == y.key && x.same(kind: y.kind, reuse: y.reuse, content: y.content)))
    }

    private enum CodingKeys: String, CodingKey {
        case key, kind, reuse, section, item, frame, zIndex, alpha, hidden, transform, content
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(key: try c.decode(String.self, forKey: .key), kind: try c.decode(String.self, forKey: .kind),
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

/// Elements' identities (key, kind, reuse identifier, content and their JSON) by
/// element key, shared by the viewers of one collection (used from the one thread
/// that serves them): the same item's content is encoded once, not once per viewer,
/// and its elements share one identity. Holds at most ``capacity`` entries (then
/// starts over).
package final class ElementEncodingCache {
    @exclusivity(unchecked) var entries: [HashedString: Element.Identity] = [:]
    static let capacity = 20_000

    package init() {}

    /// The identity kept for `key`, if it has the same kind, reuse identifier and content.
    func known(key: HashedString, kind: String, reuse: String, content: [String: String]) -> Element.Identity? {
        guard let known = entries[key], known.same(kind: kind, reuse: reuse, content: content) else { return nil }
        return known
    }

    func keep(_ identity: Element.Identity) {
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[identity.hashedKey] = identity
    }
}
