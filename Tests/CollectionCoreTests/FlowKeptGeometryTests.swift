import CollectionCore
import Foundation
import Testing

/// The flow layout keeps its geometry through a prepare whose inputs did not change
/// (one size for every item, the same counts, bounds size and properties: a batch
/// of moves), and a collection view without views keeps the attributes it was
/// given while the layout's answers and its rect stay. Checked against the truth:
/// after every step of a random session, what the collection view and its layout
/// answer is what a new layout, prepared afresh with the same inputs, answers.
@Suite struct FlowKeptGeometryTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func keptGeometryIsTheGeometryComputedAfresh(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let (cv, data) = makeCollectionView([items("a", 14), items("b", 5), items("c", 9)])
        cv.register(HeaderView.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionFooter, withReuseIdentifier: "header")
        let layout = cv.collectionViewLayout as! CollectionViewFlowLayout
        cv.mirror.keepsNoViews = true
        var serial = 0
        var kept = 0
        for step in 0..<400 {
            cv.layoutIfNeeded()
            let revision = layout.queryRevision
            let sections = data.sections.indices
            let s = Int.random(in: sections, using: &rng)
            let count = data.sections[s].count
            var moveWithin = false
            switch Int.random(in: 0..<16, using: &rng) {
            case 0..<5 where count > 1:
                // A move within a section: the counts stay.
                moveWithin = true
                let (from, to) = (Int.random(in: 0..<count, using: &rng), Int.random(in: 0..<count, using: &rng))
                data.sections[s].insert(data.sections[s].remove(at: from), at: to)
                cv.performBatchUpdates { cv.moveItem(at: ip(from, s), to: ip(to, s)) }
            case 5 where count > 0:
                // A move to another section: two counts change, their sum stays.
                let t = (s + 1) % data.sections.count
                let from = Int.random(in: 0..<count, using: &rng), to = Int.random(in: 0...data.sections[t].count, using: &rng)
                data.sections[t].insert(data.sections[s].remove(at: from), at: to)
                cv.performBatchUpdates { cv.moveItem(at: ip(from, s), to: ip(to, t)) }
            case 6:
                serial += 1
                let at = Int.random(in: 0...count, using: &rng)
                data.sections[s].insert("n\(serial)", at: at)
                cv.performBatchUpdates { cv.insertItems(at: [ip(at, s)]) }
            case 7 where count > 0:
                let at = Int.random(in: 0..<count, using: &rng)
                data.sections[s].remove(at: at)
                cv.performBatchUpdates { cv.deleteItems(at: [ip(at, s)]) }
            case 8 where count > 0:
                cv.performBatchUpdates { cv.reloadItems(at: [ip(Int.random(in: 0..<count, using: &rng), s)]) }
            case 9:
                let offset = Double(Int.random(in: 0...600, using: &rng))
                cv.setContentOffset(layout.scrollDirection == .vertical ? CGPoint(x: 0, y: offset) : CGPoint(x: offset, y: 0), animated: false)
            case 10:
                cv.frame.size = CGSize(width: [240, 300, 333, 410].randomElement(using: &rng)!, height: [150, 200].randomElement(using: &rng)!)
            case 11:
                layout.itemSize = [CGSize(width: 100, height: 50), CGSize(width: 70, height: 40), CGSize(width: 120, height: 64)].randomElement(using: &rng)!
            case 12:
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: layout.minimumLineSpacing = [0, 6].randomElement(using: &rng)!
                case 1: layout.minimumInteritemSpacing = [0, 9].randomElement(using: &rng)!
                case 2: layout.sectionInset = [.zero, EdgeInsets(top: 4, left: 8, bottom: 12, right: 3)].randomElement(using: &rng)!
                case 3: layout.headerReferenceSize.height = [0, 20, 31].randomElement(using: &rng)!
                default: layout.footerReferenceSize.height = [0, 14].randomElement(using: &rng)!
                }
            case 13:
                if Bool.random(using: &rng) {
                    layout.lineAlignment = [.justified, .leading, .center, .trailing].randomElement(using: &rng)!
                } else {
                    layout.scrollDirection = layout.scrollDirection == .vertical ? .horizontal : .vertical
                }
            case 14:
                if Bool.random(using: &rng) { layout.sectionHeadersPinToVisibleBounds.toggle() } else { layout.sectionFootersPinToVisibleBounds.toggle() }
            default:
                // Views for a while, then none again.
                cv.mirror.keepsNoViews.toggle()
            }
            cv.layoutIfNeeded()
            if revision != nil && layout.queryRevision == revision { kept += 1 }
            // Nothing but the order changed: the geometry was kept (unless pinned
            // elements make the layout unable to tell).
            if moveWithin && revision != nil {
                #expect(layout.queryRevision == revision, "step \(step), seed \(seed): a move computed the geometry again")
            }
            let truth = afresh(like: layout, in: cv)
            let rect = cv.mirror.displayRect
            #expect(layout.layoutAttributesForElements(in: rect) == truth.layoutAttributesForElements(in: rect), "step \(step), seed \(seed)")
            #expect(layout.collectionViewContentSize == truth.collectionViewContentSize, "step \(step), seed \(seed)")
            if cv.mirror.keepsNoViews {
                #expect(cv.mirror.shownAttributes == truth.layoutAttributesForElements(in: rect) ?? [], "step \(step), seed \(seed): shown")
            }
        }
        // The session did keep geometry (moves and reloads), or it tested nothing.
        #expect(kept > 10)
    }

    /// A flow layout with `layout`'s properties, prepared for `cv`'s counts and bounds
    /// from scratch (no collection view of its own).
    func afresh(like layout: CollectionViewFlowLayout, in cv: CollectionView) -> CollectionViewFlowLayout {
        let fresh = CollectionViewFlowLayout()
        fresh.itemSize = layout.itemSize
        fresh.minimumLineSpacing = layout.minimumLineSpacing
        fresh.minimumInteritemSpacing = layout.minimumInteritemSpacing
        fresh.sectionInset = layout.sectionInset
        fresh.headerReferenceSize = layout.headerReferenceSize
        fresh.footerReferenceSize = layout.footerReferenceSize
        fresh.lineAlignment = layout.lineAlignment
        fresh.scrollDirection = layout.scrollDirection
        fresh.sectionHeadersPinToVisibleBounds = layout.sectionHeadersPinToVisibleBounds
        fresh.sectionFootersPinToVisibleBounds = layout.sectionFootersPinToVisibleBounds
        fresh.prepare(LayoutContext(numberOfItems: (0..<cv.numberOfSections).map { cv.numberOfItems(inSection: $0) },
                                    boundsSize: cv.bounds.size, visibleBounds: cv.bounds))
        return fresh
    }

    /// A subclass's answers are asked again after every prepare: it may compute
    /// more than the geometry (here, a shift that grows at each prepare).
    @Test func aSubclassIsAskedAgain() {
        final class Drifting: CollectionViewFlowLayout {
            var prepares = 0
            override func prepare() { super.prepare(); prepares += 1 }
            override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
                super.layoutAttributesForElements(in: rect)?.map { var a = $0; a.frame.origin.x += CGFloat(prepares); return a }
            }
        }
        let layout = grid(Drifting())
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), collectionViewLayout: layout)
        cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        let data = ArrayDataSource([items("a", 6)])
        cv.dataSource = data
        cv.mirror.keepsNoViews = true
        cv.layoutIfNeeded()
        #expect(layout.queryRevision == nil)
        let before = cv.mirror.shownAttributes.first?.frame.minX
        data.sections[0].swapAt(0, 1)
        cv.performBatchUpdates { cv.moveItem(at: ip(0), to: ip(1)) }
        #expect(cv.mirror.shownAttributes.first?.frame.minX == before.map { $0 + 1 })
    }
}
