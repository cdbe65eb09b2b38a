import CollectionProtocol
import CollectionSync
import Foundation

/// A classic data source (UIKit's `UICollectionViewDataSource`) behind a
/// ``LiveCollection``: the app keeps its own arrays and tells the collection what
/// changed with ``LiveCollection/performBatchUpdates(_:)``, as it would tell a
/// `UICollectionView`. A collection view of its own holds the data source and
/// checks every batch with UIKit's rules and messages.
final class ClassicSource: AppDataSource {
    let dataSource: any CollectionViewDataSource
    let collectionView: CollectionView
    private var serial = 0
    /// The action handlers of list cells' accessories, by item id, then kind.
    private var accessoryActions: [String: [String: CellAccessory.ActionHandler]] = [:]

    init(_ dataSource: any CollectionViewDataSource, cells: [String: CollectionViewCell.Type]) {
        self.dataSource = dataSource
        collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 1, height: 1), collectionViewLayout: CollectionViewFlowLayout())
        collectionView.mirror.appliedUpdatesLimit = 4
        for (id, type) in cells { collectionView.register(type, forCellWithReuseIdentifier: id) }
        collectionView.dataSource = dataSource
    }

    private func nextId(_ prefix: String) -> String {
        serial += 1
        return "\(prefix)\(serial)#"
    }

    /// The model the data source shows now, built afresh (every item a new identifier).
    func reloadedModel(from current: CollectionModel) -> CollectionModel {
        var next = current
        next.snapshot = NSDiffableDataSourceSnapshot<String, String>()
        next.itemContent = [:]
        next.itemReuseIdentifiers = [:]
        next.sectionTitles = [:]
        accessoryActions = [:]
        collectionView.reloadData()
        for s in 0..<collectionView.numberOfSections {
            let sid = nextId("s")
            next.snapshot.appendSections([sid])
            var ids: [String] = []
            for i in 0..<collectionView.numberOfItems(inSection: s) {
                let id = nextId("c")
                fill(&next, id: id, at: IndexPath(item: i, section: s))
                ids.append(id)
            }
            next.snapshot.appendItems(ids, toSection: sid)
            next.sectionTitles[sid] = title(ofSection: s) ?? sid
        }
        _ = collectionView.mirror.takeAppliedUpdates()
        return next
    }

    /// The model after `updates` (the app changes its data and calls the collection's
    /// insert, delete, move and reload methods inside): items keep their identifiers
    /// where the batch moves them, inserted ones get new ones, reloaded and
    /// reconfigured ones new content. Throws UIKit's message when the batch and the
    /// data source's counts disagree.
    func model(after updates: () -> Void, from current: CollectionModel) throws(ProtocolError) -> (CollectionModel, [String]) {
        _ = collectionView.mirror.takeAppliedUpdates()
        let before = current.snapshot.sectionCounts
        let cv = collectionView
        do {
            try withoutActuallyEscaping(updates) { updates in try cv.tryPerformBatchUpdates(updates) }
        } catch let error as InvalidBatchUpdate {
            throw ProtocolError(.invalidBatch, error.description)
        } catch {
            throw ProtocolError(.invalidBatch, "\(error)")
        }
        guard let applied = collectionView.mirror.takeAppliedUpdates().last, applied.kind == .batch else {
            return (reloadedModel(from: current), [])
        }
        let batch = applied.batch
        let after = (0..<collectionView.numberOfSections).map { collectionView.numberOfItems(inSection: $0) }
        let mapper = IndexPathMapper(batch, countsBefore: before, countsAfter: after)
        let oldSections = current.snapshot.sectionIdentifiers
        var sectionIds = [String?](repeating: nil, count: after.count)
        for (old, id) in oldSections.enumerated() {
            if let new = mapper.section(old), new < after.count { sectionIds[new] = id }
        }
        var slots = after.map { [String?](repeating: nil, count: $0) }
        var remade = Set(batch.reloadedItems.compactMap { current.snapshot.itemIdentifier(at: $0) })
        remade.formUnion(batch.reconfiguredItems.compactMap { current.snapshot.itemIdentifier(at: $0) })
        let deleted = Set(batch.deletedItems)
        for (s, sid) in oldSections.enumerated() {
            for (i, id) in current.snapshot.itemIdentifiers(inSection: sid).enumerated() {
                let old = IndexPath(item: i, section: s)
                guard !deleted.contains(old), let new = mapper.position(old), slots.indices.contains(new.section),
                      slots[new.section].indices.contains(new.item) else { continue }
                slots[new.section][new.item] = id
            }
        }
        var next = current
        next.snapshot = NSDiffableDataSourceSnapshot<String, String>()
        var reloading: [String] = []
        for (s, row) in slots.enumerated() {
            let sid = sectionIds[s] ?? nextId("s")
            next.snapshot.appendSections([sid])
            if next.sectionTitles[sid] == nil { next.sectionTitles[sid] = title(ofSection: s) ?? sid }
            var ids: [String] = []
            for (i, slot) in row.enumerated() {
                let id = slot ?? nextId("c")
                if slot == nil || remade.contains(id) {
                    fill(&next, id: id, at: IndexPath(item: i, section: s))
                    if slot != nil { reloading.append(id) }
                }
                ids.append(id)
            }
            next.snapshot.appendItems(ids, toSection: sid)
        }
        let kept = Set(next.snapshot.itemIdentifiers)
        next.itemContent = next.itemContent.filter { kept.contains($0.key) }
        accessoryActions = accessoryActions.filter { kept.contains($0.key) }
        next.itemReuseIdentifiers = next.itemReuseIdentifiers.filter { kept.contains($0.key) }
        let keptSections = Set(next.snapshot.sectionIdentifiers)
        next.sectionTitles = next.sectionTitles.filter { keptSections.contains($0.key) }
        return (next, reloading)
    }

    /// A viewer chose an item's accessory: its action handler runs (false: it has none).
    func chooseAccessory(_ kind: String, of id: String) -> Bool {
        guard let action = accessoryActions[id]?[kind] else { return false }
        action()
        return true
    }

    /// The data source's `canMoveItemAt`.
    func canMoveItem(at indexPath: IndexPath) -> Bool {
        dataSource.collectionView(collectionView, canMoveItemAt: indexPath)
    }

    /// A classic data source has no outlines.
    func setOutline(_ id: String, expanded: Bool) -> Bool? { nil }

    /// It keeps its own data: a committed batch tells it nothing more.
    func didCommit(_ sequence: Int, by author: String, model: CollectionModel, in hub: CollectionHub) {}

    /// A viewer moved an item: the data source moves it in its data, and this
    /// collection view follows.
    func viewerMoved(from: IndexPath, to: IndexPath) {
        dataSource.collectionView(collectionView, moveItemAt: from, to: to)
        let cv = collectionView
        try? cv.tryPerformBatchUpdates { cv.moveItem(at: from, to: to) }
        _ = collectionView.mirror.takeAppliedUpdates()
    }

    private func fill(_ model: inout CollectionModel, id: String, at indexPath: IndexPath) {
        let cell = dataSource.collectionView(collectionView, cellForItemAt: indexPath)
        cell.finishConfiguring()
        model.itemContent[id] = cell.content
        let actions = (cell as? CollectionViewListCell).map { CellAccessory.actions($0.accessories) } ?? [:]
        accessoryActions[id] = actions.isEmpty ? nil : actions
        // A cell back on the default template drops its own (a reload may change it).
        model.itemReuseIdentifiers[id] = cell.reuseIdentifier == model.cellReuseIdentifier ? nil : cell.reuseIdentifier
    }

    /// A section header's title, if the data source gives headers one.
    private func title(ofSection s: Int) -> String? {
        let view = dataSource.collectionView(collectionView, viewForSupplementaryElementOfKind: CollectionView.elementKindSectionHeader,
                                             at: IndexPath(item: 0, section: s))
        return view.content["title"]
    }
}

extension LiveCollection {
    /// Registers the cell class a classic data source dequeues for `identifier`
    /// (the page's `tpl-IDENTIFIER` draws it). Call before ``setDataSource(_:)``.
    ///
    /// - Parameters:
    ///   - cellClass: The cell class dequeued.
    ///   - identifier: The reuse identifier (and the page's template name).
    public func register(_ cellClass: CollectionViewCell.Type, forCellWithReuseIdentifier identifier: String) {
        classicCells.withLock { $0[identifier] = cellClass }
    }

    /// Makes `dataSource` (UIKit's classic style) the collection's data: its items
    /// are loaded now as one batch, and from then on the app changes its data inside
    /// ``performBatchUpdates(_:)``. Items viewers move are moved through the data
    /// source's `moveItemAt` (and only where its `canMoveItemAt` agrees).
    ///
    /// - Parameter dataSource: The app's data source (held strongly).
    /// - Returns: The sequence number of the batch that loaded its items.
    /// - Throws: ``ProtocolError`` when its items break a limit.
    @discardableResult
    public func setDataSource(_ dataSource: sending any CollectionViewDataSource) throws(ProtocolError) -> Int {
        let cells = classicCells.withLock { $0 }
        // The data source keeps the data: the store keeps none of this collection.
        engine.keepAppData(of: name)
        return try engine.withHub(name) { hub throws(ProtocolError) in
            let source = ClassicSource(dataSource, cells: cells)
            hub.app.dataSource = source
            let out = try hub.apply(source.reloadedModel(from: hub.model))
            return (hub.sequence, out)
        }
    }

    /// UIKit's `performBatchUpdates(_:)` for a classic data source: change the data
    /// and call ``insertItems(at:)``, ``deleteItems(at:)``, ``moveItem(at:to:)``,
    /// ``reloadItems(at:)`` (and the section variants) inside `updates`. The batch is
    /// checked against the data source's counts with UIKit's rules, numbered and
    /// sent to every viewer; returns its sequence number once queued to all.
    ///
    /// - Parameter updates: Changes the data and says what changed.
    /// - Returns: The batch's sequence number.
    /// - Throws: ``ProtocolError`` (`invalidBatch`, with UIKit's message) when the changes disagree with the counts; nothing changes.
    @discardableResult
    public func performBatchUpdates(_ updates: sending () -> Void) async throws(ProtocolError) -> Int {
        try await engine.changes.perform { () throws(ProtocolError) in try batchUpdates(updates) }
    }

    private func batchUpdates(_ updates: () -> Void) throws(ProtocolError) -> Int {
        try engine.withHub(name) { hub throws(ProtocolError) in
            guard let source = hub.app.dataSource as? ClassicSource else {
                throw ProtocolError(.refused, "collection '\(name)' has no classic data source; call setDataSource(_:) first")
            }
            let (model, reloading) = try source.model(after: updates, from: hub.model)
            let out = try hub.apply(model, reloading: reloading)
            return (hub.sequence, out)
        }
    }

    /// Inside ``performBatchUpdates(_:)``: items inserted.
    ///
    /// - Parameter indexPaths: Where the new items are, after the batch.
    public func insertItems(at indexPaths: [IndexPath]) { classic { $0.insertItems(at: indexPaths) } }
    /// Inside ``performBatchUpdates(_:)``: items deleted.
    ///
    /// - Parameter indexPaths: Where the items were, before the batch.
    public func deleteItems(at indexPaths: [IndexPath]) { classic { $0.deleteItems(at: indexPaths) } }
    /// Inside ``performBatchUpdates(_:)``: an item moved.
    ///
    /// - Parameters:
    ///   - indexPath: Where the item was, before the batch.
    ///   - newIndexPath: Where it is, after the batch.
    public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) { classic { $0.moveItem(at: indexPath, to: newIndexPath) } }
    /// Inside ``performBatchUpdates(_:)``: items whose cells are made again.
    ///
    /// - Parameter indexPaths: The items, by where they were before the batch.
    public func reloadItems(at indexPaths: [IndexPath]) { classic { $0.reloadItems(at: indexPaths) } }
    /// Inside ``performBatchUpdates(_:)``: sections inserted.
    ///
    /// - Parameter sections: Where the new sections are, after the batch.
    public func insertSections(_ sections: IndexSet) { classic { $0.insertSections(sections) } }
    /// Inside ``performBatchUpdates(_:)``: sections deleted, with their items.
    ///
    /// - Parameter sections: Where the sections were, before the batch.
    public func deleteSections(_ sections: IndexSet) { classic { $0.deleteSections(sections) } }

    private func classic(_ body: (CollectionView) -> Void) {
        onApp { _, app in
            guard let source = app.dataSource as? ClassicSource else { return }
            body(source.collectionView)
        }
    }
}
