import CollectionCore
import Foundation
import Testing

@Suite struct FlowLayoutFeatureTests {
    func make(_ configure: (CollectionViewFlowLayout) -> Void) -> CollectionViewFlowLayout {
        let l = CollectionViewFlowLayout()
        configure(l)
        return l
    }

    func allAttributes(_ l: CollectionViewFlowLayout, _ counts: [Int]) -> [CollectionViewLayoutAttributes] {
        var all: [CollectionViewLayoutAttributes] = []
        for (s, n) in counts.enumerated() {
            for kind in [CollectionView.elementKindSectionHeader, CollectionView.elementKindSectionFooter] {
                if let a = l.layoutAttributesForSupplementaryView(ofKind: kind, at: IndexPath(item: 0, section: s)) { all.append(a) }
            }
            for i in 0..<n { all.append(l.layoutAttributesForItem(at: IndexPath(item: i, section: s))!) }
        }
        return all
    }

    @Test func horizontalScrollingSwapsTheAxes() {
        // 200 high: (200 + 10) / 60 = 3 items per column; spare 20 over 2 gaps = 10... justified: 50 + 25.
        let l = make {
            $0.scrollDirection = .horizontal
            $0.itemSize = CGSize(width: 40, height: 50)
            $0.minimumInteritemSpacing = 10
            $0.minimumLineSpacing = 5
            $0.headerReferenceSize = CGSize(width: 30, height: 999)
        }
        l.prepare(LayoutContext(numberOfItems: [7], boundsSize: CGSize(width: 300, height: 200)))
        #expect(l.itemsPerLine() == 3)
        #expect(l.layoutAttributesForSupplementaryView(ofKind: CollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 0))?.frame
                == CGRect(x: 0, y: 0, width: 30, height: 200))
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame == CGRect(x: 30, y: 0, width: 40, height: 50))
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 2, section: 0))?.frame == CGRect(x: 30, y: 150, width: 40, height: 50))
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))?.frame == CGRect(x: 75, y: 0, width: 40, height: 50))
        #expect(l.collectionViewContentSize == CGSize(width: 30 + 3 * 40 + 2 * 5, height: 200))
    }

    @Test func delegateSizesMakeRaggedLinesCenteredVertically() {
        let sizes = [CGSize(width: 100, height: 40), CGSize(width: 120, height: 60), CGSize(width: 90, height: 30), CGSize(width: 150, height: 20)]
        let l = make { $0.minimumInteritemSpacing = 10; $0.minimumLineSpacing = 10 }
        l.prepare(LayoutContext(numberOfItems: [4], boundsSize: CGSize(width: 320, height: 500), sizeForItem: { sizes[$0.item] }))
        // Line 0: 100 + 120 = 220 (+10); adding 90 would need 330 > 320. Justified: gap 320 - 220 = 100.
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame == CGRect(x: 0, y: 10, width: 100, height: 40))
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))?.frame == CGRect(x: 200, y: 0, width: 120, height: 60))
        // Line 1 (last): 90 and 150 with the previous line's gap 100: 90 + 100 + 150 = 340 > 320, so the minimum spacing.
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 2, section: 0))?.frame == CGRect(x: 0, y: 70, width: 90, height: 30))
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))?.frame == CGRect(x: 100, y: 75, width: 150, height: 20))
        #expect(l.collectionViewContentSize.height == 100)
    }

    @Test(arguments: [FlowLineAlignment.justified, .leading, .center, .trailing])
    func uniformPerItemSizesGiveTheSameFramesAsTheFixedPath(alignment: FlowLineAlignment) {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<60 {
            let size = CGSize(width: CGFloat(Int.random(in: 20...160, using: &rng)), height: CGFloat(Int.random(in: 10...90, using: &rng)))
            let counts = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Int.random(in: 0...40, using: &rng) }
            let bounds = CGSize(width: CGFloat(Int.random(in: 100...900, using: &rng)), height: 600)
            let configure: (CollectionViewFlowLayout) -> Void = {
                $0.itemSize = size
                $0.lineAlignment = alignment
                $0.minimumInteritemSpacing = 7
                $0.sectionInset = EdgeInsets(top: 3, left: 11, bottom: 5, right: 9)
                $0.headerReferenceSize = CGSize(width: 0, height: 12)
            }
            let fixed = make(configure), variable = make(configure)
            fixed.prepare(LayoutContext(numberOfItems: counts, boundsSize: bounds))
            variable.prepare(LayoutContext(numberOfItems: counts, boundsSize: bounds, sizeForItem: { _ in size }))
            let a = allAttributes(fixed, counts), b = allAttributes(variable, counts)
            #expect(a.count == b.count)
            for (x, y) in zip(a, b) where abs(x.frame.minX - y.frame.minX) > 1e-6 || abs(x.frame.minY - y.frame.minY) > 1e-6 {
                Issue.record("\(alignment) \(counts) \(bounds.width) \(size): \(x.indexPath) \(x.frame) vs \(y.frame)")
                break
            }
            #expect(fixed.collectionViewContentSize == variable.collectionViewContentSize)
        }
    }

    @Test func alignmentsPlaceAnIncompleteLine() {
        func firstFrames(_ alignment: FlowLineAlignment) -> [CGFloat] {
            let l = make { $0.itemSize = CGSize(width: 50, height: 50); $0.minimumInteritemSpacing = 10; $0.lineAlignment = alignment }
            l.prepare(LayoutContext(numberOfItems: [7], boundsSize: CGSize(width: 300, height: 300)))
            return (0..<7).map { l.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))!.frame.minX }
        }
        // 300 wide: 5 per line (50 × 5 + 10 × 4 = 290). Last line holds 2.
        #expect(firstFrames(.justified) == [0, 62.5, 125, 187.5, 250, 0, 62.5])
        #expect(firstFrames(.leading) == [0, 60, 120, 180, 240, 0, 60])
        #expect(firstFrames(.center) == [5, 65, 125, 185, 245, 95, 155])
        #expect(firstFrames(.trailing) == [10, 70, 130, 190, 250, 190, 250])
    }

    @Test func pinnedHeadersStickAndArePushedByTheNextSection() {
        let l = make {
            $0.itemSize = CGSize(width: 100, height: 100)
            $0.minimumLineSpacing = 0
            $0.minimumInteritemSpacing = 0
            $0.headerReferenceSize = CGSize(width: 0, height: 30)
            $0.sectionHeadersPinToVisibleBounds = true
        }
        // Section 0: header 0..30, 4 lines → items to 430; section 1 starts at 430.
        func header(_ s: Int, scrolledTo y: CGFloat) -> CollectionViewLayoutAttributes? {
            l.prepare(LayoutContext(numberOfItems: [12, 12], boundsSize: CGSize(width: 300, height: 200),
                                    visibleBounds: CGRect(x: 0, y: y, width: 300, height: 200)))
            return l.layoutAttributesForSupplementaryView(ofKind: CollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: s))
        }
        #expect(header(0, scrolledTo: 0)?.frame.minY == 0)
        #expect(header(0, scrolledTo: 250)?.frame.minY == 250)
        #expect(header(0, scrolledTo: 250)?.zIndex == CollectionViewFlowLayout.pinnedZIndex)
        #expect(header(0, scrolledTo: 420)?.frame.minY == 400)    // pushed up by section 1
        #expect(header(1, scrolledTo: 420)?.frame.minY == 430)
        // The pinned header is among the elements of the visible rect.
        l.setVisibleBounds(CGRect(x: 0, y: 250, width: 300, height: 200))
        let inRect = l.layoutAttributesForElements(in: CGRect(x: 0, y: 250, width: 300, height: 200)) ?? []
        #expect(inRect.contains { $0.representedElementKind == CollectionView.elementKindSectionHeader && $0.frame.minY == 250 })
    }

    @Test func variableSizeRectQueriesMatchBruteForce() {
        var rng = SplitMix64(seed: 11)
        let counts = [31, 0, 57, 9]
        let sizes = counts.map { n in (0..<n).map { _ in CGSize(width: CGFloat(Int.random(in: 10...140, using: &rng)), height: CGFloat(Int.random(in: 10...80, using: &rng))) } }
        for direction in [ScrollDirection.vertical, .horizontal] {
            let l = make {
                $0.scrollDirection = direction
                $0.sectionInset = EdgeInsets(top: 4, left: 6, bottom: 8, right: 2)
                $0.headerReferenceSize = CGSize(width: 17, height: 17)
                $0.footerReferenceSize = CGSize(width: 9, height: 9)
            }
            l.prepare(LayoutContext(numberOfItems: counts, boundsSize: CGSize(width: 400, height: 400), sizeForItem: { sizes[$0.section][$0.item] }))
            let all = allAttributes(l, counts)
            let extent = l.collectionViewContentSize
            for _ in 0..<300 {
                let rect = CGRect(x: CGFloat.random(in: -50...extent.width, using: &rng), y: CGFloat.random(in: -50...extent.height, using: &rng),
                                  width: CGFloat.random(in: 1...300, using: &rng), height: CGFloat.random(in: 1...300, using: &rng))
                let expected = Set(all.filter { $0.frame.intersects(rect) }.map { "\($0.representedElementKind ?? "c")\($0.indexPath)" })
                let got = (l.layoutAttributesForElements(in: rect) ?? []).map { "\($0.representedElementKind ?? "c")\($0.indexPath)" }
                #expect(Set(got) == expected && got.count == expected.count, "\(direction) \(rect)")
            }
        }
    }

    @Test func manyLinesAcrossSectionsMatchBruteForce() {
        // Enough lines that the query's sampled line index (every 64th line) matters.
        var rng = SplitMix64(seed: 5)
        let counts = [900, 3, 1200, 0, 700]
        let sizes = counts.map { n in (0..<n).map { _ in CGSize(width: CGFloat(Int.random(in: 20...90, using: &rng)), height: CGFloat(Int.random(in: 5...30, using: &rng))) } }
        let l = make { $0.headerReferenceSize = CGSize(width: 0, height: 25); $0.footerReferenceSize = CGSize(width: 0, height: 7) }
        l.prepare(LayoutContext(numberOfItems: counts, boundsSize: CGSize(width: 200, height: 300), sizesInSection: { sizes[$0] }))
        let all = allAttributes(l, counts).filter { $0.representedElementCategory == .cell }
        let height = l.collectionViewContentSize.height
        for _ in 0..<400 {
            let rect = CGRect(x: 0, y: CGFloat.random(in: -100...height, using: &rng), width: 200, height: CGFloat.random(in: 1...400, using: &rng))
            let expected = Set(all.filter { $0.frame.intersects(rect) }.map(\.indexPath))
            var got: [IndexPath] = []
            l.forEachItemFrame(in: rect) { s, i, frame in
                got.append(IndexPath(item: i, section: s))
                #expect(frame == all.first { $0.indexPath == IndexPath(item: i, section: s) }?.frame)
            }
            #expect(Set(got) == expected && got.count == expected.count, "\(rect)")
        }
    }

    @Test func collectionViewUsesItsFlowDelegate() {
        final class Sizes: CollectionViewDelegateFlowLayout {
            func collectionView(_ cv: CollectionView, layout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
                CGSize(width: 50 + CGFloat(indexPath.item) * 10, height: 40)
            }
            func collectionView(_ cv: CollectionView, layout: CollectionViewLayout, insetForSectionAt section: Int) -> EdgeInsets {
                EdgeInsets(top: 0, left: 5, bottom: 0, right: 5)
            }
        }
        let sizes = Sizes()
        let (cv, ds) = makeCollectionView([items("a", 4)])
        _ = ds
        cv.delegate = sizes
        #expect(cv.layoutAttributesForItem(at: ip(2))?.frame.size == CGSize(width: 70, height: 40))
        #expect(cv.layoutAttributesForItem(at: ip(0))?.frame.minX == 5)
    }
}
