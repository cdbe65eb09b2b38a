import CollectionCore
import CollectionProtocol
import Foundation

/// The server-authoritative collection shared by every viewer. Pure: it takes
/// decoded events (and the time) and returns the messages to send, so it is tested
/// with no sockets. Each accepted edit gets the next sequence number and reaches
/// every viewer as a batch in that viewer's layout; a refused one changes nothing.
public final class CollectionHub {
    /// The shared model.
    public var model: CollectionModel { store.model }
    /// Sequence number of the last accepted edit.
    public var sequence: Int { ledger.history.sequence }
    /// Identifies this hub's history: a `lastSeq` from another epoch is not resumed.
    public var epoch: String { ledger.history.epoch }
    /// The collection's name (what `hello.collection` and drag sources call it).
    public let name: String
    /// The layout every viewer uses (one of the policy's `layoutNames`).
    public internal(set) var layoutName: String
    /// How viewers' layouts follow their viewports; set before viewers connect.
    public var policy: LayoutPolicy {
        didSet { layoutName = policy.layoutNames.first ?? "grid" }
    }
    /// Makes the items viewers insert; set before viewers connect.
    public var factory: ItemFactory
    /// Limits; change before viewers connect.
    public var limits: HubLimits {
        didSet { ledger.keep(limits) }
    }
    /// Which edits viewers may send; others are refused with `refused`.
    public var allowedEdits: ViewerEdits = .all
    /// The viewer whose message is being handled (nil outside of one): read it in
    /// delegate callbacks to know who caused them.
    public internal(set) var actingViewer: ViewerInfo?
    /// Whether the contents came from a store (``restore(_:)``): ``load(_:)`` then changes nothing.
    public internal(set) var restored = false
    /// Whether the background view is asked of ``hubDelegate`` after every batch
    /// (``setBackgroundFollowsModel(_:)``).
    public internal(set) var backgroundFollowsModel = false

    /// The app's delegate (a ``CollectionViewDelegateFlowLayout`` gives sizes too),
    /// held strongly: every viewer's collection view calls it, while ``actingViewer``
    /// says whose action it answers.
    public var delegate: (any CollectionViewDelegate)? {
        get { store.delegate }
        set {
            store.delegate = newValue
            viewers.eachCollectionView { $0.delegate = newValue }
        }
    }
    /// Answers drops with proposals and performs them (set before viewers connect).
    public var dropDelegate: (any CollectionViewDropDelegate)? {
        get { store.dropDelegate }
        set {
            store.dropDelegate = newValue
            viewers.eachCollectionView { $0.dropDelegate = newValue }
        }
    }
    /// The drag delegate (UIKit's `dragDelegate`) of every viewer's collection view,
    /// held strongly: what drags out of this collection carry, when they begin and
    /// end, whether they may move. nil: the default, which carries the items lifted.
    public var dragDelegate: (any CollectionViewDragDelegate)? {
        get { store.dragDelegate }
        set {
            let delegate = newValue ?? ModelDragDelegate(store: store, collection: name)
            store.dragDelegate = delegate
            viewers.eachCollectionView { $0.dragDelegate = delegate }
        }
    }
    /// What the hub asks of the app (CollectionHubDelegate.swift), held strongly;
    /// nil: the defaults, as with no app.
    package var hubDelegate: (any CollectionHubDelegate)?
    /// The storage that keeps each batch before it is applied (CollectionHubJournal.swift);
    /// nil: nothing is kept. Held weakly: the storage's owner holds the hub.
    package weak var journal: (any CollectionHubJournal)?
    /// Whether viewers that see exactly the same thing share one view state (one
    /// batch computation and encoding). The messages are the same either way.
    public var sharesViewStates: Bool {
        get { viewers.sharing.enabled }
        set { viewers.sharing.enabled = newValue }
    }
    /// Beyond UIKit: whether every viewer's collection view keeps views and calls the
    /// delegate's `willDisplay` and `didEndDisplaying` for each, as UIKit's does.
    /// False (the default): only viewers with state of their own or layouts with
    /// footers, badges, decorations, list rows or sections that scroll on their own
    /// keep them; the others' windows are read from their layouts (a batch costs
    /// about a fifth less). The messages are the same either way: set it when the
    /// delegate's display methods must run for every viewer.
    public var keepsViewsForEveryViewer: Bool {
        get { store.keepsViews }
        set { store.keepsViews = newValue }
    }

    // The parts, each owning its state (docs/ARCHITECTURE.md).
    /// The history, the sections' infos, item serials and shuffles.
    var ledger: CollectionLedger
    /// The model every viewer's collection view reads, and the delegates they share.
    let store: SharedModel
    /// The viewers, their numbers and the view states they share.
    let viewers = HubViewers()
    /// Joins and leaves, presence to relay, other servers' viewers.
    var presence = HubPresence()
    /// Drags out of this collection under way, by session id.
    var drags = DragSessions()
    /// Drops on this collection.
    private(set) lazy var drops = CollectionDrops(hub: self)
    /// A message's budget, decoding, refusal, encoding and cost.
    private let intake: MessageIntake
    /// The group this hub belongs to, for drops from its other collections.
    weak var group: CollectionHubGroup?

    /// Creates a hub over `model`; `seed` makes shuffles repeatable; `clock` gives
    /// seconds (for rate limits); `epoch` names this history.
    public init(model: CollectionModel, factory: ItemFactory, policy: LayoutPolicy, limits: HubLimits = HubLimits(), seed: UInt64 = 0x5EED,
                name: String = "main", epoch: String = UUID().uuidString.prefix(8).lowercased(),
                clock: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        store = SharedModel(model)
        self.factory = factory
        self.policy = policy
        layoutName = policy.layoutNames.first ?? "grid"
        self.limits = limits
        ledger = CollectionLedger(model: model, epoch: epoch, limits: limits, seed: seed)
        self.name = name
        intake = MessageIntake(clock: clock)
        store.dragDelegate = ModelDragDelegate(store: store, collection: name)
        store.owner = self
    }

    /// Replaces the model before anything happened (no viewer, no batch): the
    /// collection's starting state, at sequence 0. Returns false, changing nothing,
    /// once a viewer connected or a batch was made.
    @discardableResult
    public func load(_ model: CollectionModel) -> Bool {
        guard viewers.isEmpty, sequence == 0, !restored else { return false }
        store.model = model
        refreshBackground()
        ledger.reset(to: model)
        return true
    }

    /// The templates cells and section headers are drawn with by default (cells may
    /// name their own: `CollectionModel.itemReuseIdentifiers`). Set before viewers
    /// connect: views already displayed keep theirs.
    public func setDefaultTemplates(cell: String? = nil, header: String? = nil) {
        if let cell { store.model.cellReuseIdentifier = cell }
        if let header { store.model.headerReuseIdentifier = header }
    }

    /// The drag under way with session id `id`, if it is this collection's.
    func dragSession(_ id: String) -> DragSession? {
        drags.owner(of: id).flatMap { viewers[$0] }?.collectionView.activeDragSession
    }

    /// This hub, or another of its group, by name.
    func peer(named collection: String) -> CollectionHub? {
        collection == name ? self : group?.hub(named: collection)
    }

    /// Viewers connected (helloed or not).
    public var viewerCount: Int { viewers.count }

    /// The connections of the viewers, in the order they came.
    public var viewerKeys: [UInt64] { viewers.keys.sorted() }

    /// Section identities, counts and checksums (cached; refreshed per batch).
    var sectionInfos: [SectionInfo] { ledger.sections.infos(of: model) }

    /// A connection opened, by `identity` when authentication established one
    /// (its name and colour are what others see; nil: an anonymous viewer).
    public func connect(_ key: UInt64, identity: Identity? = nil) {
        viewers.connect(key, identity: identity, store: store, limits: limits, layoutName: layoutName)
    }

    /// A connection closed: its selection goes away at once; others hear that it
    /// left with the turn's other presence changes (``endTurn()``).
    public func disconnect(_ key: UInt64) -> [Outgoing] {
        guard let gone = viewers[key] else { return [] }
        gone.endDrag(sessions: &drags)
        viewers[key] = nil
        viewers.sharing.release(gone)
        guard gone.ready else { return [] }
        presence.left(gone.info.id)
        let selection = gone.selection(in: model).sorted()
        return selection.isEmpty ? [] : broadcast(.selections(viewer: gone.info.id, items: selection, selected: false))
    }

    /// A binary frame arrived: refused, nothing changes.
    public func receiveBinary(from key: UInt64) -> [Outgoing] {
        [Outgoing(viewer: key, message: .error(code: .binaryUnsupported, message: "binary frames are not part of collection.v1; send JSON text", op: nil))]
    }

    /// A text message arrived: rate-check, decode, apply, and say who gets what
    /// (``MessageIntake``: the viewer is charged for what it cost).
    public func receive(_ bytes: [UInt8], from key: UInt64) -> [Outgoing] {
        guard let viewer = viewers[key] else { return [] }
        return intake.take(bytes, from: viewer) { message throws(ProtocolError) in try handle(message, from: viewer) }
    }

    /// Runs work the viewer whose message caused it is not charged for (the app's
    /// callbacks, the waits on storage), timing it: ``HubLimits/serverTimeShare``
    /// counts the library's work only.
    package func uncharged<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T { try intake.meter.uncharged(body) }

    /// What a store shared by several servers must lock before a message from `key`
    /// is handled (``MessageIntake/changeLock(for:from:collection:)``). The hub locks
    /// nothing itself: its owner does it first, then hands the message to
    /// ``receive(_:from:)``, or, when the lock fails, answers with
    /// ``Outgoing/refusal(_:to:)`` and the lock's `op`.
    package func changeLock(for bytes: [UInt8], from key: UInt64) -> (collections: [String], op: String?)? {
        viewers[key].flatMap { intake.changeLock(for: bytes, from: $0, collection: name) }
    }

    private func handle(_ message: ClientMessage, from viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        actingViewer = viewer.info
        defer { actingViewer = nil }
        do throws(ProtocolError) {
            return try route(message, from: viewer)
        } catch {
            var refused = error
            refused.op = message.op
            throw refused
        }
    }

    private func route(_ message: ClientMessage, from viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        if let op = message.op {
            // A retried edit gets its first answer; another edit under the same op id is refused.
            if let seq = try ledger.handling(message, op: op) {
                return [Outgoing(viewer: viewer.key, message: .ack(op: op, seq: seq))]
            }
        }
        switch message {
        case .edit, .drag, .layout, .dropUpdate, .drop, .action, .outline, .swipeAction, .accessory:
            // These change no state of the sender's own (an edit reaches every state alike).
            return try dispatch(message, from: viewer)
        default:
            viewers.sharing.own(viewer, store: store, policy: policy)
            defer { viewers.sharing.share(viewer) }
            return try dispatch(message, from: viewer)
        }
    }

    private func dispatch(_ message: ClientMessage, from viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        if case .hello(let hello) = message { return try greet(viewer, hello) }
        guard viewer.ready else { throw ProtocolError(.notReady, "send 'hello' first") }
        if let (needed, verb) = ViewerPermissions.needed(for: message), !viewer.permissions.contains(needed) {
            throw ProtocolError(.forbidden, "\(ViewerAppearance.who(viewer.info)) may not \(verb) collection '\(name)'; nothing changed")
        }
        if let seen = try HubPresence.seen(message, by: viewer, rangeLimit: limits.maxRangeSelection) {
            return seen.messages.flatMap { broadcast($0, except: seen.toSender ? nil : viewer.key) }
        }
        switch message {
        case .hello:
            return []
        case .moveBegin(let item):
            let indexPath = try viewer.indexPath(of: item)
            guard allowedEdits.contains(.move) else { throw ProtocolError(.notMovable, "collection '\(name)' does not take moves from viewers") }
            return try shown(viewer.beginMove(item, at: indexPath), by: viewer)
        case .moveUpdate(let point):
            return try shown(viewer.updateMove(to: point), by: viewer)
        case .moveEnd(let op):
            return try endMove(op: op, viewer: viewer)
        case .moveCancel:
            return viewer.cancelMove().map { shown($0, by: viewer) } ?? []
        case .layout(let name):
            return try switchLayout(to: name, by: viewer)
        case let .dragBegin(item, at):
            return try [viewer.beginDrag(item, at: at, in: name, sessions: &drags)]
        case let .dragAdd(item, at):
            return try viewer.addToDrag(item, at: at)
        case .dragEnd:
            viewer.endDrag(sessions: &drags)
            return []
        case let .outline(item, expanded):
            return try setOutline(of: item, expanded: expanded, by: viewer)
        case let .accessory(item, name):
            return try chooseAccessory(name, of: item, by: viewer)
        case .dropUpdate(let request):
            return try drops.propose(request, viewer: viewer)
        case .drop(let request):
            return try drops.perform(request, viewer: viewer)
        case .edit(let request):
            return try apply(request, from: viewer)
        case let .action(name, item, payload, op):
            return try perform(action: name, item: item, payload: payload, op: op, by: viewer)
        default:
            // Scrolling, edit mode, transitions, sizes, menus, swipes: the sender's own view.
            return try viewer.answer(message, policy: policy)
        }
    }

    /// A step of `viewer`'s movement: its own answer, and what the others see.
    private func shown(_ step: (own: Outgoing, seen: ServerMessage), by viewer: ViewerConnection) -> [Outgoing] {
        [step.own] + broadcast(step.seen, except: viewer.key)
    }

    func broadcast(_ message: ServerMessage, except: UInt64? = nil, relaying: Bool = true) -> [Outgoing] {
        if relaying { presence.relay(message) }
        return viewers.messages(message, except: except)
    }
}
