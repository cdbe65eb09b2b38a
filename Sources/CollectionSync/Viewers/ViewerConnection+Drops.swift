import CollectionCore
import CollectionProtocol
import Foundation

extension ViewerConnection {
    /// `dropProposal`: what a drop at `point` would do in this viewer's layout (the
    /// drop delegate's proposal, `resolved`; nil: forbidden, as for an item its
    /// collection will not let go), and the item it would go into, by identifier.
    func dropProposal(_ resolved: ResolvedDrop?, at point: Point) -> Outgoing {
        guard let resolved else {
            return Outgoing(viewer: key, message: .dropProposal(.init(
                operation: DropOperation.forbidden.rawValue, intent: CollectionViewDropProposal.Intent.unspecified.rawValue,
                section: nil, item: nil, target: nil, x: point.x, y: point.y)))
        }
        let target = resolved.proposal.intent == .insertIntoDestinationIndexPath
            ? resolved.destinationIndexPath.flatMap { model.snapshot.itemIdentifier(at: $0) } : nil
        return Outgoing(viewer: key, message: .dropProposal(.init(
            operation: resolved.proposal.operation.rawValue, intent: resolved.proposal.intent.rawValue,
            section: resolved.destinationIndexPath?.section, item: resolved.destinationIndexPath?.item, target: target,
            x: point.x, y: point.y)))
    }
}
