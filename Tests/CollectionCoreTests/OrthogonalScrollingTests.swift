import CollectionCore
import Foundation
import Testing

/// Sections that scroll on their own: their scrollers, their offsets, and the cells
/// a collection view displays for them; and a whole collection scrolling sideways.
@Suite struct OrthogonalScrollingTests {
    func size(_ w: NSCollectionLayoutDimension, _ h: NSCollectionLayoutDimension) -> NSCollectionLayoutSize {
        NSCollectionLayoutSize(widthDimension: w, heightDimension: h)
    }

    /// Groups of 320 points, 10 apart, 100 deep, in a 400-point-wide layout.
    func carousel(_ behavior: CollectionLayoutSectionOrthogonalScrollingBehavior) -> NSCollectionLayoutSection {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let section = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(0.8), .absolute(100)), subitems: [item]))
        section.interGroupSpacing = 10
        section.orthogonalScrollingBehavior = behavior
        return section
    }

    @Test(arguments: [
        (CollectionLayoutSectionOrthogonalScrollingBehavior.continuous, 1640.0),
        (.continuousGroupLeadingBoundary, 1640), (.paging, 1640), (.groupPaging, 1640),
        // Centred: 40 before the first group and 40 after the last.
        (.groupPagingCentered, 1720),
    ])
    func eachOrthogonalSectionHasAScrollerAsWideAsTheLayout(behavior: CollectionLayoutSectionOrthogonalScrollingBehavior, length: Double) {
        let layout = CollectionViewCompositionalLayout(section: carousel(behavior))
        layout.prepare(counts: [5, 2], boundsSize: CGSize(width: 400, height: 800))
        // Five groups of 320 with four gaps of 10: 1,640 points; both sections scroll, one under the other.
        #expect(layout.orthogonalScrollingRegions == [
            OrthogonalScrollingRegion(section: 0, frame: CGRect(x: 0, y: 0, width: 400, height: 100), scrollsHorizontally: true,
                                      contentLength: length, behavior: behavior, groupPitch: 330),
            OrthogonalScrollingRegion(section: 1, frame: CGRect(x: 0, y: 100, width: 400, height: 100), scrollsHorizontally: true,
                                      contentLength: length - 3 * 330, behavior: behavior, groupPitch: 330),
        ])
        #expect(Double(layout.orthogonalScrollingRegions[0].maximumOffset) == length - 400)
    }

    @Test func insetsAndBadgesWidenTheScroller() {
        let section = carousel(.continuous)
        section.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 16, bottom: 20, trailing: 24)
        let badge = NSCollectionLayoutSupplementaryItem(layoutSize: size(.absolute(20), .absolute(20)), elementKind: "badge",
                                                        containerAnchor: NSCollectionLayoutAnchor(edges: [.top, .trailing], fractionalOffset: CGPoint(x: 0.5, y: -0.5)))
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)), supplementaryItems: [badge])
        let badged = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.absolute(100), .absolute(100)), subitems: [item]))
        badged.orthogonalScrollingBehavior = .continuous
        var layout = CollectionViewCompositionalLayout(section: section)
        layout.prepare(counts: [3], boundsSize: CGSize(width: 400, height: 800))
        // The group is 80% of 400 - 16 - 24 = 288 wide; 16 + 3 × 288 + 2 × 10 + 24 = 924.
        #expect(layout.orthogonalScrollingRegions.first?.contentLength == 924)
        #expect(layout.orthogonalScrollingRegions.first?.frame == CGRect(x: 0, y: 10, width: 400, height: 100))
        layout = CollectionViewCompositionalLayout(section: badged)
        layout.prepare(counts: [3], boundsSize: CGSize(width: 400, height: 800))
        // The badge reaches 10 above its cell: the scroller reaches 10 further each way.
        #expect(layout.orthogonalScrollingRegions.first?.frame == CGRect(x: 0, y: -10, width: 400, height: 120))
    }

    @Test func aSectionWithoutOrthogonalScrollingHasNoScroller() {
        let layout = CollectionViewCompositionalLayout(section: carousel(.none))
        layout.prepare(counts: [5], boundsSize: CGSize(width: 400, height: 800))
        #expect(layout.orthogonalScrollingRegions.isEmpty)
    }

    /// A 400×800 view: a carousel of 10,000 items 100 wide (section 0) above a grid.
    func carouselView() -> (CollectionView, ArrayDataSource) {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let band = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.absolute(100), .absolute(100)), subitems: [item]))
        band.orthogonalScrollingBehavior = .continuous
        let grid = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(1), .absolute(100)),
                                                                subitem: NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.25), .fractionalHeight(1))), count: 4))
        let layout = CollectionViewCompositionalLayout { section, _ in section == 0 ? band : grid }
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 400, height: 800), collectionViewLayout: layout)
        cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        let dataSource = ArrayDataSource([items("c", 10_000), items("g", 40)])
        cv.dataSource = dataSource
        return (cv, dataSource)
    }

    func displayedItems(_ cv: CollectionView, section: Int) -> [Int] {
        cv.mirror.displayedElements.keys.compactMap { key -> Int? in
            guard key.category == .cell, key.section == section else { return nil }
            return key.item
        }.sorted()
    }

    @Test func aScrolledSectionDisplaysTheCellsItsOffsetBringsIntoView() {
        let (cv, dataSource) = carouselView()
        defer { withExtendedLifetime(dataSource) {} }
        // Unscrolled: the first 400 points and a screen past them (cells 0-7).
        #expect(displayedItems(cv, section: 0) == Array(0...7))
        cv.mirror.orthogonalScrollOffsets = [0: 5_000]
        // 5,000 - 400 to 5,000 + 800: cells 46 to 57, whatever the vertical scroll.
        #expect(displayedItems(cv, section: 0) == Array(46...57))
        #expect(displayedItems(cv, section: 1) == Array(0...27))
        // Frames stay in the section's own (unscrolled) coordinates.
        #expect(cv.mirror.displayedElements[.cell(IndexPath(item: 50, section: 0))]?.layoutAttributes?.frame == CGRect(x: 5_000, y: 0, width: 100, height: 100))
        // Offsets stay within the content; a section that does not scroll on its own keeps none.
        cv.mirror.orthogonalScrollOffsets = [0: 1e9, 1: 300]
        #expect(cv.mirror.orthogonalScrollOffsets == [0: 999_600])
        #expect(displayedItems(cv, section: 0) == Array(9_992...9_999))
        cv.mirror.orthogonalScrollOffsets = [:]
        #expect(displayedItems(cv, section: 0) == Array(0...7))
        #expect(cv.mirror.displayedElements.count < 60)
    }

    @Test func aPointInAScrolledSectionHitsTheCellShownThere() {
        let (cv, dataSource) = carouselView()
        defer { withExtendedLifetime(dataSource) {} }
        #expect(cv.indexPathForItem(at: CGPoint(x: 150, y: 50)) == IndexPath(item: 1, section: 0))
        // Scrolled 5,000 along: the cell shown at x 150 is the one at 5,150 (item 51).
        cv.mirror.orthogonalScrollOffsets = [0: 5_000]
        #expect(cv.indexPathForItem(at: CGPoint(x: 150, y: 50)) == IndexPath(item: 51, section: 0))
        let attributes = try! #require(cv.layoutAttributesForItem(at: IndexPath(item: 51, section: 0)))
        #expect(cv.mirror.shownFrame(of: attributes) == CGRect(x: 100, y: 0, width: 100, height: 100))
        // The grid below does not scroll with it.
        #expect(cv.indexPathForItem(at: CGPoint(x: 150, y: 150)) == IndexPath(item: 1, section: 1))
        // A drop at x 190 goes after the cell shown there (item 51), at x 110 before it.
        #expect(cv.interactions.dropDestinationIndexPath(at: CGPoint(x: 190, y: 50)) == IndexPath(item: 52, section: 0))
        #expect(cv.interactions.dropDestinationIndexPath(at: CGPoint(x: 110, y: 50)) == IndexPath(item: 51, section: 0))
    }

    @Test func aHorizontalCollectionDisplaysAlongX() {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        // Columns of 100 points, each holding 4 items 200 high (a 800-point-high view).
        let group = NSCollectionLayoutGroup.vertical(layoutSize: size(.absolute(100), .fractionalHeight(1)), subitem: item, count: 4)
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.scrollDirection = .horizontal
        let layout = CollectionViewCompositionalLayout(section: NSCollectionLayoutSection(group: group), configuration: configuration)
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 400, height: 800), collectionViewLayout: layout)
        cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        let dataSource = ArrayDataSource([items("h", 400)])
        cv.dataSource = dataSource
        cv.mirror.displayMargin = 200
        #expect(cv.mirror.scrollsHorizontally)
        #expect(cv.contentSize == CGSize(width: 10_000, height: 800))
        cv.contentOffset = CGPoint(x: 5_000, y: 0)
        // Columns meeting 4,800 to 5,600: 48 to 55, four items each.
        #expect(displayedItems(cv, section: 0) == Array(48 * 4 ..< 56 * 4))
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 201, section: 0))?.frame == CGRect(x: 5_000, y: 200, width: 100, height: 200))
    }
}
