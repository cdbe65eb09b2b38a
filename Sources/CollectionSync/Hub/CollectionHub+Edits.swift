import CollectionCore
import CollectionProtocol
import Foundation

extension CollectionHub {
    /// Applies an edit that names items and sections by identifier, or throws why not.
    func apply(_ request: EditRequest, from viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        if let ifSeq = request.ifSeq, ifSeq != sequence {
            throw ProtocolError(.stale, "the edit expects sequence \(ifSeq); the collection is at \(sequence)")
        }
        try requireAllowed(request.action)
        var next = model
        var reloadIds: [String] = []
        var changed: [String] = []
        var moved: (from: IndexPath, to: IndexPath)?
        switch request.action {
        case let .insert(section, count):
            try requireSection(section)
            guard model.snapshot.numberOfItems + count <= limits.maxItems else {
                throw ProtocolError(.refused, "the collection holds \(model.snapshot.numberOfItems) items; inserting \(count) would pass the limit of \(limits.maxItems)")
            }
            var ids: [String] = []
            for _ in 0..<count {
                let (id, content) = factory.makeItem(serial: nextSerial, section: section)
                nextSerial += 1
                ids.append(id)
                next.itemContent[id] = content
            }
            changed = ids
            next.snapshot.insertItems(ids, at: 0, inSection: section)
        case let .delete(items):
            try requireItems(items)
            guard Set(items).count == items.count else { throw ProtocolError(.badMessage, "field 'items' names an item twice") }
            next.snapshot.deleteItems(items)
            for id in items { next.itemContent[id] = nil }
        case let .shuffle(section):
            try requireSection(section)
            var ids = model.snapshot.itemIdentifiers(inSection: section)
            ids.shuffle(using: &random)
            next.snapshot.setItems(ids, inSection: section)
        case let .move(item, section, after):
            try requireItems([item])
            try requireSection(section)
            if let after {
                try requireItems([after])
                guard after != item else { throw ProtocolError(.badMessage, "an item cannot move after itself") }
                guard model.snapshot.sectionIdentifier(containingItem: after) == section else {
                    throw ProtocolError(.badMessage, "item '\(after.prefix(80))' is not in section '\(section.prefix(80))'")
                }
            }
            let from = model.snapshot.indexPath(for: item)!
            let cv = viewer.collectionView
            guard cv.dataSource?.collectionView(cv, canMoveItemAt: from) ?? false else {
                throw ProtocolError(.notMovable, "\(named(item)) cannot be moved")
            }
            // Moved in place: a move within a section leaves the index of items by
            // section alone (a delete and an insert copied it, the whole collection's).
            if let after {
                next.snapshot.moveItem(item, afterItem: after)
            } else {
                next.snapshot.moveItem(item, to: 0, inSection: section)
            }
            moved = next.snapshot.indexPath(for: item).map { (from, $0) }
            // The delegate's rule for where a dragged item may go holds for a named move too.
            if let to = moved?.1, let delegate = cv.delegate,
               delegate.collectionView(cv, targetIndexPathForMoveOfItemFromOriginalIndexPath: from, atCurrentIndexPath: from, toProposedIndexPath: to) != to {
                throw ProtocolError(.notMovable, "\(named(item)) cannot be moved there (the delegate's targetIndexPathForMoveOfItemFromOriginalIndexPath keeps it elsewhere)")
            }
        case let .reload(items):
            try requireItems(items)
            for id in Set(items) {
                next.itemContent[id] = factory.reloadedContent(for: id, current: model.itemContent[id] ?? [:], serial: nextSerial)
                nextSerial += 1
            }
            reloadIds = Array(Set(items))
        }
        let out = try commit(next, reloading: reloadIds, op: request.op, by: viewer.info.id, ackTo: viewer.key, changedContent: changed)
        if let moved {
            hubDelegate?.hub(self, didMoveItemAt: moved.from, to: moved.to)
        }
        return out
    }

    private func requireAllowed(_ action: EditAction) throws(ProtocolError) {
        let (edit, name): (ViewerEdits, String) = switch action {
        case .insert: (.insert, "insert")
        case .delete: (.delete, "delete")
        case .shuffle: (.shuffle, "shuffle")
        case .reload: (.reload, "reload")
        case .move: (.move, "move")
        }
        guard allowedEdits.contains(edit) else { throw ProtocolError(.refused, "collection '\(self.name)' does not take '\(name)' edits from viewers") }
    }

    private func requireSection(_ section: String) throws(ProtocolError) {
        guard model.snapshot.indexOfSection(section) != nil else { throw ProtocolError(.unknownSection, "no section with id '\(section.prefix(80))'") }
    }

    private func requireItems(_ items: [String]) throws(ProtocolError) {
        if let unknown = items.first(where: { !model.snapshot.contains(item: $0) }) {
            throw ProtocolError(.unknownItem, "no item with id '\(unknown.prefix(80))'; nothing was changed")
        }
    }

    /// A change the server itself makes (a background job, the app's own data, a
    /// handler run for a viewer): the model becomes `next`, with `reloading` items'
    /// cells made again (UIKit's `reloadItems`: a new cell, unselected) and
    /// `reconfiguring` items' configured again (`reconfigureItems`: the same cell,
    /// its selection kept), as one numbered batch like any viewer's edit. It is
    /// attributed to `author` (by default ``serverAuthor``, no viewer), and refused,
    /// changing nothing, when it breaks a limit or its counts disagree.
    public func apply(_ next: CollectionModel, reloading: [String] = [], reconfiguring: [String] = [],
                      by author: String = serverAuthor) throws(ProtocolError) -> [Outgoing] {
        guard next.snapshot.numberOfItems <= max(limits.maxItems, model.snapshot.numberOfItems) else {
            throw ProtocolError(.refused, "the change leaves \(next.snapshot.numberOfItems) items in '\(name)'; the limit is \(limits.maxItems)")
        }
        let problems = next.checkInvariants()
        guard problems.isEmpty else { throw ProtocolError(.invalidBatch, problems.joined(separator: "; ")) }
        editFingerprint = 0
        var out = try commit(next, reloading: reloading, reconfiguring: reconfiguring, op: nil, by: author, ackTo: nil)
        for i in out.indices { out[i].encode() }
        return out
    }

    /// The `by` of batches the server made.
    public static let serverAuthor = "server"

    /// Validates and applies `next` as one numbered batch, logs it, and tells every viewer.
    func commit(_ next: CollectionModel, reloading reloadIds: [String], op: String?, by sender: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        try commit(next, reloading: reloadIds, op: op, by: sender.info.id, ackTo: sender.key)
    }

    /// `commit` for a change made on behalf of `by` (a viewer id, perhaps of another
    /// collection); the ack goes to `ackTo` when there is an op. `changedContent`
    /// names the items whose content may have changed (nil: any).
    /// `committed`: the batch was committed by another server sharing the store;
    /// it keeps its number, and nothing is journaled or acknowledged here.
    /// `changedSections`: ``changedSectionInfos(in:)`` of `next`, when the caller made them.
    func commit(_ next: CollectionModel, reloading reloadIds: [String], reconfiguring reconfigureIds: [String] = [], op: String?, by: String, ackTo: UInt64?,
                changedContent: [String]? = nil, committed: CommittedBatch? = nil,
                changedSections: [String: SectionInfo]? = nil) throws(ProtocolError) -> [Outgoing] {
        var next = next
        let before = model.snapshot
        var batch = BatchUpdate(from: before, to: next.snapshot)
        batch.reloadedItems = reloadIds.compactMap { before.indexPath(for: $0) }.sorted()
        if !reconfigureIds.isEmpty {
            // Only items that stay and are not reloaded: the same cell, configured again.
            let reloaded = Set(reloadIds)
            batch.reconfiguredItems = reconfigureIds.filter { !reloaded.contains($0) && next.snapshot.contains(item: $0) }
                .compactMap { before.indexPath(for: $0) }.sorted()
        }
        do {
            try batch.validate(countsBefore: before.sectionCounts, countsAfter: next.snapshot.sectionCounts)
        } catch {
            throw ProtocolError(.invalidBatch, error.description)
        }
        for p in batch.deletedItems {
            if let id = before.itemIdentifier(at: p), !next.snapshot.contains(item: id) { next.itemReuseIdentifiers[id] = nil }
        }
        // The sections the batch changed, as they will be.
        let infos = changedSections ?? changedSectionInfos(in: next)
        let seq = committed?.seq ?? sequence + 1
        let logged = LoggedBatch(
            seq: seq, by: by,
            deletes: batch.deletedItems,
            deletedIds: batch.deletedItems.compactMap { before.itemIdentifier(at: $0) },
            inserts: batch.insertedItems,
            insertedIds: batch.insertedItems.compactMap { next.snapshot.itemIdentifier(at: $0) },
            moves: batch.movedItems.map { ($0.from, $0.to) },
            reloads: batch.reloadedItems,
            sections: next.snapshot.sectionIdentifiers.map { infos[$0] ?? sectionInfoCache[$0] ?? next.sectionInfo($0) })
        // The store keeps it first: a batch it cannot keep is refused, changing nothing.
        if let committed {
            nextSerial = max(nextSerial, committed.nextSerial)
        } else if let journal {
            let delta = ModelDelta(from: model, to: next, batch: batch, changedContent: changedContent.map { $0 + reloadIds + reconfigureIds })
            try journal.hub(self, stage: CommittedBatch(collection: name, seq: seq, op: op, fingerprint: op == nil ? 0 : editFingerprint, by: by,
                                                        delta: delta, replay: logged, nextSerial: nextSerial))
        }
        store.model = next
        sequence = seq
        // The app's data source follows before any layout asks it about the new state.
        hubDelegate?.hub(self, didCommit: sequence, by: by, model: next)
        refreshBackground()
        for s in batch.deletedSections where next.snapshot.indexOfSection(before.sectionIdentifiers[s]) == nil {
            sectionInfoCache[before.sectionIdentifiers[s]] = nil
        }
        for (id, info) in infos { sectionInfoCache[id] = info }
        log.append(logged)

        var out: [Outgoing] = []
        if let op, let committed {
            acceptedOps.remember(op, AcceptedOp(seq: sequence, fingerprint: committed.fingerprint))
        } else if let op, let ackTo {
            out.append(Outgoing(viewer: ackTo, message: .ack(op: op, seq: sequence)))
            acceptedOps.remember(op, AcceptedOp(seq: sequence, fingerprint: editFingerprint))
        }
        // Every viewer's copy shares all but its content size and window changes:
        // those members are encoded once.
        var template = ServerMessage.Batch(
            seq: sequence, by: by, deletes: logged.deletes, deletedIds: logged.deletedIds, inserts: logged.inserts,
            insertedIds: logged.insertedIds, moves: logged.moves, reloads: logged.reloads, sections: logged.sections,
            contentSize: Size(width: 0, height: 0), elements: [], remove: [])
        template.encodeSharedMembers()
        let deletedIds = Dictionary(batch.deletedItems.compactMap { p in before.itemIdentifier(at: p).map { (p, $0) } }, uniquingKeysWith: { a, _ in a })
        // The item changes every viewer's collection view performs, checked once
        // against the shared data source's counts (nil: they do not pass, as when
        // sections changed; each view then checks, fails and loads afresh).
        var items = BatchUpdate()
        items.deletedItems = batch.deletedItems
        items.insertedItems = batch.insertedItems
        items.movedItems = batch.movedItems
        items.reloadedItems = batch.reloadedItems
        items.reconfiguredItems = batch.reconfiguredItems
        let checked = try? CheckedBatchUpdate(items, countsBefore: before.sectionCounts, countsAfter: next.snapshot.sectionCounts)
        oncePerState(into: &out) { viewer in
            // Each viewer's collection view performs the batch against the shared data
            // source (already changed).
            let cv = viewer.collectionView
            suspendMovement(of: viewer)
            do {
                if let checked { try cv.performBatchUpdates(checked) } else { try cv.tryPerformItemUpdates(items) }
            } catch {
                cv.reloadData()   // cannot happen after the model-level check; never show a wrong order
            }
            // The batch's elements are where the model puts them; a movement under way
            // is picked up again after, in a window of its own.
            guard viewer.ready else { return (nil, []) }
            // Only what is new to the window or changed: the client keeps the rest.
            let (changed, removed) = viewer.refreshWindow()
            var batch = template
            batch.contentSize = viewer.contentSize
            batch.bands = viewer.bands
            batch.elements = changed
            batch.remove = removed
            (batch.appear, batch.disappear) = viewer.updatePoses(deletedIds: deletedIds)
            return (.batch(batch), resumeMovement(of: viewer))
        }
        return out
    }
}
