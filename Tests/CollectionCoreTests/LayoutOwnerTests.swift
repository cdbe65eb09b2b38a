import CollectionCore
import Foundation
import Testing

/// A layout's `collectionView` behaves as UIKit's weak reference: it names the
/// collection view using the layout, and is nil once that view is gone (here the
/// view clears it as it goes: the property is not a weak reference).
@Suite struct LayoutOwnerTests {
    func makeView(_ layout: CollectionViewLayout) -> CollectionView {
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        view.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        return view
    }

    @Test func aLayoutForgetsItsCollectionViewWhenTheViewGoes() {
        let layout = CollectionViewFlowLayout()
        var view: CollectionView? = makeView(layout)
        #expect(layout.collectionView === view)
        view = nil
        #expect(layout.collectionView == nil)
        // Set aside for another layout, it is nobody's.
        let other = CollectionViewFlowLayout()
        let kept = makeView(layout)
        kept.collectionViewLayout = other
        #expect(layout.collectionView == nil && other.collectionView === kept)
    }

    @Test func aLayoutHandedToAnotherViewStaysWithIt() {
        let layout = CollectionViewFlowLayout()
        var first: CollectionView? = makeView(layout)
        let second = makeView(CollectionViewFlowLayout())
        second.collectionViewLayout = layout
        #expect(layout.collectionView === second)
        first = nil   // the first view still held the layout, but it is the second's now
        #expect(first == nil && layout.collectionView === second)
    }

    @Test func bothLayoutsOfATransitionForgetAViewThatGoesDuringIt() {
        let from = CollectionViewFlowLayout()
        let to = CollectionViewFlowLayout()
        var view: CollectionView? = makeView(from)
        let transition = view!.startInteractiveTransition(to: to)
        #expect(from.collectionView === view && to.collectionView === view && transition.collectionView === view)
        view = nil
        #expect(from.collectionView == nil && to.collectionView == nil && transition.collectionView == nil)
    }
}
