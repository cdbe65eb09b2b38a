import CollectionCore
import Foundation
import Testing

/// UIKit's separator configuration (`separatorConfiguration`, `itemSeparatorHandler`)
/// and `headerTopPadding`, on a 400-point-wide plain list of sections of three rows.
@Suite struct ListSeparatorTests {
    func layout(_ configure: (inout CollectionLayoutListConfiguration) -> Void) -> CollectionViewCompositionalLayout {
        var configuration = CollectionLayoutListConfiguration(appearance: .plain)
        configure(&configuration)
        let layout = CollectionViewCompositionalLayout.list(using: configuration)
        layout.prepare(counts: [3, 3], boundsSize: CGSize(width: 400, height: 800))
        return layout
    }

    func separators(_ l: CollectionViewCompositionalLayout, _ item: Int, _ section: Int = 0) -> ListRowSeparators? {
        l.listRowStyle(at: IndexPath(item: item, section: section))?.separators
    }

    @Test func theConfigurationsVisibilityInsetsAndColourReachEachRow() {
        let insets = NSDirectionalEdgeInsets(top: 0, leading: 60, bottom: 0, trailing: 8)
        let l = layout { c in
            c.separatorConfiguration.bottomSeparatorInsets = insets
            c.separatorConfiguration.color = "#c00"
            c.separatorConfiguration.topSeparatorVisibility = .visible
        }
        // Automatic bottoms: between rows, not after the last; tops where visible.
        #expect((0..<3).map { separators(l, $0)?.bottom } == [true, true, false])
        #expect((0..<3).map { separators(l, $0)?.top } == [true, true, true])
        #expect(separators(l, 0)?.bottomInsets == insets && separators(l, 0)?.color == "#c00")
        #expect(separators(l, 0)?.topInsets == nil)
    }

    @Test func theHandlerChangesOneRowAndVisibleShowsAfterTheLast() {
        let l = layout { c in
            c.separatorConfiguration.bottomSeparatorVisibility = .visible
            c.itemSeparatorHandler = { indexPath, configuration in
                var row = configuration
                if indexPath.item == 1 { row.bottomSeparatorVisibility = .hidden }
                return row
            }
        }
        #expect((0..<3).map { separators(l, $0)?.bottom } == [true, false, true])
        #expect((0..<3).map { separators(l, $0, 1)?.bottom } == [true, false, true])
    }

    @Test func listsWithoutSeparatorsAndSidebarsDrawNoneWhateverTheRowsSay() {
        var sidebar = CollectionLayoutListConfiguration(appearance: .sidebar)
        sidebar.separatorConfiguration.bottomSeparatorVisibility = .visible
        let l = CollectionViewCompositionalLayout.list(using: sidebar)
        l.prepare(counts: [3], boundsSize: CGSize(width: 400, height: 800))
        #expect((0..<3).allSatisfy { separators(l, $0) == ListRowSeparators() })
        let hidden = layout { c in
            c.showsSeparators = false
            c.separatorConfiguration.topSeparatorVisibility = .visible
        }
        #expect((0..<3).allSatisfy { separators(hidden, $0) == ListRowSeparators() })
    }

    @Test func headerTopPaddingLeavesRoomAboveEachHeader() {
        let l = layout { c in
            c.headerMode = .supplementary
            c.headerTopPadding = 12
        }
        // 12 of padding, the 28-point plain header, three 44-point rows; the next section likewise.
        let header = { (s: Int) in l.layoutAttributesForSupplementaryView(ofKind: CollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: s))?.frame }
        #expect(header(0) == CGRect(x: 0, y: 12, width: 400, height: 28))
        #expect(l.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame == CGRect(x: 0, y: 40, width: 400, height: 44))
        #expect(header(1) == CGRect(x: 0, y: 184, width: 400, height: 28))
        #expect(l.collectionViewContentSize.height == 344)
    }
}
