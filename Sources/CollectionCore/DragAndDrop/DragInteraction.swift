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
    /// - Parameters:
    ///   - items: What is dragged.
    ///   - location: The pointer, in content coordinates.
    ///   - allowsMoveOperation: Whether a drop may move the items.
    ///   - localContext: A value of the app's.
    public init(items: [DragItem], location: CGPoint, allowsMoveOperation: Bool = true, localContext: String? = nil) {
        self.items = items
        self.location = location
        self.allowsMoveOperation = allowsMoveOperation
        self.localContext = localContext
    }

    /// The pointer's location in `view`'s content coordinates.
    /// - Parameter view: A collection view (not used: the location is in the content coordinates of the one dragged from).
    /// - Returns: ``location``.
    public func location(in view: CollectionView) -> CGPoint { location }
}

/// Decides what a drag out of a collection view carries, as UIKit's
/// `UICollectionViewDragDelegate`.
public protocol CollectionViewDragDelegate: AnyObject {
    /// The items a drag of the item at `indexPath` starts with; none: it is not dragged.
    /// - Parameters:
    ///   - collectionView: The collection view dragged from.
    ///   - session: The session about to begin (no items yet).
    ///   - indexPath: The item lifted.
    /// - Returns: What the drag carries.
    func collectionView(_ collectionView: CollectionView, itemsForBeginning session: DragSession, at indexPath: IndexPath) -> [DragItem]
    /// Items to add to a drag under way for the item at `indexPath` (by default none).
    /// - Parameters:
    ///   - collectionView: The collection view dragged from.
    ///   - session: The drag under way.
    ///   - indexPath: The item tapped.
    ///   - point: Where, in content coordinates.
    /// - Returns: What the drag carries more.
    func collectionView(_ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint) -> [DragItem]
    /// The drag is about to begin.
    /// - Parameters:
    ///   - collectionView: The collection view dragged from.
    ///   - session: The drag.
    func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession)
    /// The drag ended (dropped or cancelled).
    /// - Parameters:
    ///   - collectionView: The collection view dragged from.
    ///   - session: The drag.
    func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession)
    /// Whether a drop may move the items (by default yes); no: drops copy them.
    /// - Parameters:
    ///   - collectionView: The collection view dragged from.
    ///   - session: The drag.
    /// - Returns: False to make drops copy.
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
    /// - Parameters:
    ///   - indexPath: The item lifted.
    ///   - location: The pointer, in content coordinates.
    /// - Returns: The session, or nil when nothing is dragged.
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
    /// - Parameters:
    ///   - indexPath: The item added.
    ///   - location: The pointer, in content coordinates.
    /// - Returns: The items added.
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
