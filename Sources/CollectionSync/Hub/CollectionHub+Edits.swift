import CollectionCore
import CollectionProtocol
import Foundation

extension CollectionHub {
    /// Applies an edit that names items and sections by identifier (``ViewerEdit``),
    /// or throws why not. A move must be one the viewer's data source allows
    /// (`canMoveItemAt`) and its delegate's rule for where a dragged item may go
    /// keeps (`targetIndexPathForMoveOfItemFromOriginalIndexPath`).
    func apply(_ request: EditRequest, from viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        if let ifSeq = request.ifSeq, ifSeq != sequence {
            throw ProtocolError(.stale, "the edit expects sequence \(ifSeq); the collection is at \(sequence)")
        }
        if let refusal = allowedEdits.refusal(of: request.action, by: name) { throw refusal }
        // Serials taken out while the factory (the app's) makes items: it may read the hub.
        var serials = ledger.serials
        let edit = try ViewerEdit(request.action, on: model, factory: factory, serial: &serials.next, random: &serials.random, maxItems: limits.maxItems)
        ledger.serials = serials
        if let (from, to) = edit.moved, case .move(let item, _, _) = request.action {
            try viewer.allowMove(of: model.quotedName(of: item), from: from, to: to)
        }
        let out = try commit(edit.next, reloading: edit.reloaded, op: request.op, by: viewer.info.id, ackTo: viewer.key, changedContent: edit.inserted)
        if let moved = edit.moved {
            hubDelegate?.hub(self, didMoveItemAt: moved.from, to: moved.to)
        }
        return out
    }

    /// A change the server itself makes (a background job, the app's own data, a
    /// handler run for a viewer): the model becomes `next`, with `reloading` items'
    /// cells made again (UIKit's `reloadItems`: a new cell, unselected) and
    /// `reconfiguring` items' configured again (`reconfigureItems`: the same cell,
    /// its selection kept), as one numbered batch like any viewer's edit. It is
    /// attributed to `author` (by default ``serverAuthor``, no viewer), and refused,
    /// changing nothing, when it breaks a limit or its counts disagree.
    public func apply(_ next: CollectionModel, reloading: [String] = [], reconfiguring: [String] = [],
                      by author: String = serverAuthor) throws(ProtocolError) -> [Outgoing] {
        guard next.snapshot.numberOfItems <= max(limits.maxItems, model.snapshot.numberOfItems) else {
            throw ProtocolError(.refused, "the change leaves \(next.snapshot.numberOfItems) items in '\(name)'; the limit is \(limits.maxItems)")
        }
        let problems = next.checkInvariants()
        guard problems.isEmpty else { throw ProtocolError(.invalidBatch, problems.joined(separator: "; ")) }
        var out = try commit(next, reloading: reloading, reconfiguring: reconfiguring, op: nil, by: author, ackTo: nil)
        for i in out.indices { out[i].encode() }
        return out
    }

    /// The `by` of batches the server made.
    public static let serverAuthor = "server"

    /// Validates and applies `next` as one numbered batch, logs it, and tells every viewer.
    func commit(_ next: CollectionModel, reloading reloadIds: [String], op: String?, by sender: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        try commit(next, reloading: reloadIds, op: op, by: sender.info.id, ackTo: sender.key)
    }

    /// `commit` for a change made on behalf of `by` (a viewer id, perhaps of another
    /// collection); the ack goes to `ackTo` when there is an op. `changedContent`
    /// names the items whose content may have changed (nil: any).
    /// `committed`: the batch was committed by another server sharing the store;
    /// it keeps its number, and nothing is journaled or acknowledged here.
    /// `changedSections`: ``SectionInfoCache/changes(from:to:)`` of `next`, when the caller made them.
    func commit(_ next: CollectionModel, reloading reloadIds: [String], reconfiguring reconfigureIds: [String] = [], op: String?, by: String, ackTo: UInt64?,
                changedContent: [String]? = nil, committed: CommittedBatch? = nil,
                changedSections: [String: SectionInfo]? = nil) throws(ProtocolError) -> [Outgoing] {
        var next = next
        let entry = try ledger.number(&next, from: model, reloading: reloadIds, reconfiguring: reconfigureIds, by: by, committed: committed, changed: changedSections)
        // The store keeps it first: a batch it cannot keep is refused, changing nothing.
        if committed == nil, let journal {
            let staged = ledger.staged(entry, from: model, to: next, collection: name, op: op, changedContent: changedContent.map { $0 + reloadIds + reconfigureIds })
            try uncharged { () throws(ProtocolError) in try journal.hub(self, stage: staged) }
        }
        store.model = next
        // Kept for resumes; its op remembered for retries.
        ledger.record(entry, op: committed != nil || ackTo != nil ? op : nil, committed: committed)
        // The app's data source follows before any layout asks it about the new state.
        hubDelegate?.hub(self, didCommit: sequence, by: by, model: next)
        refreshBackground()

        var out: [Outgoing] = []
        if let op, let ackTo, committed == nil {
            out.append(Outgoing(viewer: ackTo, message: .ack(op: op, seq: sequence)))
        }
        viewers.perform(entry.numbered, into: &out) { resumeMovement(of: $0) }
        return out
    }
}
