import CollectionCore
import Foundation

/// A ready-made drop delegate for a hub's model, configured rather than written:
/// items dragged from a collection of the group move (insert-at); external data
/// of the accepted kinds is copied in as new items; items whose `kind` field is
/// `"folder"` take drops into them (insert-into: the folder's `count` grows and a
/// moved item leaves its collection); a folder cannot go into a folder (forbidden).
public final class ModelDropDelegate: CollectionViewDropDelegate {
    /// External kinds taken ("text", "url", "file"); others are cancelled.
    public var acceptedKinds: Set<String>
    /// Whether items may be dropped into folders.
    public var foldersTakeDrops: Bool
    /// The content of a new item made from external data (given the data source's fresh item).
    public var contentForExternal: @Sendable (DragItem, [String: String]) -> [String: String]

    /// Creates the delegate.
    /// - Parameters:
    ///   - acceptedKinds: The external kinds taken ("text", "url", "file").
    ///   - foldersTakeDrops: Whether items may be dropped into folders.
    ///   - contentForExternal: The content of a new item made from external data.
    public init(acceptedKinds: Set<String> = ["text", "url", "file"], foldersTakeDrops: Bool = true,
                contentForExternal: @escaping @Sendable (DragItem, [String: String]) -> [String: String] = ModelDropDelegate.titled) {
        self.acceptedKinds = acceptedKinds
        self.foldersTakeDrops = foldersTakeDrops
        self.contentForExternal = contentForExternal
    }

    /// The default content for external data: the fresh item, titled by the data
    /// (the text's first line, the URL's host and path, the file's name), the whole
    /// text as its `note` when longer, and its `kind`.
    public static let titled: @Sendable (DragItem, [String: String]) -> [String: String] = { item, fresh in
        var content = fresh
        let value = item.value.trimmingCharacters(in: .whitespacesAndNewlines)
        var title = String(value.split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
        if item.kind == "url", let url = URL(string: value), let host = url.host {
            title = host + (url.path == "/" ? "" : url.path)
        }
        if title.count > 60 { title = String(title.prefix(59)) + "…" }
        content["title"] = title.isEmpty ? "Untitled \(item.kind)" : title
        if value.count > title.count || item.kind == "url" { content["note"] = String(value.prefix(500)) }
        content["kind"] = item.kind
        return content
    }

    public func collectionView(_ collectionView: CollectionView, canHandle session: DropSession) -> Bool {
        session.hasItemsConforming(toKinds: ["item"] + acceptedKinds.sorted())
    }

    public func collectionView(_ collectionView: CollectionView, dropSessionDidUpdate session: DropSession,
                               withDestinationIndexPath destinationIndexPath: IndexPath?) -> CollectionViewDropProposal {
        let operation: DropOperation = session.sourceCollection != nil ? .move : .copy
        // The hub's data source reads the shared model: what is under the pointer.
        let model = (collectionView.dataSource as? ModelDataSource)?.store.model
        if foldersTakeDrops, let model, let over = collectionView.indexPathForItem(at: session.location(in: collectionView)),
           let overID = model.snapshot.itemIdentifier(at: over), model.itemContent[overID]?["kind"] == "folder" {
            if session.items.contains(where: { $0.content["kind"] == "folder" }) { return .init(operation: .forbidden, intent: .insertIntoDestinationIndexPath) }
            return .init(operation: operation, intent: .insertIntoDestinationIndexPath)
        }
        return .init(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    public func collectionView(_ collectionView: CollectionView, performDropWith coordinator: any CollectionViewDropCoordinator) {
        guard let coordinator = coordinator as? ModelDropCoordinator, let destination = coordinator.destinationIndexPath else { return }
        if coordinator.proposal.intent == .insertIntoDestinationIndexPath {
            guard let folder = coordinator.model.snapshot.itemIdentifier(at: destination) else { return }
            let count = Int(coordinator.model.itemContent[folder]?["count"] ?? "0") ?? 0
            coordinator.model.itemContent[folder]?["count"] = String(count + coordinator.items.count)
            coordinator.reloadedItems.insert(folder)
            if coordinator.proposal.operation == .move {
                for item in coordinator.items.map(\.dragItem) where coordinator.isFromThisCollection(item) { coordinator.removeItem(item.localObject!) }
            }
            return
        }
        let external = contentForExternal
        coordinator.insertItems(at: destination) { item, fresh in item.localObject == nil ? external(item, fresh) : item.content }
    }
}
