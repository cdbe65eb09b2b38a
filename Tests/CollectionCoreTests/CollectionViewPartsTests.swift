import CollectionCore
import Foundation
import Testing

/// The parts a collection view keeps its state in, each alone: no data source, no
/// layout, no delegate.
@Suite struct CollectionViewPartsTests {
    private func view(_ identifier: String = "c", at p: IndexPath) -> CollectionViewCell {
        let cell = TitleCell(reuseIdentifier: identifier)
        cell.apply(CollectionViewLayoutAttributes(forCellWith: p))
        return cell
    }

    /// Two items deleted from the front of a section of five, one moved from section 1 to 0.
    private func batch() -> IndexPathMapper {
        var batch = BatchUpdate()
        batch.deletedItems = [ip(0), ip(1)]
        batch.movedItems = [ItemMove(from: ip(0, 1), to: ip(3))]
        return IndexPathMapper(batch, countsBefore: [5, 2], countsAfter: [4, 1])
    }

    @Test func reusePoolHandsBackWhatWasRecycledUnderItsIdentifierKindAndDecoration() throws {
        var pool = ReusePool()
        let unregistered = pool.cell("c")
        #expect(unregistered == nil)
        pool.register(cell: TitleCell.self, for: "c")
        pool.register(supplementary: HeaderView.self, kind: "header", identifier: "h")
        let found = pool.cell("c")
        let queue = try #require(found)
        #expect(queue.type == TitleCell.self && queue.queue.views.isEmpty)
        let cell = view(at: ip(0)), header = HeaderView(reuseIdentifier: "h"), badge = CollectionReusableView(reuseIdentifier: "stripe")
        pool.recycle(cell, shown: .cell(ip(0)))
        pool.recycle(header, shown: .supplementary("header", ip(0)))
        pool.recycle(badge, shown: .decoration("stripe", ip(0)))
        #expect(pool.waitingCount == 3)
        // The same queue as before (the cached one), now holding the cell.
        let again = pool.cell("c")
        #expect(again?.queue === queue.queue && again?.queue.views.first === cell)
        let headers = [pool.take(ReusePool.supplementaryKey("header", "h")), pool.take(ReusePool.supplementaryKey("header", "h"))]
        #expect(headers[0] === header && headers[1] == nil)
        // A decoration waits apart from a supplementary view of the same name.
        let misnamed = pool.take(ReusePool.supplementaryKey("stripe", "stripe")), decoration = pool.take(ReusePool.decorationKey("stripe"))
        #expect(misnamed == nil && decoration === badge)
        #expect(pool.waitingCount == 1)
        // Unregistering forgets the class (and the cached queue).
        pool.register(cell: nil, for: "c")
        let gone = pool.cell("c")
        #expect(gone == nil)
    }

    @Test func displayedViewsFollowABatchAndHandBackWhatLeft() {
        var display = DisplayedViews()
        let cells = (0..<5).map { view(at: ip($0)) }, moving = view(at: ip(0, 1)), kept = view(at: ip(1, 1))
        for (i, c) in cells.enumerated() { display.table[.cell(ip(i))] = c }
        display.table[.cell(ip(0, 1))] = moving
        display.table[.cell(ip(1, 1))] = kept
        let header = HeaderView(reuseIdentifier: "h"), badge = CollectionReusableView(reuseIdentifier: "b")
        display.table[.supplementary(CollectionView.elementKindSectionHeader, ip(0, 1))] = header
        display.table[.supplementary("badge", ip(2))] = badge
        var vanished: [IndexPath: CollectionViewLayoutAttributes] = [:]
        let remapped = display.remap(by: batch(), reconfigured: [ip(4), ip(1, 1)], vanished: &vanished)
        // The deleted items and the badge left; the deleted items' attributes are kept.
        let departed: Set<ElementKey> = Set(remapped.departed.map(\.key))
        #expect(departed == [ElementKey.cell(ip(0)), .cell(ip(1)), .supplementary("badge", ip(2))])
        #expect(Set(vanished.keys) == [ip(0), ip(1)] && vanished[ip(1)]?.indexPath == ip(1))
        // Each cell at its item's new place; the header stays with its section.
        #expect(display.table[.cell(ip(0))] === cells[2] && display.table[.cell(ip(1))] === cells[3] && display.table[.cell(ip(2))] === cells[4])
        #expect(display.table[.cell(ip(3))] === moving && display.table[.cell(ip(0, 1))] === kept)
        #expect(display.table[.supplementary(CollectionView.elementKindSectionHeader, ip(0, 1))] === header)
        #expect(display.table.count == 6)
        // Reconfigured cells are named by their index paths after the batch.
        #expect(remapped.reconfigure.count == 2 && remapped.reconfigure[ip(2)] === cells[4] && remapped.reconfigure[ip(0, 1)] === kept)
    }

    @Test func aMovingItemMayGoAmongItsOwnSectionsItemsOrToAnyPlaceInAnother() {
        let counts = [3, 0, 2]
        // In its own section: among the items (its end is taken by itself).
        #expect(InteractiveMovement.isValid(ip(2), from: ip(0), counts: counts))
        #expect(!InteractiveMovement.isValid(ip(3), from: ip(0), counts: counts))
        // In another: any place, its end included; an empty section's only place is item 0.
        #expect(InteractiveMovement.isValid(ip(2, 2), from: ip(0), counts: counts))
        #expect(!InteractiveMovement.isValid(ip(3, 2), from: ip(0), counts: counts))
        #expect(InteractiveMovement.isValid(ip(0, 1), from: ip(0), counts: counts) && !InteractiveMovement.isValid(ip(1, 1), from: ip(0), counts: counts))
        // Nothing outside the sections, no negative item, no index path of another depth.
        #expect(!InteractiveMovement.isValid(ip(0, 3), from: ip(0), counts: counts) && !InteractiveMovement.isValid(IndexPath(item: -1, section: 0), from: ip(0), counts: counts))
        #expect(!InteractiveMovement.isValid(IndexPath(index: 0), from: ip(0), counts: counts))
    }

    @Test func displayedViewsMarkTheWantedOnesOnceAndTakeOutTheRest() {
        var display = DisplayedViews()
        let a = view(at: ip(0)), b = view(at: ip(1)), c = view(at: ip(2))
        display.table = [ElementKey.cell(ip(0)): a, ElementKey.cell(ip(1)): b, ElementKey.cell(ip(2)): c]
        // A layout that names `a` twice and one element not displayed yet.
        let wanted: [Unmanaged<CollectionReusableView>?] = [.passUnretained(a), .passUnretained(a), nil, .passUnretained(c)]
        let found = display.mark(wanted)
        #expect(found == 2)
        let departed = display.removeUnmarked(found: found)
        #expect(departed.count == 1 && departed[0].key == ElementKey.cell(ip(1)) && departed[0].view === b)
        #expect(Set(display.table.keys) == [ElementKey.cell(ip(0)), ElementKey.cell(ip(2))])
        // The next pass marks afresh: nothing wanted, everything leaves.
        let none = display.mark([])
        let rest = display.removeUnmarked(found: none)
        #expect(none == 0 && rest.count == 2 && display.table.isEmpty)
    }

    @Test func aViewTakenOutDuringADisplayUpdateLivesUntilTheUpdateEnds() {
        var display = DisplayedViews()
        weak var gone: CollectionViewCell?
        do {
            let cell = view(at: ip(0))
            gone = cell
            display.table[.cell(ip(0))] = cell
        }
        display.beginUpdate()
        display.removeAll()
        #expect(gone != nil)
        display.endUpdate()
        #expect(gone == nil)
    }

    @Test func prefetchingStartsWhatEntersTheBandAndCancelsWhatLeftItUndisplayed() {
        var prefetching = PrefetchedItems()
        var work = prefetching.update(inBand: [ip(3), ip(1), ip(2)]) { _ in false }
        #expect(work.start == [ip(1), ip(2), ip(3)] && work.cancel.isEmpty)
        prefetching.displayed(ip(1))
        // ip(2) left undisplayed (cancelled); ip(3) is now displayed (not cancelled); ip(4) enters.
        work = prefetching.update(inBand: [ip(4)]) { $0 == ip(3) }
        #expect(work.start == [ip(4)] && work.cancel == [ip(2)])
        prefetching.remap(by: batch())
        #expect(prefetching.items == [ip(2)])
    }

    @Test func selectionFollowsABatchAndAReloadRemembersFocusWhenAsked() {
        var selection = ItemSelection()
        #expect(selection.isEmpty)
        selection.selected = [ip(0), ip(2), ip(0, 1)]
        selection.highlighted = ip(1)
        selection.focused = ip(4)
        selection.lastFocused = ip(4)
        #expect(selection.beyondSingle.sorted() == [ip(2), ip(0, 1)])
        selection.remap(by: batch())
        #expect(selection.selected == [ip(0), ip(3)] && selection.highlighted == nil && selection.focused == ip(2))
        #expect(selection.lastFocused == ip(4))
        selection.reset(remembering: true)
        #expect(selection.selected.isEmpty && selection.focused == nil && selection.lastFocused == ip(2))
        selection.focused = ip(1)
        selection.reset(remembering: false)
        #expect(selection.focused == nil && selection.lastFocused == ip(2) && !selection.isEmpty)
    }

    @Test func theAppliedUpdateLogKeepsTheLastOnesUpToItsLimit() {
        var log = AppliedUpdateLog()
        log.limit = 2
        for n in 1...3 {
            var batch = BatchUpdate()
            batch.insertedItems = [ip(n)]
            log.record(AppliedUpdate(kind: .batch, batch: batch, animated: false))
        }
        let kept = log.take(), after = log.take()
        #expect(kept.map { $0.batch.insertedItems } == [[ip(2)], [ip(3)]] && after.isEmpty)
        log.limit = 0
        log.record(AppliedUpdate(kind: .reload, batch: BatchUpdate(), animated: false))
        #expect(log.updates.isEmpty)
    }
}
