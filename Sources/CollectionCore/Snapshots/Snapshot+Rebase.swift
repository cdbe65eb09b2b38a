/// The snapshot a snapshot was taken as, and when: a live data source stamps the
/// snapshots it hands out with it, so that one applied later, after others changed
/// the collection, brings only its own changes (see ``NSDiffableDataSourceSnapshot/rebased(from:onto:)``).
package final class SnapshotBasis<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: Sendable {
    /// The snapshot as it was handed out.
    package let snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// The version of the collection it was taken at.
    package let version: Int

    package init(_ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>, version: Int) {
        var plain = snapshot
        plain.basis = nil
        self.snapshot = plain
        self.version = version
    }
}

extension NSDiffableDataSourceSnapshot {
    /// The changes that turn `base` into this snapshot, made on `current` (the
    /// collection as it is now, which others changed since `base` was taken): a
    /// three-way merge by identifier, so that what others did meanwhile is not
    /// undone by a snapshot taken before it.
    ///
    /// - Sections and items this snapshot deleted go (if still there); those it
    ///   added come in after the nearest one before them here that `current` holds.
    /// - Sections and items it moved (out of the longest run whose order it kept,
    ///   or into another section) go where they are here, after that same neighbour.
    /// - Everything else stays where `current` has it: moved by others, inserted by
    ///   others, deleted by others (an item deleted meanwhile that this snapshot
    ///   moved stays deleted).
    ///
    /// The reload and reconfigure marks of this snapshot are kept, for what is left.
    package func rebased(from base: Self, onto current: Self) -> Self {
        // Nothing changed meanwhile: this snapshot is the answer.
        if current == base {
            var same = self
            same.basis = nil
            return same
        }
        var result = current
        result.basis = nil
        // Sections.
        let baseSections = Set(base.sectionIdentifiers)
        let ownSections = Set(sectionIdentifiers)
        let goneSections = base.sectionIdentifiers.filter { !ownSections.contains($0) && result.indexOfSection($0) != nil }
        if !goneSections.isEmpty { result.deleteSections(goneSections) }
        let keptSectionOrder = Self.longestKeptOrder(of: sectionIdentifiers.filter { baseSections.contains($0) }, in: base.sectionIdentifiers)
        for (i, section) in sectionIdentifiers.enumerated() where !keptSectionOrder.contains(section) {
            let present = result.indexOfSection(section) != nil
            // Moved here, but deleted meanwhile by another: it stays deleted.
            guard present || !baseSections.contains(section) else { continue }
            let carried = present ? result.itemIdentifiers(inSection: section) : []
            if present { result.deleteSections([section]) }
            let before = sectionIdentifiers[..<i].last { result.indexOfSection($0) != nil }
            result.insertSections([section], at: before.flatMap { result.indexOfSection($0) }.map { $0 + 1 } ?? 0)
            if !carried.isEmpty { result.appendItems(carried, toSection: section) }
        }
        // Items.
        let ownItems = Set(itemSection.keys)
        let goneItems = base.itemIdentifiers.filter { !ownItems.contains($0) && result.contains(item: $0) }
        if !goneItems.isEmpty { result.deleteItems(goneItems) }
        for (s, section) in sectionIdentifiers.enumerated() where result.indexOfSection(section) != nil {
            let mine = items[s]
            let before = base.itemIdentifiers(inSection: section)
            let beforeSet = Set(before)
            let kept = Self.longestKeptOrder(of: mine.filter { beforeSet.contains($0) }, in: before)
            for (i, item) in mine.enumerated() where !kept.contains(item) {
                let present = result.contains(item: item)
                // Moved here, but deleted meanwhile by another: it stays deleted.
                guard present || !base.contains(item: item) else { continue }
                if present { result.deleteItems([item]) }
                let after = mine[..<i].last { result.sectionIdentifier(containingItem: $0) == section }
                result.insertItems([item], at: after.flatMap { result.indexInSection(of: $0) }.map { $0 + 1 } ?? 0, inSection: section)
            }
        }
        result.reloadedItemIdentifiers = reloadedItemIdentifiers.filter { result.contains(item: $0) }
        result.reconfiguredItemIdentifiers = reconfiguredItemIdentifiers.filter { result.contains(item: $0) }
        result.reloadedSectionIdentifiers = reloadedSectionIdentifiers.filter { result.indexOfSection($0) != nil }
        return result
    }

    /// The elements of `sequence` (all found in `order`) that form the longest run
    /// keeping their order in `order`: the ones that were not moved.
    package static func longestKeptOrder<T: Hashable>(of sequence: [T], in order: [T]) -> Set<T> {
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        return Set(longestIncreasingSubsequence(sequence.map { position[$0] ?? 0 }).map { sequence[$0] })
    }
}
