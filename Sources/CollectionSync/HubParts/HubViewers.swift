import CollectionProtocol

/// The viewers of one collection: their connections by key, in key order for every
/// batch (kept until one comes or goes), the numbers they are given, and the view
/// states they share (``ViewStateSharing``). Every batch, layout switch and
/// background walks them once a view state (``oncePerState(into:_:)``).
final class HubViewers {
    private var byKey: [UInt64: ViewerConnection] = [:] {
        didSet { ordered = nil }
    }
    /// ``byKey`` in key order, kept until the table changes.
    private var ordered: [ViewerConnection]?
    /// Hands out viewer numbers (shared by the hubs of a group).
    var numbering = ViewerNumbering()
    /// The view states offered for sharing, and whether viewers share.
    var sharing = ViewStateSharing()
    /// Cache lines prefetched for the next viewer's turn so far (``PrefetchList``).
    private(set) var linesPrefetched = 0

    /// The viewer on connection `key`.
    subscript(key: UInt64) -> ViewerConnection? {
        get { byKey[key] }
        set { byKey[key] = newValue }
    }

    var values: Dictionary<UInt64, ViewerConnection>.Values { byKey.values }
    var keys: Dictionary<UInt64, ViewerConnection>.Keys { byKey.keys }
    var count: Int { byKey.count }
    var isEmpty: Bool { byKey.isEmpty }

    /// Every viewer, helloed or not, in key order (the order they came).
    func inOrder() -> [ViewerConnection] {
        if let ordered { return ordered }
        let sorted = byKey.values.sorted { $0.key < $1.key }
        ordered = sorted
        return sorted
    }

    /// The viewers that said hello, but `except`'s, in key order.
    func ready(except: UInt64? = nil) -> [ViewerConnection] {
        inOrder().filter { $0.ready && $0.key != except }
    }

    /// `message` to every viewer that said hello, but `except`.
    func messages(_ message: ServerMessage, except: UInt64? = nil) -> [Outgoing] {
        ready(except: except).map { Outgoing(viewer: $0.key, message: message) }
    }

    /// Runs `body` once per view state, for the state's first viewer in key order
    /// (``ViewStateSharing/oncePerState(_:into:linesPrefetched:_:)``), appending to
    /// `out`: a batch's messages join its ack without being copied.
    @inline(__always)
    func oncePerState(into out: inout [Outgoing], _ body: (ViewerConnection) -> (shared: ServerMessage?, own: [Outgoing])) {
        var lines = linesPrefetched
        ViewStateSharing.oncePerState(inOrder(), into: &out, linesPrefetched: &lines, body)
        linesPrefetched = lines
    }

    /// ``oncePerState(into:_:)``, into a new array.
    func oncePerState(_ body: (ViewerConnection) -> (shared: ServerMessage?, own: [Outgoing])) -> [Outgoing] {
        var out: [Outgoing] = []
        oncePerState(into: &out, body)
        return out
    }

    /// The distinct view states of every viewer (helloed or not).
    var states: [ViewState] {
        var seen: Set<ObjectIdentifier> = []
        return inOrder().map(\.state).filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// The number of distinct view states the viewers that said hello use.
    var readyStateCount: Int {
        Set(byKey.values.filter(\.ready).map { ObjectIdentifier($0.state) }).count
    }
}
