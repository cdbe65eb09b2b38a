import CollectionCore
import Foundation
import Testing

/// A cell whose content needs 10 points of width per character of its title.
final class MeasuringCell: CollectionViewCell {
    override func preferredLayoutAttributesFitting(_ layoutAttributes: CollectionViewLayoutAttributes) -> CollectionViewLayoutAttributes {
        var preferred = layoutAttributes
        preferred.size = CGSize(width: CGFloat((content["title"] ?? "").count) * 10, height: 30)
        return preferred
    }
}

final class WordsDataSource: CollectionViewDataSource {
    var words: [String]
    init(_ words: [String]) { self.words = words }
    func collectionView(_ cv: CollectionView, numberOfItemsInSection section: Int) -> Int { words.count }
    func collectionView(_ cv: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        let cell = cv.dequeueReusableCell(withReuseIdentifier: "m", for: indexPath)
        cell.content["title"] = words[indexPath.item]
        return cell
    }
}

@Suite struct SelfSizingTests {
    func make(_ words: [String]) -> (CollectionView, WordsDataSource) {
        let layout = CollectionViewFlowLayout()
        layout.estimatedItemSize = CGSize(width: 50, height: 50)
        layout.minimumInteritemSpacing = 10
        layout.minimumLineSpacing = 0
        layout.lineAlignment = .leading
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 200, height: 300), collectionViewLayout: layout)
        cv.register(MeasuringCell.self, forCellWithReuseIdentifier: "m")
        let ds = WordsDataSource(words)
        cv.dataSource = ds
        return (cv, ds)
    }

    @Test func cellsSizeThemselvesAndTheLayoutSettles() {
        let (cv, ds) = make(["a", "bbbbbbbbbbbb", "cc", "ddd"])
        _ = ds
        cv.layoutIfNeeded()
        // Line 0: a (10) + cc? No: a (10), then bbbbbbbbbbbb (120): 10 + 10 + 120 = 140 fits in 200.
        #expect(cv.layoutAttributesForItem(at: ip(0))?.frame == CGRect(x: 0, y: 0, width: 10, height: 30))
        #expect(cv.layoutAttributesForItem(at: ip(1))?.frame == CGRect(x: 20, y: 0, width: 120, height: 30))
        #expect(cv.layoutAttributesForItem(at: ip(2))?.frame == CGRect(x: 150, y: 0, width: 20, height: 30))
        #expect(cv.layoutAttributesForItem(at: ip(3))?.frame == CGRect(x: 0, y: 30, width: 30, height: 30))
        #expect(cv.contentSize.height == 60)
        let requests = cv.mirror.displayedElements.count
        cv.layoutIfNeeded()
        #expect(cv.mirror.displayedElements.count == requests)   // settled: no further passes
    }

    @Test func measuredSizesFollowTheirItemsThroughBatches() {
        let (cv, ds) = make(["aaaa", "bb", "c"])
        cv.layoutIfNeeded()
        ds.words.insert("zzzzzzzzzz", at: 0)
        cv.insertItems(at: [ip(0)])
        cv.layoutIfNeeded()
        #expect(cv.layoutAttributesForItem(at: ip(0))?.frame.width == 100)
        #expect(cv.layoutAttributesForItem(at: ip(1))?.frame.width == 40)   // "aaaa" kept its size
    }

    @Test func sizesReportedByTheClientAreUsed() {
        let layout = CollectionViewFlowLayout()
        layout.estimatedItemSize = CGSize(width: 50, height: 50)
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 300), collectionViewLayout: layout)
        cv.register(CollectionViewCell.self, forCellWithReuseIdentifier: "m")
        let ds = WordsDataSource(["x", "y"])
        cv.dataSource = ds
        cv.layoutIfNeeded()
        #expect(cv.layoutAttributesForItem(at: ip(1))?.frame.size == CGSize(width: 50, height: 50))
        cv.mirror.setMeasuredSize(CGSize(width: 80, height: 120), forItemAt: ip(1))
        cv.layoutIfNeeded()
        #expect(cv.layoutAttributesForItem(at: ip(1))?.frame.size == CGSize(width: 80, height: 120))
    }
}

@Suite struct MoreCoverageTests {
    @Test func pinnedFootersStickToTheBottom() {
        let l = CollectionViewFlowLayout()
        l.itemSize = CGSize(width: 100, height: 100)
        l.minimumLineSpacing = 0
        l.minimumInteritemSpacing = 0
        l.footerReferenceSize = CGSize(width: 0, height: 30)
        l.sectionFootersPinToVisibleBounds = true
        // Section 0: items 0..400, footer at 400; section 1 from 430.
        func footer(_ s: Int, _ y: CGFloat) -> CGFloat? {
            l.prepare(LayoutContext(numberOfItems: [12, 12], boundsSize: CGSize(width: 300, height: 200), visibleBounds: CGRect(x: 0, y: y, width: 300, height: 200)))
            return l.layoutAttributesForSupplementaryView(ofKind: CollectionView.elementKindSectionFooter, at: ip(0, s))?.frame.minY
        }
        #expect(footer(0, 0) == 170)     // pinned to the bottom of the visible bounds
        #expect(footer(0, 300) == 400)   // its own place once there
        #expect(footer(1, 0) == 430)     // a later section's footer cannot rise above its section's start
    }

    @Test func horizontalScrollPositions() {
        let layout = CollectionViewFlowLayout()
        layout.scrollDirection = .horizontal
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.minimumLineSpacing = 0
        layout.minimumInteritemSpacing = 0
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), collectionViewLayout: layout)
        cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        let ds = ArrayDataSource([items("a", 40)])
        cv.dataSource = ds
        // 2 per column: item 20 is in column 10, x 1000..1100.
        cv.scrollToItem(at: ip(20), at: .left, animated: false)
        #expect(cv.contentOffset.x == 1000)
        cv.scrollToItem(at: ip(20), at: .centeredHorizontally, animated: false)
        #expect(cv.contentOffset.x == 900)
        cv.scrollToItem(at: ip(20), at: .right, animated: false)
        #expect(cv.contentOffset.x == 800)
        cv.scrollToItem(at: ip(39), at: .left, animated: false)
        #expect(cv.contentOffset.x == 1700)   // clamped: content 2000 wide
    }

    @Test func supplementaryViewsGetDisplayCallbacks() {
        final class Log: CollectionViewDelegate {
            var shown: [Int] = [], hidden: [Int] = []
            func collectionView(_ cv: CollectionView, willDisplaySupplementaryView view: CollectionReusableView, forElementKind kind: String, at p: IndexPath) { shown.append(p.section) }
            func collectionView(_ cv: CollectionView, didEndDisplayingSupplementaryView view: CollectionReusableView, forElementOfKind kind: String, at p: IndexPath) { hidden.append(p.section) }
        }
        let log = Log()
        let (cv, ds) = makeCollectionView([items("a", 30), items("b", 30)])
        _ = ds
        cv.delegate = log
        cv.layoutIfNeeded()
        #expect(log.shown == [0])
        cv.contentOffset = CGPoint(x: 0, y: 520)
        cv.layoutIfNeeded()
        #expect(log.hidden == [0] && log.shown == [0, 1])
    }

    @Test func duplicateIdentifiersStopWithTheirName() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var s = Snapshot<Int, String>()
            s.appendSections([0])
            s.appendItems(["unique-1", "twice-42", "twice-42"])
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Item identifier twice-42 is already in the snapshot"), "\(stderr)")
    }
}
