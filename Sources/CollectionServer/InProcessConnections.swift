import CollectionProtocol
import Foundation
import WebSocketTransport
import Locking

/// Connections made in this process to a server that listens on no socket (a test's,
/// through CollectionTesting's `test(.inProcess)`): each is a ``WebSocketClient``
/// whose messages go to the engine, in order, on a serial queue of their own (as the
/// transport's service thread would hand them over, each followed by the end of its
/// turn), and whose answers the engine delivers straight into the client.
package final class InProcessConnections: EngineOutput, Sendable {
    private let engine: Engine
    /// Where the engine handles what the clients send (one at a time, in order).
    private let service = DispatchQueue(label: "in-process-service")
    /// The open connections' client ends, and the next connection's id.
    private let state = Locked<(links: [ConnectionID: InProcessLink], nextID: UInt64)>(([:], 1))

    init(engine: Engine) { self.engine = engine }

    /// Opens a connection on `path` (what a WebSocket upgrade would have named), as
    /// `credential` (an ``Identity``, or nil for an anonymous viewer).
    package func connect(path: String = "/ws", credential: (any Sendable)? = nil) async -> WebSocketClient {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return ConnectionID(rawValue: s.nextID)
        }
        let (client, link) = WebSocketClient.inProcess(
            send: { [weak self] bytes, binary in
                self?.service.async { [weak self] in
                    self?.engine.handle(.message(id, bytes, binary: binary))
                    self?.engine.handle(.turnEnded)
                }
            },
            close: { [weak self] _ in self?.closed(id) })
        state.withLock { $0.links[id] = link }
        await onService { [engine] in
            engine.handle(.opened(id, subprotocol: subprotocolName, path: path, credential: credential))
            engine.handle(.turnEnded)
        }
        return client
    }

    /// Runs `work` on the service queue, suspending (not blocking) until it is done.
    private func onService(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            service.async {
                work()
                done.resume()
            }
        }
    }

    /// Every connection still open, closed by the server (it stops).
    package func closeAll() async {
        let open = state.withLock { s in
            defer { s.links = [:] }
            return Array(s.links)
        }
        for (id, link) in open {
            link.serverClosed(code: Int(CloseCode.goingAway.rawValue))
            await onService { [engine] in engine.handle(.closed(id)) }
        }
    }

    private func closed(_ id: ConnectionID) {
        guard state.withLock({ $0.links.removeValue(forKey: id) }) != nil else { return }
        service.async { [self] in
            engine.handle(.closed(id))
            engine.handle(.turnEnded)
        }
    }

    // MARK: EngineOutput (called with the engine's lock held)

    package func deliver(_ message: SplicedBytes, to connection: ConnectionID) {
        state.withLock { $0.links[connection] }?.deliver(message.joined())
    }

    package func echo(_ bytes: [UInt8], to connection: ConnectionID, binary: Bool) {
        state.withLock { $0.links[connection] }?.deliver(bytes, binary: binary)
    }

    package func prefetch(_ connection: ConnectionID) {}

    package func confirm(_ connection: ConnectionID) {}

    package func close(_ connection: ConnectionID, code: CloseCode, reason: String) {
        guard let link = state.withLock({ $0.links.removeValue(forKey: connection) }) else { return }
        link.serverClosed(code: Int(code.rawValue))
        // The transport tells the engine of a close it made, later, as this does.
        service.async { [self] in
            engine.handle(.closed(connection))
            engine.handle(.turnEnded)
        }
    }

    package var echoPath: String? { nil }
}

extension CollectionServer {
    /// Starts the server without listening: its engine serves the connections made
    /// with the returned ``InProcessConnections`` (no socket, no port), until ``stop()``.
    /// For CollectionTesting's `test(.inProcess)`.
    package func startInProcess() throws -> InProcessConnections {
        let connections = InProcessConnections(engine: engine)
        try prepare()
        engine.attach(connections)
        engine.health.set(store: engine.storedNames.isEmpty ? nil : engine.currentStore, ready: true)
        markStarted()
        return connections
    }
}
