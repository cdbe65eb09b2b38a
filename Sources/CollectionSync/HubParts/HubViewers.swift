import CollectionCore
import CollectionProtocol

/// The viewers of one collection: their connections by key, in key order for every
/// batch (kept until one comes or goes), the numbers they are given, and the view
/// states they share (``ViewStateSharing``). Every batch, layout switch and
/// background walks them once a view state (``oncePerState(into:_:)``).
package final class HubViewers {
    private var byKey: [UInt64: ViewerConnection] = [:] {
        didSet { ordered = nil }
    }
    /// ``byKey`` in key order, kept until the table changes.
    private var ordered: [ViewerConnection]?
    /// Hands out viewer numbers (shared by the hubs of a group).
    package var numbering = ViewerNumbering()
    /// The view states offered for sharing, and whether viewers share.
    var sharing = ViewStateSharing()
    /// Cache lines prefetched for the next viewer's turn so far (``PrefetchList``).
    private(set) var linesPrefetched = 0

    /// No viewers.
    package init() {}

    /// The viewer on connection `key`.
    package subscript(key: UInt64) -> ViewerConnection? {
        get { byKey[key] }
        set { byKey[key] = newValue }
    }

    /// A viewer on connection `key`, numbered next, shown by `identity` when it has one.
    package func connect(_ key: UInt64, identity: Identity?, store: SharedModel, limits: HubLimits, layoutName: String) {
        let info = ViewerAppearance.info(number: numbering.next(), prefix: numbering.prefix, identity: identity)
        let viewer = ViewerConnection(key: key, info: info, store: store, budget: ClientBudget(limits))
        viewer.state.bound = WindowBound(limits)
        viewer.layoutName = layoutName
        byKey[key] = viewer
    }

    /// Runs `body` on every viewer's collection view, and on every shared state's.
    func eachCollectionView(_ body: (CollectionView) -> Void) {
        for viewer in byKey.values { body(viewer.collectionView) }
        for state in sharing.states.values { body(state.collectionView) }
    }

    var values: Dictionary<UInt64, ViewerConnection>.Values { byKey.values }
    var keys: Dictionary<UInt64, ViewerConnection>.Keys { byKey.keys }
    var count: Int { byKey.count }
    var isEmpty: Bool { byKey.isEmpty }

    /// Every viewer, helloed or not, in key order (the order they came).
    package func inOrder() -> [ViewerConnection] {
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

    /// Every view state performs `numbered` against the shared data source (which
    /// already has its model), and each ready viewer gets its copy of the batch,
    /// appended to `out`: what every copy shares, encoded once, with its own content
    /// size, bands, window changes and poses. `resume` picks a movement under way up
    /// again after (in a window of its own), or ends it when its item went.
    @inline(__always)
    package func perform(_ numbered: NumberedBatch, into out: inout [Outgoing], resume: (ViewerConnection) -> [Outgoing]) {
        let template = numbered.template()
        let deletedIds = numbered.deletedIds
        let items = numbered.itemUpdates
        let checked = numbered.checkedItems
        oncePerState(into: &out) { viewer in
            let mirror = viewer.state.mirror
            viewer.suspendMovement()
            do {
                if let checked { try mirror.performBatchUpdates(checked) } else { try mirror.tryPerformItemUpdates(items) }
            } catch {
                mirror.collectionView.reloadData()   // cannot happen after the model-level check; never show a wrong order
            }
            guard viewer.ready else { return (nil, []) }
            // Only what is new to the window or changed: the client keeps the rest.
            let (changed, removed) = viewer.refreshWindow()
            var batch = template
            batch.contentSize = viewer.contentSize
            batch.bands = viewer.bands
            batch.elements = changed
            batch.remove = removed
            (batch.appear, batch.disappear) = viewer.updatePoses(deletedIds: deletedIds)
            return (.batch(batch), resume(viewer))
        }
    }

    /// Every view state switches to the layout `name` and each ready viewer gets its
    /// window animated to the new frames; `resume` picks a movement under way up again.
    func switchLayout(to name: String, policy: LayoutPolicy, resume: (ViewerConnection) -> [Outgoing]) -> [Outgoing] {
        let out = oncePerState { viewer in
            viewer.suspendMovement()
            viewer.switchLayout(to: name, policy: policy)
            guard viewer.ready else { return (nil, []) }
            return (viewer.window(viewer.refreshWindow(), animated: true), resume(viewer))
        }
        sharing.reindex(inOrder())
        return out
    }

    /// Every ready viewer gets its window as its view state shows it now.
    func windows() -> [Outgoing] {
        oncePerState { viewer in
            guard viewer.ready else { return (nil, []) }
            return (viewer.window(viewer.refreshWindow()), [])
        }
    }

    /// Gives every view state `content` as its background, and `store` keeps it (a
    /// new view state starts with it); false when it did not change.
    @discardableResult
    func show(background content: BackgroundContent?, keptIn store: SharedModel) -> Bool {
        guard content != store.background else { return false }
        store.background = content
        for state in states { state.showBackground(content) }
        return true
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
    package var readyStateCount: Int {
        Set(byKey.values.filter(\.ready).map { ObjectIdentifier($0.state) }).count
    }
}
