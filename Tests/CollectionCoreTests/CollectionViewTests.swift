import CollectionCore
import Foundation
import Testing

@Suite struct CollectionViewDataTests {
    @Test func countsComeFromTheDataSourceAndReloadDataRefreshesThem() {
        let (cv, ds) = makeCollectionView([items("a", 5), items("b", 2)])
        #expect(cv.numberOfSections == 2)
        #expect(cv.numberOfItems(inSection: 0) == 5 && cv.numberOfItems(inSection: 1) == 2 && cv.numberOfItems(inSection: 9) == 0)
        ds.sections[0].append("late")
        #expect(cv.numberOfItems(inSection: 0) == 5)   // cached, as UIKit
        cv.reloadData()
        #expect(cv.numberOfItems(inSection: 0) == 6)
    }

    @Test func displayedCellsAreConfiguredAndRecycledWhileScrolling() throws {
        let delegate = RecordingDelegate()
        let (cv, ds) = makeCollectionView([items("a", 60)], delegate: delegate)
        // 200 high: header 0..20, lines at 20, 70, 120, 170 → 12 cells.
        #expect(cv.indexPathsForVisibleItems == (0..<12).map { ip($0) })
        let cell = try #require(cv.cellForItem(at: ip(4)) as? TitleCell)
        #expect(cell.title == "a4" && cell.layoutAttributes?.frame == CGRect(x: 100, y: 70, width: 100, height: 50))
        #expect(cv.indexPath(for: cell) == ip(4))
        #expect(cv.visibleCells.count == 12 && delegate.displayed.count == 12)
        #expect(cv.visibleSupplementaryViews(ofKind: CollectionView.elementKindSectionHeader).first?.content["title"] == "Section 0")
        let requests = ds.cellRequests
        cv.contentOffset = CGPoint(x: 0, y: 1000)
        #expect(cv.indexPathsForVisibleItems.first == ip(57))
        #expect(cv.cellForItem(at: ip(4)) == nil)
        #expect(!delegate.displayed.contains(ip(4)) && delegate.displayed.contains(ip(57)))
        #expect(ds.cellRequests > requests)
        // Cells that left were handed out again, not made anew.
        #expect(cv.visibleCells.contains { ($0 as? TitleCell)?.reuseCount ?? 0 > 0 })
        #expect(cv.indexPathsForVisibleSupplementaryElements(ofKind: CollectionView.elementKindSectionHeader).isEmpty)
    }

    @Test func hitTestingAnswersForCellsOnly() {
        let (cv, _ds) = makeCollectionView([items("a", 9)])
        _ = _ds
        #expect(cv.indexPathForItem(at: CGPoint(x: 150, y: 30)) == ip(1))
        #expect(cv.indexPathForItem(at: CGPoint(x: 250, y: 125)) == ip(8))
        #expect(cv.indexPathForItem(at: CGPoint(x: 150, y: 10)) == nil)   // the header
        #expect(cv.layoutAttributesForSupplementaryElement(ofKind: CollectionView.elementKindSectionHeader, at: ip(0))?.frame == CGRect(x: 0, y: 0, width: 300, height: 20))
    }

    @Test(arguments: [
        (ScrollPosition.top, CGFloat(520)), (.centeredVertically, 445), (.bottom, 370),
    ])
    func scrollToItemPlacesIt(position: ScrollPosition, expectedY: CGFloat) {
        let (cv, ds) = makeCollectionView([items("a", 90)])
        _ = ds
        // Item 30 is on line 10: y = 20 + 500 = 520.
        cv.scrollToItem(at: ip(30), at: position, animated: false)
        #expect(cv.contentOffset.y == expectedY)
    }

    @Test func scrollToItemIsClampedToTheContent() {
        let (cv, ds) = makeCollectionView([items("a", 30)])
        _ = ds
        // Content: 20 + 10 lines × 50 = 520 high; the last offset is 320.
        cv.scrollToItem(at: ip(29), at: .top, animated: false)
        #expect(cv.contentOffset.y == 320)
        cv.scrollToItem(at: ip(0), at: .bottom, animated: false)
        #expect(cv.contentOffset.y == 0)
        cv.scrollToItem(at: ip(2), at: [.right, .top], animated: false)
        #expect(cv.contentOffset.x == 0)
    }
}

@Suite struct CollectionViewBatchTests {
    @Test func aValidBatchUpdatesCountsSelectionAndCells() throws {
        let (cv, ds) = makeCollectionView([items("a", 6), items("b", 3)])
        cv.allowsMultipleSelection = true
        cv.selectItem(at: ip(2), animated: false, scrollPosition: [])
        cv.selectItem(at: ip(4), animated: false, scrollPosition: [])
        let cellOfA4 = cv.cellForItem(at: ip(4))
        var completed: Bool?
        try cv.tryPerformBatchUpdates({
            ds.sections[0].remove(at: 2)            // delete a2
            ds.sections[0].insert("new", at: 0)     // insert at 0
            let moved = ds.sections[1].remove(at: 0)
            ds.sections[0].append(moved)            // b0 → end of section 0
            cv.deleteItems(at: [ip(2)])
            cv.insertItems(at: [ip(0)])
            cv.moveItem(at: ip(0, 1), to: ip(6))
        }, completion: { completed = $0 })
        #expect(completed == true)
        #expect(cv.numberOfItems(inSection: 0) == 7 && cv.numberOfItems(inSection: 1) == 2)
        // a2 was deleted (deselected); a4 shifted: -1 for the delete, +1 for the insert.
        #expect(cv.indexPathsForSelectedItems == [ip(4)])
        #expect(cv.cellForItem(at: ip(4)) === cellOfA4)
        #expect((cv.cellForItem(at: ip(0)) as? TitleCell)?.title == "new")
        #expect((cv.cellForItem(at: ip(6)) as? TitleCell)?.title == "b0")
        let applied = cv.mirror.takeAppliedUpdates().filter { $0.kind == .batch }
        #expect(applied.count == 1 && applied[0].batch.movedItems.count == 1)
    }

    @Test func anInvalidBatchIsRefusedWithUIKitsMessageAndChangesNothing() {
        let (cv, ds) = makeCollectionView([items("a", 4)])
        cv.selectItem(at: ip(3), animated: false, scrollPosition: [])
        let cell = cv.cellForItem(at: ip(3))
        var completed: Bool?
        #expect(throws: InvalidBatchUpdate(
            "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (6) must be equal to the number of items contained in that section before the update (4), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).")) {
            try cv.tryPerformBatchUpdates({
                ds.sections[0] += ["x", "y"]
                cv.insertItems(at: [ip(0)])
            }, completion: { completed = $0 })
        }
        #expect(completed == false)
        #expect(cv.numberOfItems(inSection: 0) == 4)
        #expect(cv.indexPathsForSelectedItems == [ip(3)])
        #expect(cv.cellForItem(at: ip(3)) === cell)
    }

    @Test func singleUpdatesOutsideABatchApplyOrAreRefused() {
        let (cv, ds) = makeCollectionView([items("a", 4)])
        #expect(cv.numberOfItems(inSection: 0) == 4)
        ds.sections[0].removeLast()
        cv.deleteItems(at: [ip(3)])
        #expect(cv.numberOfItems(inSection: 0) == 3)
        #expect(cv.lastRejectedUpdate == nil, "\(String(describing: cv.lastRejectedUpdate))")
        cv.deleteItems(at: [ip(0)])   // the data source did not change: refused
        #expect(cv.numberOfItems(inSection: 0) == 3)
        #expect(cv.lastRejectedUpdate?.description.contains("invalid number of items in section 0") == true)
    }

    @Test func updatesBeforeTheFirstLoadAreAReload() {
        let (cv, ds) = makeCollectionView([items("a", 4)])
        ds.sections[0] += ["x", "y"]
        cv.insertItems(at: [ip(0)])   // counts never loaded: no validation, a reload
        #expect(cv.numberOfItems(inSection: 0) == 6 && cv.lastRejectedUpdate == nil)
    }

    @Test func sectionInsertsDeletesAndReloads() throws {
        let (cv, ds) = makeCollectionView([items("a", 2), items("b", 2)])
        #expect(cv.numberOfSections == 2)
        ds.sections.insert(items("n", 3), at: 1)
        cv.insertSections(IndexSet(integer: 1))
        #expect(cv.numberOfSections == 3 && cv.numberOfItems(inSection: 1) == 3)
        ds.sections.remove(at: 0)
        cv.deleteSections(IndexSet(integer: 0))
        #expect(cv.numberOfSections == 2 && cv.numberOfItems(inSection: 0) == 3)
        ds.sections[0] = items("r", 5)
        cv.reloadSections(IndexSet(integer: 0))
        #expect(cv.numberOfItems(inSection: 0) == 5 && (cv.cellForItem(at: ip(4)) as? TitleCell)?.title == "r4")
    }

    @Test func reloadGivesAFreshCellAndReconfigureKeepsTheCell() throws {
        let (cv, ds) = makeCollectionView([items("a", 3)])
        let first = try #require(cv.cellForItem(at: ip(1)) as? TitleCell)
        first.content["extra"] = "kept by reconfigure"
        ds.sections[0][1] = "changed"
        cv.reconfigureItems(at: [ip(1)])
        #expect(cv.cellForItem(at: ip(1)) === first)
        #expect(first.title == "changed" && first.reuseCount == 0 && first.content["extra"] == "kept by reconfigure")
        ds.sections[0][1] = "reloaded"
        cv.reloadItems(at: [ip(1)])
        // A fresh cell: recycled through prepareForReuse (UIKit may hand back the same instance too).
        let fresh = try #require(cv.cellForItem(at: ip(1)) as? TitleCell)
        #expect(fresh.title == "reloaded" && fresh.content["extra"] == nil && fresh.reuseCount == 1)
    }
}
