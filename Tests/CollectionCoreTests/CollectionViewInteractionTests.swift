import CollectionCore
import Foundation
import Testing

@Suite struct SelectionTests {
    @Test func programmaticSelectionDoesNotCallTheDelegate() {
        let delegate = RecordingDelegate()
        let (cv, ds) = makeCollectionView([items("a", 6)], delegate: delegate)
        _ = ds
        cv.selectItem(at: ip(1), animated: false, scrollPosition: [])
        cv.selectItem(at: ip(2), animated: false, scrollPosition: [])
        #expect(cv.indexPathsForSelectedItems == [ip(2)])   // single selection
        #expect(cv.cellForItem(at: ip(2))?.isSelected == true && cv.cellForItem(at: ip(1))?.isSelected == false)
        cv.deselectItem(at: ip(2), animated: false)
        #expect(cv.indexPathsForSelectedItems == [])
        #expect(delegate.log.isEmpty)
    }

    @Test func aTapHighlightsThenSelectsWithTheDelegate() {
        let delegate = RecordingDelegate()
        let (cv, ds) = makeCollectionView([items("a", 6)], delegate: delegate)
        _ = ds
        #expect(cv.interactions.pressItem(at: ip(1)))
        #expect(cv.cellForItem(at: ip(1))?.isHighlighted == true)
        #expect(cv.interactions.releaseItem(at: ip(1)))
        #expect(cv.cellForItem(at: ip(1))?.isHighlighted == false)
        cv.interactions.pressItem(at: ip(3))
        cv.interactions.releaseItem(at: ip(3))
        #expect(delegate.log == ["highlight 1", "unhighlight 1", "select 1", "highlight 3", "unhighlight 3", "deselect 1", "select 3"])
        #expect(cv.indexPathsForSelectedItems == [ip(3)])
    }

    @Test func multipleSelectionTogglesAndTheDelegateCanRefuse() {
        let delegate = RecordingDelegate()
        let (cv, ds) = makeCollectionView([items("a", 6)], delegate: delegate)
        _ = ds
        cv.allowsMultipleSelection = true
        delegate.refuseSelection = [ip(5)]
        for i in [0, 2, 0, 5] { cv.interactions.toggleFromUser(ip(i)) }
        #expect(cv.indexPathsForSelectedItems == [ip(2)])
        delegate.refuseHighlight = [ip(4)]
        #expect(!cv.interactions.pressItem(at: ip(4)))
        #expect(!cv.interactions.releaseItem(at: ip(4)))
    }

    @Test func selectionCanBeTurnedOffAndFollowsTheEditingVariants() {
        let (cv, ds) = makeCollectionView([items("a", 6)])
        _ = ds
        cv.allowsSelection = false
        #expect(!cv.interactions.toggleFromUser(ip(1)))
        cv.selectItem(at: ip(1), animated: false, scrollPosition: [])
        #expect(cv.indexPathsForSelectedItems == [])
        cv.isEditing = true
        cv.allowsSelectionDuringEditing = true
        cv.allowsMultipleSelectionDuringEditing = true
        cv.interactions.toggleFromUser(ip(1))
        cv.interactions.toggleFromUser(ip(2))
        #expect(cv.indexPathsForSelectedItems == [ip(1), ip(2)])
        cv.isEditing = false
        cv.allowsSelection = true
        #expect(cv.indexPathsForSelectedItems == [ip(1)])   // back to single selection
    }

    @Test func focusFollowsTheRulesAndCanCarrySelection() {
        let delegate = RecordingDelegate()
        let (cv, ds) = makeCollectionView([items("a", 6)], delegate: delegate)
        _ = ds
        #expect(!cv.interactions.focusItem(at: ip(1)))   // allowsFocus is off by default
        cv.allowsFocus = true
        delegate.refuseFocus = [ip(2)]
        #expect(cv.interactions.focusItem(at: ip(1)) && !cv.interactions.focusItem(at: ip(2)))
        #expect(cv.focusedIndexPath == ip(1))
        cv.selectionFollowsFocus = true
        cv.interactions.focusItem(at: ip(3))
        #expect(cv.indexPathsForSelectedItems == [ip(3)])
        cv.remembersLastFocusedIndexPath = true
        cv.interactions.resignFocus()
        #expect(cv.focusedIndexPath == nil && cv.interactions.preferredFocusIndexPath == ip(3))
        cv.remembersLastFocusedIndexPath = false
        #expect(cv.interactions.preferredFocusIndexPath == ip(0))
    }
}

@Suite struct InteractiveMovementTests {
    @Test func cannotBeginWhenTheDataSourceSaysNo() {
        let (cv, ds) = makeCollectionView([items("a", 6)])
        ds.movable = false
        #expect(!cv.beginInteractiveMovementForItem(at: ip(0)))
        ds.movable = true
        #expect(!cv.beginInteractiveMovementForItem(at: ip(99)))
    }

    @Test func othersMakeRoomAndEndCallsMoveItemAtOnce() throws {
        let (cv, ds) = makeCollectionView([items("a", 6)])
        #expect(cv.beginInteractiveMovementForItem(at: ip(0)))
        // Drag over item 4 (x 100..200, y 70..120), then item 5.
        cv.updateInteractiveMovementTargetPosition(CGPoint(x: 150, y: 95))
        #expect(cv.indexPathForInteractivelyMovingItem == ip(4))
        // The moving item sits under the pointer; a1 moved up to slot 0.
        #expect(cv.layoutAttributesForItem(at: ip(4))?.center == CGPoint(x: 150, y: 95))
        #expect((cv.cellForItem(at: ip(0)) as? TitleCell)?.title == "a1")
        #expect((cv.cellForItem(at: ip(4)) as? TitleCell)?.title == "a0")
        cv.updateInteractiveMovementTargetPosition(CGPoint(x: 250, y: 95))
        #expect(ds.moves.isEmpty)
        cv.endInteractiveMovement()
        #expect(ds.moves.count == 1 && ds.moves[0].0 == ip(0) && ds.moves[0].1 == ip(5))
        #expect(ds.sections[0] == ["a1", "a2", "a3", "a4", "a5", "a0"])
        #expect((cv.cellForItem(at: ip(5)) as? TitleCell)?.title == "a0")
    }

    /// An empty section's one place is item 0: dragged over its header, the item goes
    /// there (over another section's header, to that section's start).
    @Test func anItemDraggedOverAnEmptySectionsHeaderMovesIntoIt() throws {
        let (cv, ds) = makeCollectionView([items("a", 3), [], items("c", 2)])
        cv.collectionViewLayout.prepareIfNeeded()
        let header = try #require(cv.collectionViewLayout.layoutAttributesForSupplementaryView(
            ofKind: CollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 1)))
        #expect(cv.beginInteractiveMovementForItem(at: ip(1)))
        cv.updateInteractiveMovementTargetPosition(CGPoint(x: header.frame.midX, y: header.frame.midY))
        #expect(cv.indexPathForInteractivelyMovingItem == IndexPath(item: 0, section: 1))
        cv.endInteractiveMovement()
        #expect(ds.sections == [["a0", "a2"], ["a1"], ["c0", "c1"]])
        // Over a section's header that has items: its start.
        cv.collectionViewLayout.prepareIfNeeded()
        let third = try #require(cv.collectionViewLayout.layoutAttributesForSupplementaryView(
            ofKind: CollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 2)))
        #expect(cv.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 1)))
        cv.updateInteractiveMovementTargetPosition(CGPoint(x: third.frame.midX, y: third.frame.midY))
        #expect(cv.indexPathForInteractivelyMovingItem == IndexPath(item: 0, section: 2))
        cv.endInteractiveMovement()
        #expect(ds.sections == [["a0", "a2"], [], ["a1", "c0", "c1"]])
    }

    @Test func cancelPutsEverythingBack() {
        let (cv, ds) = makeCollectionView([items("a", 6)])
        cv.beginInteractiveMovementForItem(at: ip(1))
        cv.updateInteractiveMovementTargetPosition(CGPoint(x: 250, y: 95))
        cv.cancelInteractiveMovement()
        #expect(ds.moves.isEmpty)
        #expect((cv.cellForItem(at: ip(1)) as? TitleCell)?.title == "a1")
        #expect(cv.layoutAttributesForItem(at: ip(1))?.frame == CGRect(x: 100, y: 20, width: 100, height: 50))
    }
}

@Suite struct PrefetchAndDisplayTests {
    @Test func itemsApproachingTheWindowArePrefetchedAndCancelledWhenLeft() {
        let delegate = RecordingDelegate()
        let (cv, ds) = makeCollectionView([items("a", 300)], delegate: delegate)
        _ = ds
        cv.prefetchDataSource = delegate
        cv.layoutIfNeeded()
        // Visible lines 0-3 (y < 200); prefetch band one screen further: lines 4-7.
        #expect(delegate.prefetched.last == (12..<24).map { ip($0) })
        cv.contentOffset = CGPoint(x: 0, y: 100)
        cv.layoutIfNeeded()
        #expect(delegate.prefetched.last?.contains(ip(24)) == true)
        cv.contentOffset = CGPoint(x: 0, y: 3000)
        cv.layoutIfNeeded()
        #expect(delegate.cancelled.last?.contains(ip(26)) == true)
        #expect(!(delegate.cancelled.last?.contains(ip(12)) ?? true))   // 12 was displayed, not cancelled
        cv.isPrefetchingEnabled = false
        let calls = delegate.prefetched.count
        cv.contentOffset = CGPoint(x: 0, y: 0)
        cv.layoutIfNeeded()
        #expect(delegate.prefetched.count == calls)
    }

    @Test func displayMarginWidensWhatCountsAsDisplayed() {
        let delegate = RecordingDelegate()
        let (cv, ds) = makeCollectionView([items("a", 300)], delegate: delegate)
        _ = ds
        cv.mirror.displayMargin = 200
        cv.layoutIfNeeded()
        #expect(delegate.displayed.count == 24)          // y < 400
        #expect(cv.indexPathsForVisibleItems.count == 12) // visible is still the bounds
    }
}

@Suite struct RegistrationTests {
    @Test func cellAndSupplementaryRegistrationsConfigureTheirViews() {
        let layout = CollectionViewFlowLayout()
        layout.headerReferenceSize = CGSize(width: 0, height: 10)
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 200, height: 200), collectionViewLayout: layout)
        let cells = CollectionView.CellRegistration<TitleCell, String> { cell, indexPath, item in cell.title = "\(item)@\(indexPath.item)" }
        let headers = CollectionView.SupplementaryRegistration<HeaderView>(elementKind: CollectionView.elementKindSectionHeader) { view, kind, indexPath in
            view.content["title"] = "h\(indexPath.section)"
        }
        let cell = cv.dequeueConfiguredReusableCell(using: cells, for: ip(3), item: "x")
        #expect(cell.title == "x@3")
        let header = cv.dequeueConfiguredReusableSupplementary(using: headers, for: ip(0, 2))
        #expect(header.content["title"] == "h2")
    }

    @Test func dequeuingAnUnregisteredIdentifierStopsWithUIKitsMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cv = CollectionView(frame: .zero, collectionViewLayout: CollectionViewFlowLayout())
            _ = cv.dequeueReusableCell(withReuseIdentifier: "nope", for: IndexPath(item: 0, section: 0))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("could not dequeue a view of kind: UICollectionElementKindCell with identifier nope"), "\(stderr)")
    }

    @Test func controllerReloadsOnFirstAppearanceAndClearsSelectionAfter() {
        final class Controller: CollectionViewController {
            var data = ["a", "b", "c"]
            override func collectionView(_ cv: CollectionView, numberOfItemsInSection section: Int) -> Int { data.count }
            override func collectionView(_ cv: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
                let cell = cv.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath)
                cell.content["title"] = data[indexPath.item]
                return cell
            }
            override func viewDidLoad() { collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: "c") }
        }
        let controller = Controller(collectionViewLayout: CollectionViewFlowLayout())
        controller.collectionView.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        controller.data.append("d")
        controller.viewWillAppear(false)
        #expect(controller.collectionView.numberOfItems(inSection: 0) == 4)
        controller.collectionView.selectItem(at: ip(1), animated: false, scrollPosition: [])
        controller.viewWillAppear(false)
        #expect(controller.collectionView.indexPathsForSelectedItems == [])
        controller.clearsSelectionOnViewWillAppear = false
        controller.collectionView.selectItem(at: ip(2), animated: false, scrollPosition: [])
        controller.viewWillAppear(false)
        #expect(controller.collectionView.indexPathsForSelectedItems == [ip(2)])
        #expect(controller.installsStandardGestureForInteractiveMovement)
    }
}
