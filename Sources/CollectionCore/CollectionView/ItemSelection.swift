import Foundation

/// The items a person selected, highlighted and focused in a collection view. It
/// holds the index paths and keeps them through batches; the collection view marks
/// the cells and tells its delegate.
package struct ItemSelection {
    /// Empty.
    package init() {}

    /// The selected items.
    package var selected: Set<IndexPath> = []
    /// The item pressed and not yet released.
    package var highlighted: IndexPath?
    /// The focused item.
    package var focused: IndexPath?
    /// The last item that had focus (UIKit's `remembersLastFocusedIndexPath`).
    package var lastFocused: IndexPath?

    /// Whether any of it is set.
    @inline(__always) package var isEmpty: Bool { selected.isEmpty && highlighted == nil && focused == nil && lastFocused == nil }

    /// The selected items to deselect so that only one stays (the first).
    package var beyondSingle: [IndexPath] {
        guard selected.count > 1, let keep = selected.min() else { return [] }
        return selected.filter { $0 != keep }
    }

    /// Selection, highlight and focus after a batch (`mapper`'s): each item where it
    /// went, those it took away forgotten. The last focused item stays as it was.
    package mutating func remap(by mapper: IndexPathMapper) {
        if !selected.isEmpty { selected = Set(selected.compactMap { mapper.map($0) }) }
        if highlighted != nil { highlighted = highlighted.flatMap { mapper.map($0) } }
        if focused != nil { focused = focused.flatMap { mapper.map($0) } }
    }

    /// Everything cleared (a reload), the focused item remembered when `remembering`.
    package mutating func reset(remembering: Bool) {
        if remembering { lastFocused = focused ?? lastFocused }
        selected = []
        highlighted = nil
        focused = nil
    }
}
