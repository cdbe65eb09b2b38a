import CollectionCore
import Foundation
import Testing

/// A flow delegate whose sizes can change, counting what it is asked.
final class CountingSizes: CollectionViewDelegateFlowLayout {
    var asked: [IndexPath] = []
    var heights: [IndexPath: CGFloat] = [:]
    func collectionView(_ cv: CollectionView, layout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        asked.append(indexPath)
        return CGSize(width: 100, height: heights[indexPath] ?? 50)
    }
}

/// UIKit's UICollectionViewFlowLayoutInvalidationContext: the delegate's sizes are
/// kept unless the invalidation asks for them, and asked again item by item.
@Suite struct FlowDelegateMetricsTests {
    func make() -> (CollectionView, ArrayDataSource, CollectionViewFlowLayout, CountingSizes) { makeDelegateSizedFlow(CountingSizes()) }

    @Test func aContextThatKeepsTheMetricsAsksOnlyAboutItsItems() {
        let (cv, _, layout, sizes) = make()
        defer { withExtendedLifetime(cv) {} }
        #expect(sizes.asked.count == 12)
        // Kept: nobody is asked, nothing moves.
        sizes.asked = []
        sizes.heights[ip(4)] = 80
        let before = frame(layout, ip(7))
        let keep = CollectionViewFlowLayoutInvalidationContext()
        layout.invalidateLayout(with: keep)
        layout.prepareIfNeeded()
        #expect(sizes.asked.isEmpty && frame(layout, ip(4))?.height == 50 && frame(layout, ip(7)) == before)
        // Item 4 invalidated: it alone is asked; its line grows to 80 (its shorter
        // neighbours centred on it), the next line moves down by 30.
        let one = CollectionViewFlowLayoutInvalidationContext()
        one.invalidateItems(at: [ip(4)])
        layout.invalidateLayout(with: one)
        layout.prepareIfNeeded()
        #expect(sizes.asked == [ip(4)])
        #expect(frame(layout, ip(4)) == CGRect(x: 100, y: 50, width: 100, height: 80))
        #expect(frame(layout, ip(3)) == CGRect(x: 0, y: 65, width: 100, height: 50))
        #expect(frame(layout, ip(7)) == CGRect(x: 100, y: 130, width: 100, height: 50))
        #expect(frame(layout, ip(1, 1))?.minY == (before?.maxY ?? 0) + 30)
    }

    @Test func otherInvalidationsAskAboutEveryItem() {
        let (cv, ds, layout, sizes) = make()
        // A plain invalidation, a context that asks for the metrics, a batch that changes counts.
        sizes.asked = []
        layout.invalidateLayout()
        layout.prepareIfNeeded()
        #expect(sizes.asked.count == 12)
        sizes.asked = []
        let all = CollectionViewFlowLayoutInvalidationContext()
        all.invalidateFlowLayoutDelegateMetrics = true
        layout.invalidateLayout(with: all)
        layout.prepareIfNeeded()
        #expect(sizes.asked.count == 12)
        sizes.asked = []
        ds.sections[1].append("b3")
        cv.performBatchUpdates { cv.insertItems(at: [ip(3, 1)]) }
        layout.prepareIfNeeded()
        #expect(sizes.asked.count == 13)
        // A plain invalidation after a keeping one still asks about every item.
        sizes.asked = []
        layout.invalidateLayout(with: CollectionViewFlowLayoutInvalidationContext())
        layout.invalidateLayout()
        layout.prepareIfNeeded()
        #expect(sizes.asked.count == 13)
    }

    @Test func keepingMetricsAndAttributesLeavesTheLayoutAlone() {
        let (cv, _, layout, sizes) = make()
        defer { withExtendedLifetime(cv) {} }
        sizes.asked = []
        let nothing = CollectionViewFlowLayoutInvalidationContext()
        nothing.invalidateFlowLayoutAttributes = false
        layout.invalidateLayout(with: nothing)
        #expect(!layout.needsPrepare && sizes.asked.isEmpty)
    }

    @Test func keptMetricsSurviveAnAxisChangeOnlyByAskingAgain() {
        let (cv, _, layout, sizes) = make()
        defer { withExtendedLifetime(cv) {} }
        sizes.asked = []
        layout.scrollDirection = .horizontal
        layout.prepareIfNeeded()
        #expect(sizes.asked.count == 12)
        #expect(frame(layout, ip(1))?.size == CGSize(width: 100, height: 50))
    }
}
