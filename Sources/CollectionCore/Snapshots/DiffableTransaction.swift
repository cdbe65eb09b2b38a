import Foundation

/// What a reorder changed, as UIKit's `NSDiffableDataSourceTransaction`: the
/// snapshots before and after, the difference between their item orders, and the
/// same section by section.
public struct NSDiffableDataSourceTransaction<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: Sendable {
    /// The snapshot before the reorder.
    public let initialSnapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// The snapshot after it.
    public let finalSnapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// The change from the initial item order to the final one (all sections, in
    /// order), with moves inferred.
    public let difference: CollectionDifference<ItemIdentifierType>
    /// One transaction for each section whose items changed, in the final
    /// snapshot's order of sections (then sections that are gone): applying a
    /// section's `difference` to its former items gives its new ones.
    public let sectionTransactions: [NSDiffableDataSourceSectionTransaction<SectionIdentifierType, ItemIdentifierType>]

    /// A transaction from `initialSnapshot` to `finalSnapshot`.
    /// - Parameters:
    ///   - initialSnapshot: The snapshot before.
    ///   - finalSnapshot: The snapshot after.
    public init(initialSnapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
                finalSnapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>) {
        self.initialSnapshot = initialSnapshot
        self.finalSnapshot = finalSnapshot
        difference = finalSnapshot.itemIdentifiers.difference(from: initialSnapshot.itemIdentifiers).inferringMoves()
        var sections = finalSnapshot.sectionIdentifiers
        let present = Set(sections)
        sections += initialSnapshot.sectionIdentifiers.filter { !present.contains($0) }
        sectionTransactions = sections.compactMap { section in
            let before = initialSnapshot.indexOfSection(section) == nil ? [] : initialSnapshot.itemIdentifiers(inSection: section)
            let after = finalSnapshot.indexOfSection(section) == nil ? [] : finalSnapshot.itemIdentifiers(inSection: section)
            guard before != after else { return nil }
            return NSDiffableDataSourceSectionTransaction(sectionIdentifier: section, initialItems: before, finalItems: after)
        }
    }
}

/// What a reorder changed in one section, as UIKit's
/// `NSDiffableDataSourceSectionTransaction`.
public struct NSDiffableDataSourceSectionTransaction<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: Sendable {
    /// The section.
    public let sectionIdentifier: SectionIdentifierType
    /// Its items before the reorder.
    public let initialSnapshot: NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>
    /// Its items after.
    public let finalSnapshot: NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>
    /// The change from its former items to its new ones, with moves inferred.
    public let difference: CollectionDifference<ItemIdentifierType>

    init(sectionIdentifier: SectionIdentifierType, initialItems: [ItemIdentifierType], finalItems: [ItemIdentifierType]) {
        self.sectionIdentifier = sectionIdentifier
        var initial = NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>()
        initial.append(initialItems)
        var final = NSDiffableDataSourceSectionSnapshot<ItemIdentifierType>()
        final.append(finalItems)
        initialSnapshot = initial
        finalSnapshot = final
        difference = finalItems.difference(from: initialItems).inferringMoves()
    }
}
