import CLibWebSockets
import CWebSocketShim
import Foundation
import Synchronization

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
    private let core: ClientCore

    private init(core: ClientCore) { self.core = core }

    /// Connects to `ws(s)://host:port/path`, offering `subprotocol` (nil offers none).
    /// `caFile` is a PEM file of trusted certificates for wss.
    public static func connect(
        host: String = "127.0.0.1", port: Int, path: String = "/ws", subprotocol: String? = "collection.v1",
        tls: Bool = false, caFile: String? = nil, maxMessageSize: Int = 64 * 1024 * 1024,
        timeout: Duration = .seconds(5)
    ) async throws -> WebSocketClient {
        let core = ClientCore(maxMessageSize: maxMessageSize)
        try core.start(host: host, port: port, path: path, subprotocol: subprotocol, tls: tls, caFile: caFile)
        let client = WebSocketClient(core: core)
        switch await core.mailbox.waitForOpen(timeout: timeout) {
        case .open: return client
        case .failed(let why):
            core.stop()
            throw TransportError.connectFailed(why)
        case .timedOut:
            core.stop()
            throw TransportError.timedOut("the WebSocket handshake with \(host):\(port)\(path)")
        }
    }

    /// Sends a text message.
    public func send(_ text: String) {
        core.loop.post(.send(ConnectionID(rawValue: 1), SplicedBytes(Array(text.utf8)), binary: false))
    }

    /// Sends raw bytes as a text (binary: false) or binary frame, e.g. invalid UTF-8 for a test.
    public func send(bytes: [UInt8], binary: Bool) {
        core.loop.post(.send(ConnectionID(rawValue: 1), SplicedBytes(bytes), binary: binary))
    }

    /// Stops reading from the server (as a stalled client would): its messages
    /// pile up in the server's queue and the kernel's buffers.
    public func pauseReading() { core.loop.post(.read(false)) }

    /// Reads again after ``pauseReading()``.
    public func resumeReading() { core.loop.post(.read(true)) }

    /// The next message, or throws ``TransportError/timedOut(_:)`` or ``TransportError/closed``.
    public func receive(timeout: Duration = .seconds(5)) async throws -> WebSocketMessage {
        switch await core.mailbox.next(timeout: timeout) {
        case .message(let m): return m
        case .closed: throw TransportError.closed
        case .timedOut: throw TransportError.timedOut("a message")
        }
    }

    /// The close code the server sent, once closed (nil before, or if none was sent).
    public var closeCode: Int? { core.mailbox.closeCode }

    /// True once the connection has closed.
    public var isClosed: Bool { core.mailbox.isClosed }

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
        core.loop.post(.close(ConnectionID(rawValue: 1), .normal, ""))
        core.stopSoon()
    }

    /// Drops the connection without a closing handshake (as a crashed peer would).
    public func abort() { core.stop() }

    deinit { core.stop() }
}
