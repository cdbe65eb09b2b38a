import Foundation

/// A drag under way from a collection view (UIKit's `UIDragSession`): what it
/// carries, where the pointer is, and whether it may move what it carries.
public struct DragSession: Sendable, Equatable {
    /// What is dragged, in order (the first from `itemsForBeginning`, more from `itemsForAddingTo`).
    public var items: [DragItem]
    /// Where the pointer is, in the collection view's content coordinates.
    public var location: CGPoint
    /// Whether the drop may move the items (the drag delegate's
    /// `dragSessionAllowsMoveOperation`); false: drops copy them.
    public var allowsMoveOperation: Bool
    /// A value of the app's, kept with the session (UIKit's `localContext`).
    public var localContext: String?

    /// Creates a session.
    public init(items: [DragItem], location: CGPoint, allowsMoveOperation: Bool = true, localContext: String? = nil) {
        self.items = items
        self.location = location
        self.allowsMoveOperation = allowsMoveOperation
        self.localContext = localContext
    }

    /// The pointer's location in `view`'s content coordinates.
    public func location(in view: CollectionView) -> CGPoint { location }
}

/// Decides what a drag out of a collection view carries, as UIKit's
/// `UICollectionViewDragDelegate`.
public protocol CollectionViewDragDelegate: AnyObject {
    /// The items a drag of the item at `indexPath` starts with; none: it is not dragged.
    func collectionView(_ collectionView: CollectionView, itemsForBeginning session: DragSession, at indexPath: IndexPath) -> [DragItem]
    /// Items to add to a drag under way for the item at `indexPath` (by default none).
    func collectionView(_ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint) -> [DragItem]
    /// The drag is about to begin.
    func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession)
    /// The drag ended (dropped or cancelled).
    func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession)
    /// Whether a drop may move the items (by default yes); no: drops copy them.
    func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: DragSession) -> Bool
}

extension CollectionViewDragDelegate {
    public func collectionView(_ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint) -> [DragItem] { [] }
    public func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession) {}
    public func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession) {}
    public func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: DragSession) -> Bool { true }
}

extension CollectionViewInteractions {
    /// Lifts the item at `indexPath` (what UIKit's drag interaction does when a drag
    /// starts): the drag delegate says what the drag carries (nil when it gives
    /// nothing, or dragging is off), is told the session begins, and says whether
    /// it may move. Any drag under way ends first.
    @discardableResult
    public func beginDragSession(at indexPath: IndexPath, location: CGPoint) -> DragSession? {
        let cv = collectionView
        endDragSession()
        guard cv.dragInteractionEnabled, cv.isValid(indexPath), let dragDelegate = cv.dragDelegate else { return nil }
        var session = DragSession(items: [], location: location)
        session.items = dragDelegate.collectionView(cv, itemsForBeginning: session, at: indexPath)
        guard !session.items.isEmpty else { return nil }
        session.allowsMoveOperation = dragDelegate.collectionView(cv, dragSessionAllowsMoveOperation: session)
        dragDelegate.collectionView(cv, dragSessionWillBegin: session)
        cv.activeDragSession = session
        cv.hasActiveDrag = true
        return session
    }

    /// Adds the item at `indexPath` to the drag under way (UIKit's tap on another
    /// item while dragging): the drag delegate's `itemsForAddingTo`. Returns the
    /// items added (none without a drag, or when the delegate adds none).
    @discardableResult
    public func addToDragSession(at indexPath: IndexPath, location: CGPoint) -> [DragItem] {
        let cv = collectionView
        guard var session = cv.activeDragSession, cv.isValid(indexPath), let dragDelegate = cv.dragDelegate else { return [] }
        session.location = location
        let added = dragDelegate.collectionView(cv, itemsForAddingTo: session, at: indexPath, point: location)
        session.items += added
        cv.activeDragSession = session
        return added
    }

    /// Ends the drag under way (dropped or cancelled): the drag delegate's `dragSessionDidEnd`.
    public func endDragSession() {
        let cv = collectionView
        guard let session = cv.activeDragSession else { return }
        cv.activeDragSession = nil
        cv.hasActiveDrag = false
        cv.dragDelegate?.collectionView(cv, dragSessionDidEnd: session)
    }
}
