import CollectionCore
import Foundation
import Testing

/// A delegate with a context menu: Copy, a Share submenu (a hidden and a disabled
/// entry in it) and Delete, which keeps the menu open.
final class MenuDelegate: CollectionViewDelegate {
    var asked: [([IndexPath], CGPoint)] = []
    var ran: [String] = []

    func collectionView(_ collectionView: CollectionView, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint) -> ContextMenuConfiguration? {
        asked.append((indexPaths, point))
        guard !indexPaths.isEmpty else { return nil }
        return ContextMenuConfiguration(identifier: "menu", previewProvider: nil) { _ in
            Menu(title: "\(indexPaths.count) items", children: [
                Action(title: "Copy") { [unowned self] a in ran.append(a.title) },
                Menu(title: "Share", children: [
                    Action(title: "Secret", attributes: .hidden) { [unowned self] a in ran.append(a.title) },
                    Action(title: "Mail", attributes: .disabled) { [unowned self] a in ran.append(a.title) },
                    Action(title: "Link", state: .on) { [unowned self] a in ran.append(a.title) },
                ]),
                Action(title: "Flag", attributes: .keepsMenuPresented) { [unowned self] a in ran.append(a.title) },
            ])
        }
    }
}

@Suite struct ContextMenuTests {
    @Test func theDelegatesMenuIsShownUntilAnActionRuns() throws {
        let (cv, _) = makeCollectionView([items("a", 9)])
        let delegate = MenuDelegate()
        cv.delegate = delegate
        #expect(cv.contextMenuInteraction == nil)
        let menu = try #require(cv.interactions.presentContextMenu(forItemsAt: [ip(1), ip(4)], point: CGPoint(x: 150, y: 40)))
        #expect(delegate.asked.count == 1 && delegate.asked[0].0 == [ip(1), ip(4)] && delegate.asked[0].1 == CGPoint(x: 150, y: 40))
        #expect(menu.title == "2 items" && menu.children.map(\.title) == ["Copy", "Share", "Flag"])
        let interaction = try #require(cv.contextMenuInteraction)
        #expect(interaction.presentedMenu === menu && interaction.presentedIndexPaths == [ip(1), ip(4)])
        #expect(interaction.location(in: cv) == CGPoint(x: 150, y: 40) && interaction.presentedConfiguration?.identifier == "menu")
        #expect(cv.mirror.holdsUserState)
        // A submenu, a hidden or a disabled action, or nothing: nothing runs, the menu stays.
        for path in [[1], [1, 0], [1, 1], [7], [0, 0]] { #expect(cv.interactions.performContextMenuAction(at: path) == nil, "\(path)") }
        #expect(delegate.ran.isEmpty && interaction.presentedMenu != nil)
        // An action that keeps the menu presented, then one that closes it.
        #expect(cv.interactions.performContextMenuAction(at: [2])?.title == "Flag")
        #expect(interaction.presentedMenu != nil)
        #expect(cv.interactions.performContextMenuAction(at: [1, 2])?.title == "Link")
        #expect(delegate.ran == ["Flag", "Link"])
        #expect(interaction.presentedMenu == nil && interaction.presentedIndexPaths.isEmpty && !cv.mirror.holdsUserState)
        #expect(cv.interactions.performContextMenuAction(at: [0]) == nil)
    }

    @Test func noMenuFromTheDelegateClosesTheOpenOne() throws {
        let (cv, _) = makeCollectionView([items("a", 9)])
        let delegate = MenuDelegate()
        cv.delegate = delegate
        try #require(cv.interactions.presentContextMenu(forItemsAt: [ip(0)], point: .zero) != nil)
        #expect(cv.interactions.presentContextMenu(forItemsAt: [], point: CGPoint(x: 5, y: 5)) == nil)
        #expect(cv.contextMenuInteraction?.presentedMenu == nil)
        cv.contextMenuInteraction?.dismissMenu()
        #expect(cv.interactions.performContextMenuAction(at: [0]) == nil && delegate.ran.isEmpty)
    }

    @Test func menuElementsAreFoundByPath() {
        let leaf = Action(title: "Leaf") { _ in }
        let menu = Menu(children: [Action(title: "A") { _ in }, Menu(title: "Sub", options: .displayInline, children: [leaf])])
        #expect(menu.element(at: [1, 0]) === leaf)
        #expect(menu.element(at: [1])?.title == "Sub" && menu.element(at: []) == nil && menu.element(at: [0, 0]) == nil && menu.element(at: [2]) == nil)
    }
}
