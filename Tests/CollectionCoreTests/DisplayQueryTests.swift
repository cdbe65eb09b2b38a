import CollectionCore
import Foundation
import Testing

/// A flow layout of an app's own that leaves every other item out of its rect query.
final class EveryOtherFlowLayout: CollectionViewFlowLayout {
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        super.layoutAttributesForElements(in: rect)?.filter { $0.representedElementCategory != .cell || $0.indexPath.item % 2 == 0 }
    }
}

/// What a collection view displays is what its layout's rect query finds, through
/// scrolls and batches; a flow layout subclass's own query decides it.
@Suite struct DisplayQueryTests {
    func make(_ layout: CollectionViewFlowLayout, items count: Int) -> (CollectionView, ArrayDataSource) {
        layout.itemSize = CGSize(width: 100, height: 50)
        layout.minimumInteritemSpacing = 0
        layout.minimumLineSpacing = 0
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), collectionViewLayout: layout)
        cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        let ds = ArrayDataSource([(0..<count).map { "a\($0)" }])
        cv.dataSource = ds
        return (cv, ds)
    }

    /// What the public query finds in the display rect, as (item, frame) pairs in order.
    func queried(_ cv: CollectionView) -> [String] {
        (cv.collectionViewLayout.layoutAttributesForElements(in: cv.mirror.displayRect) ?? [])
            .filter { $0.representedElementCategory == .cell }
            .map { "\($0.indexPath.item)@\(Int($0.frame.minX)),\(Int($0.frame.minY))" }.sorted()
    }

    func displayed(_ cv: CollectionView) -> [String] {
        cv.mirror.displayedElements.filter { $0.key.category == .cell }
            .map { "\($0.key.item)@\(Int($0.value.layoutAttributes!.frame.minX)),\(Int($0.value.layoutAttributes!.frame.minY))" }.sorted()
    }

    @Test func aPlainFlowLayoutDisplaysWhatItsPublicQueryFindsThroughScrollsAndBatches() throws {
        let (cv, ds) = make(CollectionViewFlowLayout(), items: 40)
        #expect(displayed(cv) == queried(cv))
        #expect(displayed(cv).count == 12)   // four rows of three in the 300 × 200 bounds
        cv.contentOffset = CGPoint(x: 0, y: 300)
        #expect(displayed(cv) == queried(cv))
        ds.sections[0].removeFirst(5)
        cv.performBatchUpdates { cv.deleteItems(at: (0..<5).map { IndexPath(item: $0, section: 0) }) }
        #expect(displayed(cv) == queried(cv))
        cv.contentOffset = .zero
        #expect(displayed(cv) == queried(cv))
        #expect(displayed(cv).contains("0@0,0"))
    }

    @Test func aFlowLayoutSubclassesQueryDecidesWhatIsDisplayed() {
        let (cv, ds) = make(EveryOtherFlowLayout(), items: 12)   // the data source is held weakly: kept here
        let items = Set(cv.mirror.displayedElements.keys.filter { $0.category == .cell }.map(\.item))
        #expect(items == [0, 2, 4, 6, 8, 10])
        #expect(displayed(cv) == queried(cv))
        withExtendedLifetime(ds) {}
    }
}
