import CollectionSync

/// The app's say in what viewers do: UIKit's `UICollectionViewDelegate` and the
/// data source's move questions, each with the viewer who caused it. Every method
/// is optional. Methods run while the collection is locked (see ``LiveCollection``).
public protocol LiveCollectionDelegate: AnyObject, Sendable {
    /// May `viewer` select the item? (UIKit's `collectionView(_:shouldSelectItemAt:)`)
    /// - Parameters:
    ///   - collectionView: The collection the viewer watches.
    ///   - indexPath: The item, in the collection as it is now.
    ///   - viewer: Who asks to select it.
    /// - Returns: False to refuse (by default true).
    func collectionView(_ collectionView: LiveCollection, shouldSelectItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool
    /// `viewer` selected the item.
    /// - Parameters:
    ///   - collectionView: The collection the viewer watches.
    ///   - indexPath: The selected item.
    ///   - viewer: Who selected it.
    func collectionView(_ collectionView: LiveCollection, didSelectItemAt indexPath: IndexPath, by viewer: Viewer)
    /// `viewer` deselected the item.
    /// - Parameters:
    ///   - collectionView: The collection the viewer watches.
    ///   - indexPath: The deselected item.
    ///   - viewer: Who deselected it.
    func collectionView(_ collectionView: LiveCollection, didDeselectItemAt indexPath: IndexPath, by viewer: Viewer)
    /// May `viewer` move the item? (the data source's `collectionView(_:canMoveItemAt:)`)
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - indexPath: The item to be moved.
    ///   - viewer: Who would move it.
    /// - Returns: False to refuse the move, which the viewer is told (by default true).
    func collectionView(_ collectionView: LiveCollection, canMoveItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool
    /// `viewer` moved an item (the data source's `collectionView(_:moveItemAt:to:)`);
    /// called after the move committed, when the data source shows it.
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - sourceIndexPath: Where the item was.
    ///   - destinationIndexPath: Where it is now.
    ///   - viewer: Who moved it.
    func collectionView(_ collectionView: LiveCollection, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath, by viewer: Viewer)
    /// Where an item `viewer` drags would land (UIKit's
    /// `collectionView(_:targetIndexPathForMoveOfItemFromOriginalIndexPath:atCurrentIndexPath:toProposedIndexPath:)`).
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - originalIndexPath: Where the item was when the drag began.
    ///   - currentIndexPath: Where it is shown now.
    ///   - proposedIndexPath: Where the viewer's layout would put it.
    ///   - viewer: Who drags it.
    /// - Returns: Where it goes (by default `proposedIndexPath`).
    func collectionView(_ collectionView: LiveCollection, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
                        atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath, by viewer: Viewer) -> IndexPath
    /// `viewer` used a named control (`data-action="…"`) of the item's cell, or of
    /// the page (`indexPath` nil), with the control's payload: an input's `value`
    /// and the control's `data-*` attributes. Like LiveView's `handle_event`.
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - action: The control's `data-action` name.
    ///   - indexPath: The item whose cell holds the control (nil: the page's own).
    ///   - payload: The input's `value` and the control's `data-*` attributes.
    ///   - viewer: Who used it.
    func collectionView(_ collectionView: LiveCollection, performAction action: String, forItemAt indexPath: IndexPath?,
                        payload: [String: String], by viewer: Viewer)
    /// The same, answered: the result goes back to `viewer` alone (an `actionResult`;
    /// `<collection-view>` fires `actionresult`, and says a refusal or failure to the
    /// person). By default it calls ``collectionView(_:performAction:forItemAt:payload:by:)``
    /// and answers ``ActionResult/done(value:)``. Work that takes time (a database write)
    /// answers here with what it knows now and goes on in a `Task`.
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - action: The control's `data-action` name.
    ///   - indexPath: The item whose cell holds the control (nil: the page's own).
    ///   - payload: The input's `value` and the control's `data-*` attributes.
    ///   - viewer: Who used it, and who hears the result.
    /// - Returns: Done (with values for the page), refused or failed, with a reason the person reads.
    func collectionView(_ collectionView: LiveCollection, resultOfAction action: String, forItemAt indexPath: IndexPath?,
                        payload: [String: String], by viewer: Viewer) -> ActionResult
    /// The context menu `viewer` opened (right-click, long press or the menu key) for
    /// `indexPaths` (empty: the background) at `point`, in content coordinates; nil:
    /// none. UIKit's `collectionView(_:contextMenuConfigurationForItemsAt:point:)`.
    /// An action's handler runs when the viewer chooses it, with the collection locked.
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - indexPaths: The items the menu is for (empty: the background).
    ///   - point: Where the viewer asked, in content coordinates.
    ///   - viewer: Who asked.
    /// - Returns: The menu, or nil for none (the default).
    func collectionView(_ collectionView: LiveCollection, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint,
                        by viewer: Viewer) -> ContextMenuConfiguration?
}

extension LiveCollectionDelegate {
    public func collectionView(_ collectionView: LiveCollection, shouldSelectItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool { true }
    public func collectionView(_ collectionView: LiveCollection, didSelectItemAt indexPath: IndexPath, by viewer: Viewer) {}
    public func collectionView(_ collectionView: LiveCollection, didDeselectItemAt indexPath: IndexPath, by viewer: Viewer) {}
    public func collectionView(_ collectionView: LiveCollection, canMoveItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool { true }
    public func collectionView(_ collectionView: LiveCollection, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath, by viewer: Viewer) {}
    public func collectionView(_ collectionView: LiveCollection, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
                               atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath, by viewer: Viewer) -> IndexPath {
        proposedIndexPath
    }
    public func collectionView(_ collectionView: LiveCollection, performAction action: String, forItemAt indexPath: IndexPath?,
                               payload: [String: String], by viewer: Viewer) {}
    public func collectionView(_ collectionView: LiveCollection, resultOfAction action: String, forItemAt indexPath: IndexPath?,
                               payload: [String: String], by viewer: Viewer) -> ActionResult {
        self.collectionView(collectionView, performAction: action, forItemAt: indexPath, payload: payload, by: viewer)
        return .done()
    }
    public func collectionView(_ collectionView: LiveCollection, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint,
                               by viewer: Viewer) -> ContextMenuConfiguration? { nil }
}

/// Per-item and per-section sizes for a flow layout, as UIKit's
/// `UICollectionViewDelegateFlowLayout`: a delegate that adopts this gives every
/// viewer's flow layout its sizes. The defaults return the layout's own properties.
public protocol LiveCollectionDelegateFlowLayout: LiveCollectionDelegate {
    /// The size of one item.
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - collectionViewLayout: The viewer's flow layout asking.
    ///   - indexPath: The item.
    /// - Returns: Its size (by default the layout's `itemSize`).
    func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize
    /// Beyond UIKit: every item size of a section at once, or nil (the default) to be
    /// asked item by item (see ``CollectionViewDelegateFlowLayout``).
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - collectionViewLayout: The viewer's flow layout asking.
    ///   - section: The section's index.
    /// - Returns: One size per item of the section, or nil to be asked item by item.
    func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, sizesForItemsInSection section: Int) -> [CGSize]?
    /// A section's insets.
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - collectionViewLayout: The viewer's flow layout asking.
    ///   - section: The section's index.
    /// - Returns: Its insets (by default the layout's `sectionInset`).
    func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, insetForSectionAt section: Int) -> EdgeInsets
    /// A section's header size.
    /// - Parameters:
    ///   - collectionView: The collection.
    ///   - collectionViewLayout: The viewer's flow layout asking.
    ///   - section: The section's index.
    /// - Returns: The header's size (zero: no header; by default the layout's `headerReferenceSize`).
    func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, referenceSizeForHeaderInSection section: Int) -> CGSize
}

extension LiveCollectionDelegateFlowLayout {
    public func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        (collectionViewLayout as? CollectionViewFlowLayout)?.itemSize ?? .zero
    }
    public func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, sizesForItemsInSection section: Int) -> [CGSize]? {
        nil
    }
    public func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, insetForSectionAt section: Int) -> EdgeInsets {
        (collectionViewLayout as? CollectionViewFlowLayout)?.sectionInset ?? .zero
    }
    public func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, referenceSizeForHeaderInSection section: Int) -> CGSize {
        (collectionViewLayout as? CollectionViewFlowLayout)?.headerReferenceSize ?? .zero
    }
}

/// Forwards every viewer's collection-view callbacks to the app's delegate, with
/// the viewer the hub is handling.
class DelegateBridge: CollectionViewDelegate {
    let target: any LiveCollectionDelegate
    unowned let hub: CollectionHub
    let collection: LiveCollection

    init(target: any LiveCollectionDelegate, hub: CollectionHub, collection: LiveCollection) {
        self.target = target
        self.hub = hub
        self.collection = collection
    }

    /// Installs `delegate` (through a bridge) on `hub` and its app's bridge, or removes the app's delegate.
    static func install(_ delegate: (any LiveCollectionDelegate)?, on hub: CollectionHub, app: AppBridge, for collection: LiveCollection) {
        guard let delegate else {
            hub.delegate = nil
            app.delegate = nil
            return
        }
        let bridge = delegate is any LiveCollectionDelegateFlowLayout
            ? FlowDelegateBridge(target: delegate, hub: hub, collection: collection)
            : DelegateBridge(target: delegate, hub: hub, collection: collection)
        hub.delegate = bridge
        app.delegate = bridge
    }

    // The hub's questions (AppBridge). The app's time in its callbacks is not
    // charged to the viewer (uncharged).

    /// The delegate's `canMoveItemAt`, for the viewer moving (true when none is).
    func canMoveItem(at indexPath: IndexPath) -> Bool {
        guard let viewer = hub.actingViewer else { return true }
        return hub.uncharged { target.collectionView(collection, canMoveItemAt: indexPath, by: viewer) }
    }

    /// The delegate's `moveItemAt`, told of a viewer's move.
    func didMoveItem(from: IndexPath, to: IndexPath) {
        guard let viewer = hub.actingViewer else { return }
        hub.uncharged { target.collectionView(collection, moveItemAt: from, to: to, by: viewer) }
    }

    /// The delegate's answer to a viewer's action.
    func perform(_ action: HubAction) -> HubActionOutcome {
        guard let viewer = hub.actingViewer else { return .refused("no viewer acts") }
        let result = hub.uncharged {
            target.collectionView(collection, resultOfAction: action.name, forItemAt: action.indexPath, payload: action.payload, by: viewer)
        }
        switch result {
        case .done(let value): return .done(value)
        case .refused(let why): return .refused(why)
        case .failed(let why): return .failed(why)
        }
    }

    /// Who acts: the viewer being handled (the server itself never selects).
    var viewer: Viewer { hub.actingViewer ?? .server }

    func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
        hub.uncharged { target.collectionView(collection, shouldSelectItemAt: indexPath, by: viewer) }
    }
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {
        hub.uncharged { target.collectionView(collection, didSelectItemAt: indexPath, by: viewer) }
    }
    func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) {
        hub.uncharged { target.collectionView(collection, didDeselectItemAt: indexPath, by: viewer) }
    }
    func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
                        atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath {
        target.collectionView(collection, targetIndexPathForMoveOfItemFromOriginalIndexPath: originalIndexPath,
                              atCurrentIndexPath: currentIndexPath, toProposedIndexPath: proposedIndexPath, by: viewer)
    }
    func collectionView(_ collectionView: CollectionView, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint) -> ContextMenuConfiguration? {
        target.collectionView(collection, contextMenuConfigurationForItemsAt: indexPaths, point: point, by: viewer)
    }
}

/// A bridge that also gives flow layouts their sizes.
final class FlowDelegateBridge: DelegateBridge, CollectionViewDelegateFlowLayout {
    /// The target as a flow delegate, cast once (the layout asks once per item).
    private let flow: any LiveCollectionDelegateFlowLayout

    override init(target: any LiveCollectionDelegate, hub: CollectionHub, collection: LiveCollection) {
        flow = target as! any LiveCollectionDelegateFlowLayout
        super.init(target: target, hub: hub, collection: collection)
    }

    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        flow.collectionView(collection, layout: collectionViewLayout, sizeForItemAt: indexPath)
    }
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizesForItemsInSection section: Int) -> [CGSize]? {
        flow.collectionView(collection, layout: collectionViewLayout, sizesForItemsInSection: section)
    }
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, insetForSectionAt section: Int) -> EdgeInsets {
        flow.collectionView(collection, layout: collectionViewLayout, insetForSectionAt: section)
    }
    func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, referenceSizeForHeaderInSection section: Int) -> CGSize {
        flow.collectionView(collection, layout: collectionViewLayout, referenceSizeForHeaderInSection: section)
    }
}

/// What came of an action (``LiveCollectionDelegate/collectionView(_:resultOfAction:forItemAt:payload:by:)``),
/// told to the viewer who took it.
public enum ActionResult: Sendable, Equatable {
    /// Done; `value` (string fields) goes back to the page, which may show it.
    case done(value: [String: String] = [:])
    /// The app will not (voting is closed, say): `reason` is told to the person.
    case refused(_ reason: String)
    /// The app could not (its database is down, say): `reason` is told to the person.
    case failed(_ reason: String)
}
