import CollectionCore
import CollectionProtocol
import Foundation

/// A viewer's selection and focus, made as a user's gestures make them in its
/// collection view: its rules and the delegate decide. Each returns what changed,
/// for the hub to tell everyone.
extension ViewerConnection {
    /// `select`: a tap on `item`; true when its selection changed to `selected`.
    func select(_ item: String, _ selected: Bool) throws(ProtocolError) -> Bool {
        let indexPath = try indexPath(of: item)
        let isSelected = collectionView.indexPathsForSelectedItems?.contains(indexPath) ?? false
        return selected != isSelected && collectionView.interactions.toggleFromUser(indexPath)
    }

    /// `focus`: keyboard focus moves to `item` (nil: leaves the collection); true
    /// when it moved.
    func focus(_ item: String?) throws(ProtocolError) -> Bool {
        let cv = collectionView
        guard let item else {
            guard cv.focusedIndexPath != nil else { return false }
            cv.interactions.resignFocus()
            return true
        }
        let indexPath = try indexPath(of: item)
        guard cv.focusedIndexPath != indexPath else { return false }
        return cv.interactions.focusItem(at: indexPath)
    }

    /// `selectRange`: every item from `from` to `to` in the collection's order (across
    /// sections, at most `limit`) is selected (or deselected) as a user's gesture
    /// would, the delegate having its say for each; with `replace`, the viewer's
    /// other items are deselected. Returns the items deselected by `replace`, and
    /// those of the range that changed.
    func selectRange(from: String, to: String, selected: Bool, replace: Bool, limit: Int) throws(ProtocolError) -> (deselected: [String], changed: [String]) {
        let snapshot = model.snapshot
        let a = try indexPath(of: from), b = try indexPath(of: to)
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
            guard range.count <= limit else {
                throw ProtocolError(.refused, "a range selects at most \(limit) items; from '\(from.prefix(80))' to '\(to.prefix(80))' holds more")
            }
        }
        let cv = collectionView
        let inRange = Set(range)
        var deselected: [String] = []
        if replace && selected {
            for q in cv.indexPathsForSelectedItems ?? [] where !inRange.contains(q) && cv.interactions.toggleFromUser(q) {
                if let id = snapshot.itemIdentifier(at: q) { deselected.append(id) }
            }
        }
        var changed: [String] = []
        let selectedNow = Set(cv.indexPathsForSelectedItems ?? [])
        for q in range where selectedNow.contains(q) != selected && cv.interactions.toggleFromUser(q) {
            if let id = snapshot.itemIdentifier(at: q) { changed.append(id) }
        }
        return (deselected, changed)
    }
}
