import CLibWebSockets
import CWebSocketShim
import Foundation
import Locking

/// A message received by a ``WebSocketClient``.
public enum WebSocketMessage: Equatable, Sendable {
    case text(String)
    case binary([UInt8])

    /// The text, or nil for a binary message.
    public var text: String? {
        if case .text(let s) = self { return s }
        return nil
    }
}

/// A libwebsockets client with its own context and service thread, for tests
/// and tools. `receive(timeout:)` hands messages over in order.
public final class WebSocketClient: Sendable {
    /// How the client reaches its server: libwebsockets over a socket, or a server's
    /// engine in this process (a test's, with no socket).
    private enum Link: Sendable {
        case socket(ClientCore)
        case inProcess(InProcessLink)
    }

    private let link: Link
    private var mailbox: ClientMailbox {
        switch link {
        case .socket(let core): core.mailbox
        case .inProcess(let end): end.mailbox
        }
    }

    private init(core: ClientCore) { link = .socket(core) }

    /// A client whose other end is in this process: what it sends goes to `send`
    /// (the bytes and whether they are binary), closing it calls `close` (with the
    /// code, nil when dropped), and the server's side answers through the returned
    /// link. Open at once. For tests that run a server with no socket.
    package static func inProcess(send: @escaping @Sendable ([UInt8], Bool) -> Void,
                                  close: @escaping @Sendable (Int?) -> Void) -> (WebSocketClient, InProcessLink) {
        let end = InProcessLink(send: send, close: close)
        end.mailbox.didOpen()
        return (WebSocketClient(link: .inProcess(end)), end)
    }

    private init(link: Link) { self.link = link }

    /// Connects to `ws(s)://host:port/path`, offering `subprotocol` (nil offers none).
    /// `caFile` is a PEM file of trusted certificates for wss.
    public static func connect(
        host: String = "127.0.0.1", port: Int, path: String = "/ws", subprotocol: String? = "collection.v1",
        tls: Bool = false, caFile: String? = nil, maxMessageSize: Int = 64 * 1024 * 1024,
        timeout: Duration = .seconds(5)
    ) async throws -> WebSocketClient {
        let core = ClientCore(maxMessageSize: maxMessageSize)
        try core.start(host: host, port: port, path: path, subprotocol: subprotocol, tls: tls, caFile: caFile)
        switch await core.mailbox.waitForOpen(timeout: timeout) {
        case .open: return WebSocketClient(core: core)
        // Not waited for: an async function does not block its thread (the
        // connection's own thread destroys what it made).
        case .failed(let why):
            core.stop(waiting: false)
            throw TransportError.connectFailed(why)
        case .timedOut:
            core.stop(waiting: false)
            throw TransportError.timedOut("the WebSocket handshake with \(host):\(port)\(path)")
        }
    }

    /// Sends a text message.
    public func send(_ text: String) { send(bytes: Array(text.utf8), binary: false) }

    /// Sends raw bytes as a text (binary: false) or binary frame, e.g. invalid UTF-8 for a test.
    public func send(bytes: [UInt8], binary: Bool) {
        switch link {
        case .socket(let core): core.loop.post(.send(ConnectionID(rawValue: 1), SplicedBytes(bytes), binary: binary))
        case .inProcess(let end): end.send(bytes, binary)
        }
    }

    /// Stops reading from the server (as a stalled client would): its messages
    /// pile up in the server's queue and the kernel's buffers. (In process: nothing.)
    public func pauseReading() {
        if case .socket(let core) = link { core.loop.post(.read(false)) }
    }

    /// Reads again after ``pauseReading()``.
    public func resumeReading() {
        if case .socket(let core) = link { core.loop.post(.read(true)) }
    }

    /// The next message, or throws ``TransportError/timedOut(_:)`` or ``TransportError/closed``.
    public func receive(timeout: Duration = .seconds(5)) async throws -> WebSocketMessage {
        switch await mailbox.next(timeout: timeout) {
        case .message(let m): return m
        case .closed: throw TransportError.closed
        case .timedOut: throw TransportError.timedOut("a message")
        }
    }

    /// The close code the server sent, once closed (nil before, or if none was sent).
    public var closeCode: Int? { mailbox.closeCode }

    /// True once the connection has closed.
    public var isClosed: Bool { mailbox.isClosed }

    /// Waits until the server closes the connection; returns its close code.
    public func waitForClose(timeout: Duration = .seconds(5)) async throws -> Int? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            do {
                _ = try await receive(timeout: deadline - ContinuousClock.now)
            } catch TransportError.closed {
                return closeCode
            }
        }
        throw TransportError.timedOut("the connection to close")
    }

    /// Closes with 1000 and stops the service thread.
    public func close() {
        switch link {
        case .socket(let core):
            core.loop.post(.close(ConnectionID(rawValue: 1), .normal, ""))
            core.stopSoon()
        case .inProcess(let end): end.clientClosed(code: 1000)
        }
    }

    /// Drops the connection without a closing handshake (as a crashed peer would).
    public func abort() {
        switch link {
        case .socket(let core): core.stop()
        case .inProcess(let end): end.clientClosed(code: nil)
        }
    }

    deinit {
        switch link {
        case .socket(let core): core.stop()
        case .inProcess(let end): end.clientClosed(code: nil)
        }
    }
}

/// The server's side of an in-process client (``WebSocketClient/inProcess(send:close:)``):
/// what the server sends is received by the client in order; closing it is the server's close.
package final class InProcessLink: Sendable {
    let mailbox = ClientMailbox()
    let send: @Sendable ([UInt8], Bool) -> Void
    private let close: @Sendable (Int?) -> Void
    private let ended = Locked(false)

    init(send: @escaping @Sendable ([UInt8], Bool) -> Void, close: @escaping @Sendable (Int?) -> Void) {
        self.send = send
        self.close = close
    }

    /// A message from the server.
    package func deliver(_ bytes: [UInt8], binary: Bool = false) {
        guard !mailbox.isClosed else { return }
        mailbox.didReceive(binary ? .binary(bytes) : .text(String(decoding: bytes, as: UTF8.self)))
    }

    /// The server closed the connection with `code`.
    package func serverClosed(code: Int) {
        guard ended.withLock({ e in defer { e = true }; return !e }) else { return }
        mailbox.didPeerClose(code: code)
        mailbox.didClose()
    }

    /// The client closed or dropped it: the server is told once.
    func clientClosed(code: Int?) {
        guard ended.withLock({ e in defer { e = true }; return !e }) else { return }
        mailbox.didClose()
        close(code)
    }
}
