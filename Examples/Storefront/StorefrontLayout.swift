import CollectionServer

/// The storefront's compositional layout, one section description per section:
/// a centred hero carousel, a carousel of every product that pages, a grid of
/// departments on a background, and deals, a large card beside two small ones.
/// Every section's header stays pinned while its section is on screen.
enum StorefrontLayout {
    /// Kinds of the supplementary and decoration views (and of the page's templates: `tpl-<kind>`).
    static let badgeKind = "badge"
    static let backgroundKind = "section-background"

    /// `removeFromBasket`: what the basket rows' Remove swipe action does.
    static func make(for environment: LayoutEnvironment, removeFromBasket: @escaping @Sendable (IndexPath) -> Void) -> CollectionViewLayout {
        let regular = environment.horizontalSizeClass == .regular
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.interSectionSpacing = 12
        let layout = CollectionViewCompositionalLayout(sectionProvider: { index, layoutEnvironment in
            let section: NSCollectionLayoutSection
            switch StoreSection.allCases[safe: index] {
            case .featured: section = featured(regular: regular)
            case .everything: section = everything()
            case .departments: section = departments(regular: regular)
            case .deals: section = deals(regular: regular)
            case .basket: section = basket(layoutEnvironment, removeFromBasket: removeFromBasket)
            case .help, nil: section = .list(using: CollectionLayoutListConfiguration(appearance: .sidebar), layoutEnvironment: layoutEnvironment)
            }
            section.boundarySupplementaryItems = [header()]
            return section
        }, configuration: configuration)
        layout.register(CollectionReusableView.self, forDecorationViewOfKind: backgroundKind)
        return layout
    }

    static func size(_ w: NSCollectionLayoutDimension, _ h: NSCollectionLayoutDimension) -> NSCollectionLayoutSize {
        NSCollectionLayoutSize(widthDimension: w, heightDimension: h)
    }

    /// A 44-point header that stays in sight while its section is.
    static func header() -> NSCollectionLayoutBoundarySupplementaryItem {
        let header = NSCollectionLayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(44)),
                                                                 elementKind: CollectionView.elementKindSectionHeader, alignment: .top)
        header.pinToVisibleBounds = true
        header.zIndex = 2   // above the cells (0) and their badges (1) it passes over
        return header
    }

    /// Hero cards, most of the width, one centred at a time; a badge at each card's top-trailing corner.
    static func featured(regular: Bool) -> NSCollectionLayoutSection {
        let badge = NSCollectionLayoutSupplementaryItem(layoutSize: size(.absolute(56), .absolute(24)), elementKind: badgeKind,
                                                        containerAnchor: NSCollectionLayoutAnchor(edges: [.top, .trailing], absoluteOffset: CGPoint(x: -8, y: 8)))
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)), supplementaryItems: [badge])
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(regular ? 0.6 : 0.85), .absolute(220)), subitems: [item])
        let section = NSCollectionLayoutSection(group: group)
        section.orthogonalScrollingBehavior = .groupPagingCentered
        section.interGroupSpacing = 12
        section.contentInsets = NSDirectionalEdgeInsets(top: 4, leading: 0, bottom: 8, trailing: 0)
        return section
    }

    /// Every product, 150-point cards in a row that pages a screen at a time.
    static func everything() -> NSCollectionLayoutSection {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: size(.absolute(150), .absolute(190)), subitems: [item])
        let section = NSCollectionLayoutSection(group: group)
        section.orthogonalScrollingBehavior = .paging
        section.interGroupSpacing = 10
        section.contentInsets = NSDirectionalEdgeInsets(top: 4, leading: 16, bottom: 8, trailing: 16)
        return section
    }

    /// Departments: two columns (four on a wide screen), on a rounded background.
    static func departments(regular: Bool) -> NSCollectionLayoutSection {
        let item = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(regular ? 0.25 : 0.5), .fractionalHeight(1)))
        item.contentInsets = NSDirectionalEdgeInsets(top: 5, leading: 5, bottom: 5, trailing: 5)
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(96)), subitems: [item])
        let section = NSCollectionLayoutSection(group: group)
        section.contentInsets = NSDirectionalEdgeInsets(top: 8, leading: 20, bottom: 16, trailing: 20)
        let background = NSCollectionLayoutDecorationItem.background(elementKind: backgroundKind)
        background.contentInsets = NSDirectionalEdgeInsets(top: 44, leading: 10, bottom: 4, trailing: 10)
        section.decorationItems = [background]
        return section
    }

    /// The basket: an inset grouped list (UIKit's list configuration), rows sizing
    /// themselves; a swipe from the trailing edge (or Delete) reveals Remove.
    static func basket(_ environment: any NSCollectionLayoutEnvironment, removeFromBasket: @escaping @Sendable (IndexPath) -> Void) -> NSCollectionLayoutSection {
        var configuration = CollectionLayoutListConfiguration(appearance: .insetGrouped)
        configuration.headerMode = .supplementary
        // Separators start where the rows' text does, past the delete and insert accessories and the image.
        configuration.separatorConfiguration.bottomSeparatorInsets = NSDirectionalEdgeInsets(top: 0, leading: 108, bottom: 0, trailing: 0)
        configuration.trailingSwipeActionsConfigurationProvider = { indexPath in
            let remove = ContextualAction(style: .destructive, title: "Remove") { _, _, completion in
                removeFromBasket(indexPath)
                completion(true)
            }
            return SwipeActionsConfiguration(actions: [remove])
        }
        return .list(using: configuration, layoutEnvironment: environment)
    }

    /// Deals: a large card beside two small ones stacked, scrolling on, resting at a group's edge.
    static func deals(regular: Bool) -> NSCollectionLayoutSection {
        let large = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(0.6), .fractionalHeight(1)))
        large.contentInsets = NSDirectionalEdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 8)
        let small = NSCollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(0.5)))
        small.contentInsets = NSDirectionalEdgeInsets(top: 0, leading: 0, bottom: 4, trailing: 0)
        let stack = NSCollectionLayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.4), .fractionalHeight(1)), subitems: [small])
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(regular ? 0.5 : 0.9), .absolute(240)), subitems: [large, stack])
        let section = NSCollectionLayoutSection(group: group)
        section.orthogonalScrollingBehavior = .continuousGroupLeadingBoundary
        section.interGroupSpacing = 12
        section.contentInsets = NSDirectionalEdgeInsets(top: 4, leading: 16, bottom: 16, trailing: 16)
        return section
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
