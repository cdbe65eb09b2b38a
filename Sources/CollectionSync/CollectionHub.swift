import CollectionCore
import CollectionProtocol
import Foundation

/// A message for one viewer (the transport connection's raw key).
public struct Outgoing: Sendable, Equatable {
    /// Which viewer.
    public var viewer: UInt64
    /// What to send.
    public var message: ServerMessage
    /// The message's encoding, when it was made once for several viewers.
    private var encoding: [UInt8]?

    /// Creates an outgoing message; `encodeNow` encodes it at once (for a message
    /// that goes to several viewers: copies made with ``init(viewer:sameAs:)`` share it).
    public init(viewer: UInt64, message: ServerMessage, encodeNow: Bool = false) {
        self.viewer = viewer
        self.message = message
        encoding = encodeNow ? message.encoded() : nil
    }

    /// The same message (and encoding) as `other`, for another viewer.
    public init(viewer: UInt64, sameAs other: Outgoing) {
        self = other
        self.viewer = viewer
    }

    /// The bytes to send.
    public var bytes: [UInt8] { encoding ?? message.encoded() }

    /// Same viewer and message (how it was encoded does not matter).
    public static func == (a: Outgoing, b: Outgoing) -> Bool { a.viewer == b.viewer && a.message == b.message }
}

/// Limits on what one client may ask.
public struct HubLimits: Sendable {
    /// Most items the collection may hold.
    public var maxItems = 100_000
    /// Messages per second per client, on average.
    public var messagesPerSecond: Double = 200
    /// Messages a client may send at once.
    public var messageBurst: Double = 400
    /// Batches kept for resuming clients.
    public var replayLogCapacity = 1_000
    /// Accepted op ids remembered, so that a retried edit gets its first ack.
    public var rememberedOps = 10_000
    /// Most items one `selectRange` may cover.
    public var maxRangeSelection = 10_000

    /// The defaults.
    public init() {}
}

/// The server-authoritative collection shared by every viewer. Pure: it takes
/// decoded events (and the time) and returns the messages to send, so it is tested
/// with no sockets. Each accepted edit gets the next sequence number and reaches
/// every viewer as a batch in that viewer's layout; a refused one changes nothing.
public final class CollectionHub {
    /// The shared model.
    public var model: CollectionModel { store.model }
    /// Sequence number of the last accepted edit.
    public internal(set) var sequence = 0
    /// The layout every viewer uses (one of the policy's `layoutNames`).
    public internal(set) var layoutName: String
    /// Identifies this hub's history: a `lastSeq` from another epoch is not resumed.
    public let epoch: String
    /// The collection's name (what `hello.collection` and drag sources call it).
    public let name: String
    /// The group this hub belongs to, for drops from its other collections.
    weak var group: CollectionHubGroup?
    /// Answers drops with proposals and performs them (set before viewers connect).
    public var dropDelegate: (any CollectionViewDropDelegate)? {
        get { store.dropDelegate }
        set {
            store.dropDelegate = newValue
            for viewer in viewers.values {
                viewer.collectionView.dropDelegate = newValue
                viewer.collectionView.dragInteractionEnabled = newValue != nil
            }
        }
    }
    /// Limits; change before viewers connect.
    public var limits: HubLimits {
        didSet { log = ReplayLog(capacity: limits.replayLogCapacity) }
    }
    let store: ModelStore
    let factory: ItemFactory
    let policy: LayoutPolicy
    var viewers: [UInt64: Viewer] = [:]
    /// View states offered for sharing, by what they show.
    var sharedStates: [SharingKey: ViewState] = [:]
    /// Whether viewers that see exactly the same thing share one view state (and so
    /// one batch computation and encoding). The messages are the same either way.
    public var sharesViewStates = true
    var limiters: [UInt64: RateLimiter] = [:]
    var nextSerial: Int
    var nextViewerNumber = 0
    var random: SplitMix64
    var log: ReplayLog
    var sectionInfoCache: [String: SectionInfo] = [:]
    /// Recently accepted op ids and their sequence numbers, oldest first: a client
    /// that retries an edit (say after a reconnect) gets the same ack, not a second change.
    var acceptedOps: [String: Int] = [:]
    var acceptedOpOrder: [String] = []
    /// Index of the oldest op id still remembered in `acceptedOpOrder`.
    var acceptedOpHead = 0
    private let clock: @Sendable () -> Double
    static let palette = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#7d5ba6", "#f06292", "#2e86ab", "#ff8c42"]

    /// Creates a hub over `model`; `seed` makes shuffles repeatable; `clock` gives
    /// seconds (for rate limits); `epoch` names this history.
    public init(model: CollectionModel, factory: ItemFactory, policy: LayoutPolicy, limits: HubLimits = HubLimits(), seed: UInt64 = 0x5EED,
                name: String = "main", epoch: String = UUID().uuidString.prefix(8).lowercased(),
                clock: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        store = ModelStore(model)
        self.factory = factory
        self.policy = policy
        layoutName = policy.layoutNames.first ?? "grid"
        self.limits = limits
        self.epoch = epoch
        self.name = name
        self.clock = clock
        log = ReplayLog(capacity: limits.replayLogCapacity)
        nextSerial = model.snapshot.numberOfItems + 1
        random = SplitMix64(seed: seed)
        for id in model.snapshot.sectionIdentifiers { sectionInfoCache[id] = model.sectionInfo(id) }
    }

    /// This hub, or another of its group, by name.
    func peer(named collection: String) -> CollectionHub? {
        collection == name ? self : group?.hub(named: collection)
    }

    /// Viewers connected (helloed or not).
    public var viewerCount: Int { viewers.count }

    /// The selection of a viewer, by item identifier.
    public func selection(of viewer: UInt64) -> Set<String> { viewers[viewer]?.selection(in: model) ?? [] }

    /// The keys a viewer's client holds now (its window).
    public func windowKeys(of viewer: UInt64) -> Set<String> { Set(viewers[viewer]?.window.keys ?? [:].keys) }

    /// Section identities, counts and checksums (cached; refreshed per batch).
    var sectionInfos: [SectionInfo] { model.snapshot.sectionIdentifiers.map { sectionInfoCache[$0] ?? model.sectionInfo($0) } }

    /// A connection opened.
    public func connect(_ key: UInt64) {
        nextViewerNumber += 1
        let n = nextViewerNumber
        let info = ViewerInfo(id: "v\(n)", name: "Viewer \(n)", color: Self.palette[(n - 1) % Self.palette.count])
        let viewer = Viewer(key: key, info: info, store: store)
        viewer.layoutName = layoutName
        viewers[key] = viewer
        limiters[key] = RateLimiter(rate: limits.messagesPerSecond, burst: limits.messageBurst)
    }

    /// A connection closed: its selection and presence go away.
    public func disconnect(_ key: UInt64) -> [Outgoing] {
        limiters[key] = nil
        guard let gone = viewers.removeValue(forKey: key) else { return [] }
        releaseState(of: gone)
        guard gone.ready else { return [] }
        var out: [Outgoing] = []
        let selection = gone.selection(in: model).sorted()
        if !selection.isEmpty { out += broadcast(.selections(viewer: gone.info.id, items: selection, selected: false)) }
        out += broadcast(.presence(viewers: presence()))
        return out
    }

    /// A binary frame arrived: refused, nothing changes.
    public func receiveBinary(from key: UInt64) -> [Outgoing] {
        [Outgoing(viewer: key, message: .error(code: .binaryUnsupported, message: "binary frames are not part of collection.v1; send JSON text", op: nil))]
    }

    /// A text message arrived: rate-check, decode, apply, and say who gets what.
    public func receive(_ bytes: [UInt8], from key: UInt64) -> [Outgoing] {
        guard let viewer = viewers[key] else { return [] }
        guard limiters[key]?.allow(at: clock()) ?? true else {
            return [Outgoing(viewer: key, message: .error(
                code: .rateLimited, message: "more than \(Int(limits.messagesPerSecond)) messages a second; this one was dropped", op: nil))]
        }
        let message: ClientMessage
        do {
            message = try ClientMessage.decode(bytes)
        } catch {
            return [Outgoing(viewer: key, message: .error(code: error.code, message: error.message, op: nil))]
        }
        do throws(ProtocolError) {
            return try handle(message, from: viewer)
        } catch {
            // An edit with an op id is rejected by op; anything else is an error.
            if let op = message.op { return [Outgoing(viewer: key, message: .reject(op: op, code: error.code, message: error.message))] }
            return [Outgoing(viewer: key, message: .error(code: error.code, message: error.message, op: nil))]
        }
    }

    private func handle(_ message: ClientMessage, from viewer: Viewer) throws(ProtocolError) -> [Outgoing] {
        switch message {
        case .edit, .drag, .layout, .dropUpdate, .drop:
            // These change no state of the sender's own (an edit reaches every state alike).
            return try dispatch(message, from: viewer)
        default:
            ownState(viewer)
            defer { shareState(viewer) }
            return try dispatch(message, from: viewer)
        }
    }

    private func dispatch(_ message: ClientMessage, from viewer: Viewer) throws(ProtocolError) -> [Outgoing] {
        if case .hello(let hello) = message { return try greet(viewer, hello) }
        guard viewer.ready else { throw ProtocolError(.notReady, "send 'hello' first") }
        switch message {
        case .hello:
            return []
        case let .scroll(offset, viewport):
            viewer.show(viewport: viewport, offset: offset, policy: policy)
            let (changed, removed) = viewer.refreshWindow(model: model)
            return [Outgoing(viewer: viewer.key, message: .window(.init(contentSize: viewer.contentSize, add: changed, remove: removed)))]
        case let .select(item, selected):
            guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
            let isSelected = viewer.collectionView.indexPathsForSelectedItems?.contains(indexPath) ?? false
            // A user's tap: the collection view's rules and delegate decide.
            guard selected != isSelected, viewer.collectionView.toggleFromUser(indexPath) else { return [] }
            return broadcast(.selection(viewer: viewer.info.id, item: item, selected: selected))
        case .focus(let item):
            let cv = viewer.collectionView
            if let item {
                guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
                guard cv.focusedIndexPath != indexPath else { return [] }
                guard cv.focusItem(at: indexPath) else { return [] }
            } else {
                guard cv.focusedIndexPath != nil else { return [] }
                cv.resignFocus()
            }
            return broadcast(.focus(viewer: viewer.info.id, item: item), except: viewer.key)
        case let .drag(item, point):
            if let item, !model.snapshot.contains(item: item) { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
            return broadcast(.drag(viewer: viewer.info.id, item: item, at: point), except: viewer.key)
        case .moveBegin(let item):
            return try beginMove(item, viewer: viewer)
        case .moveUpdate(let point):
            return try updateMove(to: point, viewer: viewer)
        case .moveEnd(let op):
            if let op, let seq = acceptedOps[op] { return [Outgoing(viewer: viewer.key, message: .ack(op: op, seq: seq))] }
            return try endMove(op: op, viewer: viewer)
        case .moveCancel:
            return try cancelMove(viewer: viewer)
        case .layout(let name):
            return try switchLayout(to: name, by: viewer)
        case .measure(let sizes):
            return try measure(sizes, viewer: viewer)
        case .dropUpdate(let request):
            return try proposeDrop(request, viewer: viewer)
        case .drop(let request):
            if let op = request.op, let seq = acceptedOps[op] { return [Outgoing(viewer: viewer.key, message: .ack(op: op, seq: seq))] }
            return try performDrop(request, viewer: viewer)
        case .editing(let on):
            return setEditing(on, viewer: viewer)
        case let .selectRange(from, to, selected, replace):
            return try selectRange(from: from, to: to, selected: selected, replace: replace, viewer: viewer)
        case .edit(let request):
            if let op = request.op, let seq = acceptedOps[op] {
                return [Outgoing(viewer: viewer.key, message: .ack(op: op, seq: seq))]
            }
            return try apply(request, from: viewer)
        }
    }

    private func greet(_ viewer: Viewer, _ hello: ClientMessage.Hello) throws(ProtocolError) -> [Outgoing] {
        guard hello.version == protocolVersion else {
            throw ProtocolError(.unsupportedVersion, "this server speaks protocol \(protocolVersion), not \(hello.version)")
        }
        if let collection = hello.collection, collection != name {
            throw ProtocolError(.unknownCollection, "this connection watches '\(name)', not '\(collection.prefix(64))'")
        }
        let first = !viewer.ready
        viewer.ready = true
        viewer.window = [:]
        viewer.show(viewport: hello.viewport, offset: hello.offset, policy: policy)
        // The window was emptied: every element comes back as changed, in order.
        let (elements, _) = viewer.refreshWindow(model: model, force: true)
        let selections = orderedViewers().filter(\.ready)
            .map { SelectionInfo(viewer: $0.info.id, items: $0.selection(in: model).sorted()) }
            .filter { !$0.items.isEmpty }
        var out: [Outgoing] = []
        if let lastSeq = hello.lastSeq, hello.epoch == epoch, let missed = log.batches(after: lastSeq, upTo: sequence) {
            // Resume: the missed batches (structure only), then the whole window.
            out.append(Outgoing(viewer: viewer.key, message: .resume(.init(
                viewer: viewer.info, fromSeq: lastSeq, seq: sequence, selections: selections, viewers: presence()))))
            for b in missed {
                out.append(Outgoing(viewer: viewer.key, message: .batch(.init(
                    seq: b.seq, by: b.by, deletes: b.deletes, deletedIds: b.deletedIds, inserts: b.inserts, insertedIds: b.insertedIds,
                    moves: b.moves, reloads: b.reloads, replay: true, sections: b.sections, contentSize: viewer.contentSize,
                    elements: [], remove: []))))
            }
            out.append(Outgoing(viewer: viewer.key, message: .window(.init(contentSize: viewer.contentSize, add: elements, remove: [], replace: true))))
        } else {
            out.append(Outgoing(viewer: viewer.key, message: .welcome(.init(
                viewer: viewer.info, epoch: epoch, seq: sequence, contentSize: viewer.contentSize, sections: sectionInfos,
                elements: elements, selections: selections, viewers: presence(),
                order: hello.wantOrder ? model.snapshot.sectionIdentifiers.map { model.snapshot.itemIdentifiers(inSection: $0) } : nil,
                focuses: focuses(except: viewer.key), layout: layoutName, collection: name))))
        }
        if first {
            out += broadcast(.presence(viewers: presence()), except: viewer.key)
        }
        return out
    }

    /// Where the other ready viewers' focus is.
    func focuses(except key: UInt64) -> [FocusInfo] {
        orderedViewers().filter { $0.ready && $0.key != key }.compactMap { v in
            v.collectionView.focusedIndexPath.flatMap { model.snapshot.itemIdentifier(at: $0) }.map { FocusInfo(viewer: v.info.id, item: $0) }
        }
    }

    func orderedViewers() -> [Viewer] { viewers.values.sorted { $0.key < $1.key } }

    func presence() -> [ViewerInfo] { orderedViewers().filter(\.ready).map(\.info) }

    func broadcast(_ message: ServerMessage, except: UInt64? = nil) -> [Outgoing] {
        orderedViewers().filter { $0.ready && $0.key != except }.map { Outgoing(viewer: $0.key, message: message) }
    }

    /// `layout`: every viewer's collection view switches to the named layout
    /// (`setCollectionViewLayout(_:animated:)`) and gets its window animated to
    /// the new frames; then everyone hears the new name. Not an edit: no sequence number.
    func switchLayout(to name: String, by sender: Viewer) throws(ProtocolError) -> [Outgoing] {
        guard policy.layoutNames.contains(name) else {
            throw ProtocolError(.badMessage, "no layout named '\(name.prefix(64))'; expected one of \(policy.layoutNames.joined(separator: ", "))")
        }
        guard name != layoutName else { return [] }
        layoutName = name
        let out = oncePerState { viewer in
            suspendMovement(of: viewer)
            viewer.switchLayout(to: name, policy: policy)
            guard viewer.ready else { return (nil, []) }
            let (changed, removed) = viewer.refreshWindow(model: model)
            return (.window(.init(contentSize: viewer.contentSize, add: changed, remove: removed, animated: true)), resumeMovement(of: viewer))
        }
        reindexSharedStates()
        return out + broadcast(.layout(name: name, by: sender.info.id))
    }
}
