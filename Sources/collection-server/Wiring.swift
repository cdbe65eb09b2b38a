import CollectionProtocol
import CollectionSync
import Logging
import Synchronization
import WebSocketTransport

/// Connects transport events to the hub and the hub's messages back to the
/// transport. Events arrive on the transport's service thread; the hub lives
/// behind a mutex so that this stays sound if that ever changes.
final class Wiring: Sendable {
    private struct State {
        var group: CollectionHubGroup
        var echo: Set<ConnectionID> = []
    }

    private let state: Mutex<State>
    private let server = Mutex<WebSocketServer?>(nil)
    private let logger: Logger

    init(group: sending CollectionHubGroup, logger: Logger) {
        state = Mutex(State(group: group))
        self.logger = logger
    }

    func attach(_ server: WebSocketServer) {
        self.server.withLock { $0 = server }
    }

    func handle(_ event: WebSocketEvent) {
        guard let server = server.withLock({ $0 }) else { return }
        let outgoing: [Outgoing]
        switch event {
        case let .opened(id, _, path):
            state.withLock { s in
                if path == "/echo" { s.echo.insert(id) } else { s.group.connect(id.rawValue) }
            }
            logger.debug("open \(id) on \(path)")
            return
        case let .message(id, bytes, binary):
            if state.withLock({ $0.echo.contains(id) }) {
                server.send(bytes, to: id, binary: binary)
                return
            }
            outgoing = state.withLock { s in binary ? s.group.receiveBinary(from: id.rawValue) : s.group.receive(bytes, from: id.rawValue) }
        case let .closed(id):
            outgoing = state.withLock { s in
                s.echo.remove(id) != nil ? [] : s.group.disconnect(id.rawValue)
            }
            logger.debug("closed \(id)")
        case .turnEnded:
            outgoing = state.withLock { $0.group.endTurn() }
        }
        for o in outgoing {
            server.send(o.bytes, to: ConnectionID(rawValue: o.viewer))
        }
    }
}
