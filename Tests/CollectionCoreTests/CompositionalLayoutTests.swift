import CollectionCore
import Foundation
import Testing

/// Frames of the compositional layout against values worked out by hand.
@Suite struct CompositionalLayoutTests {
    let bounds = CGSize(width: 400, height: 800)

    func size(_ w: NSCollectionLayoutDimension, _ h: NSCollectionLayoutDimension) -> NSCollectionLayoutSize {
        NSCollectionLayoutSize(widthDimension: w, heightDimension: h)
    }

    /// A layout of one section description, prepared for `counts`.
    func layout(_ section: NSCollectionLayoutSection, counts: [Int], bounds: CGSize? = nil, measured: [IndexPath: CGSize] = [:],
                configuration: CollectionViewCompositionalLayoutConfiguration = .init()) -> CollectionViewCompositionalLayout {
        let l = CollectionViewCompositionalLayout(section: section, configuration: configuration)
        l.prepare(counts: counts, boundsSize: bounds ?? self.bounds, measured: measured)
        return l
    }

    func frame(_ l: CollectionViewLayout, _ item: Int, _ section: Int = 0) -> CGRect? {
        l.layoutAttributesForItem(at: IndexPath(item: item, section: section))?.frame
    }

    func row(_ item: NSCollectionLayoutItem, height: NSCollectionLayoutDimension) -> NSCollectionLayoutSection {
        NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(1), height), subitems: [item]))
    }

    // MARK: Dimensions

    @Test func fractionalWidthItemsFillARowOfTheGroup() {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.25), .fractionalHeight(1)))
        let l = layout(row(item, height: .absolute(100)), counts: [10])
        // Four 100-point items a row; item 5 is the second of the second row.
        #expect(frame(l, 0) == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(frame(l, 5) == CGRect(x: 100, y: 100, width: 100, height: 100))
        #expect(frame(l, 9) == CGRect(x: 100, y: 200, width: 100, height: 100))
        #expect(l.collectionViewContentSize == CGSize(width: 400, height: 300))
        #expect(frame(l, 10) == nil)
    }

    @Test func fractionalHeightIsOfTheContainersHeight() {
        // The group is a quarter of the 800-point height; items half its width, all its height.
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)))
        let l = layout(row(item, height: .fractionalHeight(0.25)), counts: [4])
        #expect(frame(l, 3) == CGRect(x: 200, y: 200, width: 200, height: 200))
    }

    @Test func absoluteItemsRepeatWhileTheyFit() {
        // 120-point items in a 400-point row: three fit (360), a fourth would reach 480.
        let item = NSCollectionLayoutItem(layoutSize: size(.absolute(120), .absolute(80)))
        let l = layout(row(item, height: .absolute(80)), counts: [5])
        #expect(frame(l, 2) == CGRect(x: 240, y: 0, width: 120, height: 80))
        #expect(frame(l, 4) == CGRect(x: 120, y: 80, width: 120, height: 80))
    }

    @Test func estimatedItemsTakeTheSizeTheirCellsReport() {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .estimated(44)))
        let section = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(1), .estimated(44)), subitems: [item]))
        let estimated = layout(section, counts: [3])
        #expect(frame(estimated, 2) == CGRect(x: 0, y: 88, width: 400, height: 44))
        // Item 1's cell needs 60 points: the items after it move down.
        let measured = layout(section, counts: [3], measured: [IndexPath(item: 1, section: 0): CGSize(width: 400, height: 60)])
        #expect(frame(measured, 1) == CGRect(x: 0, y: 44, width: 400, height: 60))
        #expect(frame(measured, 2) == CGRect(x: 0, y: 104, width: 400, height: 44))
        #expect(measured.collectionViewContentSize.height == 148)
    }

    // MARK: Groups

    @Test func aGroupWithACountSharesItsWidth() {
        let item = NSCollectionLayoutItem(layoutSize: size(.absolute(10), .fractionalHeight(1)))
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(50)), repeatingSubitem: item, count: 3)
        group.interItemSpacing = .fixed(8)
        // (400 - 2 × 8) / 3 = 128 each; the item's own width is not used.
        let l = layout(NSCollectionLayoutSection(group: group), counts: [4])
        #expect(frame(l, 1) == CGRect(x: 136, y: 0, width: 128, height: 50))
        #expect(frame(l, 2) == CGRect(x: 272, y: 0, width: 128, height: 50))
        #expect(frame(l, 3) == CGRect(x: 0, y: 50, width: 128, height: 50))
        #expect(group.count == 3 && group.subitems.count == 1)
    }

    @Test func aVerticalGroupStacksItsItems() {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .absolute(100)))
        let group = NSCollectionLayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .absolute(300)), subitems: [item])
        let l = layout(NSCollectionLayoutSection(group: group), counts: [4])
        #expect(frame(l, 2) == CGRect(x: 0, y: 200, width: 200, height: 100))
        // The section's groups go down the layout, one under another.
        #expect(frame(l, 3) == CGRect(x: 0, y: 300, width: 200, height: 100))
    }

    @Test func nestedGroupsPlaceALargeItemBesideTwoSmallOnes() {
        let big = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)))
        let small = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(0.5)))
        let pair = NSCollectionLayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)), subitems: [small])
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(200)), subitems: [big, pair])
        let l = layout(NSCollectionLayoutSection(group: group), counts: [4])
        #expect(frame(l, 0) == CGRect(x: 0, y: 0, width: 200, height: 200))
        #expect(frame(l, 1) == CGRect(x: 200, y: 0, width: 200, height: 100))
        #expect(frame(l, 2) == CGRect(x: 200, y: 100, width: 200, height: 100))
        #expect(frame(l, 3) == CGRect(x: 0, y: 200, width: 200, height: 200))
    }

    @Test func aCustomGroupPlacesItsItemsAtTheProvidersFrames() {
        let group = NSCollectionLayoutGroup.custom(layoutSize: size(.fractionalWidth(1), .absolute(100))) { environment in
            let w = environment.container.effectiveContentSize.width
            return [NSCollectionLayoutGroupCustomItem(frame: CGRect(x: 0, y: 0, width: w / 8, height: 50)),
                    NSCollectionLayoutGroupCustomItem(frame: CGRect(x: 60, y: 10, width: 30, height: 30), zIndex: 3)]
        }
        let l = layout(NSCollectionLayoutSection(group: group), counts: [3])
        #expect(frame(l, 0) == CGRect(x: 0, y: 0, width: 50, height: 50))
        #expect(frame(l, 1) == CGRect(x: 60, y: 10, width: 30, height: 30))
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))?.zIndex == 3)
        #expect(frame(l, 2) == CGRect(x: 0, y: 100, width: 50, height: 50))
    }

    @Test func flexibleSpacingSharesTheSpareRoom() {
        // Three 100-point items fit with 10 between (320); the spare 80 goes to the two gaps.
        let item = NSCollectionLayoutItem(layoutSize: size(.absolute(100), .absolute(50)))
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(50)), subitems: [item])
        group.interItemSpacing = .flexible(10)
        let l = layout(NSCollectionLayoutSection(group: group), counts: [3])
        #expect([0, 1, 2].map { frame(l, $0)?.minX } == [0, 150, 300])
    }

    @Test func contentInsetsAndEdgeSpacingOfItems() {
        let inset = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.5), .absolute(100)))
        inset.contentInsets = NSDirectionalEdgeInsets(top: 5, leading: 5, bottom: 5, trailing: 5)
        #expect(frame(layout(row(inset, height: .absolute(100)), counts: [2]), 1) == CGRect(x: 205, y: 5, width: 190, height: 90))
        // Two 120-point items fit a 300-point group; the spare 60 goes to four flexible edges.
        let spaced = NSCollectionLayoutItem(layoutSize: size(.absolute(120), .absolute(50)))
        spaced.edgeSpacing = NSCollectionLayoutEdgeSpacing(leading: .flexible(0), top: nil, trailing: .flexible(0), bottom: nil)
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: size(.absolute(300), .absolute(50)), subitems: [spaced])
        let l = layout(NSCollectionLayoutSection(group: group), counts: [2])
        #expect(frame(l, 0)?.minX == 15 && frame(l, 1)?.minX == 165)
    }

    // MARK: Sections

    @Test func sectionInsetsAndInterGroupSpacing() {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)))
        let section = row(item, height: .absolute(50))
        section.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 20, bottom: 30, trailing: 40)
        section.interGroupSpacing = 5
        // Items are half of 400 - 20 - 40 = 340.
        let l = layout(section, counts: [4, 1])
        #expect(frame(l, 0) == CGRect(x: 20, y: 10, width: 170, height: 50))
        #expect(frame(l, 3) == CGRect(x: 190, y: 65, width: 170, height: 50))
        // Section 1 starts after 10 + 50 + 5 + 50 + 30 = 145.
        #expect(frame(l, 0, 1) == CGRect(x: 20, y: 155, width: 170, height: 50))
    }

    @Test(arguments: [
        (CollectionLayoutSectionOrthogonalScrollingBehavior.continuous, 330.0),
        (.continuousGroupLeadingBoundary, 330), (.paging, 330), (.groupPaging, 330),
        (.groupPagingCentered, 370),
    ])
    func orthogonalSectionsLayTheirGroupsSideways(behavior: CollectionLayoutSectionOrthogonalScrollingBehavior, second: Double) {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let section = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(0.8), .absolute(100)), subitems: [item]))
        section.interGroupSpacing = 10
        section.orthogonalScrollingBehavior = behavior
        let l = layout(section, counts: [5, 1])
        // Groups of 320 points, 10 apart, in one band of 100; centered paging starts at (400 - 320) / 2.
        // UIKit's SDK header says of `.groupPagingCentered`: "Same of group paging with additional
        // leading and trailing content insets to center each group's contents along the orthogonal
        // axis" — so the first group is centred too, with (container - group) / 2 before it.
        let first = behavior == .groupPagingCentered ? 40.0 : 0
        #expect(frame(l, 0, 0) == CGRect(x: first, y: 0, width: 320, height: 100))
        #expect(frame(l, 1, 0) == CGRect(x: second, y: 0, width: 320, height: 100))
        #expect(frame(l, 0, 1)?.minY == 100)
        let inView = (l.layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 400, height: 100)) ?? []).map(\.indexPath.item)
        #expect(inView == [0, 1])
    }

    @Test func withoutOrthogonalScrollingTheSameGroupsGoDown() {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let section = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(0.8), .absolute(100)), subitems: [item]))
        section.interGroupSpacing = 10
        #expect(frame(layout(section, counts: [5]), 1) == CGRect(x: 0, y: 110, width: 320, height: 100))
    }

    // MARK: Supplementaries and decorations

    func headerAndFooter(pinned: Bool) -> NSCollectionLayoutSection {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let section = row(item, height: .absolute(100))
        let header = NSCollectionLayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(30)),
                                                                 elementKind: CollectionView.elementKindSectionHeader, alignment: .top)
        header.pinToVisibleBounds = pinned
        let footer = NSCollectionLayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(20)),
                                                                 elementKind: CollectionView.elementKindSectionFooter, alignment: .bottom)
        section.boundarySupplementaryItems = [header, footer]
        return section
    }

    @Test func headersAndFootersTakeRoomAroundTheItems() {
        let l = layout(headerAndFooter(pinned: false), counts: [4, 4])
        let kind = CollectionView.elementKindSectionHeader
        #expect(l.layoutAttributesForSupplementaryView(ofKind: kind, at: IndexPath(item: 0, section: 0))?.frame == CGRect(x: 0, y: 0, width: 400, height: 30))
        #expect(frame(l, 0) == CGRect(x: 0, y: 30, width: 400, height: 100))
        #expect(l.layoutAttributesForSupplementaryView(ofKind: CollectionView.elementKindSectionFooter, at: IndexPath(item: 0, section: 0))?.frame
                == CGRect(x: 0, y: 430, width: 400, height: 20))
        #expect(l.layoutAttributesForSupplementaryView(ofKind: kind, at: IndexPath(item: 0, section: 1))?.frame.minY == 450)
        #expect(l.collectionViewContentSize.height == 900)
    }

    @Test func pinnedHeadersStayInSightWithinTheirSection() {
        let l = CollectionViewCompositionalLayout(section: headerAndFooter(pinned: true))
        let kind = CollectionView.elementKindSectionHeader
        func header(_ s: Int, scrolledTo y: CGFloat) -> CollectionViewLayoutAttributes? {
            l.prepare(counts: [4, 4], boundsSize: bounds, visibleBounds: CGRect(x: 0, y: y, width: 400, height: 300))
            return l.layoutAttributesForSupplementaryView(ofKind: kind, at: IndexPath(item: 0, section: s))
        }
        #expect(header(0, scrolledTo: 0)?.frame.minY == 0)
        #expect(header(0, scrolledTo: 250)?.frame.minY == 250)
        // Its zIndex is the item's own (1 by default, as UIKit's supplementary items).
        #expect(header(0, scrolledTo: 250)?.zIndex == 1)
        // Section 0 ends at 450: its header is pushed up by the next section.
        #expect(header(0, scrolledTo: 440)?.frame.minY == 420)
        #expect(header(1, scrolledTo: 440)?.frame.minY == 450)
        #expect(header(1, scrolledTo: 500)?.frame.minY == 500)
        let inRect = l.layoutAttributesForElements(in: CGRect(x: 0, y: 500, width: 400, height: 300)) ?? []
        #expect(inRect.contains { $0.representedElementKind == kind && $0.indexPath.section == 1 && $0.frame.minY == 500 })
    }

    @Test func badgesSitOnTheirItemsAnchor() {
        let badge = NSCollectionLayoutSupplementaryItem(layoutSize: size(.absolute(20), .absolute(20)), elementKind: "badge",
                                                        containerAnchor: NSCollectionLayoutAnchor(edges: [.top, .trailing], fractionalOffset: CGPoint(x: 0.3, y: -0.3)))
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.25), .fractionalHeight(1)), supplementaryItems: [badge])
        let l = layout(row(item, height: .absolute(100)), counts: [5])
        // Top-trailing corner on the item's (80, 0), then 30% of its size out: (+6, -6).
        #expect(l.layoutAttributesForSupplementaryView(ofKind: "badge", at: IndexPath(item: 0, section: 0))?.frame == CGRect(x: 86, y: -6, width: 20, height: 20))
        #expect(l.layoutAttributesForSupplementaryView(ofKind: "badge", at: IndexPath(item: 4, section: 0))?.frame == CGRect(x: 86, y: 94, width: 20, height: 20))
        // A badge that sits on the item's corner, its bottom-leading point there.
        let corner = NSCollectionLayoutSupplementaryItem(layoutSize: size(.absolute(10), .absolute(10)), elementKind: "dot",
                                                         containerAnchor: NSCollectionLayoutAnchor(edges: [.top, .trailing]),
                                                         itemAnchor: NSCollectionLayoutAnchor(edges: [.bottom, .leading]))
        let dotted = layout(row(NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.25), .fractionalHeight(1)), supplementaryItems: [corner]), height: .absolute(100)), counts: [1])
        #expect(dotted.layoutAttributesForSupplementaryView(ofKind: "dot", at: IndexPath(item: 0, section: 0))?.frame == CGRect(x: 100, y: -10, width: 10, height: 10))
        // A rect above the first row holds item 0's badge, not its cell.
        let above = l.layoutAttributesForElements(in: CGRect(x: 0, y: -10, width: 400, height: 8)) ?? []
        #expect(above.map(\.representedElementKind) == Array(repeating: "badge", count: 4))
    }

    @Test func aBackgroundFillsItsSectionLessItsInsets() {
        let section = headerAndFooter(pinned: false)
        section.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10)
        let background = NSCollectionLayoutDecorationItem.background(elementKind: "card")
        background.contentInsets = NSDirectionalEdgeInsets(top: 5, leading: 5, bottom: 5, trailing: 5)
        section.decorationItems = [background]
        let l = layout(section, counts: [1, 1])
        // Section 0: header 30, inset 10, one item 100, inset 10, footer 20 = 170 high.
        let a = l.layoutAttributesForDecorationView(ofKind: "card", at: IndexPath(item: 0, section: 0))
        #expect(a?.frame == CGRect(x: 5, y: 5, width: 390, height: 160))
        #expect(a?.zIndex == -1 && a?.representedElementCategory == .decorationView)
        #expect(l.layoutAttributesForDecorationView(ofKind: "card", at: IndexPath(item: 0, section: 1))?.frame.minY == 175)
        #expect(frame(l, 0) == CGRect(x: 10, y: 40, width: 380, height: 100))
    }

    // MARK: The whole layout

    @Test func aHorizontalLayoutStepsItsGroupsAndSectionsSideways() {
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.scrollDirection = .horizontal
        configuration.interSectionSpacing = 20
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(0.5)))
        let section = NSCollectionLayoutSection(group: .vertical(layoutSize: size(.absolute(100), .fractionalHeight(1)), subitems: [item]))
        let l = layout(section, counts: [5, 1], bounds: CGSize(width: 400, height: 300), configuration: configuration)
        #expect(frame(l, 2) == CGRect(x: 100, y: 0, width: 100, height: 150))
        #expect(frame(l, 4) == CGRect(x: 200, y: 0, width: 100, height: 150))
        #expect(frame(l, 0, 1) == CGRect(x: 320, y: 0, width: 100, height: 150))
        #expect(l.collectionViewContentSize == CGSize(width: 420, height: 300))
        let inRect = (l.layoutAttributesForElements(in: CGRect(x: 150, y: 0, width: 100, height: 300)) ?? []).map(\.indexPath.item)
        #expect(inRect == [2, 3, 4])
    }

    /// Columns side by side (a board): in a horizontal layout a section's `.top`
    /// header sits above its column and the cards start below it, as UIKit places
    /// it (it extends the section's boundary); an empty column keeps its header's
    /// width, so the next column's header does not cover it.
    @Test func aHorizontalLayoutsTopHeadersTakeRoomAndEmptyColumnsKeepTheirWidth() {
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.scrollDirection = .horizontal
        configuration.interSectionSpacing = 10
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .absolute(60)))
        // A column: as many cards as its height holds, one under the other.
        let column = NSCollectionLayoutGroup.vertical(layoutSize: size(.absolute(300), .fractionalHeight(1)), subitems: [item])
        let section = NSCollectionLayoutSection(group: column)
        let header = NSCollectionLayoutBoundarySupplementaryItem(layoutSize: size(.absolute(300), .absolute(40)),
                                                                  elementKind: CollectionView.elementKindSectionHeader, alignment: .top)
        section.boundarySupplementaryItems = [header]
        let l = layout(section, counts: [2, 0, 1], bounds: CGSize(width: 1000, height: 600), configuration: configuration)
        func headerFrame(_ s: Int) -> CGRect? {
            l.layoutAttributesForSupplementaryView(ofKind: CollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: s))?.frame
        }
        // Column 0: its header on top, its cards below it, one under the other.
        #expect(headerFrame(0) == CGRect(x: 0, y: 0, width: 300, height: 40))
        #expect(frame(l, 0) == CGRect(x: 0, y: 40, width: 300, height: 60))
        #expect(frame(l, 1) == CGRect(x: 0, y: 100, width: 300, height: 60))
        // Column 1 is empty: it still takes its header's width.
        #expect(headerFrame(1) == CGRect(x: 310, y: 0, width: 300, height: 40))
        // Column 2 comes after it, its header and its card over no other.
        #expect(headerFrame(2) == CGRect(x: 620, y: 0, width: 300, height: 40))
        #expect(frame(l, 0, 2) == CGRect(x: 620, y: 40, width: 300, height: 60))
        #expect(l.collectionViewContentSize == CGSize(width: 920, height: 600))
    }

    @Test func aGlobalHeaderComesBeforeTheSections() {
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.boundarySupplementaryItems = [NSCollectionLayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(50)),
                                                                                                elementKind: "banner", alignment: .top)]
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let l = layout(row(item, height: .absolute(100)), counts: [2], configuration: configuration)
        #expect(l.layoutAttributesForSupplementaryView(ofKind: "banner", at: IndexPath(index: 0))?.frame == CGRect(x: 0, y: 0, width: 400, height: 50))
        #expect(frame(l, 0)?.minY == 50 && l.collectionViewContentSize.height == 250)
    }

    @Test func aSectionProviderSeesTheContainerAndTraits() {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let l = CollectionViewCompositionalLayout { section, environment in
            // Compact (400 wide): one column; section 1 has two.
            let columns = environment.traitCollection.horizontalSizeClass == .compact ? 1 + section : 4
            let width = environment.container.effectiveContentSize.width / CGFloat(columns)
            return NSCollectionLayoutSection(group: .horizontal(layoutSize: self.size(.fractionalWidth(1), .absolute(width)), repeatingSubitem: item, count: columns))
        }
        l.prepare(counts: [2, 2], boundsSize: bounds)
        #expect(frame(l, 1, 0) == CGRect(x: 0, y: 400, width: 400, height: 400))
        #expect(frame(l, 1, 1) == CGRect(x: 200, y: 800, width: 200, height: 200))
        l.prepare(counts: [2, 2], boundsSize: CGSize(width: 800, height: 600))
        #expect(frame(l, 1, 0) == CGRect(x: 200, y: 0, width: 200, height: 200))
    }

    @Test func rectQueriesMatchEveryItemsFrame() {
        var rng = SplitMix64(seed: 7)
        for round in 0..<40 {
            let w = CGFloat(Int.random(in: 1...4, using: &rng))
            let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1 / w), .absolute(CGFloat(Int.random(in: 20...80, using: &rng)))))
            let section = row(item, height: .absolute(80))
            section.interGroupSpacing = CGFloat(Int.random(in: 0...10, using: &rng))
            if round % 3 == 0 { section.orthogonalScrollingBehavior = .continuous }
            let counts = (0..<Int.random(in: 1...5, using: &rng)).map { _ in Int.random(in: 0...30, using: &rng) }
            let l = layout(section, counts: counts)
            let rect = CGRect(x: CGFloat(Int.random(in: -50...300, using: &rng)), y: CGFloat(Int.random(in: -50...1_500, using: &rng)), width: 200, height: 300)
            var expected: [IndexPath] = []
            for (s, count) in counts.enumerated() {
                // Sharing area, not just an edge (Foundation's `intersects` counts edges on Linux).
                for i in 0..<count {
                    let f = frame(l, i, s)!
                    if f.minX < rect.maxX && rect.minX < f.maxX && f.minY < rect.maxY && rect.minY < f.maxY { expected.append(IndexPath(item: i, section: s)) }
                }
            }
            let got = (l.layoutAttributesForElements(in: rect) ?? []).filter { $0.representedElementCategory == .cell }.map(\.indexPath)
            #expect(got == expected, "round \(round)")
        }
    }
}
