import CollectionCore
import CollectionProtocol
import Foundation

/// A change of the model as the batch that numbers it (pure): UIKit's batch update
/// from the contents now to `next`, with its reloads and reconfigures, checked
/// against the sections' counts; the record kept for resumes; and what every
/// viewer's copy of the batch shares.
package struct NumberedBatch {
    /// The whole change, sections and items.
    package let update: BatchUpdate
    /// What the log keeps for resumes (and a store for other servers).
    package let logged: LoggedBatch
    /// The item changes alone, which every viewer's collection view performs.
    package let itemUpdates: BatchUpdate
    /// ``itemUpdates`` checked once against the counts (nil: they do not pass, as
    /// when sections changed; each view then checks, fails and loads afresh).
    package let checkedItems: CheckedBatchUpdate?
    /// The identifiers of the items deleted, by their index path before.
    package let deletedIds: [IndexPath: String]

    /// The batch numbered `seq`, made by `by`, that takes `before` to `next`;
    /// `reloading` items' cells are made again, `reconfiguring` ones (those that stay
    /// and are not reloaded) configured again; `sections` are `next`'s infos.
    /// `next` loses the cell templates of the items deleted. (It is not kept here: a
    /// second reference to the contents would make the next change in place copy them.)
    /// Throws `invalid_batch` when the counts disagree.
    package init(from before: CollectionModel, to next: inout CollectionModel, reloading: [String], reconfiguring: [String] = [],
                 seq: Int, by: String, sections: [SectionInfo]) throws(ProtocolError) {
        let old = before.snapshot
        var batch = BatchUpdate(from: old, to: next.snapshot)
        batch.reloadedItems = reloading.compactMap { old.indexPath(for: $0) }.sorted()
        if !reconfiguring.isEmpty {
            let reloaded = Set(reloading)
            batch.reconfiguredItems = reconfiguring.filter { !reloaded.contains($0) && next.snapshot.contains(item: $0) }
                .compactMap { old.indexPath(for: $0) }.sorted()
        }
        do {
            try batch.validate(countsBefore: old.sectionCounts, countsAfter: next.snapshot.sectionCounts)
        } catch {
            throw ProtocolError(.invalidBatch, error.description)
        }
        var deletedIds: [IndexPath: String] = [:]
        var deletedInOrder: [String] = []
        for p in batch.deletedItems {
            guard let id = old.itemIdentifier(at: p) else { continue }
            deletedIds[p] = id
            deletedInOrder.append(id)
            if !next.snapshot.contains(item: id) { next.itemReuseIdentifiers[id] = nil }
        }
        logged = LoggedBatch(
            seq: seq, by: by,
            deletes: batch.deletedItems,
            deletedIds: deletedInOrder,
            inserts: batch.insertedItems,
            insertedIds: batch.insertedItems.compactMap { next.snapshot.itemIdentifier(at: $0) },
            moves: batch.movedItems.map { ($0.from, $0.to) },
            reloads: batch.reloadedItems,
            sections: sections)
        var items = BatchUpdate()
        items.deletedItems = batch.deletedItems
        items.insertedItems = batch.insertedItems
        items.movedItems = batch.movedItems
        items.reloadedItems = batch.reloadedItems
        items.reconfiguredItems = batch.reconfiguredItems
        checkedItems = try? CheckedBatchUpdate(items, countsBefore: old.sectionCounts, countsAfter: next.snapshot.sectionCounts)
        itemUpdates = items
        update = batch
        self.deletedIds = deletedIds
    }

    /// The batch message every viewer's copy starts from, its shared members encoded
    /// once; each viewer sets its content size, bands, window changes and poses.
    package func template() -> ServerMessage.Batch {
        var template = ServerMessage.Batch(
            seq: logged.seq, by: logged.by, deletes: logged.deletes, deletedIds: logged.deletedIds, inserts: logged.inserts,
            insertedIds: logged.insertedIds, moves: logged.moves, reloads: logged.reloads, sections: logged.sections,
            contentSize: Size(width: 0, height: 0), elements: [], remove: [])
        template.encodeSharedMembers()
        return template
    }
}
