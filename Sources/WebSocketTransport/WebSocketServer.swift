import CLibWebSockets
import CWebSocketShim
import Foundation
import Logging

/// How a ``WebSocketServer`` listens and what it serves.
public struct WebSocketServerConfiguration: Sendable {
    /// Interface address to bind; an IPv4 address turns IPv6 off.
    public var host: String = "127.0.0.1"
    /// Port; 0 lets the kernel pick (read ``WebSocketServer/port``).
    public var port: Int = 8080
    /// Directory served over HTTP at "/" (index.html by default); nil serves nothing.
    public var publicDirectory: String?
    /// Which pages may open a WebSocket (their `Origin`): the server's own and these.
    public var origins = OriginPolicy()
    /// Decides, on the service thread, whether an upgrade that passed every other
    /// check may proceed (nil: every one may); what it accepts with comes with `opened`.
    public var admit: (@Sendable (Handshake) -> Admission)?
    /// More directories, each served under a URL prefix that starts and ends with
    /// "/" (e.g. "/collection-view/v1/"); a mount wins over the public directory.
    public var mounts: [String: String] = [:]
    /// PEM certificate and key; both set turns on https and wss.
    public var tlsCertificate: String?
    /// PEM private key.
    public var tlsKey: String?
    /// The default subprotocol (also given to clients that offer none).
    public var subprotocol: String = "collection.v1"
    /// Upgrades are accepted on this path (and on ``extraWebSocketPath``), nowhere else.
    public var webSocketPath: String = "/ws"
    /// A path answered by ``health`` (for load balancers), before any file.
    public var healthPath = "/healthz"
    /// Whether this server is fit to serve: 200 or 503, and a short text saying why.
    /// Runs on the service thread: it must not wait. nil: no health path.
    public var health: (@Sendable () -> (status: Int, text: String))?
    /// An optional second path with its own size limit, e.g. a test-only echo.
    public var extraWebSocketPath: String?
    /// Largest message accepted on ``webSocketPath`` (close 1009 above it).
    public var maxMessageSize: Int = 64 * 1024
    /// Largest message accepted on ``extraWebSocketPath``.
    public var extraMaxMessageSize: Int = 64 * 1024 * 1024
    /// Outgoing messages are written in fragments of this many bytes.
    public var fragmentSize: Int = 16 * 1024
    /// Backlog per connection before it is closed with 1008 (a stalled reader).
    public var maxQueuedBytes: Int = 8 * 1024 * 1024
    /// Backlog of every connection together: past it the largest backlogs are cut
    /// first (1008), so that readers that stop reading cannot take the memory.
    public var maxQueuedBytesTotal: Int = 256 * 1024 * 1024
    /// Backlog of the connections of one address together (cut the same way).
    public var maxQueuedBytesPerAddress: Int = 64 * 1024 * 1024
    /// Live WebSocket connections allowed; one more is closed with 1008 "too many connections".
    public var maxConnections: Int = 1_024
    /// Live WebSocket connections allowed from one address; one more is closed with
    /// 1008 "too many connections from your address" (behind a proxy every
    /// connection comes from the proxy's address: raise it there).
    public var maxConnectionsPerAddress: Int = 256
    /// Whether connections wait to be confirmed (``WebSocketServer/confirm(_:)``: for
    /// the collection protocol, once they said hello) under the budget and time
    /// limit below. Off (the default), every connection is confirmed as it opens.
    public var confirmsConnections = false
    /// The app's routes, answered before the files (nil: none).
    public var routes: HTTPRouter?
    /// Largest body a route's `POST` may send (413 above it).
    public var maxRequestBodyBytes = 64 * 1024
    /// Seconds a route's handler may take before the request is answered 504.
    public var routeTimeout: Double = 30
    /// Route requests waiting for their handler at once (503 past it).
    public var maxPendingRoutes = 256
    /// Route requests waiting for their handler at once from one address (503 past it).
    public var maxPendingRoutesPerAddress = 32
    /// Connections not confirmed yet, in all: past it the oldest of them is closed
    /// to make room. A confirmed connection is never refused because of unconfirmed ones.
    public var maxPendingConnections: Int = 128
    /// Unconfirmed connections from one address; one more is closed with 1008.
    public var maxPendingPerAddress: Int = 16
    /// Seconds a connection may stay unconfirmed before it is closed with 1008 (0: no limit).
    public var pendingTimeout: Double = 10
    /// Seconds it may stay unconfirmed while half of ``maxPendingConnections`` or more are taken.
    public var pendingTimeoutUnderPressure: Double = 2
    /// A connection idle this many seconds is pinged; 0 turns the heartbeat off.
    public var pingInterval: Int = 30
    /// A connection that has not answered a ping (nor completed its handshake) for this
    /// many seconds is closed: a peer that vanished without closing goes away.
    public var pingTimeout: Int = 60
    /// Frames a client may send per second on average (bursts of twice that); past
    /// it the connection is closed with 1008 "flooding". Frames, not messages: a
    /// flood of empty fragments is stopped too.
    public var framesPerSecond: Double = 2_000
    /// Bytes a client may send per second on average (bursts of twice that); past
    /// it the connection is closed with 1008 "flooding".
    public var bytesPerSecond: Double = 4 * 1024 * 1024
    /// Longest request target (path and query) accepted; a longer one is answered 414.
    public var maxURIBytes: Int = 8 * 1024
    /// Most bytes of request headers accepted (all of them, counted as the socket
    /// received them); more is answered 431. A request that does not fit in
    /// ``headerSpace`` is cut off without an answer: libwebsockets 4.1.6 lets no
    /// overflow be answered.
    public var maxHeaderBytes: Int = 16 * 1024
    /// Room libwebsockets keeps for one request's URI and headers together.
    public var headerSpace: Int = 32 * 1024

    /// Defaults: 127.0.0.1:8080, subprotocol collection.v1 on /ws.
    public init() {}

    /// True when TLS is configured.
    public var usesTLS: Bool { tlsCertificate != nil && tlsKey != nil }
}

/// A libwebsockets server on one service thread. It moves bytes and knows
/// nothing of what they mean: events go to `handler` on the service thread;
/// ``send(_:to:binary:)`` and ``close(_:code:reason:)`` may be called from any thread.
public final class WebSocketServer: Sendable {
    private let core: ServerCore
    /// The configuration it was made with.
    public let configuration: WebSocketServerConfiguration

    /// Prepares a server; nothing listens until ``start()``.
    public init(
        configuration: WebSocketServerConfiguration,
        logger: Logger = Logger(label: "transport"),
        handler: @escaping @Sendable (WebSocketEvent) -> Void
    ) {
        self.configuration = configuration
        core = ServerCore(configuration: configuration, logger: logger, handler: handler)
    }

    /// Creates the context, binds, starts the service thread; returns the port listened on.
    @discardableResult
    public func start() throws -> Int {
        try core.start()
    }

    /// The port listened on (0 before ``start()``).
    public var port: Int { core.port.load(ordering: .relaxed) }

    /// What the service thread waits on, once started (nil before ``start()``).
    public var eventLoop: EventLoop? { core.eventLoop }

    /// Queues a message to a connection (dropped silently if it has gone).
    public func send(_ bytes: [UInt8], to connection: ConnectionID, binary: Bool = false) {
        core.submit(.send(connection, SplicedBytes(bytes), binary: binary))
    }

    /// Queues a message whose bytes are partly shared with other messages (dropped
    /// silently if the connection has gone): the shared run is copied only as the
    /// message is written.
    public func send(_ message: SplicedBytes, to connection: ConnectionID, binary: Bool = false) {
        core.submit(.send(connection, message, binary: binary))
    }

    /// Says that a message to `connection` follows the one being sent: what writing it
    /// reads is fetched into the cache meanwhile (a server sending one batch to many
    /// connections, from the service thread, names the next before it sends each).
    /// Does nothing on another thread.
    public func prefetch(_ connection: ConnectionID) {
        core.prefetch(connection)
    }

    /// The application vouches for `connection` (for the collection protocol: it
    /// said hello): it leaves the budget of unconfirmed connections
    /// (``WebSocketServerConfiguration/maxPendingConnections``) and their time limit.
    public func confirm(_ connection: ConnectionID) {
        core.submit(.confirm(connection))
    }

    /// Sends the queued messages, then closes with `code`.
    public func close(_ connection: ConnectionID, code: CloseCode = .normal, reason: String = "") {
        core.submit(.close(connection, code, reason))
    }

    /// Stops the service thread and closes every connection. Idempotent; waits until done.
    public func stop() {
        core.stop()
    }

    /// A graceful stop: no new connection is taken (one that opens is closed at
    /// once), every connection gets what was queued for it and then a close with
    /// `code` (1001 "going away" by default); once all are closed, or `timeout`
    /// seconds passed, the service thread stops. Waits until done.
    public func shutdown(code: CloseCode = .goingAway, reason: String = "server is shutting down", timeout: Double = 3) {
        guard core.loop.post(.shutdown(code, reason)) else { return core.stop() }
        let deadline = DispatchTime.now() + timeout
        while core.connectionCount.load(ordering: .relaxed) > 0 && DispatchTime.now() < deadline { usleep(5_000) }
        core.stop()
    }

    /// Number of live WebSocket connections (read on any thread).
    public var connectionCount: Int { core.connectionCount.load(ordering: .relaxed) }

    /// Bytes waiting to be sent, to every connection together (read on any thread).
    public var queuedBytes: Int { core.queuedBytes.load(ordering: .relaxed) }

    /// The most bytes that ever waited at once (under ``WebSocketServerConfiguration/maxQueuedBytesTotal``).
    public var peakQueuedBytes: Int { core.peakQueuedBytes.load(ordering: .relaxed) }

    deinit { core.stop() }
}

/// A command posted to the service thread.
enum TransportCommand: Sendable {
    case send(ConnectionID, SplicedBytes, binary: Bool)
    case close(ConnectionID, CloseCode, String)
    /// Close every connection, and each new one, with this code.
    case shutdown(CloseCode, String)
    /// The application vouches for a connection.
    case confirm(ConnectionID)
    /// Close unconfirmed connections past their time; give memory back after a burst.
    case sweep
    /// Stop (false) or restart (true) reading from the peer (client only).
    case read(Bool)
    /// The app's answer to route request `id`.
    case answer(UInt64, HTTPResponse)
}
