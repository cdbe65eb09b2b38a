import Foundation

/// A collection view's batch updates (UIKit keeps these in private objects): it
/// records the changes the insert, delete, move, reload and reconfigure calls make
/// inside a batch, checks the batch against the counts the data source reports after
/// it (UIKit's rules and messages), and applies a valid one to everything the
/// collection view holds by index path (its counts, displayed views, selection and
/// measured sizes); the layout then lays out again and is asked where the updated
/// items animate, and the change is kept for the mirror. Its collection view owns it
/// and hands itself to each call.
package final class BatchUpdater {
    /// The batch being recorded (nil: none is under way).
    @exclusivity(unchecked) var pending: BatchUpdate?
    /// The changes applied since the mirror last took them.
    @exclusivity(unchecked) var log = AppliedUpdateLog()
    /// Where the last batch's displayed inserted items start and its displayed
    /// deleted items end, as the layout said.
    @exclusivity(unchecked) var animations = ItemUpdateAnimations()
    /// While a batch's animations are asked for: the deleted items' attributes as
    /// they were displayed (what `finalLayoutAttributesForDisappearingItem` starts from).
    @exclusivity(unchecked) var attributesBeforeUpdate: [IndexPath: CollectionViewLayoutAttributes] = [:]

    /// Runs `updates` as one batch of `cv` and applies it if valid: inside another
    /// batch, its changes join that one; before the counts were first loaded, the
    /// updates lead to a reload. An invalid batch changes nothing and is thrown.
    func perform(_ updates: (() -> Void)?, in cv: CollectionView) throws(InvalidBatchUpdate) {
        if pending != nil {
            updates?()
            return
        }
        guard let before = cv.counts else {
            // Nothing loaded yet: as UIKit, there is nothing to animate from; load afresh.
            pending = BatchUpdate()
            updates?()
            pending = nil
            cv.reloadData()
            return
        }
        pending = BatchUpdate()
        updates?()
        let batch = pending ?? BatchUpdate()
        pending = nil
        let after = cv.fetchCounts()
        try batch.validate(countsBefore: before, countsAfter: after)
        apply(batch, countsBefore: before, countsAfter: after, animated: true, in: cv)
    }

    /// Applies a batch checked once for many collection views that show the same data
    /// (a server's viewers): the data source already reports the counts after it. A
    /// view whose counts are not the ones the batch was checked against goes the usual
    /// way (recording, checking), so it never shows a wrong order.
    func perform(_ checked: CheckedBatchUpdate, in cv: CollectionView) throws(InvalidBatchUpdate) {
        guard pending == nil, let before = cv.counts, before == checked.countsBefore else { return try perform(items: checked.batch, in: cv) }
        apply(checked.batch, countsBefore: before, countsAfter: checked.countsAfter, animated: true, mapper: checked.mapper, in: cv)
    }

    /// ``perform(_:in:)`` of `items`' deletes, inserts, moves and reloads (its section
    /// changes are not performed).
    func perform(items: BatchUpdate, in cv: CollectionView) throws(InvalidBatchUpdate) {
        try perform({
            cv.deleteItems(at: items.deletedItems)
            cv.insertItems(at: items.insertedItems)
            for move in items.movedItems { cv.moveItem(at: move.from, to: move.to) }
            cv.reloadItems(at: items.reloadedItems)
        }, in: cv)
    }

    /// Inside a batch: records `change`. Outside: applies it at once as a batch of its
    /// own; if invalid, nothing changes and the reason is kept in `cv`'s
    /// ``CollectionView/lastRejectedUpdate``.
    func record(_ change: (inout BatchUpdate) -> Void, in cv: CollectionView) {
        if pending != nil {
            change(&pending!)
            return
        }
        withoutActuallyEscaping(change) { change in
            do throws(InvalidBatchUpdate) {
                try perform({ change(&self.pending!) }, in: cv)
            } catch {
                cv.lastRejectedUpdate = error
            }
        }
    }

    /// Applies a valid batch to `cv`: new counts, remapped displayed views, selection,
    /// focus and sizes, then a new layout and its animations.
    func apply(_ batch: BatchUpdate, countsBefore: [Int], countsAfter: [Int], animated: Bool, mapper: IndexPathMapper? = nil,
               in cv: CollectionView) {
        let mapper = mapper ?? IndexPathMapper(batch, countsBefore: countsBefore, countsAfter: countsAfter)
        let (vanished, reconfigure) = cv.display.remap(batch, by: mapper, in: cv)
        if !cv.selection.isEmpty { cv.selection.remap(by: mapper) }
        if let sizes = cv.selfSizedItems {
            var moved: [IndexPath: CGSize] = [:]
            for (p, size) in sizes { if let q = mapper.map(p) { moved[q] = size } }
            cv.selfSizedItems = moved
        }
        cv.counts = countsAfter
        cv.collectionViewLayout.invalidateLayout()
        cv.needsDisplayUpdate = true
        cv.layoutIfNeeded()
        askAnimations(batch, vanished: vanished, countsAfter: countsAfter, in: cv)
        // Reconfigure: the data source configures the same cell again.
        if !reconfigure.isEmpty { cv.display.reconfigure(reconfigure, in: cv) }
        keep(AppliedUpdate(kind: .batch, batch: batch, animated: animated))
        cv.displayGeneration += 1
    }

    /// Keeps `update` for the mirror. Made only when kept: a server's view states keep
    /// none, and making one copied the batch's eight arrays for every view state on
    /// every batch.
    func keep(_ update: @autoclosure () -> AppliedUpdate) {
        guard log.limit > 0 else { return }
        log.record(update())
    }

    /// After a batch is applied and laid out: the layout hears the batch's update
    /// items, is asked where displayed inserted items start and where displayed
    /// deleted items (`vanished`, with their last attributes) end, and finalizes.
    private func askAnimations(_ batch: BatchUpdate, vanished: [IndexPath: CollectionViewLayoutAttributes], countsAfter: [Int], in cv: CollectionView) {
        let layout = cv.collectionViewLayout
        guard ItemUpdateAnimations.asks(layout, about: batch, vanished: vanished) else {
            animations = ItemUpdateAnimations()
            return
        }
        attributesBeforeUpdate = vanished
        defer { attributesBeforeUpdate = [:] }
        animations = ItemUpdateAnimations(asking: layout, about: batch, vanished: vanished, countsAfter: countsAfter) { cv.display.displaysItem(at: $0) }
    }

    /// Bytes of this object read by a batch: all of it, as the allocator may hand it out
    /// (its size class, or the next one up when a free block is not split).
    package static let prefetchBytes = 152
}
