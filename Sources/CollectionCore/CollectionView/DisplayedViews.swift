import Foundation

/// The views a collection view displays, by element, and what keeps them alive while
/// a display update holds them unretained. It calls no delegate: what leaves the
/// display is handed back to the collection view, which tells its delegate and
/// recycles the views.
package struct DisplayedViews {
    /// Empty.
    package init() {}

    /// The displayed views by element.
    package var table: [ElementKey: CollectionReusableView] = [:]
    /// The table before the last batch, emptied: the next batch fills it instead of
    /// allocating one.
    package private(set) var spare: [ElementKey: CollectionReusableView] = [:]
    /// Marks the views still wanted while the displayed set is brought up to date.
    private var pass = 0
    /// How many display updates are under way (one, or two when self-sizing lays
    /// out again): they hold the displayed views unretained.
    private var updates = 0
    /// Views that left the table while a display update was under way (a delegate or
    /// data source reloading, say), kept alive until it ends: it may still hold them.
    private var kept: [CollectionReusableView] = []

    /// A display update begins.
    package mutating func beginUpdate() { updates += 1 }

    /// A display update ends: the views kept for it go when the last one does.
    package mutating func endUpdate() {
        updates -= 1
        if updates == 0 && !kept.isEmpty { kept = [] }
    }

    /// Keeps every displayed view alive until the display update under way ends, if
    /// one is: called before anything but the update itself takes views out of the table.
    package mutating func keepForUpdate() {
        guard updates > 0 else { return }
        kept.append(contentsOf: table.values)
    }

    /// Empties the table and its spare (a collection view that keeps no views).
    package mutating func removeAll() {
        keepForUpdate()
        table.removeAll()
        spare.removeAll()
    }

    /// Marks the displayed views among `views` (the views of the elements wanted, nil
    /// for those not displayed yet), each once should a layout name an element twice.
    /// Returns how many are marked.
    package mutating func mark(_ views: [Unmanaged<CollectionReusableView>?]) -> Int {
        pass &+= 1
        var found = 0
        for case let view? in views {
            view._withUnsafeGuaranteedRef { view in
                if view.displayPass != pass {
                    view.displayPass = pass
                    found += 1
                }
            }
        }
        return found
    }

    /// Takes the views ``mark(_:)`` did not mark out of the table (`found` of the
    /// table's are marked) and returns them.
    package mutating func removeUnmarked(found: Int) -> [(key: ElementKey, view: CollectionReusableView)] {
        var departed: [(key: ElementKey, view: CollectionReusableView)] = []
        departed.reserveCapacity(max(0, table.count - found))
        for (key, view) in table where view.displayPass != pass { departed.append((key, view)) }
        for d in departed { table.removeValue(forKey: d.key) }
        return departed
    }

    /// What a batch did to the displayed views.
    package struct Remapped {
        /// Views whose element the batch took away, or that are made again.
        package var departed: [(key: ElementKey, view: CollectionReusableView)] = []
        /// Cells to configure again, by their index path after the batch.
        package var reconfigure: [IndexPath: CollectionViewCell] = [:]
        package init() {}
    }

    /// Moves the displayed views to their elements' places after a batch (`mapper`'s):
    /// cells with their items, headers, footers and decorations with their sections.
    /// Other supplementary views (which may belong to an item: a badge) depart, to
    /// be made again; so do views whose element is gone, whose displayed attributes
    /// are added to `vanished`. Cells of `reconfigured` items are named to be configured again.
    package mutating func remap(by mapper: IndexPathMapper, reconfigured: Set<IndexPath>,
                        vanished: inout [IndexPath: CollectionViewLayoutAttributes]) -> Remapped {
        keepForUpdate()
        var result = Remapped()
        var moved: [ElementKey: CollectionReusableView] = [:]
        swap(&moved, &spare)
        moved.reserveCapacity(table.count)
        for (key, view) in table {
            switch key.category {
            case .cell:
                if let q = mapper.map(section: key.section, item: key.item) {
                    moved[ElementKey(cellAt: q.item, inSection: q.section)] = view
                    if !reconfigured.isEmpty, reconfigured.contains(key.indexPath), let cell = view as? CollectionViewCell {
                        result.reconfigure[IndexPath(item: q.item, section: q.section)] = cell
                    }
                } else {
                    vanished[key.indexPath] = view.layoutAttributes
                    result.departed.append((key, view))
                }
            case .supplementaryView where key.isSectionHeaderOrFooter,
                 .decorationView:
                if let s = mapper.section(key.section) {
                    moved[key.at(section: s, item: key.item)] = view
                } else {
                    result.departed.append((key, view))
                }
            case .supplementaryView:
                result.departed.append((key, view))
            }
        }
        // Swapped, not assigned: a copy kept alive to the end of the method made the
        // next change of the table copy the whole dictionary. The table before is
        // kept, emptied, for the next batch.
        swap(&table, &moved)
        moved.removeAll(keepingCapacity: true)
        spare = consume moved
        return result
    }

    /// Moves the displayed cells as `mapper` says, the other views staying (an item
    /// shown at another place while it is moved interactively).
    package mutating func remapCells(by mapper: IndexPathMapper) {
        keepForUpdate()
        var moved: [ElementKey: CollectionReusableView] = [:]
        for (key, view) in table {
            if key.category == .cell, let q = mapper.map(key.indexPath) { moved[.cell(q)] = view } else { moved[key] = view }
        }
        table = moved
    }
}

extension DisplayedViews {
    /// Notes the table and its spare for a batch's prefetch.
    package mutating func gatherPrefetch(into list: inout PrefetchList) {
        list.add(&table)
        list.add(&spare)
    }
}
