import CollectionCore
import Foundation

// Written as UIKit code is written (Apple's modern collection-view samples'
// patterns), with the `UI` prefix dropped: cells made with init(frame:), rows,
// a custom list cell driven by its configuration state, a custom content
// configuration, every accessory with its arguments, swipe actions, a
// reordering handler reading sectionTransactions, a pinned header with its own
// zIndex.

struct Mountain: Hashable, Sendable {
    let name: String
    let height: Int
    let identifier = UUID()
    func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
    static func == (lhs: Mountain, rhs: Mountain) -> Bool { lhs.identifier == rhs.identifier }
}

// MARK: A cell made with init(frame:)

final class MountainCell: CollectionViewCell {
    static let reuseIdentifier = "mountain-cell-reuse-identifier"
    let label = Label()
    let badge = ImageView()
    private(set) var madeWithFrame = 0
    private(set) var laidOutSizes: [CGSize] = []

    override init(frame: CGRect) {
        super.init(frame: frame)
        madeWithFrame += 1
        configure()
    }
    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        laidOutSizes.append(bounds.size)
        label.frame = contentView.bounds.insetBy(dx: 10, dy: 10)
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        label.text = nil
    }
}

extension MountainCell {
    func configure() {
        contentView.addSubviews(label, badge)
        label.tag = 1
        badge.isHidden = true
    }
}

// MARK: A section header made with init(frame:)

final class TitleSupplementaryView: CollectionReusableView {
    static let reuseIdentifier = "title-supplementary-reuse-identifier"
    let label = Label()

    override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(label)
    }
    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}

// MARK: The classic data source, with rows

final class MountainsViewController: CollectionViewController {
    static let sectionHeaderElementKind = "section-header-element-kind"
    var mountains: [[Mountain]] = [
        [Mountain(name: "Mont Blanc", height: 4806), Mountain(name: "Matterhorn", height: 4478), Mountain(name: "Eiger", height: 3967)],
        [Mountain(name: "Denali", height: 6190), Mountain(name: "Logan", height: 5959)],
    ]

    init() {
        super.init(collectionViewLayout: MountainsViewController.createLayout())
    }

    static func createLayout() -> CollectionViewLayout {
        let itemSize = NSCollectionLayoutSize(widthDimension: .fractionalWidth(0.5), heightDimension: .fractionalHeight(1.0))
        let item = NSCollectionLayoutItem(layoutSize: itemSize)
        let groupSize = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .absolute(100))
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: groupSize, subitems: [item])
        let section = NSCollectionLayoutSection(group: group)
        section.interGroupSpacing = 5
        let headerSize = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .absolute(44))
        let sectionHeader = NSCollectionLayoutBoundarySupplementaryItem(
            layoutSize: headerSize, elementKind: MountainsViewController.sectionHeaderElementKind, alignment: .top)
        sectionHeader.pinToVisibleBounds = true
        sectionHeader.zIndex = 2
        section.boundarySupplementaryItems = [sectionHeader]
        return CollectionViewCompositionalLayout(section: section)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.register(MountainCell.self, forCellWithReuseIdentifier: MountainCell.reuseIdentifier)
        collectionView.register(TitleSupplementaryView.self, forSupplementaryViewOfKind: MountainsViewController.sectionHeaderElementKind,
                                withReuseIdentifier: TitleSupplementaryView.reuseIdentifier)
    }

    override func numberOfSections(in collectionView: CollectionView) -> Int {
        return mountains.count
    }

    override func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        return mountains[section].count
    }

    override func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        guard let cell = collectionView.dequeueReusableCell(withReuseIdentifier: MountainCell.reuseIdentifier, for: indexPath) as? MountainCell else {
            fatalError("Cannot create new cell")
        }
        let mountain = mountains[indexPath.section][indexPath.row]
        cell.label.text = mountain.name
        cell.content["title"] = mountain.name   // what the page's template shows
        cell.badge.isHidden = indexPath.row != 0
        return cell
    }

    override func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView {
        guard let header = collectionView.dequeueReusableSupplementaryView(
            ofKind: kind, withReuseIdentifier: TitleSupplementaryView.reuseIdentifier, for: indexPath) as? TitleSupplementaryView else {
            fatalError("Cannot create new supplementary")
        }
        header.label.text = "Range \(indexPath.section)"
        return header
    }
}
