/// One connection's transport state; touched only on the service thread.
final class ServerConnection {
    let id: ConnectionID
    let wsi: OpaquePointer
    var inbound: InboundAssembler
    var outbound: OutboundQueue
    var pendingClose: (CloseCode, String)?
    /// The peer sent a close frame: nothing more is written but through lws's own turn.
    var peerClosed = false
    var flood: FloodGuard
    /// The peer's address, as counted against the per-address limit.
    var address = ""

    /// The connection is being cut off: it will be closed with `code`, and what waited
    /// for it is freed now (it gets nothing more).
    func abandon(_ code: CloseCode, _ reason: String) {
        pendingClose = (code, reason)
        outbound = OutboundQueue(fragmentSize: 1, maxQueuedBytes: 0)
    }

    init(id: ConnectionID, wsi: OpaquePointer, inbound: InboundAssembler, outbound: OutboundQueue, flood: FloodGuard) {
        self.id = id
        self.wsi = wsi
        self.inbound = inbound
        self.outbound = outbound
        self.flood = flood
    }
}
