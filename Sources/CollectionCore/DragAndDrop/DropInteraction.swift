import Foundation

/// What a drop would do (UIKit's `UIDropOperation`).
public enum DropOperation: String, Sendable, Equatable {
    /// The drop is not possible here; nothing is shown.
    case cancel
    /// The drop is understood but not allowed here (the cursor says so).
    case forbidden
    /// The dropped data is copied.
    case copy
    /// The dropped items move (from where they were dragged).
    case move
}

/// A drop delegate's answer while a drop hovers (UIKit's `UICollectionViewDropProposal`).
public struct CollectionViewDropProposal: Sendable, Equatable {
    /// Where the dropped items go relative to the destination index path.
    public enum Intent: String, Sendable, Equatable {
        /// No preference: the collection view inserts at the destination index path.
        case unspecified
        /// Insert at the destination index path, the others making room.
        case insertAtDestinationIndexPath
        /// Put the items into the item at the destination index path (a folder, say).
        case insertIntoDestinationIndexPath
    }

    /// What the drop does.
    public var operation: DropOperation
    /// Where it goes.
    public var intent: Intent

    /// Creates a proposal (UIKit's `init(operation:intent:)`).
    /// - Parameters:
    ///   - operation: What the drop does.
    ///   - intent: Where the items go relative to the destination.
    public init(operation: DropOperation, intent: Intent = .unspecified) {
        self.operation = operation
        self.intent = intent
    }
}

/// One thing being dragged (UIKit's `UIDragItem`): an item of a collection on this
/// server (`localObject` is its identifier), or external data (text, a URL, a file).
public struct DragItem: Sendable, Equatable {
    /// The identifier of the dragged item, for a drag that started in a collection here.
    public var localObject: String?
    /// The collection the local item comes from.
    public var sourceCollection: String?
    /// The content fields of the local item.
    public var content: [String: String]
    /// For external data: "text", "url" or "file".
    public var kind: String
    /// The text, the URL, or the file's name.
    public var value: String

    /// A local item: `id` from `collection`, with its content fields.
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - collection: Its collection's name.
    ///   - content: Its content fields.
    public init(local id: String, from collection: String, content: [String: String]) {
        localObject = id
        sourceCollection = collection
        self.content = content
        kind = "item"
        value = id
    }

    /// External data of `kind` ("text", "url", "file").
    /// - Parameters:
    ///   - kind: "text", "url" or "file".
    ///   - value: The text, the URL, or the file's name.
    public init(kind: String, value: String) {
        localObject = nil
        sourceCollection = nil
        content = [:]
        self.kind = kind
        self.value = value
    }
}

/// A drop under way over a collection view (UIKit's `UIDropSession`).
public struct DropSession: Sendable, Equatable {
    /// What is dragged.
    public var items: [DragItem]
    /// Where the pointer is, in the collection view's content coordinates.
    public var location: CGPoint
    /// The collection the drag started in, when it started in one here (UIKit's
    /// `localDragSession` is non-nil then).
    public var sourceCollection: String?
    /// Whether the drop may move the items (the source's drag delegate said so);
    /// false: a move proposal copies them.
    public var allowsMoveOperation: Bool

    /// Creates a session.
    /// - Parameters:
    ///   - items: What is dragged.
    ///   - location: The pointer, in content coordinates.
    ///   - sourceCollection: The collection the drag started in, when it started in one here.
    ///   - allowsMoveOperation: Whether the drop may move the items.
    public init(items: [DragItem], location: CGPoint, sourceCollection: String? = nil, allowsMoveOperation: Bool = true) {
        self.items = items
        self.location = location
        self.sourceCollection = sourceCollection
        self.allowsMoveOperation = allowsMoveOperation
    }

    /// The pointer's location in `view`'s content coordinates.
    /// - Parameter view: The collection view dropped on.
    /// - Returns: ``location``.
    public func location(in view: CollectionView) -> CGPoint { location }

    /// True when every item is one of these kinds ("item", "text", "url", "file").
    /// - Parameter kinds: Kinds taken ("item" for an item of a collection here).
    /// - Returns: Whether every item is of one of them.
    public func hasItemsConforming(toKinds kinds: [String]) -> Bool {
        !items.isEmpty && items.allSatisfy { kinds.contains($0.kind) }
    }
}

/// One dropped item (UIKit's `UICollectionViewDropItem`).
public struct CollectionViewDropItem: Sendable, Equatable {
    /// What is dropped.
    public var dragItem: DragItem
    /// Where the item was in this collection view, when the drag started here (nil:
    /// it comes from another collection, or from outside).
    public var sourceIndexPath: IndexPath?
    /// The size of the dragged preview (the browser draws it; zero here).
    public var previewSize: CGSize

    /// Creates a drop item.
    /// - Parameters:
    ///   - dragItem: What is dropped.
    ///   - sourceIndexPath: Where it was in this collection view (nil: elsewhere).
    ///   - previewSize: The size of the dragged preview.
    public init(dragItem: DragItem, sourceIndexPath: IndexPath?, previewSize: CGSize = .zero) {
        self.dragItem = dragItem
        self.sourceIndexPath = sourceIndexPath
        self.previewSize = previewSize
    }
}

/// The animation of an item dropping into place (UIKit's `UIDragAnimating`). The
/// browser animates drops itself, so animations and completions run at once.
public protocol DragAnimating: AnyObject {
    /// Adds animations to run alongside the drop.
    /// - Parameter animations: What to animate.
    func addAnimations(_ animations: @escaping () -> Void)
    /// Adds a completion to run after the drop.
    /// - Parameter completion: Called with the animation's final position (UIKit's `UIViewAnimatingPosition`: 0, the end).
    func addCompletion(_ completion: @escaping (_ finalPosition: Int) -> Void)
}

/// A ``DragAnimating`` that runs what it is given at once.
public final class ImmediateDragAnimation: DragAnimating {
    /// Creates one.
    public init() {}
    public func addAnimations(_ animations: @escaping () -> Void) { animations() }
    public func addCompletion(_ completion: @escaping (_ finalPosition: Int) -> Void) { completion(0) }
}

/// A placeholder shown where a drop goes while its data loads (UIKit's
/// `UICollectionViewDropPlaceholder`): a cell drawn from `reuseIdentifier`'s template.
public final class CollectionViewDropPlaceholder: @unchecked Sendable {
    /// Where the placeholder (and then the item) goes.
    public let insertionIndexPath: IndexPath
    /// The template that draws the placeholder cell.
    public let reuseIdentifier: String
    /// Configures the placeholder cell.
    public var cellUpdateHandler: ((CollectionViewCell) -> Void)?

    /// A placeholder at `insertionIndexPath`, drawn from `reuseIdentifier`.
    /// - Parameters:
    ///   - insertionIndexPath: Where it goes.
    ///   - reuseIdentifier: The template that draws it.
    public init(insertionIndexPath: IndexPath, reuseIdentifier: String) {
        self.insertionIndexPath = insertionIndexPath
        self.reuseIdentifier = reuseIdentifier
    }
}

/// A placeholder dropped into a collection view, waiting for its data (UIKit's
/// `UICollectionViewDropPlaceholderContext`): commit it when the data is there, or
/// delete it. Until then the collection view has uncommitted updates.
public protocol CollectionViewDropPlaceholderContext: AnyObject {
    /// The item the placeholder stands for.
    var dragItem: DragItem { get }
    /// Replaces the placeholder with the real item: `dataSourceUpdates` inserts it into
    /// the data source at the index path given (where the placeholder is now).
    /// False when the placeholder was already committed or deleted.
    /// - Parameter dataSourceUpdates: Inserts the item into the data source at the index path given.
    /// - Returns: Whether the placeholder was committed.
    @discardableResult
    func commitInsertion(dataSourceUpdates: (IndexPath) -> Void) -> Bool
    /// Removes the placeholder: nothing is dropped. False when already resolved.
    /// - Returns: Whether the placeholder was removed.
    @discardableResult
    func deletePlaceholder() -> Bool
    /// Asks for the placeholder cell to be configured again.
    func setNeedsCellUpdate()
}

/// What a drop delegate gets to perform the drop (UIKit's `UICollectionViewDropCoordinator`).
public protocol CollectionViewDropCoordinator: AnyObject {
    /// The dropped items, each with where it was when the drag started here.
    var items: [CollectionViewDropItem] { get }
    /// Where the items go: the insertion index path, or with the insert-into intent,
    /// the item they go into.
    var destinationIndexPath: IndexPath? { get }
    /// The last proposal.
    var proposal: CollectionViewDropProposal { get }
    /// The session.
    var session: DropSession { get }
    /// Animates `dragItem` to the item at `indexPath` (call after updating the data).
    /// - Parameters:
    ///   - dragItem: The dropped item.
    ///   - indexPath: Where it settles.
    /// - Returns: The animation, to add to.
    @discardableResult
    func drop(_ dragItem: DragItem, toItemAt indexPath: IndexPath) -> any DragAnimating
    /// Puts a placeholder where `dragItem` goes, to be committed (or deleted) when its
    /// data is ready: now or later.
    /// - Parameters:
    ///   - dragItem: The dropped item.
    ///   - placeholder: Where the placeholder stands and how it is drawn.
    /// - Returns: The context to commit or delete.
    @discardableResult
    func drop(_ dragItem: DragItem, to placeholder: CollectionViewDropPlaceholder) -> any CollectionViewDropPlaceholderContext
}

/// Handles drops onto a collection view (UIKit's `UICollectionViewDropDelegate`).
public protocol CollectionViewDropDelegate: AnyObject {
    /// Whether the view takes this kind of drop at all (by default: yes).
    /// - Parameters:
    ///   - collectionView: The collection view dropped on.
    ///   - session: The drop.
    /// - Returns: False to refuse it.
    func collectionView(_ collectionView: CollectionView, canHandle session: DropSession) -> Bool
    /// The proposal for the pointer's place: called as the drop hovers.
    /// - Parameters:
    ///   - collectionView: The collection view dropped on.
    ///   - session: The drop.
    ///   - destinationIndexPath: The place under the pointer (nil: none).
    /// - Returns: The proposal.
    func collectionView(_ collectionView: CollectionView, dropSessionDidUpdate session: DropSession,
                        withDestinationIndexPath destinationIndexPath: IndexPath?) -> CollectionViewDropProposal
    /// Performs the drop: the delegate updates its data.
    /// - Parameters:
    ///   - collectionView: The collection view dropped on.
    ///   - coordinator: The dropped items, the destination, and the placeholders.
    func collectionView(_ collectionView: CollectionView, performDropWith coordinator: any CollectionViewDropCoordinator)
}

extension CollectionViewDropDelegate {
    /// Takes every drop.
    public func collectionView(_ collectionView: CollectionView, canHandle session: DropSession) -> Bool { true }
}

/// A proposal resolved for one place: the proposal and its destination.
public struct ResolvedDrop: Sendable, Equatable {
    /// The delegate's proposal (insert-into downgraded to insert-at when no item is under the pointer).
    public var proposal: CollectionViewDropProposal
    /// The insertion index path, or the item dropped into.
    public var destinationIndexPath: IndexPath?
}

extension CollectionViewInteractions {
    /// The index path an item dropped at `point` would be inserted at: before or after
    /// the nearest item (by the reading order of its row), at the start of an empty
    /// section whose header is nearest, or at the end of the last section.
    /// - Parameter point: The pointer, in content coordinates.
    /// - Returns: The insertion index path, or nil for a collection view with no section.
    public func dropDestinationIndexPath(at point: CGPoint) -> IndexPath? {
        let cv = collectionView
        guard cv.numberOfSections > 0 else { return nil }
        let reach: CGFloat = 400
        let probe = CGRect(x: point.x - reach, y: point.y - reach, width: 2 * reach, height: 2 * reach)
        let near = cv.preparedLayout.layoutAttributesForElements(in: probe) ?? []
        guard let destination = DropDestination.indexPath(at: point, near: near, shownFrame: { cv.mirror.shownFrame(of: $0) }, width: cv.bounds.width) else {
            let last = cv.numberOfSections - 1
            return IndexPath(item: cv.numberOfItems(inSection: last), section: last)
        }
        return destination
    }

    /// Asks the drop delegate for its proposal for `session` (UIKit does this as the
    /// drop moves): `.cancel` without a delegate or when it cannot handle the session.
    /// An insert-into proposal names the item under the pointer, or becomes insert-at
    /// when there is none.
    /// - Parameter session: The drop under way.
    /// - Returns: The proposal and its destination.
    public func dropProposal(for session: DropSession) -> ResolvedDrop {
        let cv = collectionView
        let insertion = dropDestinationIndexPath(at: session.location)
        guard let dropDelegate = cv.dropDelegate, dropDelegate.collectionView(cv, canHandle: session) else {
            return ResolvedDrop(proposal: CollectionViewDropProposal(operation: .cancel), destinationIndexPath: insertion)
        }
        var proposal = dropDelegate.collectionView(cv, dropSessionDidUpdate: session, withDestinationIndexPath: insertion)
        if proposal.intent == .insertIntoDestinationIndexPath {
            if let target = cv.indexPathForItem(at: session.location) { return ResolvedDrop(proposal: proposal, destinationIndexPath: target) }
            proposal.intent = .insertAtDestinationIndexPath
        }
        return ResolvedDrop(proposal: proposal, destinationIndexPath: insertion)
    }
}

/// Where an item dropped at a point goes, from the elements near it (pure).
enum DropDestination {
    /// Before or after the nearest shown cell of `near` (at the frame `shownFrame`
    /// gives), by the reading order of its row (a row of several items, in a view
    /// `width` wide, reads left to right; a full-width row top to bottom); at the
    /// start of a section whose header is nearest; nil when none is near.
    static func indexPath(at point: CGPoint, near: [CollectionViewLayoutAttributes], shownFrame: (CollectionViewLayoutAttributes) -> CGRect,
                          width: CGFloat) -> IndexPath? {
        var best: (distance: CGFloat, attributes: CollectionViewLayoutAttributes, frame: CGRect)?
        for a in near where !a.isHidden {
            guard a.representedElementCategory == .cell || a.representedElementKind == CollectionView.elementKindSectionHeader else { continue }
            let f = shownFrame(a)
            let dx = max(f.minX - point.x, 0, point.x - f.maxX), dy = max(f.minY - point.y, 0, point.y - f.maxY)
            let d = dx * dx + dy * dy
            if best == nil || d < best!.distance { best = (d, a, f) }
        }
        guard let (_, nearest, f) = best else { return nil }
        let p = nearest.indexPath
        if nearest.representedElementCategory != .cell { return IndexPath(item: 0, section: p.section) }
        let after: Bool
        if point.y > f.maxY { after = true } else if point.y < f.minY { after = false } else if f.width < width / 2 {
            after = point.x > f.midX
        } else {
            after = point.y > f.midY
        }
        return IndexPath(item: p.item + (after ? 1 : 0), section: p.section)
    }
}
