import CollectionCore
import CollectionProtocol
import Foundation

/// Context menus (UIKit's `collectionView(_:contextMenuConfigurationForItemsAt:point:)`):
/// a viewer's right-click, long press or menu key opens one for its items; the
/// delegate's menu is kept on this viewer's collection view (its
/// `contextMenuInteraction`) until the viewer chooses an action, whose handler runs
/// with this viewer acting, or closes it.
extension ViewerConnection {
    /// `contextMenu`: asks the delegate, and answers with the menu (or none).
    func openContextMenu(_ items: [String], at point: Point) throws(ProtocolError) -> [Outgoing] {
        var paths: [IndexPath] = []
        for item in items { paths.append(try indexPath(of: item)) }
        let cv = collectionView
        cv.layoutIfNeeded()
        let menu = cv.interactions.presentContextMenu(forItemsAt: paths, point: CGPoint(x: point.x, y: point.y))
        return [Outgoing(viewer: key, message: .contextMenu(items: items, menu: menu.map { MenuEntry($0, index: 0) }))]
    }

    /// `contextMenuAction`: runs the chosen action's handler; its changes reach every
    /// viewer as batches.
    func performContextMenuAction(_ path: [Int]) throws(ProtocolError) -> [Outgoing] {
        let cv = collectionView
        guard let menu = cv.contextMenuInteraction?.presentedMenu else { throw ProtocolError(.noMenu, "no context menu is open; send 'contextMenu' first") }
        guard cv.interactions.performContextMenuAction(at: path) != nil else {
            let what = menu.element(at: path).map { $0 is Menu ? "a submenu" : "an action that is disabled or hidden" } ?? "nothing"
            throw ProtocolError(.badMessage, "the context menu has \(what) at \(path); the menu stays open")
        }
        return []
    }
}

/// Swipe actions of list rows (UIKit's `trailingSwipeActionsConfigurationProvider`
/// and `leadingSwipeActionsConfigurationProvider`): a viewer swiping a row (or
/// pressing its key) asks which actions it reveals, then performs one. The
/// action's handler is the app's; what it changes reaches every viewer as batches.
extension ViewerConnection {
    /// The configuration of `item`'s swipe from an edge, in this viewer's layout.
    private func swipeConfiguration(_ item: String, trailing: Bool) throws(ProtocolError) -> SwipeActionsConfiguration? {
        let indexPath = try indexPath(of: item)
        collectionView.layoutIfNeeded()
        return (collectionView.collectionViewLayout as? CollectionViewCompositionalLayout)?.swipeActionsConfiguration(at: indexPath, trailing: trailing)
    }

    /// `swipeActions`: the actions the swipe reveals (none: the row does not swipe that way).
    func swipeActions(_ item: String, trailing: Bool) throws(ProtocolError) -> [Outgoing] {
        let configuration = try swipeConfiguration(item, trailing: trailing)
        let actions = (configuration?.actions ?? []).map { SwipeActionInfo(title: $0.title, style: $0.style.rawValue, color: $0.backgroundColor?.css, image: $0.image?.source) }
        return [Outgoing(viewer: key, message: .swipeActions(item: item, edge: trailing ? "trailing" : "leading", actions: actions,
                                                           fullSwipe: configuration?.performsFirstActionWithFullSwipe ?? false))]
    }

    /// `swipeAction`: performs the action at `index` of the swipe (its handler, with
    /// this viewer acting); answered with nothing, the handler's changes are batches.
    func performSwipeAction(_ item: String, trailing: Bool, index: Int) throws(ProtocolError) -> [Outgoing] {
        let actions = try swipeConfiguration(item, trailing: trailing)?.actions ?? []
        guard actions.indices.contains(index) else {
            throw ProtocolError(.badMessage, "item '\(item.prefix(80))' has \(actions.count) \(trailing ? "trailing" : "leading") swipe action\(actions.count == 1 ? "" : "s"); there is none at index \(index)")
        }
        let action = actions[index]
        // The view it was chosen from: the row's cell in this viewer's collection view.
        let source: View = model.snapshot.indexPath(for: item).flatMap { collectionView.cellForItem(at: $0) } ?? View()
        action.handler(action, source) { _ in }
        return []
    }
}

extension MenuEntry {
    /// A menu as the client shows it: hidden entries left out.
    init(_ element: MenuElement, index: Int) {
        self.init(index: index, title: element.title, image: element.image)
        if let action = element as? Action {
            var attributes: [String] = []
            if action.attributes.contains(.destructive) { attributes.append("destructive") }
            if action.attributes.contains(.disabled) { attributes.append("disabled") }
            if action.attributes.contains(.keepsMenuPresented) { attributes.append("keepsMenuPresented") }
            self.attributes = attributes.isEmpty ? nil : attributes
            state = action.state == .off ? nil : action.state.rawValue
        } else if let menu = element as? Menu {
            if menu.options.contains(.displayInline) { inline = true }
            if menu.options.contains(.destructive) { attributes = ["destructive"] }
            children = menu.children.enumerated().compactMap { i, child in
                (child as? Action)?.attributes.contains(.hidden) == true ? nil : MenuEntry(child, index: i)
            }
        }
    }
}
