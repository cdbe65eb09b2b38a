import CollectionCore
import Foundation
import Synchronization

// A list of trails in two regions: list cells with accessories and a
// configuration update handler, the custom trail cell, badges drawn by a custom
// content configuration, swipe actions, and reordering that keeps a backing
// store in step through sectionTransactions.

final class TrailsViewController: CollectionViewController {
    enum Region: String, CaseIterable { case alps, rockies }

    var dataSource: CollectionViewDiffableDataSource<Region, Trail>! = nil
    var backingStore: [Region: [Trail]] = [
        .alps: [Trail(title: "Tour du Mont Blanc", detail: "170 km", difficulty: "Hard", image: Image(systemName: "mountain.2")),
                Trail(title: "Haute Route", detail: "180 km", difficulty: "Hard", image: Image(named: "/images/haute-route.jpg")),
                Trail(title: "Eiger Trail", detail: "6 km", difficulty: "Easy", image: "🥾")],
        .rockies: [Trail(title: "Skyline Trail", detail: "44 km", difficulty: "Moderate", image: nil),
                   Trail(title: "Iceline", detail: "21 km", difficulty: "Moderate", image: nil)],
    ]
    /// What the accessories' handlers were asked to do (they are Sendable, as the swipe provider).
    final class Requests: Sendable {
        private let log = Mutex<[String]>([])
        func record(_ request: String) { log.withLock { $0.append(request) } }
        var all: [String] { log.withLock { $0 } }
    }
    let requests = Requests()
    var reordered: [String] = []

    init() {
        super.init(collectionViewLayout: CollectionViewFlowLayout())
    }

    /// What the swipe's star marks: shared with the layout's swipe provider, which a
    /// live collection calls on its own thread (so it is Sendable, where UIKit's
    /// closures would capture the view controller on the main actor).
    final class Stars: Sendable {
        private let marked = Mutex<[IndexPath]>([])
        func mark(_ indexPath: IndexPath) { marked.withLock { $0.append(indexPath) } }
        var all: [IndexPath] { marked.withLock { $0 } }
    }
    let stars = Stars()

    func createLayout() -> CollectionViewLayout {
        var config = CollectionLayoutListConfiguration(appearance: .insetGrouped)
        let stars = self.stars
        config.trailingSwipeActionsConfigurationProvider = { indexPath in
            let starAction = ContextualAction(style: .normal, title: nil) { action, sourceView, completion in
                stars.mark(indexPath)
                completion(true)
            }
            starAction.image = Image(systemName: "star.fill")
            starAction.backgroundColor = .systemBlue
            let deleteAction = ContextualAction(style: .destructive, title: "Delete") { _, _, completion in
                completion(false)
            }
            return SwipeActionsConfiguration(actions: [deleteAction, starAction])
        }
        return CollectionViewCompositionalLayout.list(using: config)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.collectionViewLayout = createLayout()
        configureDataSource()
    }

    private func configureDataSource() {
        let requests = self.requests
        let plainRegistration = CollectionView.CellRegistration<CollectionViewListCell, Trail> { cell, indexPath, trail in
            var content = cell.defaultContentConfiguration()
            content.text = trail.title
            content.secondaryText = trail.detail
            content.image = trail.image
            cell.contentConfiguration = content
            cell.accessories = [
                .disclosureIndicator(displayed: .whenNotEditing),
                .checkmark(displayed: .always, options: .init(isHidden: indexPath.row != 0, tintColor: .systemGreen)),
                .delete(displayed: .whenEditing, options: .init(backgroundColor: .systemRed)) { requests.record("delete \(trail.title)") },
                .insert(displayed: .whenEditing, options: .init(backgroundColor: .systemGreen)) { requests.record("insert \(trail.title)") },
                .reorder(displayed: .whenEditing, options: .init(showsVerticalSeparator: false)),
                .customView(configuration: .init(customView: Label(), placement: .trailing(displayed: .whenNotEditing), reservedLayoutWidth: .actual)),
            ]
            cell.configurationUpdateHandler = { cell, state in
                var content = ListContentConfiguration.valueCell().updated(for: state)
                content.text = trail.title
                content.secondaryText = state.isSelected ? "Chosen" : trail.detail
                content.image = trail.image
                cell.contentConfiguration = content
            }
        }
        let customRegistration = CollectionView.CellRegistration<CustomTrailCell, Trail> { cell, indexPath, trail in
            cell.updateWithTrail(trail)
            cell.accessories = [.outlineDisclosure(displayed: .always, options: .init(style: .header)) {}]
        }
        let badgeRegistration = CollectionView.CellRegistration<CollectionViewCell, Trail> { cell, indexPath, trail in
            cell.contentConfiguration = BadgeContentConfiguration(image: trail.image ?? Image(systemName: "questionmark"))
        }

        dataSource = CollectionViewDiffableDataSource<Region, Trail>(collectionView: collectionView) { collectionView, indexPath, trail in
            switch (Region.allCases[indexPath.section], indexPath.row) {
            case (.alps, 0): return collectionView.dequeueConfiguredReusableCell(using: customRegistration, for: indexPath, item: trail)
            case (.rockies, 1): return collectionView.dequeueConfiguredReusableCell(using: badgeRegistration, for: indexPath, item: trail)
            default: return collectionView.dequeueConfiguredReusableCell(using: plainRegistration, for: indexPath, item: trail)
            }
        }

        dataSource.reorderingHandlers.canReorderItem = { item in return true }
        dataSource.reorderingHandlers.didReorder = { [weak self] transaction in
            guard let self = self else { return }
            for sectionTransaction in transaction.sectionTransactions {
                let sectionIdentifier = sectionTransaction.sectionIdentifier
                if let previousSectionItems = self.backingStore[sectionIdentifier],
                   let updatedSectionItems = previousSectionItems.applying(sectionTransaction.difference) {
                    self.backingStore[sectionIdentifier] = updatedSectionItems
                    self.reordered.append(sectionIdentifier.rawValue)
                }
            }
        }

        var snapshot = NSDiffableDataSourceSnapshot<Region, Trail>()
        snapshot.appendSections(Region.allCases)
        for region in Region.allCases { snapshot.appendItems(backingStore[region] ?? [], toSection: region) }
        dataSource.apply(snapshot, animatingDifferences: false)
    }
}
