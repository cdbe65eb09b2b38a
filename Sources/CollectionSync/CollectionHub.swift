import CollectionCore
import CollectionProtocol

/// A message for one viewer (the transport connection's raw key).
public struct Outgoing: Sendable, Equatable {
    /// Which viewer.
    public var viewer: UInt64
    /// What to send.
    public var message: ServerMessage

    /// Creates an outgoing message.
    public init(viewer: UInt64, message: ServerMessage) {
        self.viewer = viewer
        self.message = message
    }
}

/// The server-authoritative collection shared by every viewer. Pure: it takes
/// decoded events and returns the messages to send, so it is tested with no
/// sockets. Each accepted edit gets the next sequence number and reaches every
/// viewer as a batch in that viewer's layout; a refused one changes nothing.
public final class CollectionHub {
    /// The shared model.
    public var model: CollectionModel { store.model }
    private let store: ModelStore
    /// Sequence number of the last accepted edit.
    public private(set) var sequence = 0
    /// Most items the collection may hold.
    public var maxItems = 100_000
    private let factory: ItemFactory
    private let policy: LayoutPolicy
    private var viewers: [UInt64: Viewer] = [:]
    private var nextSerial: Int
    private var nextViewerNumber = 0
    private var random: SplitMix64
    private static let palette = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#7d5ba6", "#f06292", "#2e86ab", "#ff8c42"]

    /// Creates a hub over `model`; `seed` makes shuffles repeatable.
    public init(model: CollectionModel, factory: ItemFactory, policy: LayoutPolicy, seed: UInt64 = 0x5EED) {
        store = ModelStore(model)
        self.factory = factory
        self.policy = policy
        nextSerial = model.snapshot.numberOfItems + 1
        random = SplitMix64(seed: seed)
    }

    /// Viewers connected (helloed or not).
    public var viewerCount: Int { viewers.count }

    /// The selection of a viewer, by item identifier.
    public func selection(of viewer: UInt64) -> Set<String> { viewers[viewer]?.selection(in: model) ?? [] }

    /// The keys a viewer's client holds now (its window).
    public func windowKeys(of viewer: UInt64) -> Set<String> { Set(viewers[viewer]?.window.keys ?? [:].keys) }

    /// A connection opened.
    public func connect(_ key: UInt64) {
        nextViewerNumber += 1
        let n = nextViewerNumber
        viewers[key] = Viewer(key: key, info: ViewerInfo(id: "v\(n)", name: "Viewer \(n)", color: Self.palette[(n - 1) % Self.palette.count]), store: store)
    }

    /// A connection closed: its selection and presence go away.
    public func disconnect(_ key: UInt64) -> [Outgoing] {
        guard let gone = viewers.removeValue(forKey: key), gone.ready else { return [] }
        var out: [Outgoing] = []
        for item in gone.selection(in: model).sorted() {
            out += broadcast(.selection(viewer: gone.info.id, item: item, selected: false))
        }
        out += broadcast(.presence(viewers: presence()))
        return out
    }

    /// A binary frame arrived: refused, nothing changes.
    public func receiveBinary(from key: UInt64) -> [Outgoing] {
        [Outgoing(viewer: key, message: .error(code: .binaryUnsupported, message: "binary frames are not part of collection.v1; send JSON text", op: nil))]
    }

    /// A text message arrived: decode, apply, and say who gets what.
    public func receive(_ bytes: [UInt8], from key: UInt64) -> [Outgoing] {
        guard let viewer = viewers[key] else { return [] }
        let message: ClientMessage
        do {
            message = try ClientMessage.decode(bytes)
        } catch {
            return [Outgoing(viewer: key, message: .error(code: error.code, message: error.message, op: nil))]
        }
        do throws(ProtocolError) {
            return try handle(message, from: viewer)
        } catch {
            return [Outgoing(viewer: key, message: .error(code: error.code, message: error.message, op: message.op))]
        }
    }

    private func handle(_ message: ClientMessage, from viewer: Viewer) throws(ProtocolError) -> [Outgoing] {
        if case .hello(let hello) = message { return try welcome(viewer, hello) }
        guard viewer.ready else { throw ProtocolError(.notReady, "send 'hello' first") }
        switch message {
        case .hello:
            return []
        case let .scroll(offset, viewport):
            viewer.show(viewport: viewport, offset: offset, policy: policy)
            let (changed, removed) = viewer.replaceWindow(with: viewer.currentElements(model: model))
            return [Outgoing(viewer: viewer.key, message: .window(.init(contentSize: viewer.contentSize, add: changed, remove: removed)))]
        case let .select(item, selected):
            guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
            let isSelected = viewer.collectionView.indexPathsForSelectedItems?.contains(indexPath) ?? false
            // A user's tap: the collection view's rules and delegate decide.
            guard selected != isSelected, viewer.collectionView.toggleFromUser(indexPath) else { return [] }
            return broadcast(.selection(viewer: viewer.info.id, item: item, selected: selected))
        case let .insert(op, section, count):
            guard model.snapshot.indexOfSection(section) != nil else { throw ProtocolError(.unknownSection, "no section with id '\(section.prefix(80))'") }
            guard model.snapshot.numberOfItems + count <= maxItems else {
                throw ProtocolError(.refused, "the collection holds \(model.snapshot.numberOfItems) items; inserting \(count) would pass the limit of \(maxItems)")
            }
            var next = model
            var ids: [String] = []
            for _ in 0..<count {
                let (id, content) = factory.makeItem(serial: nextSerial, section: section)
                nextSerial += 1
                ids.append(id)
                next.itemContent[id] = content
            }
            next.snapshot.insertItems(ids, at: 0, inSection: section)
            return try commit(next, op: op, by: viewer)
        case let .delete(op, items):
            if let unknown = items.first(where: { !model.snapshot.contains(item: $0) }) {
                throw ProtocolError(.unknownItem, "no item with id '\(unknown.prefix(80))'; nothing was deleted")
            }
            var next = model
            next.snapshot.deleteItems(items)
            for id in items { next.itemContent[id] = nil }
            return try commit(next, op: op, by: viewer)
        case let .shuffle(op, section):
            guard model.snapshot.indexOfSection(section) != nil else { throw ProtocolError(.unknownSection, "no section with id '\(section.prefix(80))'") }
            var ids = model.snapshot.itemIdentifiers(inSection: section)
            ids.shuffle(using: &random)
            var next = model
            next.snapshot.setItems(ids, inSection: section)
            return try commit(next, op: op, by: viewer)
        }
    }

    private func welcome(_ viewer: Viewer, _ hello: ClientMessage.Hello) throws(ProtocolError) -> [Outgoing] {
        guard hello.version == protocolVersion else {
            throw ProtocolError(.unsupportedVersion, "this server speaks protocol \(protocolVersion), not \(hello.version)")
        }
        let first = !viewer.ready
        viewer.ready = true
        viewer.window = [:]
        viewer.show(viewport: hello.viewport, offset: hello.offset, policy: policy)
        let elements = viewer.currentElements(model: model)
        _ = viewer.replaceWindow(with: elements)
        let selections = orderedViewers().filter(\.ready)
            .map { SelectionInfo(viewer: $0.info.id, items: $0.selection(in: model).sorted()) }
            .filter { !$0.items.isEmpty }
        var out = [Outgoing(viewer: viewer.key, message: .welcome(.init(
            viewer: viewer.info, seq: sequence, contentSize: viewer.contentSize, sections: model.sectionInfos,
            elements: elements, selections: selections, viewers: presence())))]
        if first {
            out += broadcast(.presence(viewers: presence()), except: viewer.key)
        }
        return out
    }

    /// Validates and applies `next` as one numbered batch, and tells every viewer.
    private func commit(_ next: CollectionModel, op: String?, by sender: Viewer) throws(ProtocolError) -> [Outgoing] {
        let batch = BatchUpdate(from: model.snapshot, to: next.snapshot)
        do {
            try batch.validate(countsBefore: model.snapshot.sectionCounts, countsAfter: next.snapshot.sectionCounts)
        } catch {
            throw ProtocolError(.invalidBatch, error.description)
        }
        let before = model.snapshot
        store.model = next
        sequence += 1
        var out: [Outgoing] = []
        if let op { out.append(Outgoing(viewer: sender.key, message: .ack(op: op, seq: sequence))) }
        let wire = (
            deletes: batch.deletedItems.map { [$0.section, $0.item] },
            deletedIds: batch.deletedItems.compactMap { before.itemIdentifier(at: $0) },
            inserts: batch.insertedItems.map { [$0.section, $0.item] },
            moves: batch.movedItems.map { [[$0.from.section, $0.from.item], [$0.to.section, $0.to.item]] }
        )
        let sections = model.sectionInfos
        for viewer in orderedViewers() {
            // Each viewer's collection view performs the batch against the shared data
            // source (already changed), which checks the counts once more.
            let cv = viewer.collectionView
            do {
                try cv.performBatchUpdates {
                    cv.deleteItems(at: batch.deletedItems)
                    cv.insertItems(at: batch.insertedItems)
                    for move in batch.movedItems { cv.moveItem(at: move.from, to: move.to) }
                }
            } catch {
                cv.reloadData()   // cannot happen after the model-level check; never show a wrong order
            }
            guard viewer.ready else { continue }
            cv.layoutIfNeeded()
            let elements = viewer.currentElements(model: model)
            let (_, removed) = viewer.replaceWindow(with: elements)
            out.append(Outgoing(viewer: viewer.key, message: .batch(.init(
                seq: sequence, by: sender.info.id, deletes: wire.deletes, deletedIds: wire.deletedIds, inserts: wire.inserts, moves: wire.moves,
                sections: sections, contentSize: viewer.contentSize, elements: elements, remove: removed))))
        }
        return out
    }

    private func orderedViewers() -> [Viewer] { viewers.values.sorted { $0.key < $1.key } }

    private func presence() -> [ViewerInfo] { orderedViewers().filter(\.ready).map(\.info) }

    private func broadcast(_ message: ServerMessage, except: UInt64? = nil) -> [Outgoing] {
        orderedViewers().filter { $0.ready && $0.key != except }.map { Outgoing(viewer: $0.key, message: message) }
    }
}
