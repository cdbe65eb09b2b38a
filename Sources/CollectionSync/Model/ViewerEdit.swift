import CollectionCore
import CollectionProtocol
import Foundation

/// A viewer's edit (`edit`: insert, delete, shuffle, move, reload, naming items and
/// sections by identifier) made on a copy of the model, or refused with why. Pure:
/// the hub then asks the viewer's data source and delegate whether a move may be
/// made, and commits ``next`` as one numbered batch.
package struct ViewerEdit {
    /// The model after the edit.
    package var next: CollectionModel
    /// Items whose cells are made again (a reload).
    package var reloaded: [String] = []
    /// Items whose content is new (an insert).
    package var inserted: [String] = []
    /// A move's index paths, before and after.
    package var moved: (from: IndexPath, to: IndexPath)?

    /// Makes `action` on `model`. New items come from `factory`, numbered from
    /// `serial` on (which it advances); a shuffle draws from `random`; an insert
    /// past `maxItems` is refused.
    package init(_ action: EditAction, on model: CollectionModel, factory: any ItemFactory, serial: inout Int,
                 random: inout SplitMix64, maxItems: Int) throws(ProtocolError) {
        next = model
        let snapshot = model.snapshot
        switch action {
        case let .insert(section, count):
            try Self.require(section: section, in: snapshot)
            guard snapshot.numberOfItems + count <= maxItems else {
                throw ProtocolError(.refused, "the collection holds \(snapshot.numberOfItems) items; inserting \(count) would pass the limit of \(maxItems)")
            }
            var ids: [String] = []
            for _ in 0..<count {
                let (id, content) = factory.makeItem(serial: serial, section: section)
                serial += 1
                ids.append(id)
                next.itemContent[id] = content
            }
            inserted = ids
            next.snapshot.insertItems(ids, at: 0, inSection: section)
        case let .delete(items):
            try Self.require(items: items, in: snapshot)
            guard Set(items).count == items.count else { throw ProtocolError(.badMessage, "field 'items' names an item twice") }
            next.snapshot.deleteItems(items)
            for id in items { next.itemContent[id] = nil }
        case let .shuffle(section):
            try Self.require(section: section, in: snapshot)
            var ids = snapshot.itemIdentifiers(inSection: section)
            ids.shuffle(using: &random)
            next.snapshot.setItems(ids, inSection: section)
        case let .move(item, section, after):
            try Self.require(items: [item], in: snapshot)
            try Self.require(section: section, in: snapshot)
            if let after {
                try Self.require(items: [after], in: snapshot)
                guard after != item else { throw ProtocolError(.badMessage, "an item cannot move after itself") }
                guard snapshot.sectionIdentifier(containingItem: after) == section else {
                    throw ProtocolError(.badMessage, "item '\(after.prefix(80))' is not in section '\(section.prefix(80))'")
                }
            }
            let from = snapshot.indexPath(for: item)!
            // Moved in place: a move within a section leaves the index of items by
            // section alone (a delete and an insert copied it, the whole collection's).
            if let after {
                next.snapshot.moveItem(item, afterItem: after)
            } else {
                next.snapshot.moveItem(item, to: 0, inSection: section)
            }
            moved = next.snapshot.indexPath(for: item).map { (from, $0) }
        case let .reload(items):
            try Self.require(items: items, in: snapshot)
            for id in Set(items) {
                next.itemContent[id] = factory.reloadedContent(for: id, current: model.itemContent[id] ?? [:], serial: serial)
                serial += 1
            }
            reloaded = Array(Set(items))
        }
    }

    private static func require(section: String, in snapshot: Snapshot<String, String>) throws(ProtocolError) {
        guard snapshot.indexOfSection(section) != nil else { throw ProtocolError(.unknownSection, "no section with id '\(section.prefix(80))'") }
    }

    private static func require(items: [String], in snapshot: Snapshot<String, String>) throws(ProtocolError) {
        if let unknown = items.first(where: { !snapshot.contains(item: $0) }) {
            throw ProtocolError(.unknownItem, "no item with id '\(unknown.prefix(80))'; nothing was changed")
        }
    }
}

extension ViewerEdits {
    /// Why a collection named `collection` that takes these edits from viewers
    /// refuses `action` (`refused`), or nil when it takes it.
    func refusal(of action: EditAction, by collection: String) -> ProtocolError? {
        let (edit, name): (ViewerEdits, String) = switch action {
        case .insert: (.insert, "insert")
        case .delete: (.delete, "delete")
        case .shuffle: (.shuffle, "shuffle")
        case .reload: (.reload, "reload")
        case .move: (.move, "move")
        }
        return contains(edit) ? nil : ProtocolError(.refused, "collection '\(collection)' does not take '\(name)' edits from viewers")
    }
}
