import CollectionProtocol
import CollectionSync
import Foundation
import Logging
import Synchronization
import WebSocketTransport

/// The collections and the transport, behind one lock. Events arrive on the
/// transport's service thread; server-side changes come from any task. Every
/// change and the sending of its messages happen under the lock, so each viewer
/// gets batches in sequence order whoever made them.
///
/// The lock is recursive: a callback running under it (a delegate, a layout
/// provider, an action handler) may read or change a collection on the same
/// thread without waiting for itself.
final class Engine: @unchecked Sendable {
    // Everything below is read and written only with `lock` held.
    private var hubs: [CollectionHub] = []
    private var group: CollectionHubGroup?
    private var echo: Set<ConnectionID> = []
    private var transport: WebSocketServer?
    private let lock = NSRecursiveLock()
    let logger: Logger
    /// Seconds a connection may stay open without a `hello`.
    var helloTimeout: Double = 10
    private var helloTimer: DispatchSourceTimer?

    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    init(logger: Logger) { self.logger = logger }

    func attach(_ server: WebSocketServer) { locked { transport = server } }

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Adds a hub (before the server starts); false if the name is taken or it started.
    func add(_ hub: CollectionHub) -> Bool {
        locked {
            guard group == nil, !hubs.contains(where: { $0.name == hub.name }) else { return false }
            hubs.append(hub)
            return true
        }
    }

    /// Groups the hubs; no hub is added after this. Starts closing connections that
    /// say no `hello` in time (checked every second).
    func seal() {
        locked {
            if group == nil, !hubs.isEmpty { group = CollectionHubGroup(hubs) }
            guard helloTimer == nil, helloTimeout > 0 else { return }
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
            timer.setEventHandler { [weak self] in self?.closeSilentConnections() }
            timer.resume()
            helloTimer = timer
        }
    }

    /// Closes (1008) the connections that opened more than ``helloTimeout`` ago and said no `hello`.
    private func closeSilentConnections() {
        locked {
            guard let group, let transport else { return }
            for key in group.connectionsWithoutHello(openedBefore: Self.now - helloTimeout) {
                _ = group.disconnect(key)
                transport.close(ConnectionID(rawValue: key), code: .policyViolation, reason: "no hello within \(Int(helloTimeout)) s")
            }
        }
    }

    /// Stops the timer (the server stopped).
    func stopTimers() { locked { helloTimer?.cancel(); helloTimer = nil } }

    var names: [String] { locked { hubs.map(\.name) } }

    /// Runs `body` on the hub called `name` under the lock, and sends what it returns.
    func withHub<T>(_ name: String, _ body: (CollectionHub) throws(ProtocolError) -> (T, [Outgoing])) throws(ProtocolError) -> T {
        try locked { () throws(ProtocolError) -> T in
            guard let hub = hubs.first(where: { $0.name == name }) else {
                throw ProtocolError(.unknownCollection, "no collection named '\(name)'")
            }
            let (value, out) = try body(hub)
            send(out)
            return value
        }
    }

    private func send(_ out: [Outgoing]) {
        guard let transport else { return }
        for o in out { transport.send(o.bytes, to: ConnectionID(rawValue: o.viewer)) }
    }

    /// A transport event: to the group, and its messages back out.
    func handle(_ event: WebSocketEvent) {
        locked {
            guard let group, let server = transport else { return }
            let outgoing: [Outgoing]
            switch event {
            case let .opened(id, _, path):
                if path == server.configuration.extraWebSocketPath { echo.insert(id) } else { group.connect(id.rawValue, at: Self.now) }
                logger.debug("open \(id) on \(path)")
                return
            case let .message(id, bytes, binary):
                if echo.contains(id) {
                    server.send(bytes, to: id, binary: binary)
                    return
                }
                outgoing = binary ? group.receiveBinary(from: id.rawValue) : group.receive(bytes, from: id.rawValue)
            case let .closed(id):
                outgoing = echo.remove(id) != nil ? [] : group.disconnect(id.rawValue)
                logger.debug("closed \(id)")
            case .turnEnded:
                outgoing = group.endTurn()
            }
            send(outgoing)
        }
    }
}
