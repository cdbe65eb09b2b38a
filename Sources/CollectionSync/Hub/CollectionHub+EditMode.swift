import CollectionCore
import CollectionProtocol
import Foundation

extension CollectionHub {
    /// `editing`: this viewer's collection view enters or leaves editing mode
    /// (`isEditing`). Hub view states allow multiple selection in both modes, so the
    /// selection stays as it is. Only this viewer hears the change.
    func setEditing(_ on: Bool, viewer: ViewerConnection) -> [Outgoing] {
        viewer.collectionView.isEditing = on
        return [Outgoing(viewer: viewer.key, message: .editing(on: on))]
    }

    /// `selectRange`: every item from `from` to `to` in the collection's order (across
    /// sections) is selected (or deselected) as a user's gesture would, the delegate
    /// having its say for each; with `replace`, the viewer's other items are deselected.
    /// Everyone hears one `selections` message per direction.
    func selectRange(from: String, to: String, selected: Bool, replace: Bool, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let snapshot = model.snapshot
        guard let a = snapshot.indexPath(for: from) else { throw ProtocolError(.unknownItem, "no item with id '\(from.prefix(80))'") }
        guard let b = snapshot.indexPath(for: to) else { throw ProtocolError(.unknownItem, "no item with id '\(to.prefix(80))'") }
        let (first, last) = a <= b ? (a, b) : (b, a)
        var range: [IndexPath] = []
        var p = first
        while p <= last {
            if p.item < snapshot.numberOfItems(inSectionAt: p.section) {
                range.append(p)
                p = IndexPath(item: p.item + 1, section: p.section)
            } else {
                p = IndexPath(item: 0, section: p.section + 1)
            }
            guard range.count <= limits.maxRangeSelection else {
                throw ProtocolError(.refused, "a range selects at most \(limits.maxRangeSelection) items; from '\(from.prefix(80))' to '\(to.prefix(80))' holds more")
            }
        }
        let cv = viewer.collectionView
        let inRange = Set(range)
        var deselected: [String] = []
        if replace && selected {
            for q in cv.indexPathsForSelectedItems ?? [] where !inRange.contains(q) && cv.toggleFromUser(q) {
                if let id = snapshot.itemIdentifier(at: q) { deselected.append(id) }
            }
        }
        var changed: [String] = []
        let selectedNow = Set(cv.indexPathsForSelectedItems ?? [])
        for q in range where selectedNow.contains(q) != selected && cv.toggleFromUser(q) {
            if let id = snapshot.itemIdentifier(at: q) { changed.append(id) }
        }
        var out: [Outgoing] = []
        if !deselected.isEmpty { out += broadcast(.selections(viewer: viewer.info.id, items: deselected, selected: false)) }
        if !changed.isEmpty { out += broadcast(.selections(viewer: viewer.info.id, items: changed, selected: selected)) }
        return out
    }
}
