import CollectionCore
import CollectionProtocol
import Foundation

/// Context menus (UIKit's `collectionView(_:contextMenuConfigurationForItemsAt:point:)`):
/// a viewer's right-click, long press or menu key opens one for its items; the
/// delegate's menu is kept on that viewer's collection view (its
/// `contextMenuInteraction`) until the viewer chooses an action, whose handler runs
/// with this viewer acting, or closes it.
extension CollectionHub {
    /// `contextMenu`: asks the delegate, and answers with the menu (or none).
    func openContextMenu(_ items: [String], at point: Point, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        var paths: [IndexPath] = []
        for item in items {
            guard let p = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
            paths.append(p)
        }
        let cv = viewer.collectionView
        cv.layoutIfNeeded()
        let menu = cv.presentContextMenu(forItemsAt: paths, point: CGPoint(x: point.x, y: point.y))
        return [Outgoing(viewer: viewer.key, message: .contextMenu(items: items, menu: menu.map { Self.entry($0, index: 0) }))]
    }

    /// `contextMenuAction`: runs the chosen action's handler; its changes reach every
    /// viewer as batches.
    func performContextMenuAction(_ path: [Int], viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let cv = viewer.collectionView
        guard let menu = cv.contextMenuInteraction?.presentedMenu else { throw ProtocolError(.noMenu, "no context menu is open; send 'contextMenu' first") }
        guard cv.performContextMenuAction(at: path) != nil else {
            let what = menu.element(at: path).map { $0 is Menu ? "a submenu" : "an action that is disabled or hidden" } ?? "nothing"
            throw ProtocolError(.badMessage, "the context menu has \(what) at \(path); the menu stays open")
        }
        return []
    }

    /// The menu as the client shows it: hidden entries left out.
    static func entry(_ element: MenuElement, index: Int) -> MenuEntry {
        var entry = MenuEntry(index: index, title: element.title, image: element.image)
        if let action = element as? Action {
            var attributes: [String] = []
            if action.attributes.contains(.destructive) { attributes.append("destructive") }
            if action.attributes.contains(.disabled) { attributes.append("disabled") }
            if action.attributes.contains(.keepsMenuPresented) { attributes.append("keepsMenuPresented") }
            entry.attributes = attributes.isEmpty ? nil : attributes
            entry.state = action.state == .off ? nil : action.state.rawValue
        } else if let menu = element as? Menu {
            if menu.options.contains(.displayInline) { entry.inline = true }
            if menu.options.contains(.destructive) { entry.attributes = ["destructive"] }
            entry.children = menu.children.enumerated().compactMap { i, child in
                (child as? Action)?.attributes.contains(.hidden) == true ? nil : Self.entry(child, index: i)
            }
        }
        return entry
    }
}
