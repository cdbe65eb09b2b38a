import CollectionCore
import CollectionProtocol
import Foundation

/// One committed batch as each view state performs and receives it: the item
/// changes every viewer's collection view performs against the shared data source
/// (already changed), and the message whose shared members are encoded once while
/// each viewer's content size, window changes and poses are its own.
struct BatchDelivery {
    private var template: ServerMessage.Batch
    private let deletedIds: [IndexPath: String]
    private let items: BatchUpdate
    /// ``items`` checked once against the data source's counts (nil: they do not
    /// pass, as when sections changed; each view then checks, fails and loads afresh).
    private let checked: CheckedBatchUpdate?

    /// The delivery of `batch`, logged as `logged`, from `before` to `after`.
    init(_ batch: BatchUpdate, logged: LoggedBatch, before: Snapshot<String, String>, after: Snapshot<String, String>) {
        template = ServerMessage.Batch(
            seq: logged.seq, by: logged.by, deletes: logged.deletes, deletedIds: logged.deletedIds, inserts: logged.inserts,
            insertedIds: logged.insertedIds, moves: logged.moves, reloads: logged.reloads, sections: logged.sections,
            contentSize: Size(width: 0, height: 0), elements: [], remove: [])
        template.encodeSharedMembers()
        deletedIds = Dictionary(batch.deletedItems.compactMap { p in before.itemIdentifier(at: p).map { (p, $0) } }, uniquingKeysWith: { a, _ in a })
        var items = BatchUpdate()
        items.deletedItems = batch.deletedItems
        items.insertedItems = batch.insertedItems
        items.movedItems = batch.movedItems
        items.reloadedItems = batch.reloadedItems
        items.reconfiguredItems = batch.reconfiguredItems
        self.items = items
        checked = try? CheckedBatchUpdate(items, countsBefore: before.sectionCounts, countsAfter: after.sectionCounts)
    }

    /// `viewer`'s collection view performs the batch (a movement under way is put
    /// down first); returns the viewer's `batch` message (nil before its hello):
    /// only what is new to its window or changed, since the client keeps the rest.
    func perform(in viewer: ViewerConnection) -> ServerMessage? {
        let cv = viewer.collectionView
        viewer.suspendMovement()
        do {
            if let checked { try cv.performBatchUpdates(checked) } else { try cv.tryPerformItemUpdates(items) }
        } catch {
            cv.reloadData()   // cannot happen after the model-level check; never show a wrong order
        }
        guard viewer.ready else { return nil }
        let (changed, removed) = viewer.refreshWindow()
        var batch = template
        batch.contentSize = viewer.contentSize
        batch.bands = viewer.bands
        batch.elements = changed
        batch.remove = removed
        (batch.appear, batch.disappear) = viewer.updatePoses(deletedIds: deletedIds)
        return .batch(batch)
    }
}
