import CollectionCore
import Foundation
import Testing

/// A flow delegate that gives section 0's sizes a section at a time (heights
/// 40, 50, … 120, all 100 wide) and section 1's item by item (100×50).
final class SectionSizesDelegate: CollectionViewDelegateFlowLayout {
    var sectionCalls: [Int] = []
    var itemCalls: [IndexPath] = []
    var extra: CGFloat = 0
    func collectionView(_ cv: CollectionView, layout: CollectionViewLayout, sizesForItemsInSection section: Int) -> [CGSize]? {
        sectionCalls.append(section)
        guard section == 0 else { return nil }
        return (0..<9).map { CGSize(width: 100, height: 40 + 10 * CGFloat($0) + extra) }
    }
    func collectionView(_ cv: CollectionView, layout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        itemCalls.append(indexPath)
        return CGSize(width: 100, height: 50)
    }
}

/// Beyond UIKit: `sizesForItemsInSection`, and a layout that writes each prepare
/// over the last one's per-item buffer.
@Suite struct FlowSectionSizesTests {
    func make() -> (CollectionView, ArrayDataSource, CollectionViewFlowLayout, SectionSizesDelegate) { makeDelegateSizedFlow(SectionSizesDelegate()) }

    @Test func aSectionsSizesComeAtOnceAndTheRestItemByItem() {
        let (cv, _, layout, sizes) = make()
        defer { withExtendedLifetime(cv) {} }
        #expect(sizes.sectionCalls == [0, 1])
        #expect(sizes.itemCalls == [ip(0, 1), ip(1, 1), ip(2, 1)])
        // Lines of 40/50/60, 70/80/90, 100/110/120: 60, 90 and 120 tall, each item
        // centred on its line; section 1 starts below them, at 270.
        #expect(frame(layout, ip(0)) == CGRect(x: 0, y: 10, width: 100, height: 40))
        #expect(frame(layout, ip(2)) == CGRect(x: 200, y: 0, width: 100, height: 60))
        #expect(frame(layout, ip(3)) == CGRect(x: 0, y: 70, width: 100, height: 70))
        #expect(frame(layout, ip(8)) == CGRect(x: 200, y: 150, width: 100, height: 120))
        #expect(frame(layout, ip(0, 1)) == CGRect(x: 0, y: 270, width: 100, height: 50))
        #expect(layout.collectionViewContentSize.height == 320)
    }

    @Test func keptMetricsAskASectionAgainOnlyForItsInvalidatedItems() {
        let (cv, _, layout, sizes) = make()
        defer { withExtendedLifetime(cv) {} }
        sizes.sectionCalls = []
        sizes.itemCalls = []
        sizes.extra = 30
        // Nothing invalidated in section 0: its kept sizes stay (heights unchanged).
        let other = CollectionViewFlowLayoutInvalidationContext()
        other.invalidateItems(at: [ip(1, 1)])
        layout.invalidateLayout(with: other)
        layout.prepareIfNeeded()
        #expect(sizes.sectionCalls == [1] && sizes.itemCalls == [ip(1, 1)])
        #expect(frame(layout, ip(8))?.height == 120)
        // An item of section 0 invalidated: the whole section is asked again (30 taller each).
        sizes.sectionCalls = []
        sizes.itemCalls = []
        let mine = CollectionViewFlowLayoutInvalidationContext()
        mine.invalidateItems(at: [ip(4)])
        layout.invalidateLayout(with: mine)
        layout.prepareIfNeeded()
        #expect(sizes.sectionCalls == [0] && sizes.itemCalls.isEmpty)
        #expect(frame(layout, ip(8)) == CGRect(x: 200, y: 210, width: 100, height: 150))
        #expect(frame(layout, ip(0, 1))?.minY == 360)
    }

    /// Per-item sizes from a seed: the same layout, prepared again and again with other
    /// counts (growing, shrinking a little, shrinking a lot), gives the frames a new
    /// layout gives.
    @Test func aReusedItemBufferGivesTheFramesOfAFreshLayout() {
        func context(_ counts: [Int], seed: Int) -> LayoutContext {
            LayoutContext(numberOfItems: counts, boundsSize: CGSize(width: 320, height: 480), sizeForItem: { p in
                let h = (p.section &* 31 &+ p.item &* 17 &+ seed) % 50
                return CGSize(width: CGFloat(30 + h), height: CGFloat(20 + (h * 7) % 40))
            })
        }
        func frames(_ layout: CollectionViewFlowLayout, _ counts: [Int]) -> [CGRect?] {
            counts.enumerated().flatMap { s, n in (0..<n).map { layout.layoutAttributesForItem(at: ip($0, s))?.frame } }
        }
        let reused = CollectionViewFlowLayout()
        for (step, counts) in [[400, 600], [300, 900], [200, 500], [10], [5, 5, 5], [700, 1]].enumerated() {
            reused.prepare(context(counts, seed: step))
            let fresh = CollectionViewFlowLayout()
            fresh.prepare(context(counts, seed: step))
            #expect(frames(reused, counts) == frames(fresh, counts), "step \(step), counts \(counts)")
            #expect(reused.collectionViewContentSize == fresh.collectionViewContentSize)
            #expect(frames(reused, counts).allSatisfy { $0 != nil })
        }
    }
}
