import CollectionCore
import CollectionProtocol
import Foundation

/// One connection: who it is, whether it said hello, what it is moving, and the
/// view state it sees the collection through (its own, or shared with viewers that
/// see exactly the same).
package final class ViewerConnection {
    /// Bytes of a viewer's record a batch reads first (its key, state and readiness).
    static let prefetchBytes = 128

    package let key: UInt64
    package var info: ViewerInfo
    var state: ViewState
    package var ready = false
    /// What the collection's permissions let this viewer do (set at its hello).
    var permissions: ViewerPermissions = .all
    /// The item this viewer is moving interactively, if any.
    var movement: ViewerMovement?
    /// The id of this viewer's drag out of the collection, if one is under way.
    var dragSession: String?
    /// How many of the hub's pending presence events this viewer's welcome already
    /// covered (see `CollectionHub.endTurn()`).
    var presenceMark = 0

    /// What this viewer may still ask (rates, bytes, the server's time).
    var budget: ClientBudget

    init(key: UInt64, info: ViewerInfo, store: SharedModel, budget: ClientBudget) {
        self.key = key
        self.info = info
        self.budget = budget
        state = ViewState(store: store)
        state.members = 1
    }

    package var collectionView: CollectionView { state.collectionView }
    var layoutName: String {
        get { state.layoutName }
        set { state.layoutName = newValue }
    }
    package var window: [String: Element] {
        get { state.window }
        set { state.window = newValue }
    }
    var contentSize: Size { state.contentSize }
    /// The sections that scroll on their own, for messages (nil: none).
    var bands: [Band]? { state.bands() }

    package func show(viewport: Size?, offset: Point, policy: LayoutPolicy) { state.show(viewport: viewport, offset: offset, policy: policy) }
    func switchLayout(to name: String, policy: LayoutPolicy) { state.switchLayout(to: name, policy: policy) }
    func selection(in model: CollectionModel) -> Set<String> { state.selection(in: model) }
    func refreshWindow(force: Bool = false) -> (changed: [Element], removed: [String]) {
        state.refreshWindow(force: force)
    }
    func updatePoses(deletedIds: [IndexPath: String]) -> (appear: [Pose]?, disappear: [Pose]?) {
        state.updatePoses(deletedIds: deletedIds)
    }
}
