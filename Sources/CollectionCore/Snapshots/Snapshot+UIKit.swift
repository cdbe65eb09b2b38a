import Foundation

/// UIKit's snapshot mutations by neighbour, and the reload/reconfigure marks.
extension NSDiffableDataSourceSnapshot {
    /// Inserts items before `beforeIdentifier`.
    /// - Parameters:
    ///   - identifiers: The new items, in order.
    ///   - beforeIdentifier: The item they go before.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], beforeItem beforeIdentifier: ItemIdentifierType) {
        guard let section = sectionIdentifier(containingItem: beforeIdentifier), let index = indexInSection(of: beforeIdentifier) else {
            fatalError("insertItems(_:beforeItem:): item \(beforeIdentifier) is not in the snapshot")
        }
        insertItems(identifiers, at: index, inSection: section)
    }

    /// Inserts items after `afterIdentifier`.
    /// - Parameters:
    ///   - identifiers: The new items, in order.
    ///   - afterIdentifier: The item they go after.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], afterItem afterIdentifier: ItemIdentifierType) {
        guard let section = sectionIdentifier(containingItem: afterIdentifier), let index = indexInSection(of: afterIdentifier) else {
            fatalError("insertItems(_:afterItem:): item \(afterIdentifier) is not in the snapshot")
        }
        insertItems(identifiers, at: index + 1, inSection: section)
    }

    /// Moves an item just before another (possibly in another section).
    /// - Parameters:
    ///   - identifier: The item moved.
    ///   - toIdentifier: The item it goes before.
    public mutating func moveItem(_ identifier: ItemIdentifierType, beforeItem toIdentifier: ItemIdentifierType) {
        if !(identifier != toIdentifier) { fatalError("moveItem(_:beforeItem:): an item cannot move relative to itself") }
        moveItem(identifier, nextTo: toIdentifier, after: false)
    }

    /// Moves an item just after another (possibly in another section).
    /// - Parameters:
    ///   - identifier: The item moved.
    ///   - toIdentifier: The item it goes after.
    public mutating func moveItem(_ identifier: ItemIdentifierType, afterItem toIdentifier: ItemIdentifierType) {
        if !(identifier != toIdentifier) { fatalError("moveItem(_:afterItem:): an item cannot move relative to itself") }
        moveItem(identifier, nextTo: toIdentifier, after: true)
    }

    /// Empties the snapshot: every item and section, as UIKit does.
    public mutating func deleteAllItems() {
        deleteSections(sectionIdentifiers)
    }

    /// Inserts sections before `toIdentifier`.
    /// - Parameters:
    ///   - identifiers: The new sections, in order.
    ///   - toIdentifier: The section they go before.
    public mutating func insertSections(_ identifiers: [SectionIdentifierType], beforeSection toIdentifier: SectionIdentifierType) {
        guard let index = indexOfSection(toIdentifier) else { fatalError("insertSections: section \(toIdentifier) is not in the snapshot") }
        insertSections(identifiers, at: index)
    }

    /// Inserts sections after `toIdentifier`.
    /// - Parameters:
    ///   - identifiers: The new sections, in order.
    ///   - toIdentifier: The section they go after.
    public mutating func insertSections(_ identifiers: [SectionIdentifierType], afterSection toIdentifier: SectionIdentifierType) {
        guard let index = indexOfSection(toIdentifier) else { fatalError("insertSections: section \(toIdentifier) is not in the snapshot") }
        insertSections(identifiers, at: index + 1)
    }

    /// Moves a section (with its items) before another.
    /// - Parameters:
    ///   - identifier: The section moved, with its items.
    ///   - toIdentifier: The section it goes before.
    public mutating func moveSection(_ identifier: SectionIdentifierType, beforeSection toIdentifier: SectionIdentifierType) {
        let items = itemIdentifiers(inSection: identifier)
        deleteSections([identifier])
        insertSections([identifier], beforeSection: toIdentifier)
        appendItems(items, toSection: identifier)
    }

    /// Moves a section (with its items) after another.
    /// - Parameters:
    ///   - identifier: The section moved, with its items.
    ///   - toIdentifier: The section it goes after.
    public mutating func moveSection(_ identifier: SectionIdentifierType, afterSection toIdentifier: SectionIdentifierType) {
        let items = itemIdentifiers(inSection: identifier)
        deleteSections([identifier])
        insertSections([identifier], afterSection: toIdentifier)
        appendItems(items, toSection: identifier)
    }

    /// Marks items to get fresh cells when applied.
    /// - Parameter identifiers: The items whose cells are made again.
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) {
        for id in identifiers where !contains(item: id) { fatalError("reloadItems: item \(id) is not in the snapshot") }
        reloadedItemIdentifiers += identifiers
    }

    /// Marks items whose existing cells are configured again when applied.
    /// - Parameter identifiers: The items whose cells are configured again.
    public mutating func reconfigureItems(_ identifiers: [ItemIdentifierType]) {
        for id in identifiers where !contains(item: id) { fatalError("reconfigureItems: item \(id) is not in the snapshot") }
        reconfiguredItemIdentifiers += identifiers
    }

    /// Marks sections to reload (every item gets a fresh cell).
    /// - Parameter identifiers: The sections whose items' cells are made again.
    public mutating func reloadSections(_ identifiers: [SectionIdentifierType]) {
        reloadedSectionIdentifiers += identifiers
    }
}
