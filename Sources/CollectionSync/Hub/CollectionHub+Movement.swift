import CollectionCore
import CollectionProtocol
import Foundation

/// Interactive movement (ViewerConnection+Movement.swift): the mover's steps happen
/// in its own collection view; the hub shows them to others as drags, and makes the
/// end an edit.
extension CollectionHub {
    /// `moveEnd`: the drop is an edit like `move` (numbered, acked, sent to every
    /// viewer). A drop where it started, or where no item can go, changes nothing and
    /// is acked with the current sequence number (the page waits for the op's answer),
    /// its op remembered like an edit's.
    func endMove(op: String?, viewer: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        let (end, seen) = try viewer.endMove()
        var out = broadcast(seen, except: viewer.key)
        switch end {
        case .nowhere, .inPlace:
            out.append(viewer.windowChange(animated: true))
            if let op {
                ledger.acceptedUnchanged(op)
                out.append(Outgoing(viewer: viewer.key, message: .ack(op: op, seq: sequence)))
            }
        case let .move(item, section, after):
            do {
                out += try apply(EditRequest(op: op, ifSeq: nil, action: .move(item: item, section: section, after: after)), from: viewer)
            } catch {
                out.append(viewer.windowChange(animated: true))
                out.append(Outgoing.refusal(ProtocolError(error.code, error.message, op: op), to: viewer.key))
            }
        }
        return out
    }

    /// After a batch: `viewer`'s movement picked up again, or ended for everyone
    /// when its item was deleted.
    func resumeMovement(of viewer: ViewerConnection) -> [Outgoing] {
        guard viewer.movement != nil else { return [] }
        let (own, seen) = viewer.resumeMovement()
        guard let seen else { return own }
        return own + broadcast(seen, except: viewer.key)
    }
}
