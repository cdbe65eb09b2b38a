import CollectionProtocol

/// What happens to a viewer's text message around the hub's handling of it: the
/// viewer's budget is asked first (a flood is refused before it is decoded), the
/// message decoded, a refusal answered (by op, when the message has one), the
/// answers encoded once, and the message's cost charged to the viewer: the bytes
/// sent because of it, to everyone, and its time on the server's clock less the
/// app's and the store's. It knows nothing of collections.
final class MessageIntake {
    /// A message's cost on the hub's clock (ServerTimeMeter.swift).
    let meter: ServerTimeMeter
    /// The buffer every message is encoded in, then copied out (used from the one
    /// thread that serves the collection).
    @exclusivity(unchecked) private var writer = JSONWriter(capacity: 8192)

    /// An intake timing messages on `clock` (seconds).
    init(clock: @escaping @Sendable () -> Double) {
        meter = ServerTimeMeter(clock: clock)
    }

    /// Takes `bytes` from `viewer`: refuses them over its budget, decodes them, hands
    /// the message to `handle`, and encodes and charges what comes back (or the refusal).
    func take(_ bytes: [UInt8], from viewer: ViewerConnection,
              _ handle: (ClientMessage) throws(ProtocolError) -> [Outgoing]) -> [Outgoing] {
        let start = meter.start()
        if let refusal = viewer.budget.refusal(at: start.at) {
            return [.refusal(ProtocolError(.rateLimited, refusal + "; this message was dropped", op: ClientMessage.editOp(in: bytes)), to: viewer.key)]
        }
        var out: [Outgoing]
        do throws(ProtocolError) {
            let message = try ClientMessage.decode(bytes)
            do throws(ProtocolError) {
                out = try handle(message)
            } catch {
                // An action with an op learns its fate by op, as an edit does.
                var refused = error
                if refused.op == nil, case .action(_, _, _, let op?) = message { refused.op = op }
                throw refused
            }
        } catch {
            out = [.refusal(error, to: viewer.key)]
        }
        var cost = 0
        for i in out.indices {
            out[i].encode(using: &writer)
            cost += out[i].byteCount
        }
        // The app's callbacks (its delegate writing to its own database, say) are the
        // app's cost, and a wait on storage (a database restarting) the store's: not the viewer's.
        let (seconds, done) = meter.charge(since: start)
        viewer.budget.charge(bytes: cost, seconds: seconds, at: done)
        return out
    }

    /// What a store shared by several servers must lock before `bytes` from `viewer`
    /// are handled by collection `name` (and bring up to date with what other nodes
    /// committed), so that they are checked against the latest state: the collection,
    /// and a drop's source. Nil for a message that changes no contents, one that will
    /// be refused anyway (undecodable, or over the viewer's budget: a flood costs the
    /// store nothing), or a viewer that has not said hello.
    func changeLock(for bytes: [UInt8], from viewer: ViewerConnection, collection name: String) -> (collections: [String], op: String?)? {
        guard viewer.ready else { return nil }
        // Asked of a copy of the budget: the message's own turn takes its token.
        var budget = viewer.budget
        guard budget.refusal(at: meter.now()) == nil else { return nil }
        guard let message = try? ClientMessage.decode(bytes), message.mayChangeContents else { return nil }
        var names = [name]
        if case .drop(let request) = message, let source = request.source?.collection, source != name { names.append(source) }
        var op = message.op
        if op == nil, case .action(_, _, _, let actionOp?) = message { op = actionOp }
        return (names, op)
    }
}
