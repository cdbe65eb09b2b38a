import Foundation

/// What a collection view that keeps no views displays: the attributes its layout
/// gave for the display rect, and what they were asked of, so that the same question
/// is not asked twice.
package struct ShownAttributes {
    /// Empty.
    package init() {}

    /// The attributes, as the layout last gave them.
    package private(set) var attributes: [CollectionViewLayoutAttributes] = []
    /// What they were asked of: the layout, its ``CollectionViewLayout/queryRevision``
    /// then, and the rect (nil: a layout that cannot tell).
    private var query: (layout: ObjectIdentifier, revision: Int, rect: CGRect)?

    /// Asks `layout` for the attributes in `rect`, unless it would give the same
    /// answers as last time (the items at their index paths may differ).
    package mutating func update(from layout: CollectionViewLayout, in rect: CGRect) {
        let query = layout.queryRevision.map { (layout: ObjectIdentifier(layout), revision: $0, rect: rect) }
        if let query, let last = self.query, query.layout == last.layout && query.revision == last.revision && query.rect == last.rect { return }
        attributes = layout.layoutAttributesForElements(in: rect) ?? []
        self.query = query
    }

    /// Forgets them (the collection view keeps views again).
    package mutating func reset() { self = ShownAttributes() }

    // The readers below are static and take the attributes: a method called on the
    // collection view's stored value copied the whole value out first (a batch's
    // cost for every viewer: callgrind).

    /// The attributes of the item at `indexPath` among `attributes`, if it is shown.
    package static func item(at indexPath: IndexPath, in attributes: [CollectionViewLayoutAttributes]) -> CollectionViewLayoutAttributes? {
        attributes.first { $0.representedElementCategory == .cell && $0.indexPath == indexPath }
    }

    /// The items among `attributes` that `batch` (`mapper`'s) takes away, with their attributes.
    package static func vanished(from attributes: [CollectionViewLayoutAttributes], _ batch: BatchUpdate, _ mapper: IndexPathMapper) -> [IndexPath: CollectionViewLayoutAttributes] {
        var vanished: [IndexPath: CollectionViewLayoutAttributes] = [:]
        guard !batch.deletedItems.isEmpty || !batch.deletedSections.isEmpty else { return vanished }
        for a in attributes where a.representedElementCategory == .cell {
            let p = a.indexPath
            if mapper.map(section: p.section, item: p.item) == nil { vanished[p] = a }
        }
        return vanished
    }

    /// Notes the attributes for a batch's prefetch.
    package mutating func gatherPrefetch(into list: inout PrefetchList) { list.add(&attributes) }
}
