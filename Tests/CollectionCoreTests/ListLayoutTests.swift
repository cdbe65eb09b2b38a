import CollectionCore
import Foundation
import Testing

/// List sections (`CollectionLayoutListConfiguration`, `list(using:)`): frames worked
/// out by hand for each appearance in a 400-point-wide layout, and each row's style.
@Suite struct ListLayoutTests {
    func list(_ appearance: CollectionLayoutListConfiguration.Appearance, header: CollectionLayoutListConfiguration.HeaderMode = .none,
              footer: CollectionLayoutListConfiguration.FooterMode = .none, separators: Bool = true, counts: [Int] = [3, 3]) -> CollectionViewCompositionalLayout {
        var configuration = CollectionLayoutListConfiguration(appearance: appearance)
        configuration.headerMode = header
        configuration.footerMode = footer
        configuration.showsSeparators = separators
        let layout = CollectionViewCompositionalLayout.list(using: configuration)
        layout.prepare(counts: counts, boundsSize: CGSize(width: 400, height: 800))
        return layout
    }

    func row(_ l: CollectionViewLayout, _ item: Int, _ section: Int = 0) -> CGRect? {
        l.layoutAttributesForItem(at: IndexPath(item: item, section: section))?.frame
    }

    func supplementary(_ l: CollectionViewLayout, _ kind: String, _ section: Int) -> CGRect? {
        l.layoutAttributesForSupplementaryView(ofKind: kind, at: IndexPath(item: 0, section: section))?.frame
    }

    func style(_ l: CollectionViewCompositionalLayout, _ item: Int, _ section: Int = 0) -> ListRowStyle? {
        l.listRowStyle(at: IndexPath(item: item, section: section))
    }

    @Test func plainRowsFillTheWidthOneUnderAnother() {
        let l = list(.plain)
        // 44-point rows by estimate, no insets; the second section right under the first.
        #expect(row(l, 0) == CGRect(x: 0, y: 0, width: 400, height: 44))
        #expect(row(l, 2) == CGRect(x: 0, y: 88, width: 400, height: 44))
        #expect(row(l, 0, 1) == CGRect(x: 0, y: 132, width: 400, height: 44))
        #expect(l.collectionViewContentSize == CGSize(width: 400, height: 264))
        #expect(l.selfSizingCells)
        // Separators between rows, none after the last.
        #expect((0..<3).map { style(l, $0)?.separator } == [true, true, false])
        #expect((0..<3).map { style(l, $0)?.position } == [.first, .middle, .last])
        #expect(style(l, 0)?.appearance == .plain && style(l, 0)?.isHeader == false)
    }

    @Test func groupedSectionsHaveAHeaderAndSpaceUnder() {
        let l = list(.grouped, header: .supplementary)
        let header = CollectionView.elementKindSectionHeader
        #expect(supplementary(l, header, 0) == CGRect(x: 0, y: 0, width: 400, height: 38))
        #expect(row(l, 0) == CGRect(x: 0, y: 38, width: 400, height: 44))
        // 38 + 3 × 44 + 20 below: the next section's header at 190.
        #expect(supplementary(l, header, 1) == CGRect(x: 0, y: 190, width: 400, height: 38))
        #expect(row(l, 0, 1) == CGRect(x: 0, y: 228, width: 400, height: 44))
    }

    @Test func insetGroupedRowsAreInsetWithTheirHeaderAndFooter() {
        let l = list(.insetGrouped, header: .supplementary, footer: .supplementary)
        #expect(supplementary(l, CollectionView.elementKindSectionHeader, 0) == CGRect(x: 20, y: 0, width: 360, height: 38))
        #expect(row(l, 0) == CGRect(x: 20, y: 38, width: 360, height: 44))
        #expect(row(l, 2) == CGRect(x: 20, y: 126, width: 360, height: 44))
        // The footer right under the rows; the next section right under it.
        #expect(supplementary(l, CollectionView.elementKindSectionFooter, 0) == CGRect(x: 20, y: 170, width: 360, height: 28))
        #expect(supplementary(l, CollectionView.elementKindSectionHeader, 1) == CGRect(x: 20, y: 198, width: 360, height: 38))
        #expect((0..<3).map { style(l, $0)?.position } == [.first, .middle, .last])
        // Without a header or footer: 20 above and below.
        let bare = list(.insetGrouped, counts: [1, 1])
        #expect(row(bare, 0) == CGRect(x: 20, y: 20, width: 360, height: 44))
        #expect(row(bare, 0, 1) == CGRect(x: 20, y: 104, width: 360, height: 44))
        #expect(style(bare, 0)?.position == .only && style(bare, 0)?.separator == false)
    }

    @Test func sidebarRowsAreInsetAndHaveNoSeparators() {
        let l = list(.sidebar)
        #expect(row(l, 0) == CGRect(x: 10, y: 8, width: 380, height: 44))
        // 8 + 132 + 8, then 8 above the next section's rows.
        #expect(row(l, 0, 1) == CGRect(x: 10, y: 156, width: 380, height: 44))
        #expect((0..<3).allSatisfy { style(l, $0)?.separator == false })
        #expect(list(.plain, separators: false).listRowStyle(at: IndexPath(item: 0, section: 0))?.separator == false)
    }

    @Test func aSidebarPlainSectionsFirstItemIsItsHeader() {
        let l = list(.sidebarPlain, header: .firstItemInSection, counts: [3])
        #expect(row(l, 0) == CGRect(x: 0, y: 0, width: 400, height: 44))
        #expect(supplementary(l, CollectionView.elementKindSectionHeader, 0) == nil)
        #expect(style(l, 0) == ListRowStyle(appearance: .sidebarPlain, position: .only, separator: false, isHeader: true))
        #expect(style(l, 1)?.position == .first && style(l, 2)?.position == .last && style(l, 2)?.isHeader == false)
    }

    @Test func measuredRowsTakeTheirHeight() {
        var configuration = CollectionLayoutListConfiguration(appearance: .plain)
        configuration.showsSeparators = true
        let l = CollectionViewCompositionalLayout.list(using: configuration)
        l.prepare(counts: [3], boundsSize: CGSize(width: 400, height: 800), measured: [IndexPath(item: 1, section: 0): CGSize(width: 400, height: 90)])
        #expect(row(l, 1) == CGRect(x: 0, y: 44, width: 400, height: 90))
        #expect(row(l, 2) == CGRect(x: 0, y: 134, width: 400, height: 44))
    }

    @Test func onlyListSectionsHaveRowStylesAndSwipeActions() {
        let row = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(50))
        var configuration = CollectionLayoutListConfiguration(appearance: .insetGrouped)
        configuration.trailingSwipeActionsConfigurationProvider = { path in
            path.item == 0 ? nil : SwipeActionsConfiguration(actions: [ContextualAction(style: .destructive, title: "Delete") { _, _, done in done(true) }])
        }
        let l = CollectionViewCompositionalLayout { section, environment in
            section == 0 ? NSCollectionLayoutSection(group: .horizontal(layoutSize: row, subitems: [NSCollectionLayoutItem(layoutSize: row)]))
                         : .list(using: configuration, layoutEnvironment: environment)
        }
        l.prepare(counts: [2, 2], boundsSize: CGSize(width: 400, height: 800))
        #expect(l.listRowStyle(at: IndexPath(item: 0, section: 0)) == nil)
        #expect(l.listRowStyle(at: IndexPath(item: 0, section: 1))?.appearance == .insetGrouped)
        #expect(l.swipeActionsConfiguration(at: IndexPath(item: 1, section: 0), trailing: true) == nil)
        #expect(l.swipeActionsConfiguration(at: IndexPath(item: 0, section: 1), trailing: true) == nil)
        let actions = l.swipeActionsConfiguration(at: IndexPath(item: 1, section: 1), trailing: true)?.actions
        #expect(actions?.map(\.title) == ["Delete"] && actions?.first?.style == .destructive)
        #expect(l.swipeActionsConfiguration(at: IndexPath(item: 1, section: 1), trailing: false) == nil)
    }

    @Test func aListCellWritesItsConfigurationAndAccessoriesAsFields() {
        let cell = CollectionViewListCell(reuseIdentifier: CollectionViewListCell.reuseIdentifier)
        var content = cell.defaultContentConfiguration()
        content.text = "Wi-Fi"
        content.secondaryText = "Home"
        content.image = "📶"
        cell.contentConfiguration = content
        cell.accessories = [.outlineDisclosure(isExpanded: true), .disclosureIndicator()]
        cell.indentationLevel = 2
        #expect(cell.content == ["text": "Wi-Fi", "secondaryText": "Home", "image": "📶",
                                 "accessories": "outlineDisclosure:expanded disclosureIndicator", "indentationLevel": "2"])
        cell.prepareForReuse()
        #expect(cell.content.isEmpty)
    }
}
