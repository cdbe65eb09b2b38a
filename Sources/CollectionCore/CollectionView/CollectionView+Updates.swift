import Foundation

/// A batch of item changes checked once against the counts before and after it,
/// with its index-path mapping worked out: one batch performed by many collection
/// views over the same data does that work once.
package struct CheckedBatchUpdate: Sendable {
    /// The item changes (no section changes: those go through ``CollectionView/performBatchUpdates(_:completion:)``).
    package let batch: BatchUpdate
    let countsBefore: [Int]
    let countsAfter: [Int]
    let mapper: IndexPathMapper

    /// Checks `batch` (UIKit's rules and messages).
    package init(_ batch: BatchUpdate, countsBefore: [Int], countsAfter: [Int]) throws(InvalidBatchUpdate) {
        try batch.validate(countsBefore: countsBefore, countsAfter: countsAfter)
        self.batch = batch
        self.countsBefore = countsBefore
        self.countsAfter = countsAfter
        mapper = IndexPathMapper(batch, countsBefore: countsBefore, countsAfter: countsAfter)
    }
}

/// One change the collection view applied, for whoever mirrors it elsewhere.
public struct AppliedUpdate: Sendable {
    /// A batch, or a full reload.
    public enum Kind: Sendable {
        /// A batch of changes (``AppliedUpdate/batch``).
        case batch
        /// Everything loaded again.
        case reload
    }
    /// Batch or reload.
    public var kind: Kind
    /// The batch (empty for a reload).
    public var batch: BatchUpdate
    /// Whether it should animate.
    public var animated: Bool

    /// A change of `kind`.
    package init(kind: Kind, batch: BatchUpdate, animated: Bool) {
        self.kind = kind
        self.batch = batch
        self.animated = animated
    }
}

extension CollectionView {
    /// UIKit's `performBatchUpdates(_:completion:)`: runs `updates` (which change the
    /// data source and call the insert, delete, move and reload methods) as one batch,
    /// checks the counts the data source reports against it with UIKit's rules, and
    /// applies it; `completion` gets true.
    ///
    /// Where UIKit raises, a server must not crash: an invalid batch is not performed.
    /// Its message (UIKit's, naming the section and the counts) goes to
    /// ``invalidUpdateHandler`` (by default, standard error) and is kept in
    /// ``lastRejectedUpdate``; the collection view then loads everything again from
    /// its data source, as ``reloadData()`` does, so that it never shows a state the
    /// data source does not have; `completion` gets false. To catch the error instead,
    /// call ``tryPerformBatchUpdates(_:completion:)``.
    /// - Parameters:
    ///   - updates: Changes the data source and calls the insert, delete, move and reload methods.
    ///   - completion: Called with true when the batch was applied, false when it was refused.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        do throws(InvalidBatchUpdate) {
            try tryPerformBatchUpdates(updates)
            completion?(true)
        } catch {
            lastRejectedUpdate = error
            if let invalidUpdateHandler { invalidUpdateHandler(error) } else { FileHandle.standardError.write(Data("\(error.description)\n".utf8)) }
            reloadData()
            completion?(false)
        }
    }

    /// ``performBatchUpdates(_:completion:)`` for code that wants to catch an invalid
    /// batch: it throws UIKit's message and leaves the collection view as it was (its
    /// counts, selection and displayed cells); `completion` gets false. Before the
    /// counts were first loaded, the updates simply lead to a reload.
    /// - Parameters:
    ///   - updates: Changes the data source and calls the insert, delete, move and reload methods.
    ///   - completion: Called with true when the batch was applied, false when it was refused.
    /// - Throws: ``InvalidBatchUpdate``, with UIKit's message, when the counts disagree with the batch.
    public func tryPerformBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) throws(InvalidBatchUpdate) {
        do throws(InvalidBatchUpdate) { try updater.perform(updates, in: self) } catch {
            completion?(false)
            throw error
        }
        completion?(true)
    }

    private func record(_ change: (inout BatchUpdate) -> Void) { updater.record(change, in: self) }

    /// Inserts items (index paths after the update).
    /// - Parameter indexPaths: Where the new items are, after the update.
    public func insertItems(at indexPaths: [IndexPath]) { record { $0.insertedItems += indexPaths } }
    /// Deletes items (index paths before the update).
    /// - Parameter indexPaths: Where the items were, before the update.
    public func deleteItems(at indexPaths: [IndexPath]) { record { $0.deletedItems += indexPaths } }
    /// Moves an item.
    /// - Parameters:
    ///   - indexPath: Where it was, before the update.
    ///   - newIndexPath: Where it is, after the update.
    public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.movedItems.append(ItemMove(from: indexPath, to: newIndexPath)) }
    }
    /// Inserts sections.
    /// - Parameter sections: The new sections' indexes, after the update.
    public func insertSections(_ sections: IndexSet) { record { $0.insertedSections += Array(sections) } }
    /// Deletes sections.
    /// - Parameter sections: The sections' indexes, before the update.
    public func deleteSections(_ sections: IndexSet) { record { $0.deletedSections += Array(sections) } }
    /// Moves a section with its items: their cells move along (the data source is not
    /// asked for them again) and slide to their new places.
    /// - Parameters:
    ///   - section: Its index before the update.
    ///   - newSection: Its index after the update.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        record { $0.movedSections.append(SectionMove(from: section, to: newSection)) }
    }
    /// Reloads items: fresh cells.
    /// - Parameter indexPaths: The items, before the update.
    public func reloadItems(at indexPaths: [IndexPath]) { record { $0.reloadedItems += indexPaths } }
    /// Reloads sections: deleted and inserted again.
    /// - Parameter sections: The sections' indexes.
    public func reloadSections(_ sections: IndexSet) {
        record {
            $0.deletedSections += Array(sections)
            $0.insertedSections += Array(sections)
        }
    }
    /// Configures the existing cells of these items again (the cell stays).
    /// - Parameter indexPaths: The items, before the update.
    public func reconfigureItems(at indexPaths: [IndexPath]) { record { $0.reconfiguredItems += indexPaths } }
}
