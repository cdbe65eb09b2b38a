import CollectionCore
import Foundation
import Testing

/// A flow layout that logs the calls a batch makes, and shrinks inserted items.
final class LoggingFlowLayout: CollectionViewFlowLayout {
    var log: [String] = []
    private var inserted: Set<IndexPath> = []

    override func prepare() {
        super.prepare()
        log.append("prepare")
    }
    override func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {
        super.prepare(forCollectionViewUpdates: updateItems)
        for u in updateItems {
            let name = switch u.updateAction { case .insert: "insert"; case .delete: "delete"; case .move: "move"; case .reload: "reload"; case .none: "none" }
            log.append("\(name) \(u.indexPathBeforeUpdate.map { "\(Array($0))" } ?? "-") \(u.indexPathAfterUpdate.map { "\(Array($0))" } ?? "-")")
            if u.updateAction == .insert, let p = u.indexPathAfterUpdate { inserted.insert(p) }
        }
    }
    override func finalizeCollectionViewUpdates() {
        super.finalizeCollectionViewUpdates()
        inserted = []
        log.append("finalize")
    }
    override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        log.append("initial \(Array(itemIndexPath))")
        guard var a = super.initialLayoutAttributesForAppearingItem(at: itemIndexPath) else { return nil }
        if inserted.contains(itemIndexPath) { a.transform = CGAffineTransform(scaleX: 0.5, y: 0.5) }
        return a
    }
    override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        log.append("final \(Array(itemIndexPath))")
        return super.finalLayoutAttributesForDisappearingItem(at: itemIndexPath)
    }
}

@Suite struct UpdateAnimationTests {
    func make(_ sections: [[String]]) -> (CollectionView, ArrayDataSource, LoggingFlowLayout) {
        let layout = grid(LoggingFlowLayout())
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), collectionViewLayout: layout)
        cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        let ds = ArrayDataSource(sections)
        cv.dataSource = ds
        _ = cv.mirror.displayedElements
        return (cv, ds, layout)
    }

    @Test func aBatchTellsTheLayoutItsUpdatesThenAsksForTheAnimationsOfDisplayedItems() {
        let (cv, ds, layout) = make([items("a", 9)])
        layout.log = []
        // Three 100 × 50 cells a row: a1 was at (100, 0); the new item lands at (200, 0).
        ds.sections[0] = ["a0", "a2", "n", "a3", "a4", "a5", "a6", "a7", "a8"]
        cv.performBatchUpdates {
            cv.deleteItems(at: [ip(1)])
            cv.insertItems(at: [ip(2)])
        }
        #expect(layout.log == ["prepare", "delete [0, 1] -", "insert - [0, 2]", "final [0, 1]", "initial [0, 2]", "finalize"])
        let animations = cv.mirror.lastUpdateAnimations
        let appearing = try! #require(animations.appearing[ip(2)])
        #expect(appearing.frame == CGRect(x: 200, y: 0, width: 100, height: 50) && appearing.alpha == 0)
        #expect(appearing.transform == CGAffineTransform(scaleX: 0.5, y: 0.5))
        // The default final attributes: where the item was displayed, transparent.
        let disappearing = try! #require(animations.disappearing[ip(1)])
        #expect(disappearing.frame == CGRect(x: 100, y: 0, width: 100, height: 50) && disappearing.alpha == 0)
        #expect(disappearing.transform == .identity)
        #expect(animations.appearing.count == 1 && animations.disappearing.count == 1)
    }

    @Test func itemsOutsideTheDisplayedRectAreNotAsked() {
        let (cv, ds, layout) = make([items("a", 60)])
        layout.log = []
        ds.sections[0].insert("far", at: 50)
        ds.sections[0].remove(at: 40)
        cv.performBatchUpdates {
            cv.deleteItems(at: [ip(40)])
            cv.insertItems(at: [ip(50)])
        }
        #expect(layout.log == ["prepare", "delete [0, 40] -", "insert - [0, 50]", "finalize"])
        #expect(cv.mirror.lastUpdateAnimations.isEmpty)
    }

    @Test func updateItemsListSectionsFirstThenItemsInUIKitsOrder() {
        var batch = BatchUpdate()
        batch.insertedSections = [2]
        batch.deletedSections = [0]
        batch.movedItems = [ItemMove(from: ip(1, 1), to: ip(0, 1))]
        batch.reloadedItems = [ip(3, 1)]
        batch.insertedItems = [ip(5, 1)]
        let items = CollectionViewUpdateItem.items(of: batch)
        #expect(items.map(\.updateAction) == [.delete, .insert, .insert, .move, .reload])
        #expect(items[0].indexPathBeforeUpdate == IndexPath(index: 0) && items[0].indexPathAfterUpdate == nil)
        #expect(items[1].indexPathAfterUpdate == IndexPath(index: 2))
        #expect(items[3].indexPathBeforeUpdate == ip(1, 1) && items[3].indexPathAfterUpdate == ip(0, 1))
    }
}
