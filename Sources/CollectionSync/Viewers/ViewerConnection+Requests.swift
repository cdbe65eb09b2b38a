import CollectionCore
import CollectionProtocol
import Foundation

extension ViewerConnection {
    /// Answers a message that concerns this viewer's own view alone (scrolling,
    /// edit mode, a transition of its layout, measured sizes, context menus and
    /// swipe actions): the answer goes to this viewer, and nothing of the
    /// collection changes but what an app's handler (a menu's or a swipe's action)
    /// changes through its own batches. Any other message is the hub's: [].
    func answer(_ message: ClientMessage, policy: LayoutPolicy) throws(ProtocolError) -> [Outgoing] {
        switch message {
        case let .scroll(offset, viewport, sectionOffsets):
            return try scroll(to: offset, viewport: viewport, sectionOffsets: sectionOffsets, policy: policy)
        case let .scrollToItem(item, position):
            return try scroll(toItem: item, at: position)
        case .editing(let on):
            return setEditing(on)
        case .transitionBegin(let name):
            return try beginTransition(to: name, policy: policy)
        case .transitionUpdate(let progress):
            return try updateTransition(progress)
        case .transitionEnd(let finish):
            return try endTransition(finish: finish)
        case .measure(let sizes):
            return try measure(sizes)
        case let .swipeActions(item, trailing):
            return try swipeActions(item, trailing: trailing)
        case let .swipeAction(item, trailing, index):
            return try performSwipeAction(item, trailing: trailing, index: index)
        case let .contextMenu(items, at):
            return try openContextMenu(items, at: at)
        case .contextMenuAction(let path):
            return try performContextMenuAction(path)
        case .contextMenuEnd:
            collectionView.contextMenuInteraction?.dismissMenu()
            return []
        default:
            return []
        }
    }
}
