import CollectionCore
import Foundation

/// Compositional layout of 100,000 items in 1,000 sections: preparation cost per
/// item and the median time to answer a 1000×800 visible-rect query.
enum CompositionalBench {
    static func run() -> String {
        let counts = Array(repeating: 100, count: 1_000)
        let total = counts.reduce(0, +)
        let bounds = CGSize(width: 1000, height: 800)
        var lines = [
            "### Compositional layout (100,000 items in 1,000 sections, 1000×800 bounds)",
            "",
            row(["sections", "prepare", "ns per item (goal ≤ 20)", "query: elements (median; goal ≤ 1 µs)", "elements per query"]),
            row(["---", "---:", "---:", "---:", "---:"]),
        ]
        for (name, provider) in sections() {
            let layout = CollectionViewCompositionalLayout(sectionProvider: provider)
            let prepare = median(runs: 21) { layout.prepare(counts: counts, boundsSize: bounds) }
            let height = layout.collectionViewContentSize.height
            var rng = SplitMix64(seed: 5)
            let rects = (0..<2_000).map { _ in CGRect(x: 0, y: CGFloat.random(in: 0...(height - 800), using: &rng), width: 1000, height: 800) }
            var found = 0
            let query = LayoutBench.medianPerCall(rects) { rect in
                var n = 0
                layout.forEachElement(in: rect) { _ in n += 1 }
                found += n
            }
            lines.append(row([name, formatTime(prepare), String(format: "%.2f", prepare / Double(total) * 1e9), formatTime(query), "\(found / rects.count)"]))
        }
        return lines.joined(separator: "\n")
    }

    static func size(_ w: NSCollectionLayoutDimension, _ h: NSCollectionLayoutDimension) -> NSCollectionLayoutSize {
        NSCollectionLayoutSize(widthDimension: w, heightDimension: h)
    }

    /// A grid with headers; a storefront mix (a large item beside two small, badges, a
    /// carousel every third section, backgrounds).
    static func sections() -> [(String, CollectionViewCompositionalLayoutSectionProvider)] {
        let header = NSCollectionLayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(40)),
                                                                 elementKind: CollectionView.elementKindSectionHeader, alignment: .top)
        let cell = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.2), .fractionalHeight(1)))
        let grid = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(1), .absolute(120)), subitems: [cell]))
        grid.boundarySupplementaryItems = [header]
        let badge = NSCollectionLayoutSupplementaryItem(layoutSize: size(.absolute(20), .absolute(20)), elementKind: "badge",
                                                        containerAnchor: NSCollectionLayoutAnchor(edges: [.top, .trailing], fractionalOffset: CGPoint(x: 0.3, y: -0.3)))
        let big = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)), supplementaryItems: [badge])
        let small = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(0.5)))
        let pair = NSCollectionLayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)), subitems: [small])
        let mosaic = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(1), .absolute(300)), subitems: [big, pair]))
        mosaic.boundarySupplementaryItems = [header]
        mosaic.decorationItems = [.background(elementKind: "card")]
        let carousel = NSCollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(0.8), .absolute(200)),
                                                                    subitems: [NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))]))
        carousel.orthogonalScrollingBehavior = .groupPaging
        carousel.boundarySupplementaryItems = [header]
        return [
            ("one grid section, five columns, with a header", { _, _ in grid }),
            ("a storefront: mosaic with badges and backgrounds, carousels", { s, _ in s % 3 == 2 ? carousel : mosaic }),
        ]
    }
}
