import CollectionCore
import Foundation
import Testing

/// Interactive transitions: `startInteractiveTransition(to:completion:)`, the
/// transition layout's progress, and finishing or cancelling.
@Suite struct InteractiveTransitionTests {
    /// A 300-point-wide flow layout of `width`×`height` items, no spacing.
    func flow(_ width: CGFloat, _ height: CGFloat) -> CollectionViewFlowLayout {
        let layout = CollectionViewFlowLayout()
        layout.itemSize = CGSize(width: width, height: height)
        layout.minimumInteritemSpacing = 0
        layout.minimumLineSpacing = 0
        return layout
    }

    func view() -> (CollectionView, ArrayDataSource, CollectionViewFlowLayout) {
        let grid = flow(100, 100)
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 400), collectionViewLayout: grid)
        cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        let dataSource = ArrayDataSource([items("a", 12)])
        cv.dataSource = dataSource
        return (cv, dataSource, grid)
    }

    func frame(_ cv: CollectionView, _ item: Int) -> CGRect? {
        cv.mirror.displayedElements[.cell(IndexPath(item: item, section: 0))]?.layoutAttributes?.frame
    }

    @Test func progressPlacesEachItemBetweenItsTwoFrames() {
        let (cv, dataSource, grid) = view()
        defer { withExtendedLifetime(dataSource) {} }
        let list = flow(300, 50)
        var ended: [(Bool, Bool)] = []
        let transition = cv.startInteractiveTransition(to: list) { ended.append(($0, $1)) }
        #expect(transition.currentLayout === grid && transition.nextLayout === list)
        #expect(cv.collectionViewLayout === transition && cv.mirror.holdsUserState)
        // Item 1: (100, 0, 100, 100) in the grid, (0, 50, 300, 50) in the list.
        #expect(frame(cv, 1) == CGRect(x: 100, y: 0, width: 100, height: 100))
        transition.transitionProgress = 0.5
        #expect(frame(cv, 1) == CGRect(x: 50, y: 25, width: 200, height: 75))
        transition.transitionProgress = 0.25
        #expect(frame(cv, 1) == CGRect(x: 75, y: 12.5, width: 150, height: 87.5))
        // Content: 4 rows of 100 in the grid, 12 of 50 in the list.
        #expect(cv.contentSize == CGSize(width: 300, height: 400 + (600 - 400) * 0.25))
        // Item 11 is on screen in the grid (row 3) but not in the list (y = 550): it is still shown, on its way.
        #expect(frame(cv, 11) == CGRect(x: 200 - 200 * 0.25, y: 300 + (550 - 300) * 0.25, width: 100 + 200 * 0.25, height: 100 - 50 * 0.25))
        cv.finishInteractiveTransition()
        #expect(cv.collectionViewLayout === list && !cv.mirror.holdsUserState)
        #expect(frame(cv, 1) == CGRect(x: 0, y: 50, width: 300, height: 50))
        #expect(ended.map { [$0.0, $0.1] } == [[true, true]])
    }

    @Test func cancellingReturnsToTheLayoutItStartedFrom() {
        let (cv, dataSource, grid) = view()
        defer { withExtendedLifetime(dataSource) {} }
        var ended: [(Bool, Bool)] = []
        let transition = cv.startInteractiveTransition(to: flow(300, 50)) { ended.append(($0, $1)) }
        transition.transitionProgress = 0.8
        cv.cancelInteractiveTransition()
        #expect(cv.collectionViewLayout === grid)
        #expect(frame(cv, 1) == CGRect(x: 100, y: 0, width: 100, height: 100))
        #expect(ended.map { [$0.0, $0.1] } == [[true, false]])
        // Nothing left to end.
        cv.finishInteractiveTransition()
        #expect(cv.collectionViewLayout === grid && ended.count == 1)
    }

    @Test func aTransitionWithoutACompletionEndsToo() {
        let (cv, dataSource, grid) = view()
        defer { withExtendedLifetime(dataSource) {} }
        let list = flow(300, 50)
        cv.startInteractiveTransition(to: list)
        cv.finishInteractiveTransition()
        #expect(cv.collectionViewLayout === list && cv.transitionLayout == nil)
        cv.startInteractiveTransition(to: grid)
        cv.cancelInteractiveTransition()
        #expect(cv.collectionViewLayout === list && cv.transitionLayout == nil && !cv.mirror.holdsUserState)
    }

    @Test func aBatchDuringTheTransitionReachesBothLayouts() {
        let (cv, dataSource, _) = view()
        defer { withExtendedLifetime(dataSource) {} }
        let transition = cv.startInteractiveTransition(to: flow(300, 50))
        transition.transitionProgress = 1
        dataSource.sections[0].remove(at: 0)
        cv.performBatchUpdates { cv.deleteItems(at: [IndexPath(item: 0, section: 0)]) }
        // Eleven items: item 0 (once item 1) is first in both layouts.
        #expect(frame(cv, 0) == CGRect(x: 0, y: 0, width: 300, height: 50))
        #expect(cv.contentSize.height == 550)
    }

    /// A delegate that makes a transition layout of its own.
    final class Custom: CollectionViewDelegate {
        final class Fading: CollectionViewTransitionLayout {}
        func collectionView(_ collectionView: CollectionView, transitionLayoutForOldLayout fromLayout: CollectionViewLayout, newLayout toLayout: CollectionViewLayout) -> CollectionViewTransitionLayout {
            Fading(currentLayout: fromLayout, nextLayout: toLayout)
        }
    }

    @Test func theDelegateMayMakeTheTransitionLayout() {
        let (cv, dataSource, _) = view()
        let delegate = Custom()
        defer { withExtendedLifetime((dataSource, delegate)) {} }
        cv.delegate = delegate
        let transition = cv.startInteractiveTransition(to: flow(300, 50))
        #expect(transition is Custom.Fading)
        transition.updateValue(0.7, forAnimatedKey: "blur")
        #expect(transition.value(forAnimatedKey: "blur") == 0.7 && transition.value(forAnimatedKey: "other") == 0)
        // Setting a layout ends the transition (as the hub's switch for everyone does).
        let other = flow(150, 150)
        cv.setCollectionViewLayout(other, animated: true)
        #expect(cv.transitionLayout == nil && !cv.mirror.holdsUserState)
    }
}
