import CollectionCore
import CollectionProtocol
import Foundation

/// Swipe actions of list rows (UIKit's `trailingSwipeActionsConfigurationProvider`
/// and `leadingSwipeActionsConfigurationProvider`): a viewer swiping a row (or
/// pressing its key) asks which actions it reveals, then performs one. The
/// action's handler is the app's; what it changes reaches every viewer as batches.
extension CollectionHub {
    /// The configuration of `item`'s swipe from an edge, in this viewer's layout.
    private func swipeConfiguration(_ item: String, trailing: Bool, viewer: ViewerConnection) throws(ProtocolError) -> SwipeActionsConfiguration? {
        guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
        viewer.collectionView.layoutIfNeeded()
        return (viewer.collectionView.collectionViewLayout as? CollectionViewCompositionalLayout)?.swipeActionsConfiguration(at: indexPath, trailing: trailing)
    }

    /// `swipeActions`: the actions the swipe reveals (none: the row does not swipe that way).
    func swipeActions(_ item: String, trailing: Bool, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let configuration = try swipeConfiguration(item, trailing: trailing, viewer: viewer)
        let actions = (configuration?.actions ?? []).map { SwipeActionInfo(title: $0.title, style: $0.style.rawValue, color: $0.backgroundColor?.css, image: $0.image?.source) }
        return [Outgoing(viewer: viewer.key, message: .swipeActions(item: item, edge: trailing ? "trailing" : "leading", actions: actions,
                                                                   fullSwipe: configuration?.performsFirstActionWithFullSwipe ?? false))]
    }

    /// `swipeAction`: performs the action at `index` of the swipe (its handler, with
    /// this viewer acting); answered with nothing, the handler's changes are batches.
    func performSwipeAction(_ item: String, trailing: Bool, index: Int, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let actions = try swipeConfiguration(item, trailing: trailing, viewer: viewer)?.actions ?? []
        guard actions.indices.contains(index) else {
            throw ProtocolError(.badMessage, "item '\(item.prefix(80))' has \(actions.count) \(trailing ? "trailing" : "leading") swipe action\(actions.count == 1 ? "" : "s"); there is none at index \(index)")
        }
        let action = actions[index]
        // The view it was chosen from: the row's cell in this viewer's collection view.
        let source: View = model.snapshot.indexPath(for: item).flatMap { viewer.collectionView.cellForItem(at: $0) } ?? View()
        action.handler(action, source) { _ in }
        return []
    }
}
