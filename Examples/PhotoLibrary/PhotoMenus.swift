import CollectionServer

/// The photos' context menu (UIKit's `contextMenuConfigurationForItemsAt`): a
/// right-click, a long press or the menu key on photos offers Move to Top, Move to
/// an album (a submenu, the photos' own album checked) and Delete.
final class PhotoMenus: LiveCollectionDelegate {
    func collectionView(_ collectionView: LiveCollection, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint,
                        by viewer: Viewer) -> ContextMenuConfiguration? {
        let model = collectionView.model
        let ids = indexPaths.compactMap { model.snapshot.itemIdentifier(at: $0) }
        guard !ids.isEmpty, viewer.user == nil || viewer.roles.contains("editor") else { return nil }
        let albums = Set(ids.compactMap { model.snapshot.sectionIdentifier(containingItem: $0) })
        let title = ids.count == 1 ? model.itemContent[ids[0]]?["title"] ?? ids[0] : "\(ids.count) photos"
        return ContextMenuConfiguration(identifier: ids.joined(separator: " "), previewProvider: nil) { _ in
            let moves = model.snapshot.sectionIdentifiers.map { album in
                Action(title: model.sectionTitles[album] ?? album, state: albums == [album] ? .on : .off) { _ in
                    Self.edit(collectionView, by: viewer) { Self.move(ids, toStartOf: album, in: &$0) }
                }
            }
            return Menu(title: title, children: [
                Action(title: "Move to Top", image: "⤒") { _ in
                    Self.edit(collectionView, by: viewer) { model in
                        for album in albums { Self.move(ids.filter { model.snapshot.sectionIdentifier(containingItem: $0) == album }, toStartOf: album, in: &model) }
                    }
                },
                Menu(title: "Move to Album", options: .singleSelection, children: moves),
                Action(title: "Delete", image: "✕", attributes: .destructive) { _ in
                    Self.edit(collectionView, by: viewer) { model in
                        let present = ids.filter(model.snapshot.contains(item:))
                        model.snapshot.deleteItems(present)
                        for id in present { model.itemContent[id] = nil }
                    }
                },
            ])
        }
    }

    /// Puts `ids` (those still there) at the start of `album`, in their order.
    static func move(_ ids: [String], toStartOf album: String, in model: inout CollectionModel) {
        let present = ids.filter(model.snapshot.contains(item:))
        guard !present.isEmpty, model.snapshot.sectionIdentifiers.contains(album) else { return }
        model.snapshot.deleteItems(present)
        model.snapshot.insertItems(present, at: 0, inSection: album)
    }

    /// Changes the collection after the handler returns (it runs with the collection
    /// locked), as one batch attributed to the viewer who chose the action.
    static func edit(_ collection: LiveCollection, by viewer: Viewer, _ change: @escaping @Sendable (inout CollectionModel) -> Void) {
        Task {
            _ = try? await collection.update(by: viewer) { model in
                change(&model)
                return []
            }
        }
    }
}
