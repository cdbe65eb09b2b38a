import CollectionCore
import Foundation
import Testing

/// UIKit code that ports unchanged: the non-throwing batch, every controller
/// callback overridable, the diffable details, section moves, the view's life cycle.
@Suite struct UIKitPortTests {
    /// Diffable code ports line for line: the snapshot types carry UIKit's names
    /// (NS types keep their prefix); the short names are aliases of them.
    @Test func theDiffableTypesHaveUIKitsNames() {
        #expect(String(describing: NSDiffableDataSourceSnapshot<String, Int>.self) == "NSDiffableDataSourceSnapshot<String, Int>")
        #expect(String(describing: NSDiffableDataSourceSectionSnapshot<Int>.self) == "NSDiffableDataSourceSectionSnapshot<Int>")
        #expect(DiffableDataSourceSnapshot<String, Int>.self == NSDiffableDataSourceSnapshot<String, Int>.self)
        #expect(DiffableDataSourceSectionSnapshot<Int>.self == NSDiffableDataSourceSectionSnapshot<Int>.self)
        var snapshot = NSDiffableDataSourceSnapshot<String, Int>()
        snapshot.appendSections(["main"])
        snapshot.appendItems([1, 2, 3])
        var outline = NSDiffableDataSourceSectionSnapshot<Int>()
        outline.append([1, 2])
        #expect(snapshot.numberOfItems == 3 && outline.items == [1, 2])
    }

    @Test func anInvalidBatchIsLoggedNotPerformedAndTheViewReloads() {
        let (cv, ds) = makeCollectionView([items("a", 4)])
        cv.selectItem(at: ip(3), animated: false, scrollPosition: [])
        var logged: [String] = []
        cv.invalidUpdateHandler = { logged.append($0.description) }
        var completed: Bool?
        // UIKit's call site, as written for UIKit: no `try`.
        cv.performBatchUpdates({
            ds.sections[0] += ["x", "y"]
            cv.insertItems(at: [ip(0)])
        }, completion: { completed = $0 })
        #expect(completed == false)
        #expect(logged.count == 1 && logged[0].hasPrefix("Invalid update: invalid number of items in section 0."))
        #expect(cv.lastRejectedUpdate?.description == logged.first)
        // Resynchronised from the data source, as reloadData(): all six items, no selection.
        #expect(cv.numberOfItems(inSection: 0) == 6)
        #expect(cv.indexPathsForSelectedItems?.isEmpty ?? true)
        #expect((cv.cellForItem(at: ip(5)) as? TitleCell)?.title == "y")
        #expect(cv.mirror.takeAppliedUpdates().last?.kind == .reload)
        // A valid batch completes with true.
        cv.performBatchUpdates({
            ds.sections[0].insert("z", at: 0)
            cv.insertItems(at: [ip(0)])
        }, completion: { completed = $0 })
        #expect(completed == true && cv.numberOfItems(inSection: 0) == 7)
    }

    /// Every data source and delegate method, overridden on a controller subclass,
    /// records its name when the collection view calls it.
    final class Recorder: CollectionViewController {
        var calls: [String] = []
        var loaded = 0
        var names = ["a0", "a1", "a2", "a3", "a4", "a5"]

        override func viewDidLoad() {
            loaded += 1
            collectionView.register(TitleCell.self, forCellWithReuseIdentifier: "c")
            collectionView.register(CollectionReusableView.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionHeader, withReuseIdentifier: "h")
        }
        override func numberOfSections(in collectionView: CollectionView) -> Int { calls.append("numberOfSections"); return 1 }
        override func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { names.count }
        override func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath) as! TitleCell
            cell.title = names[indexPath.item]
            return cell
        }
        override func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView {
            calls.append("viewForSupplementaryElementOfKind")
            return collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "h", for: indexPath)
        }
        override func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool { calls.append("canMoveItemAt"); return true }
        override func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
            calls.append("moveItemAt \(sourceIndexPath.item)→\(destinationIndexPath.item)")
            names.insert(names.remove(at: sourceIndexPath.item), at: destinationIndexPath.item)
        }
        override func collectionView(_ collectionView: CollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool { calls.append("shouldHighlight"); return true }
        override func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: IndexPath) { calls.append("didHighlight") }
        override func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: IndexPath) { calls.append("didUnhighlight") }
        override func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { calls.append("shouldSelect"); return true }
        override func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool { calls.append("shouldDeselect"); return true }
        override func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) { calls.append("didSelect") }
        override func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) { calls.append("didDeselect") }
        override func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath) {
            if !calls.contains("willDisplay") { calls.append("willDisplay") }
        }
        override func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath) {
            if !calls.contains("didEndDisplaying") { calls.append("didEndDisplaying") }
        }
        override func collectionView(_ collectionView: CollectionView, willDisplaySupplementaryView view: CollectionReusableView, forElementKind elementKind: String, at indexPath: IndexPath) {
            calls.append("willDisplaySupplementaryView")
        }
        override func collectionView(_ collectionView: CollectionView, didEndDisplayingSupplementaryView view: CollectionReusableView, forElementOfKind elementKind: String, at indexPath: IndexPath) {
            calls.append("didEndDisplayingSupplementaryView")
        }
        override func collectionView(_ collectionView: CollectionView, canFocusItemAt indexPath: IndexPath) -> Bool { calls.append("canFocus"); return indexPath.item != 5 }
        override func collectionView(_ collectionView: CollectionView, didUpdateFocusIn context: CollectionViewFocusUpdateContext, with coordinator: FocusAnimationCoordinator) {
            calls.append("didUpdateFocus \(context.previouslyFocusedIndexPath?.item ?? -1)→\(context.nextFocusedIndexPath?.item ?? -1)")
        }
        override func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveFromItemAt currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath {
            calls.append("targetIndexPathForMoveFromItemAt")
            // Never past index 4.
            return IndexPath(item: min(proposedIndexPath.item, 4), section: proposedIndexPath.section)
        }
    }

    @Test func everyOverriddenControllerMethodIsCalled() throws {
        let layout = CollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.headerReferenceSize = CGSize(width: 0, height: 20)
        let controller = Recorder(collectionViewLayout: layout)
        // UIKit code configures the controller between init and the first access of its view.
        #expect(!controller.isViewLoaded && controller.loaded == 0)
        controller.clearsSelectionOnViewWillAppear = false
        let cv = try #require(controller.view)
        #expect(controller.isViewLoaded && controller.loaded == 1 && cv === controller.collectionView)
        controller.loadViewIfNeeded()
        #expect(controller.loaded == 1)   // viewDidLoad once
        cv.frame = CGRect(x: 0, y: 0, width: 320, height: 200)
        cv.allowsMultipleSelection = true
        cv.allowsFocus = true
        controller.viewWillAppear(false)
        cv.layoutIfNeeded()
        #expect(controller.calls.contains("numberOfSections") && controller.calls.contains("viewForSupplementaryElementOfKind"))
        #expect(controller.calls.contains("willDisplay") && controller.calls.contains("willDisplaySupplementaryView"))

        // A tap: highlight, then select; a second tap deselects.
        #expect(cv.interactions.pressItem(at: ip(1)))
        #expect(cv.interactions.releaseItem(at: ip(1)))
        #expect(cv.interactions.toggleFromUser(ip(1)))
        for name in ["shouldHighlight", "didHighlight", "didUnhighlight", "shouldSelect", "didSelect", "shouldDeselect", "didDeselect"] {
            #expect(controller.calls.contains(name), "\(name) was not called")
        }

        // Focus, with the delegate's say.
        #expect(cv.interactions.focusItem(at: ip(2)))
        #expect(!cv.interactions.focusItem(at: ip(5)))
        cv.interactions.resignFocus()
        #expect(controller.calls.contains("didUpdateFocus -1→2") && controller.calls.contains("didUpdateFocus 2→-1"))
        #expect(controller.calls.filter { $0 == "canFocus" }.count == 2)

        // Interactive movement: the older target method (reached through the newer
        // one's default) keeps the item at index 4 or before.
        #expect(cv.beginInteractiveMovementForItem(at: ip(0)))
        cv.updateInteractiveMovementTargetPosition(CGPoint(x: 270, y: 200))   // over a5
        cv.endInteractiveMovement()
        #expect(controller.calls.contains("canMoveItemAt") && controller.calls.contains("targetIndexPathForMoveFromItemAt"))
        #expect(controller.calls.contains("moveItemAt 0→4"))
        #expect(controller.names == ["a1", "a2", "a3", "a4", "a0", "a5"])

        // Scrolling everything away ends the displays.
        cv.contentOffset = CGPoint(x: 0, y: 2_000)
        cv.layoutIfNeeded()
        #expect(controller.calls.contains("didEndDisplaying") && controller.calls.contains("didEndDisplayingSupplementaryView"))
    }

    @Test func theNewerMoveTargetMethodWinsWhenOverridden() {
        final class Newer: CollectionViewController {
            override func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 6 }
            override func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
                collectionView.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath)
            }
            override func viewDidLoad() { collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: "c") }
            override func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool { true }
            override func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
                                         atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath {
                IndexPath(item: 4, section: 0)
            }
        }
        let layout = CollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        let controller = Newer(collectionViewLayout: layout)
        let cv = controller.collectionView!
        cv.frame = CGRect(x: 0, y: 0, width: 320, height: 400)
        cv.layoutIfNeeded()
        #expect(cv.beginInteractiveMovementForItem(at: ip(0)))
        cv.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 60))   // over a1: proposed 1, the delegate says 4
        #expect(cv.indexPathsForVisibleItems.count == 6)
        cv.endInteractiveMovement()
        #expect(cv.mirror.takeAppliedUpdates().last?.batch.movedItems == [ItemMove(from: ip(0), to: ip(4))])
    }

    /// As in UIKit: a controller subclass that adopts the flow layout's delegate
    /// protocol gives the layout its sizes (no `override`: the controller itself does
    /// not declare them, exactly as UIKit's does not).
    final class Sized: CollectionViewController, CollectionViewDelegateFlowLayout {
        override func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 3 }
        override func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            collectionView.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath)
        }
        override func viewDidLoad() { collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: "c") }
        func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
            CGSize(width: 50 + 10 * CGFloat(indexPath.item), height: 40)
        }
        func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, minimumInteritemSpacingForSectionAt section: Int) -> CGFloat { 0 }
    }

    @Test func aControllerAdoptingTheFlowDelegateSizesItsItems() {
        let controller = Sized(collectionViewLayout: CollectionViewFlowLayout())
        let cv = controller.collectionView!
        cv.frame = CGRect(x: 0, y: 0, width: 1000, height: 400)
        cv.layoutIfNeeded()
        #expect(cv.layoutAttributesForItem(at: ip(2))?.frame.size == CGSize(width: 70, height: 40))
        #expect(cv.layoutAttributesForItem(at: ip(0))?.frame.size == CGSize(width: 50, height: 40))
    }

    @Test func indexOfItemCountsAcrossSections() {
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["a", "b"])
        snapshot.appendItems(["a0", "a1", "a2"], toSection: "a")
        snapshot.appendItems(["b0", "b1"], toSection: "b")
        #expect(snapshot.indexOfItem("a2") == 2)
        #expect(snapshot.indexOfItem("b0") == 3 && snapshot.indexOfItem("b1") == 4)
        #expect(snapshot.indexOfItem("zz") == nil)
        // The neighbour-based mutations still work within the section.
        snapshot.insertItems(["b9"], afterItem: "b0")
        #expect(snapshot.itemIdentifiers(inSection: "b") == ["b0", "b9", "b1"])
    }

    @Test func reorderingHandlersReceiveATransaction() throws {
        let host = DiffableDataSourceTests.Host()
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["s"])
        snapshot.appendItems(["x", "y", "z"], toSection: "s")
        host.dataSource.apply(snapshot, animatingDifferences: false)
        var will: NSDiffableDataSourceTransaction<String, String>?
        var did: NSDiffableDataSourceTransaction<String, String>?
        host.dataSource.reorderingHandlers.canReorderItem = { _ in true }
        host.dataSource.reorderingHandlers.willReorder = { will = $0 }
        host.dataSource.reorderingHandlers.didReorder = { did = $0 }
        host.cv.layoutIfNeeded()
        #expect(host.cv.beginInteractiveMovementForItem(at: ip(0)))
        host.cv.updateInteractiveMovementTargetPosition(CGPoint(x: 270, y: 25))
        host.cv.endInteractiveMovement()
        let t = try #require(did)
        #expect(will?.finalSnapshot == t.finalSnapshot)
        #expect(t.initialSnapshot.itemIdentifiers == ["x", "y", "z"])
        #expect(t.finalSnapshot.itemIdentifiers == ["y", "z", "x"])
        #expect(t.difference.count == 2)   // x removed at 0, inserted at 2, associated as a move
        #expect(t.difference.insertions.first.map { if case let .insert(offset, element, associatedWith) = $0 { offset == 2 && element == "x" && associatedWith == 0 } else { false } } == true)
    }

    @Test func aReloadAndAMoveOfTheSameItemIsAMoveWithAFreshCell() throws {
        let (cv, ds) = makeCollectionView([items("a", 5)])
        cv.layoutIfNeeded()
        let asked = ds.cellRequests
        var completed: Bool?
        // The data source edits a1 and moves it to the end in one step.
        cv.performBatchUpdates({
            ds.sections[0].remove(at: 1)
            ds.sections[0].append("a1 (edited)")
            cv.moveItem(at: ip(1), to: ip(4))
            cv.reloadItems(at: [ip(1)])
        }, completion: { completed = $0 })
        #expect(completed == true && cv.lastRejectedUpdate == nil)
        #expect((cv.cellForItem(at: ip(4)) as? TitleCell)?.title == "a1 (edited)")
        #expect((cv.cellForItem(at: ip(1)) as? TitleCell)?.title == "a2")
        #expect(ds.cellRequests == asked + 1)   // only the destination's fresh cell
        let batch = try #require(cv.mirror.takeAppliedUpdates().last?.batch)
        #expect(batch.movedItems == [ItemMove(from: ip(1), to: ip(4))] && batch.reloadedItems == [ip(1)])
        // A delete and a move of the same item is still refused.
        #expect(throws: InvalidBatchUpdate.self) {
            try cv.tryPerformBatchUpdates {
                cv.deleteItems(at: [ip(0)])
                cv.moveItem(at: ip(0), to: ip(3))
            }
        }
    }

    @Test func moveSectionMovesTheSectionsCells() throws {
        let (cv, ds) = makeCollectionView([items("a", 2), items("b", 2), items("c", 2)])
        cv.frame = CGRect(x: 0, y: 0, width: 320, height: 2_000)
        cv.layoutIfNeeded()
        let b0 = try #require(cv.cellForItem(at: ip(0, 1)))
        let a1 = try #require(cv.cellForItem(at: ip(1, 0)))
        let asked = ds.cellRequests
        var completed: Bool?
        cv.performBatchUpdates({
            ds.sections.insert(ds.sections.remove(at: 1), at: 0)   // b first
            cv.moveSection(1, toSection: 0)
        }, completion: { completed = $0 })
        #expect(completed == true)
        // The same cells, at their new index paths; the data source was not asked again.
        #expect(cv.cellForItem(at: ip(0, 0)) === b0)
        #expect(cv.cellForItem(at: ip(1, 1)) === a1)
        #expect(ds.cellRequests == asked)
        let update = try #require(cv.mirror.takeAppliedUpdates().last)
        #expect(update.batch.movedSections == [SectionMove(from: 1, to: 0)] && update.animated)
        #expect(update.batch.deletedSections.isEmpty && update.batch.insertedSections.isEmpty)
        // Moving a section and deleting it in one batch is refused with UIKit-style words.
        #expect(throws: InvalidBatchUpdate("Invalid update: attempt to delete and move section 0 in one update")) {
            try cv.tryPerformBatchUpdates {
                cv.deleteSections([0])
                cv.moveSection(0, toSection: 1)
            }
        }
    }
}
