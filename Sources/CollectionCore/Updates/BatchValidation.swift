import Foundation

extension BatchUpdate {
    /// Checks the batch against the item counts before and after it, with UIKit's
    /// rules and messages. Throws on the first problem; checks every section.
    /// - Parameters:
    ///   - before: Each section's item count before the batch.
    ///   - after: Each section's item count after it, as the data source reports it.
    /// - Throws: ``InvalidBatchUpdate`` with UIKit's message, naming the section and the counts.
    public func validate(countsBefore before: [Int], countsAfter after: [Int]) throws(InvalidBatchUpdate) {
        let deletedS = Set(deletedSections), insertedS = Set(insertedSections)
        if deletedS.count != deletedSections.count { throw InvalidBatchUpdate("Invalid update: a section is deleted twice in one batch") }
        if insertedS.count != insertedSections.count { throw InvalidBatchUpdate("Invalid update: a section is inserted twice in one batch") }
        if let s = deletedSections.first(where: { !before.indices.contains($0) }) {
            throw InvalidBatchUpdate("Invalid update: attempt to delete section \(s), but there are only \(before.count) sections before the update")
        }
        if let s = insertedSections.first(where: { !after.indices.contains($0) }) {
            throw InvalidBatchUpdate("Invalid update: attempt to insert section \(s), but there are only \(after.count) sections after the update")
        }
        var movedFrom: Set<Int> = [], movedTo: Set<Int> = []
        for m in movedSections {
            guard before.indices.contains(m.from) else {
                throw InvalidBatchUpdate("Invalid update: attempt to move section \(m.from), but there are only \(before.count) sections before the update")
            }
            guard after.indices.contains(m.to) else {
                throw InvalidBatchUpdate("Invalid update: attempt to move section \(m.from) to section \(m.to), but there are only \(after.count) sections after the update")
            }
            if deletedS.contains(m.from) { throw InvalidBatchUpdate("Invalid update: attempt to delete and move section \(m.from) in one update") }
            if insertedS.contains(m.to) { throw InvalidBatchUpdate("Invalid update: attempt to move section \(m.from) to section \(m.to), which is also inserted in the same update") }
            if !movedFrom.insert(m.from).inserted { throw InvalidBatchUpdate("Invalid update: attempt to move section \(m.from) twice") }
            if !movedTo.insert(m.to).inserted { throw InvalidBatchUpdate("Invalid update: attempt to move two sections to section \(m.to)") }
        }
        guard after.count == before.count + insertedS.count - deletedS.count else {
            throw InvalidBatchUpdate(
                "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (\(after.count)) must be equal to the number of sections contained in the collection view before the update (\(before.count)), plus or minus the number of sections inserted or deleted (\(insertedS.count) inserted, \(deletedS.count) deleted).")
        }
        let oldToNew = sectionMapping(oldCount: before.count, newCount: after.count)

        func describe(_ p: IndexPath) -> String { "item \(p.item) in section \(p.section)" }
        func checkOld(_ p: IndexPath, _ verb: String) throws(InvalidBatchUpdate) {
            guard p.count == 2, before.indices.contains(p.section), p.item >= 0, p.item < before[p.section] else {
                let count = p.count == 2 && before.indices.contains(p.section) ? before[p.section] : 0
                throw InvalidBatchUpdate("Invalid update: attempt to \(verb) \(describe(p)) which only contains \(count) items before the update")
            }
            if deletedS.contains(p.section) {
                throw InvalidBatchUpdate("Invalid update: attempt to \(verb) \(describe(p)), but section \(p.section) is deleted in the same update")
            }
        }
        func checkNew(_ p: IndexPath, _ verb: String) throws(InvalidBatchUpdate) {
            guard p.count == 2, after.indices.contains(p.section), p.item >= 0, p.item < after[p.section] else {
                let count = p.count == 2 && after.indices.contains(p.section) ? after[p.section] : 0
                throw InvalidBatchUpdate("Invalid update: attempt to \(verb) \(describe(p)), but there are only \(count) items in section \(p.section) after the update")
            }
            if insertedS.contains(p.section) {
                throw InvalidBatchUpdate("Invalid update: attempt to \(verb) \(describe(p)), but section \(p.section) is inserted in the same update")
            }
        }

        var oldUsed: [IndexPath: String] = [:]
        var newUsed: Set<IndexPath> = []
        for p in deletedItems {
            try checkOld(p, "delete")
            if oldUsed.updateValue("delete", forKey: p) != nil { throw InvalidBatchUpdate("Invalid update: attempt to delete \(describe(p)) twice") }
        }
        for p in reloadedItems {
            try checkOld(p, "reload")
            if let other = oldUsed.updateValue("reload", forKey: p) { throw InvalidBatchUpdate("Invalid update: attempt to \(other) and reload the same index path (\(describe(p)))") }
        }
        for p in reconfiguredItems {
            try checkOld(p, "reconfigure")
            if let other = oldUsed[p], other != "reconfigure" { throw InvalidBatchUpdate("Invalid update: attempt to \(other) and reconfigure the same index path (\(describe(p)))") }
        }
        for p in insertedItems {
            try checkNew(p, "insert")
            if !newUsed.insert(p).inserted { throw InvalidBatchUpdate("Invalid update: attempt to insert \(describe(p)) twice") }
        }
        for move in movedItems {
            try checkOld(move.from, "move")
            try checkNew(move.to, "move an item to")
            // A reload and a move of the same item is a move plus a fresh cell at the
            // destination (as UIKit's diffable data source makes it); anything else is refused.
            if let other = oldUsed.updateValue("move", forKey: move.from), other != "reload" {
                throw InvalidBatchUpdate("Invalid update: attempt to perform a \(other) and a move from the same index path (\(describe(move.from)))")
            }
            if !newUsed.insert(move.to).inserted {
                throw InvalidBatchUpdate("Invalid update: attempt to move an item to \(describe(move.to)), which is also the target of an insert or another move")
            }
        }

        var inserted = [Int](repeating: 0, count: after.count), deleted = [Int](repeating: 0, count: before.count)
        var movedIn = [Int](repeating: 0, count: after.count), movedOut = [Int](repeating: 0, count: before.count)
        for p in insertedItems { inserted[p.section] += 1 }
        for p in deletedItems { deleted[p.section] += 1 }
        for m in movedItems where oldToNew[m.from.section] != m.to.section {
            movedOut[m.from.section] += 1
            movedIn[m.to.section] += 1
        }
        for (old, new) in oldToNew.enumerated() {
            guard let new else { continue }
            let expected = before[old] + inserted[new] - deleted[old] + movedIn[new] - movedOut[old]
            if after[new] != expected {
                throw InvalidBatchUpdate(
                    "Invalid update: invalid number of items in section \(new). The number of items contained in an existing section after the update (\(after[new])) must be equal to the number of items contained in that section before the update (\(before[old])), plus or minus the number of items inserted or deleted from that section (\(inserted[new]) inserted, \(deleted[old]) deleted) and plus or minus the number of items moved into or out of that section (\(movedIn[new]) moved in, \(movedOut[old]) moved out).")
            }
        }
    }

    /// For each old section: its index after the batch, or nil when deleted. Moved
    /// sections go where they were moved; the others keep their order in the slots
    /// that inserts and move targets leave.
    func sectionMapping(oldCount: Int, newCount: Int) -> [Int?] {
        let deleted = Set(deletedSections)
        var taken = Set(insertedSections)
        var mapping = [Int?](repeating: nil, count: oldCount)
        for m in movedSections where m.from < oldCount {
            mapping[m.from] = m.to
            taken.insert(m.to)
        }
        let moved = Set(movedSections.map { $0.from })
        var next = 0
        for old in 0..<oldCount where !deleted.contains(old) && !moved.contains(old) {
            while taken.contains(next) { next += 1 }
            mapping[old] = next
            next += 1
        }
        return mapping
    }

    /// Applies the batch to `sections` as UIKit does: removals at old positions,
    /// then inserts and move targets at new positions, the rest keeping their order.
    /// `insertedItem` gives the value for an inserted index path, `insertedSection`
    /// the contents of an inserted section. Validate first: this assumes a valid batch.
    /// - Parameters:
    ///   - sections: The values before the batch, by section.
    ///   - countsAfter: Each section's count after it.
    ///   - insertedItem: The value of an inserted item, by its index path.
    ///   - insertedSection: The values of an inserted section, by its index.
    /// - Returns: The values after the batch.
    public func applied<T>(
        to sections: [[T]], countsAfter: [Int],
        insertedItem: (IndexPath) -> T, insertedSection: (Int) -> [T]
    ) -> [[T]] {
        let oldToNew = sectionMapping(oldCount: sections.count, newCount: countsAfter.count)
        var result = [[T?]](repeating: [], count: countsAfter.count)
        for s in insertedSections { result[s] = insertedSection(s) }
        var removed = Set(deletedItems)
        for m in movedItems { removed.insert(m.from) }
        for new in oldToNew {
            guard let new else { continue }
            result[new] = [T?](repeating: nil, count: countsAfter[new])
        }
        for p in insertedItems { result[p.section][p.item] = insertedItem(p) }
        for m in movedItems { result[m.to.section][m.to.item] = sections[m.from.section][m.from.item] }
        for (old, new) in oldToNew.enumerated() {
            guard let new else { continue }
            var slot = 0
            for (i, value) in sections[old].enumerated() where !removed.contains(IndexPath(item: i, section: old)) {
                while slot < result[new].count, result[new][slot] != nil { slot += 1 }
                guard slot < result[new].count else { break }
                result[new][slot] = value
            }
        }
        return result.map { $0.map { $0! } }
    }
}
