import CollectionProtocol
import CollectionSync
import Logging
import Synchronization
import WebSocketTransport

/// The collections and the transport, behind one lock. Events arrive on the
/// transport's service thread; server-side changes come from any task. Every
/// change and the sending of its messages happen under the lock, so each viewer
/// gets batches in sequence order whoever made them.
final class Engine: Sendable {
    struct State {
        var hubs: [CollectionHub] = []
        var group: CollectionHubGroup?
        var echo: Set<ConnectionID> = []
    }

    private let state = Mutex(State())
    private let transport = Mutex<WebSocketServer?>(nil)
    let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func attach(_ server: WebSocketServer) { transport.withLock { $0 = server } }

    /// Adds a hub (before the server starts).
    func add(_ make: () -> sending CollectionHub) -> Bool {
        state.withLock { s in
            guard s.group == nil else { return false }
            let hub = make()
            guard !s.hubs.contains(where: { $0.name == hub.name }) else { return false }
            s.hubs.append(hub)
            return true
        }
    }

    /// Groups the hubs; no hub is added after this.
    func seal() {
        state.withLock { s in
            if s.group == nil, !s.hubs.isEmpty { s.group = CollectionHubGroup(s.hubs) }
        }
    }

    var names: [String] { state.withLock { $0.hubs.map(\.name) } }

    /// Runs `body` on the hub called `name` under the lock, and sends what it returns.
    func withHub<T>(_ name: String, _ body: (CollectionHub) throws(ProtocolError) -> (T, [Outgoing])) throws(ProtocolError) -> T {
        let server = transport.withLock { $0 }
        return try state.withLock { s throws(ProtocolError) -> T in
            guard let hub = s.hubs.first(where: { $0.name == name }) else {
                throw ProtocolError(.unknownCollection, "no collection named '\(name)'")
            }
            let (value, out) = try body(hub)
            if let server { for o in out { server.send(o.bytes, to: ConnectionID(rawValue: o.viewer)) } }
            return value
        }
    }

    /// A transport event: to the group, and its messages back out.
    func handle(_ event: WebSocketEvent) {
        guard let server = transport.withLock({ $0 }) else { return }
        state.withLock { s in
            guard let group = s.group else { return }
            let outgoing: [Outgoing]
            switch event {
            case let .opened(id, _, path):
                if path == server.configuration.extraWebSocketPath { s.echo.insert(id) } else { group.connect(id.rawValue) }
                logger.debug("open \(id) on \(path)")
                return
            case let .message(id, bytes, binary):
                if s.echo.contains(id) {
                    server.send(bytes, to: id, binary: binary)
                    return
                }
                outgoing = binary ? group.receiveBinary(from: id.rawValue) : group.receive(bytes, from: id.rawValue)
            case let .closed(id):
                outgoing = s.echo.remove(id) != nil ? [] : group.disconnect(id.rawValue)
                logger.debug("closed \(id)")
            case .turnEnded:
                outgoing = group.endTurn()
            }
            for o in outgoing { server.send(o.bytes, to: ConnectionID(rawValue: o.viewer)) }
        }
    }
}
