import Foundation

/// One change of a batch, as a layout sees it in
/// ``CollectionViewLayout/prepare(forCollectionViewUpdates:)`` (UIKit's
/// `UICollectionViewUpdateItem`). A section-wide change has an index path of one index.
public struct CollectionViewUpdateItem: Equatable, Sendable {
    /// What the change does.
    public enum Action: Sendable, Equatable {
        /// Inserted, deleted, reloaded, moved, or nothing (UIKit's `none`).
        case insert, delete, reload, move, none
    }
    /// The index path before the batch (nil for an insert).
    public let indexPathBeforeUpdate: IndexPath?
    /// The index path after the batch (nil for a delete).
    public let indexPathAfterUpdate: IndexPath?
    /// Insert, delete, reload or move.
    public let updateAction: Action

    /// An update item.
    /// - Parameters:
    ///   - before: The index path before the batch (nil for an insert).
    ///   - after: The index path after the batch (nil for a delete).
    ///   - action: What the change does.
    public init(before: IndexPath?, after: IndexPath?, action: Action) {
        indexPathBeforeUpdate = before
        indexPathAfterUpdate = after
        updateAction = action
    }

    /// The update items of a batch, sections first, in UIKit's order: deletes,
    /// inserts, moves, reloads.
    /// - Parameter batch: A batch.
    /// - Returns: Its update items.
    public static func items(of batch: BatchUpdate) -> [CollectionViewUpdateItem] {
        var out: [CollectionViewUpdateItem] = []
        out.reserveCapacity(batch.deletedSections.count + batch.insertedSections.count + batch.movedSections.count
            + batch.deletedItems.count + batch.insertedItems.count + batch.movedItems.count + batch.reloadedItems.count)
        for s in batch.deletedSections { out.append(.init(before: IndexPath(index: s), after: nil, action: .delete)) }
        for s in batch.insertedSections { out.append(.init(before: nil, after: IndexPath(index: s), action: .insert)) }
        for m in batch.movedSections { out.append(.init(before: IndexPath(index: m.from), after: IndexPath(index: m.to), action: .move)) }
        for p in batch.deletedItems { out.append(.init(before: p, after: nil, action: .delete)) }
        for p in batch.insertedItems { out.append(.init(before: nil, after: p, action: .insert)) }
        for m in batch.movedItems { out.append(.init(before: m.from, after: m.to, action: .move)) }
        for p in batch.reloadedItems { out.append(.init(before: p, after: p, action: .reload)) }
        return out
    }
}

/// Where the items a batch inserted start their animation, and where the items it
/// deleted end theirs, as the layout said (its `initialLayoutAttributesForAppearingItem`
/// and `finalLayoutAttributesForDisappearingItem`). Only items displayed before
/// (deleted) or after (inserted) the batch are asked about.
public struct ItemUpdateAnimations: Equatable, Sendable {
    /// Inserted items' first attributes, by index path after the batch.
    public var appearing: [IndexPath: CollectionViewLayoutAttributes] = [:]
    /// Deleted items' last attributes, by index path before the batch.
    public var disappearing: [IndexPath: CollectionViewLayoutAttributes] = [:]
    /// Deleted items' attributes as they were displayed before the batch.
    public var before: [IndexPath: CollectionViewLayoutAttributes] = [:]

    /// None.
    public init() {}

    /// True when nothing appeared or disappeared in the displayed rect.
    public var isEmpty: Bool { appearing.isEmpty && disappearing.isEmpty }
}

extension ItemUpdateAnimations {
    /// Whether `layout` has anything to say of `batch`: the package's own layouts keep
    /// nothing from update items, so a batch that took no displayed item away
    /// (`vanished`) and inserted none (a reorder, a reload) has nothing to ask them,
    /// and its update items (a value per move) need not be made.
    @inline(__always)
    static func asks(_ layout: CollectionViewLayout, about batch: BatchUpdate, vanished: [IndexPath: CollectionViewLayoutAttributes]) -> Bool {
        !(vanished.isEmpty && batch.insertedItems.isEmpty && batch.insertedSections.isEmpty && layout.isPackageLayout)
    }

    /// Asks `layout` (prepared for `batch`'s update items) where the `vanished` items
    /// end and where the inserted ones that are displayed start.
    init(asking layout: CollectionViewLayout, about batch: BatchUpdate, vanished: [IndexPath: CollectionViewLayoutAttributes],
         countsAfter: [Int], displays: (IndexPath) -> Bool) {
        self.init()
        layout.prepare(forCollectionViewUpdates: CollectionViewUpdateItem.items(of: batch))
        before = vanished
        for (p, _) in vanished {
            if let a = layout.finalLayoutAttributesForDisappearingItem(at: p) { disappearing[p] = a }
        }
        var inserted = batch.insertedItems
        for s in batch.insertedSections where s < countsAfter.count {
            for i in 0..<countsAfter[s] { inserted.append(IndexPath(item: i, section: s)) }
        }
        for q in inserted where displays(q) {
            if let a = layout.initialLayoutAttributesForAppearingItem(at: q) { appearing[q] = a }
        }
        layout.finalizeCollectionViewUpdates()
    }
}
