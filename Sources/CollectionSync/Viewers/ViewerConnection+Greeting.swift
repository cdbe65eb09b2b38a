import CollectionCore
import CollectionProtocol
import Foundation

/// What a viewer's welcome or resume says of the collection as it is now: its
/// history's epoch and number, its sections, who is here and what they select
/// and focus, the layout, the collection's name.
struct CollectionNow {
    var epoch: String
    var sequence: Int
    /// The sections' identities, counts and checksums (made only for a welcome).
    var sections: () -> [SectionInfo]
    var selections: [SelectionInfo]
    var viewers: [ViewerInfo]
    var focuses: [FocusInfo]
    var layout: String
    var collection: String
}

/// A viewer's answer to its `hello`, in its own viewport and layout: a `welcome`
/// with its window (and the order, inline or in parts), or a `resume` with the
/// batches it missed and its whole window again.
extension ViewerConnection {
    /// Orders of at most this many items come inside the welcome; larger ones after it.
    static let inlineOrderItems = 2_000
    /// About how many bytes of ids an `order` message holds.
    static let orderPartBytes = 48 * 1024

    /// What this viewer may do, said only when it is not everything.
    private var can: [String]? { permissions == .all ? nil : permissions.names }

    /// Shows the hello's viewport and offset, with the window emptied: every
    /// element comes back as changed, in order.
    private func freshWindow(_ hello: ClientMessage.Hello, policy: LayoutPolicy) -> [Element] {
        window = [:]
        show(viewport: hello.viewport, offset: hello.offset, policy: policy)
        return refreshWindow(force: true).changed
    }

    /// `welcome`: who this viewer is, the collection now, its window.
    func welcome(_ hello: ClientMessage.Hello, now: CollectionNow, policy: LayoutPolicy) -> [Outgoing] {
        let elements = freshWindow(hello, policy: policy)
        let model = self.model
        let order = hello.wantOrder ? model.snapshot.sectionIdentifiers.map { model.snapshot.itemIdentifiers(inSection: $0) } : nil
        // A large order follows the welcome in parts: the welcome stays small, so
        // that the page draws its first cells before it reads 100,000 ids.
        let inline = order.map { $0.reduce(0) { $0 + $1.count } <= Self.inlineOrderItems } ?? true
        var welcome = ServerMessage.Welcome(
            viewer: info, epoch: now.epoch, seq: now.sequence, contentSize: contentSize, sections: now.sections(),
            elements: elements, selections: now.selections, viewers: now.viewers, order: inline ? order : nil,
            focuses: now.focuses, layout: now.layout, collection: now.collection)
        welcome.can = can
        welcome.bands = bands
        if !inline { welcome.orderFollows = true }
        var out = [Outgoing(viewer: key, message: .welcome(welcome))]
        if let order, !inline {
            for part in OrderPart.parts(of: order, bytes: Self.orderPartBytes) {
                out.append(Outgoing(viewer: key, message: .order(part)))
            }
        }
        return out
    }

    /// `resume`: the batches missed since `lastSeq` (structure only), then the whole window.
    func resume(_ hello: ClientMessage.Hello, from lastSeq: Int, missed: [LoggedBatch], now: CollectionNow, policy: LayoutPolicy) -> [Outgoing] {
        let elements = freshWindow(hello, policy: policy)
        var resume = ServerMessage.Resume(
            viewer: info, fromSeq: lastSeq, seq: now.sequence, selections: now.selections, viewers: now.viewers,
            focuses: now.focuses, layout: now.layout, collection: now.collection)
        resume.can = can
        var out = [Outgoing(viewer: key, message: .resume(resume))]
        for b in missed {
            out.append(Outgoing(viewer: key, message: .batch(.init(
                seq: b.seq, by: b.by, deletes: b.deletes, deletedIds: b.deletedIds, inserts: b.inserts, insertedIds: b.insertedIds,
                moves: b.moves, reloads: b.reloads, replay: true, sections: b.sections, contentSize: contentSize,
                elements: [], remove: []))))
        }
        out.append(Outgoing(viewer: key, message: .window(.init(contentSize: contentSize, bands: bands, add: elements, remove: [], replace: true))))
        return out
    }
}
