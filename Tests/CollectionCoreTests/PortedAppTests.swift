import CollectionCore
import Foundation
import Testing

/// The UIKit-style port in PortedApp/ (written as for UIKit, the `UI` prefix
/// dropped) runs as UIKit would run it: cells made with `init(frame:)` and laid
/// out at their frames, rows, configuration states, accessories, swipe actions,
/// reordering through section transactions, a pinned header's own zIndex.
@Suite struct PortedAppTests {
    private func shown<C: CollectionViewController>(_ controller: C, width: CGFloat = 400) -> C {
        controller.loadViewIfNeeded()
        controller.collectionView.frame = CGRect(x: 0, y: 0, width: width, height: 800)
        controller.viewWillAppear(false)
        controller.collectionView.layoutIfNeeded()
        return controller
    }

    @Test func cellsAreMadeWithInitFrameAndLaidOutAtTheirFrames() throws {
        let app = shown(MountainsViewController())
        let cv = app.collectionView!
        let cell = try #require(cv.cellForItem(at: IndexPath(row: 1, section: 0)) as? MountainCell)
        #expect(cell.madeWithFrame == 1)
        #expect(cell.reuseIdentifier == MountainCell.reuseIdentifier)
        #expect(cell.label.text == "Matterhorn" && cell.content["title"] == "Matterhorn")
        // The collection view set its frame from the layout: half the width, 100 high,
        // and layoutSubviews ran with that size (once: the size did not change since).
        #expect(cell.frame == CGRect(x: 200, y: 44, width: 200, height: 100))
        #expect(cell.bounds == CGRect(x: 0, y: 0, width: 200, height: 100))
        #expect(cell.laidOutSizes == [CGSize(width: 200, height: 100)])
        #expect(cell.contentView.bounds == cell.bounds)
        #expect(cell.label.frame == CGRect(x: 10, y: 10, width: 180, height: 80))
        // An app's extension on View reaches a cell's views.
        #expect(cell.allViews.count == 4 && cell.viewWithTag(1) === cell.label)
        #expect(cell.label.superview === cell.contentView && cell.contentView.superview === cell)
        #expect(cell.badge.isHidden && !(cv.cellForItem(at: IndexPath(row: 0, section: 0)) as! MountainCell).badge.isHidden)
        // Rows are items.
        #expect(IndexPath(row: 2, section: 1) == IndexPath(item: 2, section: 1))
        #expect(IndexPath(item: 2, section: 1).row == 2)
        // Headers too are made with init(frame:).
        let header = try #require(cv.supplementaryView(forElementKind: MountainsViewController.sectionHeaderElementKind, at: IndexPath(row: 0, section: 1)) as? TitleSupplementaryView)
        #expect(header.label.text == "Range 1" && header.label.superview === header)
    }

    @Test func aPinnedHeaderKeepsItsOwnZIndex() {
        let app = shown(MountainsViewController())
        let cv = app.collectionView!
        cv.contentOffset = CGPoint(x: 0, y: 60)
        cv.layoutIfNeeded()
        let header = cv.collectionViewLayout.layoutAttributesForSupplementaryView(ofKind: MountainsViewController.sectionHeaderElementKind,
                                                                                 at: IndexPath(row: 0, section: 0))
        #expect(header?.zIndex == 2)
        #expect(header?.frame.minY == 60)   // pinned to the top of the visible bounds
    }

    @Test func aHiddenCellIsHiddenInWhatIsMirrored() throws {
        let app = shown(MountainsViewController())
        let cell = try #require(app.collectionView.cellForItem(at: IndexPath(row: 0, section: 0)))
        let before = cell.revision
        #expect(cell.appliedPlacement?.isHidden == false)
        cell.isHidden = true
        #expect(cell.appliedPlacement?.isHidden == true && cell.revision > before)
    }

    @Test func theCustomListCellIsConfiguredFromItsState() throws {
        let app = shown(TrailsViewController())
        let cv = app.collectionView!
        let path = IndexPath(row: 0, section: 0)
        let cell = try #require(cv.cellForItem(at: path) as? CustomTrailCell)
        // Configured once, after the registration's handler set the trail.
        #expect(cell.updates.count == 1)
        #expect(cell.content["text"] == "Tour du Mont Blanc" && cell.content["secondaryText"] == "170 km")
        #expect(cell.content["image"] == "system:mountain.2")
        #expect(cell.difficultyText == "Hard" && cell.difficultyColor == .secondaryLabel)
        // The list content view inside it is UIKit's ListContentView.
        #expect(cell.contentView.subviews.first is ListContentView)
        // Selection is a new state: the cell updates with it.
        cv.selectItem(at: path, animated: false, scrollPosition: [])
        #expect(cell.updates.count == 2 && cell.updates.last?.isSelected == true)
        #expect(cell.difficultyColor == .white)
        // Outline disclosure: drawn collapsed until the state says expanded.
        #expect(cell.content["accessories"] == "outlineDisclosure:collapsed!")
        // The same trail again changes nothing; setNeedsUpdateConfiguration updates once.
        cell.setNeedsUpdateConfiguration()
        #expect(cell.updates.count == 3)
    }

    @Test func accessoriesShowInTheirEditingStates() throws {
        let app = shown(TrailsViewController())
        let cv = app.collectionView!
        let first = try #require(cv.cellForItem(at: IndexPath(row: 1, section: 0)) as? CollectionViewListCell)
        let second = try #require(cv.cellForItem(at: IndexPath(row: 0, section: 1)) as? CollectionViewListCell)
        #expect(first.accessories.count == 6)
        // Each page shows those of its viewer's editing mode: marked "@editing" or
        // "@notEditing" when shown in one mode only, "!" when they have a handler (the page
        // sends `accessory` for them); the checkmark hidden by its options past row 0.
        #expect(first.content["accessories"] == "disclosureIndicator@notEditing delete!@editing insert!@editing reorder@editing custom@notEditing")
        #expect(second.content["accessories"] == "disclosureIndicator@notEditing checkmark delete!@editing insert!@editing reorder@editing custom@notEditing")
        // The cell's own state follows its collection view's editing.
        cv.isEditing = true
        #expect(first.configurationState.isEditing)
        // The arguments are kept with the accessory.
        let delete = try #require(first.accessories.first { $0.name == "delete" })
        #expect(delete.displayed == .whenEditing)
        delete.actionHandler?()
        first.accessories.first { $0.name == "insert" }?.actionHandler?()
        #expect(app.requests.all == ["delete Haute Route", "insert Haute Route"])
        let custom = try #require(first.accessories.last?.customViewConfiguration)
        #expect(custom.customView is Label && custom.reservedLayoutWidth == .actual)
    }

    @Test func theConfigurationUpdateHandlerFollowsTheState() throws {
        let app = shown(TrailsViewController())
        let cv = app.collectionView!
        let path = IndexPath(row: 2, section: 0)
        let cell = try #require(cv.cellForItem(at: path) as? CollectionViewListCell)
        // The handler's value cell replaced the registration's subtitle configuration.
        #expect(cell.content["text"] == "Eiger Trail" && cell.content["secondaryText"] == "6 km")
        #expect(cell.content["listStyle"] == "value" && cell.content["image"] == "🥾")
        #expect(cell.configurationState.isSelected == false)
        cv.selectItem(at: path, animated: false, scrollPosition: [])
        #expect(cell.configurationState.isSelected && cell.content["secondaryText"] == "Chosen")
        cv.deselectItem(at: path, animated: false)
        #expect(cell.content["secondaryText"] == "6 km")
        cv.isEditing = true
        #expect(cell.configurationState.isEditing)
    }

    @Test func aCustomContentConfigurationMakesItsViewAndUpdatesForTheState() throws {
        let app = shown(TrailsViewController())
        let cv = app.collectionView!
        let path = IndexPath(row: 1, section: 1)
        let cell = try #require(cv.cellForItem(at: path))
        let view = try #require(cell.contentView.subviews.first as? BadgeContentView)
        #expect(view.imageView.image == Image(systemName: "questionmark"))
        // updated(for:) ran with the cell's state: not selected, blue.
        #expect(view.imageView.tintColor == .systemBlue)
        #expect(cell.content["badge"] == "system:questionmark" && cell.content["tint"] == Color.systemBlue.css)
        cv.selectItem(at: path, animated: false, scrollPosition: [])
        // The same view (it supports the configuration), now white.
        #expect(cell.contentView.subviews.count == 1 && cell.contentView.subviews.first === view)
        #expect(view.imageView.tintColor == .white && cell.content["tint"] == "#ffffff")
    }

    @Test func swipeActionsAreUIKitsClassConfiguredAfterCreation() throws {
        let app = shown(TrailsViewController())
        let cv = app.collectionView!
        let layout = try #require(cv.collectionViewLayout as? CollectionViewCompositionalLayout)
        let path = IndexPath(row: 1, section: 0)
        let configuration = try #require(layout.swipeActionsConfiguration(at: path, trailing: true))
        let star = configuration.actions[1]
        #expect(star.title == nil && star.image == Image(systemName: "star.fill") && star.backgroundColor == .systemBlue)
        #expect(configuration.actions[0].style == .destructive)
        let cell = try #require(cv.cellForItem(at: path))
        var performed: Bool?
        star.handler(star, cell) { performed = $0 }
        #expect(performed == true && app.stars.all == [path])
    }

    @Test func reorderingKeepsTheBackingStoreInStepThroughSectionTransactions() throws {
        let app = shown(TrailsViewController())
        let cv = app.collectionView!
        // Move the Eiger Trail (alps, row 2) to the top of the rockies.
        #expect(cv.beginInteractiveMovementForItem(at: IndexPath(row: 2, section: 0)))
        let target = try #require(cv.layoutAttributesForItem(at: IndexPath(row: 0, section: 1)))
        cv.updateInteractiveMovementTargetPosition(CGPoint(x: target.frame.midX, y: target.frame.minY + 5))
        cv.endInteractiveMovement()
        #expect(app.reordered.sorted() == ["alps", "rockies"])
        #expect(app.backingStore[.alps]?.map(\.title) == ["Tour du Mont Blanc", "Haute Route"])
        #expect(app.backingStore[.rockies]?.map(\.title) == ["Eiger Trail", "Skyline Trail", "Iceline"])
        // The backing store and the data source agree.
        let snapshot = app.dataSource.snapshot()
        for region in TrailsViewController.Region.allCases {
            #expect(snapshot.itemIdentifiers(inSection: region) == app.backingStore[region])
        }
    }

    @Test func aSectionTransactionDescribesItsSection() {
        var before = NSDiffableDataSourceSnapshot<String, Int>()
        before.appendSections(["a", "b", "c"])
        before.appendItems([1, 2, 3], toSection: "a")
        before.appendItems([4], toSection: "b")
        before.appendItems([5, 6], toSection: "c")
        var after = before
        after.moveItem(3, beforeItem: 1)
        let transaction = NSDiffableDataSourceTransaction(initialSnapshot: before, finalSnapshot: after)
        // Only section a changed; its difference turns its old items into its new ones.
        #expect(transaction.sectionTransactions.map(\.sectionIdentifier) == ["a"])
        let a = transaction.sectionTransactions[0]
        #expect(a.initialSnapshot.items == [1, 2, 3] && a.finalSnapshot.items == [3, 1, 2])
        #expect([1, 2, 3].applying(a.difference) == [3, 1, 2])
    }

    @Test func anExpandedOutlineItemIsExpandedInItsCellsState() throws {
        let layout = CollectionViewCompositionalLayout.list(using: CollectionLayoutListConfiguration(appearance: .sidebar))
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 600), collectionViewLayout: layout)
        let registration = CollectionView.CellRegistration<CollectionViewListCell, String> { cell, indexPath, item in
            var content = cell.defaultContentConfiguration()
            content.text = item
            cell.contentConfiguration = content
            cell.accessories = [.outlineDisclosure()]
        }
        let dataSource = CollectionViewDiffableDataSource<Int, String>(collectionView: cv) { collectionView, indexPath, item in
            collectionView.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: item)
        }
        var outline = NSDiffableDataSourceSectionSnapshot<String>()
        outline.append(["Fruit", "Vegetables"])
        outline.append(["Apple"], to: "Fruit")
        outline.append(["Leek"], to: "Vegetables")
        outline.expand(["Fruit"])
        dataSource.apply(outline, to: 0, animatingDifferences: false)
        cv.layoutIfNeeded()
        let fruit = try #require(cv.cellForItem(at: IndexPath(row: 0, section: 0)))
        let vegetables = try #require(cv.cellForItem(at: IndexPath(row: 2, section: 0)))
        #expect(fruit.content["text"] == "Fruit" && fruit.configurationState.isExpanded)
        #expect(fruit.content["accessories"] == "outlineDisclosure:expanded")
        #expect(vegetables.content["text"] == "Vegetables" && !vegetables.configurationState.isExpanded)
        #expect(vegetables.content["accessories"] == "outlineDisclosure:collapsed")
    }
}
