import CollectionProtocol
import CollectionSync
import Foundation
import Locking

/// A diffable data source for a ``LiveCollection``, as UIKit's
/// `UICollectionViewDiffableDataSource`: the app applies snapshots of its own
/// typed identifiers; what changed goes to every viewer as one numbered batch.
///
/// Viewers' moves change it too: ``snapshot()`` is always the collection as
/// viewers see it. Each item and section gets a wire identifier (what pages and
/// the protocol name it by): its own text when it is `LosslessStringConvertible`,
/// its raw value, or its `id` when `Identifiable` (if short and not taken), else
/// a number ending in "#".
public final class LiveDiffableDataSource<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: Sendable {
    /// Makes the content of an item's cell. It runs while the data source applies a
    /// snapshot: it may read `snapshot(for:)` of a section whose section snapshot was
    /// applied, but not `snapshot()` or `itemIdentifier(for:)`.
    public typealias CellProvider = @Sendable (IndexPath, ItemIdentifierType) -> CellContent
    /// Makes a section header's fields (`title` is what the default headers show).
    public typealias HeaderProvider = @Sendable (SectionIdentifierType) -> [String: String]
    /// The snapshot type.
    public typealias Snapshot = NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>

    /// The collection it fills.
    public let collection: LiveCollection
    private let cellProvider: CellProvider
    private let headerProvider: HeaderProvider
    let state = Locked(Mapping(), recursive: true)
    /// Section snapshots applied (outlines) and their handlers, under a lock of their
    /// own: a cell provider (run while `state` is held) reads them.
    let outlines = Locked(Outlines(), recursive: true)
    /// UIKit's reordering handlers (``reorderingHandlers``).
    let reordering = Locked(ReorderingHandlers(), recursive: true)
    /// Told of every committed change (``onChange(_:)``).
    let changeHandler = Locked<(@Sendable (Snapshot, CommittedChange) -> Void)?>(nil, recursive: true)

    struct Outlines {
        var sectionSnapshots: [SectionIdentifierType: NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>] = [:]
        var handlers = SectionSnapshotHandlers<ItemIdentifierType>()
    }

    struct Mapping {
        var snapshot = Snapshot()
        var itemIds: [ItemIdentifierType: String] = [:]
        var items: [String: ItemIdentifierType] = [:]
        /// Wire ids of `Identifiable` items by their `id`: a value whose other fields
        /// changed is the same item (its cell is configured again, under its wire id).
        var identities: [AnyHashable: String] = [:]
        var sectionIds: [SectionIdentifierType: String] = [:]
        var sections: [String: SectionIdentifierType] = [:]
        var itemSerial = 0
        var sectionSerial = 0
        /// The action handlers of items' accessories (by wire id, then kind).
        var accessoryActions: [String: [String: CellAccessory.ActionHandler]] = [:]
        /// Wire items with no typed identifier (dropped in from outside), left out of the snapshot.
        var unknown = 0
        /// Counts the batches followed: the version ``snapshot()`` stamps its snapshots with.
        var version = 0
        /// Whether this data source has applied a snapshot yet: its first makes every
        /// cell's content anew (what the collection holds may come from the store's
        /// history, made from values the app has since changed).
        var applied = false
    }

    /// A data source whose cells `cellProvider` fills; headers show `headerProvider`'s
    /// fields (by default the section identifier as `title`). It takes over the
    /// collection's contents: apply a snapshot to fill it.
    ///
    /// - Parameters:
    ///   - collection: The collection whose contents it holds.
    ///   - headerProvider: A section header's fields.
    ///   - cellProvider: A cell's content, for an item at an index path.
    public init(collection: LiveCollection, headerProvider: HeaderProvider? = nil, cellProvider: @escaping CellProvider) {
        self.collection = collection
        self.cellProvider = cellProvider
        self.headerProvider = headerProvider ?? { ["title": String(describing: $0)] }
        // Typed values live in the app: the store keeps none of this collection.
        collection.engine.keepAppData(of: collection.name)
        collection.onApp { _, app in app.dataSource = self }
    }

    /// Tells `handler` of every change committed to the collection, whoever made it:
    /// the app's own, viewers' moves and drops, another server's (sharing the
    /// store), with the snapshot after it, its number and who made it. The way to
    /// keep the app's own copy of the order (its database) in step. It runs with the
    /// collection locked, before viewers are sent the batch: read, and change the
    /// collection from a new `Task`.
    ///
    /// - Parameter handler: Told of each change (nil: no longer).
    public func onChange(_ handler: (@Sendable (_ snapshot: Snapshot, _ change: CommittedChange) -> Void)?) {
        changeHandler.withLock { $0 = handler }
    }

    /// A data source whose cells `registration` fills.
    ///
    /// - Parameters:
    ///   - collection: The collection whose contents it holds.
    ///   - registration: The cells' template and content.
    ///   - headerProvider: A section header's fields.
    public convenience init(collection: LiveCollection, cellRegistration registration: CellRegistration<ItemIdentifierType>,
                            headerProvider: HeaderProvider? = nil) {
        self.init(collection: collection, headerProvider: headerProvider) { _, item in registration.content(for: item) }
    }

    /// The collection now, as identifiers. Change it and ``apply(_:animatingDifferences:by:)``
    /// it: if the collection changed meanwhile (a viewer moved an item, another
    /// task applied), only this snapshot's own changes are made, on the collection
    /// as it is then; nothing done meanwhile is undone.
    ///
    /// - Returns: The sections and items now, by identifier.
    public func snapshot() -> Snapshot {
        state.withLock { m in
            var copy = m.snapshot
            copy.basis = SnapshotBasis(m.snapshot, version: m.version)
            return copy
        }
    }

    /// The item at `indexPath` now.
    ///
    /// - Parameter indexPath: A place in the collection.
    /// - Returns: The item there, or nil.
    public func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? { state.withLock { $0.snapshot.itemIdentifier(at: indexPath) } }

    /// Where `item` is now.
    ///
    /// - Parameter item: An item's identifier.
    /// - Returns: Its place, or nil when the collection does not hold it.
    public func indexPath(for item: ItemIdentifierType) -> IndexPath? { state.withLock { $0.snapshot.indexPath(for: item) } }

    /// Makes the collection `snapshot` in one numbered batch: new items get cells
    /// from the cell provider, items in `reloadItems`/`reconfigureItems` get them
    /// again, the rest keep theirs. Returns the batch's sequence number once it is
    /// queued to every connected viewer; throws, changing nothing, when it breaks
    /// a limit. (Viewers always animate a batch; `animatingDifferences` is kept for
    /// UIKit's signature.) The batch names `viewer` as its author (by default the server).
    ///
    /// - Parameters:
    ///   - snapshot: The collection as it should be.
    ///   - animatingDifferences: Kept for UIKit's signature.
    ///   - viewer: The batch's author.
    /// - Returns: The batch's sequence number.
    /// - Throws: ``ProtocolError`` when the change is not made.
    @discardableResult
    public func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true, by viewer: Viewer = .server) async throws(ProtocolError) -> Int {
        try await collection.engine.changes.perform { () throws(ProtocolError) in
            try collection.commit(by: viewer) { current in wireModel(for: rebased(snapshot), from: current) }
        }
    }

    /// Changes the collection as it is when the change runs: `body` gets the
    /// current snapshot (viewers' moves and every other change included) and
    /// edits it in place; the result is applied as one batch, with nothing
    /// between the reading and the applying. Returns the batch's number.
    ///
    /// - Parameters:
    ///   - viewer: The batch's author.
    ///   - body: Changes the snapshot in place.
    /// - Returns: The batch's sequence number.
    /// - Throws: ``ProtocolError`` when the change is not made.
    @discardableResult
    public func update(by viewer: Viewer = .server, _ body: sending (inout Snapshot) -> Void) async throws(ProtocolError) -> Int {
        try await collection.engine.changes.perform { () throws(ProtocolError) in
            try collection.commit(by: viewer) { current in
                var next = state.withLock { $0.snapshot }
                body(&next)
                return wireModel(for: next, from: current)
            }
        }
    }

    /// Configures the cells of `items` again from their current values (UIKit's
    /// `reconfigureItems`, applied at once), on the collection as it is then: a
    /// viewer's move made meanwhile stays.
    ///
    /// - Parameters:
    ///   - items: The items whose cells are configured again (those gone are left out).
    ///   - viewer: The batch's author.
    /// - Returns: The batch's sequence number.
    /// - Throws: ``ProtocolError`` when the change is not made.
    @discardableResult
    public func reconfigureItems(_ items: [ItemIdentifierType], by viewer: Viewer = .server) async throws(ProtocolError) -> Int {
        try await update(by: viewer) { next in
            next.reconfigureItems(items.filter { next.contains(item: $0) })
        }
    }

    /// `snapshot` made on the collection as it is now: as it is when it was taken
    /// from ``snapshot()`` at the current version (or made by the app from
    /// nothing), else its own changes since it was taken, made on the current one
    /// (``NSDiffableDataSourceSnapshot/rebased(from:onto:)``). Engine's lock held.
    private func rebased(_ snapshot: Snapshot) -> Snapshot {
        state.withLock { m in
            guard let basis = snapshot.basis, basis.version != m.version else { return snapshot }
            return snapshot.rebased(from: basis.snapshot, onto: m.snapshot)
        }
    }

    /// The wire model of `snapshot`, and the items whose cells are made again
    /// (`reloadItems`) or configured again (`reconfigureItems`, and an
    /// `Identifiable` item whose other fields changed).
    private func wireModel(for snapshot: Snapshot, from current: CollectionModel) -> LiveCollection.Change {
        state.withLock { m in
            var next = current
            next.snapshot = NSDiffableDataSourceSnapshot<String, String>()
            next.itemContent = [:]
            next.itemReuseIdentifiers = [:]
            let reloaded = Set(snapshot.reloadedItemIdentifiers)
            let remade = reloaded.union(snapshot.reconfiguredItemIdentifiers)
            var reloading: [String] = [], reconfiguring: [String] = []
            for (s, section) in snapshot.sectionIdentifiers.enumerated() {
                let sid = m.wireId(for: section)
                next.snapshot.appendSections([sid])
                if current.sectionTitles[sid] == nil || snapshot.reloadedSectionIdentifiers.contains(section) {
                    next.sectionTitles[sid] = headerProvider(section)["title"] ?? sid
                }
                var ids: [String] = []
                for (i, item) in snapshot.itemIdentifiers(inSection: section).enumerated() {
                    let (id, changed) = m.wireId(for: item)
                    ids.append(id)
                    if let kept = current.itemContent[id], !remade.contains(item), !changed, m.applied {
                        next.itemContent[id] = kept
                        if let t = current.itemReuseIdentifiers[id] { next.itemReuseIdentifiers[id] = t }
                    } else {
                        let content = cellProvider(IndexPath(item: i, section: s), item)
                        next.itemContent[id] = content.fields
                        m.accessoryActions[id] = content.accessoryActions.isEmpty ? nil : content.accessoryActions
                        if content.template != next.cellReuseIdentifier { next.itemReuseIdentifiers[id] = content.template }
                        if let before = current.itemContent[id] {
                            // A reload makes a new cell; a reconfigure matters only when the content moved on.
                            if reloaded.contains(item) { reloading.append(id) } else if before != content.fields { reconfiguring.append(id) }
                        }
                    }
                }
                next.snapshot.appendItems(ids, toSection: sid)
            }
            for id in current.sectionTitles.keys where next.snapshot.indexOfSection(id) == nil { next.sectionTitles[id] = nil }
            m.accessoryActions = m.accessoryActions.filter { next.itemContent[$0.key] != nil }
            m.applied = true
            return LiveCollection.Change(model: next, reloading: reloading, reconfiguring: reconfiguring)
        }
    }

    /// After any batch (the app's or a viewer's): the typed snapshot follows the model.
    private func follow(_ model: CollectionModel) {
        state.withLock { m in
            var next = Snapshot()
            var items: [String: ItemIdentifierType] = [:]
            var sections: [String: SectionIdentifierType] = [:]
            m.unknown = 0
            for sid in model.snapshot.sectionIdentifiers {
                guard let section = m.sections[sid] else { continue }
                sections[sid] = section
                next.appendSections([section])
                let typed = model.snapshot.itemIdentifiers(inSection: sid).compactMap { id -> ItemIdentifierType? in
                    guard let item = m.items[id] else { m.unknown += 1; return nil }
                    items[id] = item
                    return item
                }
                next.appendItems(typed, toSection: section)
            }
            m.snapshot = next
            m.version += 1
            m.items = items
            m.itemIds = Dictionary(uniqueKeysWithValues: items.map { ($0.value, $0.key) })
            m.identities = m.identities.filter { items[$0.value] != nil }
            m.sections = sections
            m.sectionIds = Dictionary(uniqueKeysWithValues: sections.map { ($0.value, $0.key) })
        }
    }
}

/// What the data source answers the collection's hub (AppBridge.swift).
extension LiveDiffableDataSource: AppDataSource {
    func canMoveItem(at indexPath: IndexPath) -> Bool { canReorder(at: indexPath) }

    func viewerMoved(from: IndexPath, to: IndexPath) { reordered(from: from, to: to) }

    /// Follows the batch, then tells the app's change handler.
    func didCommit(_ sequence: Int, by author: String, model: CollectionModel, in hub: CollectionHub) {
        follow(model)
        guard let handler = changeHandler.withLock({ $0 }) else { return }
        let viewer = author == CollectionHub.serverAuthor ? Viewer.server : hub.viewer(withID: author) ?? Viewer(id: author, name: author, color: "#888")
        handler(snapshot(), CommittedChange(sequence: sequence, by: viewer))
    }

    func setOutline(_ id: String, expanded: Bool) -> Bool? { toggleOutline(id, expanded: expanded) }

    func chooseAccessory(_ kind: String, of id: String) -> Bool {
        // Run outside the data source's lock: the handler may apply a snapshot.
        guard let action = state.withLock({ $0.accessoryActions[id]?[kind] }) else { return false }
        action()
        return true
    }
}

extension LiveDiffableDataSource.Mapping {
    /// The wire identifier of an item (made on first sight), and whether the item
    /// is a new value of one known by its `id` (`Identifiable`): the same item,
    /// whose cell is configured again.
    mutating func wireId(for item: ItemIdentifierType) -> (id: String, changed: Bool) {
        if let id = itemIds[item] {
            items[id] = item   // equal, but perhaps a newer value (an item hashed by its id, say)
            return (id, false)
        }
        let identity = Self.identity(of: item)
        if let identity, let id = identities[identity], items[id] != nil {
            items[id] = item
            itemIds[item] = id
            return (id, true)
        }
        let id = Self.text(of: item, unused: { items[$0] == nil }) ?? {
            itemSerial += 1
            return "i\(itemSerial)#"
        }()
        itemIds[item] = id
        items[id] = item
        if let identity { identities[identity] = id }
        return (id, false)
    }

    /// An `Identifiable` value's `id`, as a key; nil for other values.
    private static func identity(of value: Any) -> AnyHashable? {
        func key<T: Identifiable>(_ v: T) -> AnyHashable { AnyHashable(v.id) }
        guard let identifiable = value as? any Identifiable else { return nil }
        return key(identifiable)
    }

    /// The wire identifier of a section (made on first sight).
    mutating func wireId(for section: SectionIdentifierType) -> String {
        if let id = sectionIds[section] { return id }
        let id = Self.text(of: section, unused: { sections[$0] == nil }) ?? {
            sectionSerial += 1
            return "s\(sectionSerial)#"
        }()
        sectionIds[section] = id
        sections[id] = section
        return id
    }

    /// A value's own text, when it has one that is short and not taken: the value's
    /// own (`LosslessStringConvertible`), its raw value, or its `id` (`Identifiable`).
    /// A numbered identifier ends with "#", so the two cannot meet.
    private static func text(of value: Any, unused: (String) -> Bool) -> String? {
        func own(_ v: Any) -> String? {
            if let convertible = v as? any LosslessStringConvertible { return convertible.description }
            if let raw = v as? any RawRepresentable, let text = (raw.rawValue as Any) as? any LosslessStringConvertible { return text.description }
            return nil
        }
        func identity<T: Identifiable>(_ v: T) -> Any { v.id }
        var text = own(value)
        if text == nil, let identifiable = value as? any Identifiable { text = own(identity(identifiable)) }
        guard let text, !text.isEmpty, text.utf8.count <= 64, !text.hasSuffix("#"), unused(text) else { return nil }
        return text
    }
}

/// A change committed to a collection (``LiveDiffableDataSource/onChange(_:)``).
public struct CommittedChange: Sendable, Equatable {
    /// Its number (the batch's `seq`).
    public let sequence: Int
    /// Who made it: a viewer, or ``Viewer/server`` (the app).
    public let by: Viewer
}
