import CollectionCore
import Foundation
import Testing

/// Frames below are worked out by hand from UIKit's flow-layout rules.
@Suite struct FlowLayoutTests {
    func layout(width: CGFloat, counts: [Int], configure: (CollectionViewFlowLayout) -> Void) -> CollectionViewFlowLayout {
        let layout = CollectionViewFlowLayout()
        configure(layout)
        layout.prepare(LayoutContext(numberOfItems: counts, boundsSize: CGSize(width: width, height: 500)))
        return layout
    }

    func hit(_ l: CollectionViewFlowLayout, _ point: CGPoint) -> IndexPath? {
        let probe = CGRect(x: point.x, y: point.y, width: 0.000_01, height: 0.000_01)
        return l.layoutAttributesForElements(in: probe)?.last { $0.representedElementCategory == .cell && $0.frame.contains(point) }?.indexPath
    }

    func frame(_ l: CollectionViewFlowLayout, _ item: Int, _ section: Int) -> CGRect? {
        l.layoutAttributesForItem(at: IndexPath(item: item, section: section))?.frame
    }

    @Test func exactFitThreeColumns() {
        // 320 wide, 100-point items, spacing 10: (320 + 10) / 110 = 3 columns, no spare space.
        let l = layout(width: 320, counts: [7]) { $0.itemSize = CGSize(width: 100, height: 100) }
        #expect(l.itemsPerLine() == 3)
        #expect(frame(l, 0, 0) == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(frame(l, 2, 0) == CGRect(x: 220, y: 0, width: 100, height: 100))
        #expect(frame(l, 3, 0) == CGRect(x: 0, y: 110, width: 100, height: 100))
        // The last line (one item of three columns) keeps the first column.
        #expect(frame(l, 6, 0) == CGRect(x: 0, y: 220, width: 100, height: 100))
        #expect(l.collectionViewContentSize == CGSize(width: 320, height: 320))
    }

    @Test func fullLinesAreJustified() {
        // 330 wide: still 3 columns; the 30 spare points go between items: gaps of 15.
        let l = layout(width: 330, counts: [5]) { $0.itemSize = CGSize(width: 100, height: 100) }
        #expect(frame(l, 0, 0)?.minX == 0)
        #expect(frame(l, 1, 0)?.minX == 115)
        #expect(frame(l, 2, 0)?.minX == 230)
        // Last line on the same columns.
        #expect(frame(l, 4, 0)?.minX == 115)
    }

    @Test func insetsHeadersFootersAndSections() {
        let l = layout(width: 300, counts: [5, 2]) {
            $0.itemSize = CGSize(width: 50, height: 60)
            $0.minimumInteritemSpacing = 10
            $0.minimumLineSpacing = 5
            $0.sectionInset = EdgeInsets(top: 5, left: 20, bottom: 7, right: 20)
            $0.headerReferenceSize = CGSize(width: 999, height: 40)
            $0.footerReferenceSize = CGSize(width: 999, height: 30)
        }
        // 260 available: (260 + 10) / 60 = 4 columns; spare 60 over 3 gaps: 20 each.
        #expect(l.itemsPerLine() == 4)
        let header0 = l.layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionHeader, at: IndexPath(item: 0, section: 0))
        #expect(header0?.frame == CGRect(x: 0, y: 0, width: 300, height: 40))   // full width; only the height is used
        #expect(frame(l, 0, 0) == CGRect(x: 20, y: 45, width: 50, height: 60))
        #expect(frame(l, 3, 0) == CGRect(x: 230, y: 45, width: 50, height: 60))
        #expect(frame(l, 4, 0) == CGRect(x: 20, y: 110, width: 50, height: 60))
        let footer0 = l.layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionFooter, at: IndexPath(item: 0, section: 0))
        #expect(footer0?.frame == CGRect(x: 0, y: 177, width: 300, height: 30))  // 170 + bottom inset 7
        let header1 = l.layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionHeader, at: IndexPath(item: 0, section: 1))
        #expect(header1?.frame.minY == 207)
        #expect(frame(l, 0, 1) == CGRect(x: 20, y: 252, width: 50, height: 60))
        #expect(frame(l, 1, 1) == CGRect(x: 90, y: 252, width: 50, height: 60))
        #expect(l.collectionViewContentSize.height == CGFloat(252 + 60 + 7 + 30))
    }

    @Test func singleItemSectionIsCentered() {
        let l = layout(width: 300, counts: [1]) { $0.itemSize = CGSize(width: 100, height: 80) }
        #expect(frame(l, 0, 0) == CGRect(x: 100, y: 0, width: 100, height: 80))
    }

    @Test func itemWiderThanAvailableWidthIsCenteredAlone() {
        let l = layout(width: 150, counts: [3]) {
            $0.itemSize = CGSize(width: 120, height: 20)
            $0.sectionInset = EdgeInsets(top: 0, left: 10, bottom: 0, right: 10)
        }
        #expect(l.itemsPerLine() == 1)
        #expect(frame(l, 0, 0) == CGRect(x: 15, y: 0, width: 120, height: 20))
        #expect(frame(l, 2, 0) == CGRect(x: 15, y: 60, width: 120, height: 20))
    }

    @Test func emptySectionsKeepHeadersAndInsets() {
        let l = layout(width: 200, counts: [0, 3]) {
            $0.itemSize = CGSize(width: 90, height: 50)
            $0.headerReferenceSize = CGSize(width: 0, height: 20)
            $0.sectionInset = EdgeInsets(top: 4, left: 0, bottom: 6, right: 0)
        }
        // Section 0: header 20 + insets 10, no lines.
        #expect(l.layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionHeader, at: IndexPath(item: 0, section: 1))?.frame.minY == 30)
        #expect(frame(l, 0, 1)?.minY == 54)
        #expect(frame(l, 0, 0) == nil)
        #expect(l.layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionFooter, at: IndexPath(item: 0, section: 0)) == nil)
    }

    @Test func rectQueryMatchesBruteForce() {
        let counts = [17, 0, 40, 3, 25]
        let l = layout(width: 375, counts: counts) {
            $0.itemSize = CGSize(width: 70, height: 45)
            $0.minimumLineSpacing = 7
            $0.sectionInset = EdgeInsets(top: 3, left: 8, bottom: 11, right: 8)
            $0.headerReferenceSize = CGSize(width: 0, height: 30)
            $0.footerReferenceSize = CGSize(width: 0, height: 12)
        }
        var all: [CollectionViewLayoutAttributes] = []
        for (s, n) in counts.enumerated() {
            for kind in [CollectionElementKind.sectionHeader, CollectionElementKind.sectionFooter] {
                if let a = l.layoutAttributesForSupplementaryView(ofKind: kind, at: IndexPath(item: 0, section: s)) { all.append(a) }
            }
            for i in 0..<n { all.append(l.layoutAttributesForItem(at: IndexPath(item: i, section: s))!) }
        }
        var rng = SystemRandomNumberGenerator()
        let height = l.collectionViewContentSize.height
        for _ in 0..<500 {
            let y = CGFloat.random(in: -100...height + 100, using: &rng)
            let rect = CGRect(x: CGFloat.random(in: -50...300, using: &rng), y: y,
                              width: CGFloat.random(in: 1...400, using: &rng), height: CGFloat.random(in: 1...700, using: &rng))
            let expected = Set(all.filter { $0.frame.intersects(rect) }.map { "\($0.representedElementKind ?? "cell")\($0.indexPath)" })
            let got = (l.layoutAttributesForElements(in: rect) ?? []).map { "\($0.representedElementKind ?? "cell")\($0.indexPath)" }
            #expect(Set(got) == expected, "rect \(rect)")
            #expect(got.count == Set(got).count, "no duplicates")
        }
    }

    @Test func hitTestingFindsCellsOnly() {
        let l = layout(width: 320, counts: [4]) {
            $0.itemSize = CGSize(width: 100, height: 100)
            $0.headerReferenceSize = CGSize(width: 0, height: 50)
        }
        #expect(hit(l, CGPoint(x: 150, y: 60)) == IndexPath(item: 1, section: 0))
        #expect(hit(l, CGPoint(x: 10, y: 170)) == IndexPath(item: 3, section: 0))
        #expect(hit(l, CGPoint(x: 105, y: 60)) == nil)   // the gap between items
        #expect(hit(l, CGPoint(x: 10, y: 10)) == nil)    // the header
    }
}
