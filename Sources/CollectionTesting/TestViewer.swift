import CollectionProtocol
import Foundation
import WebSocketTransport

/// A viewer for tests: connects to a running server, sends any message, awaits the
/// next message of a type, and keeps a ``Mirror`` built only from what it received.
///
/// ```swift
/// let a = try await TestViewer.connect(port: port)
/// try await a.hello(width: 800, height: 600, wantOrder: true)
/// a.send(#"{"type":"move","op":"m1","item":"p3","section":"summer"}"#)
/// try await a.next("ack")
/// #expect(a.mirror.element(section: 0, item: 0)?.key == "i:p3")
/// ```
public final class TestViewer: @unchecked Sendable {
    /// The connection.
    public let socket: WebSocketClient
    /// What this viewer knows.
    public private(set) var mirror = Mirror()
    /// Every message received, in order.
    public private(set) var received: [ServerMessage] = []

    init(socket: WebSocketClient, mirror: Mirror = Mirror()) {
        self.socket = socket
        self.mirror = mirror
    }

    /// Connects to `ws(s)://host:port/ws` (or `path`, with a query: `/ws?token=…`).
    /// Pass the `mirror` of a dropped viewer to continue it (then say hello with
    /// its `seq` and `epoch` to resume).
    ///
    /// - Parameters:
    ///   - host: The server's address.
    ///   - port: Its port.
    ///   - path: The WebSocket path.
    ///   - tls: Whether to connect with TLS.
    ///   - caFile: The certificate authority to trust (TLS).
    ///   - mirror: What the viewer's messages are applied to (a fresh one by default).
    ///   - timeout: How long the connection may take.
    /// - Returns: A viewer, connected and not yet helloed.
    /// - Throws: When the connection cannot be opened.
    public static func connect(host: String = "127.0.0.1", port: Int, path: String = "/ws", tls: Bool = false, caFile: String? = nil,
                               mirror: Mirror = Mirror(), timeout: Duration = .seconds(5)) async throws -> TestViewer {
        TestViewer(socket: try await WebSocketClient.connect(host: host, port: port, path: path, tls: tls, caFile: caFile, timeout: timeout),
                   mirror: mirror)
    }

    /// Sends raw JSON text.
    ///
    /// - Parameter json: A client message, as its JSON text.
    public func send(_ json: String) { socket.send(json) }

    /// Says hello (resuming when `lastSeq` and `epoch` are given; as `name`, to
    /// `collection`, when given) and waits for the welcome (and the order's parts that
    /// follow it, if any), or for the resume and everything up to its closing window.
    ///
    /// - Parameters:
    ///   - width: The viewport's width.
    ///   - height: The viewport's height.
    ///   - y: The scroll offset.
    ///   - wantOrder: Whether the welcome carries every section's order.
    ///   - lastSeq: The last batch seen, to resume after.
    ///   - epoch: The history `lastSeq` belongs to.
    ///   - name: The name others see.
    ///   - collection: The collection watched (nil: the server's first).
    ///   - timeout: How long to wait for the answer.
    /// - Returns: The `welcome` or `resume`.
    /// - Throws: When no answer comes in time, or the server refuses.
    @discardableResult
    public func hello(width: Double = 800, height: Double = 600, y: Double = 0, wantOrder: Bool = false,
                      lastSeq: Int? = nil, epoch: String? = nil, name: String? = nil, collection: String? = nil,
                      timeout: Duration = .seconds(5)) async throws -> ServerMessage {
        var json = #"{"type":"hello","protocol":1,"viewport":{"width":\#(width),"height":\#(height)},"offset":{"x":0,"y":\#(y)}"#
        if wantOrder { json += #","wantOrder":true"# }
        if let name { json += #","name":"\#(name)""# }
        if let collection { json += #","collection":"\#(collection)""# }
        if let lastSeq, let epoch { json += #","lastSeq":\#(lastSeq),"epoch":"\#(epoch)""# }
        send(json + "}")
        let first = try await next(where: { $0.type == "welcome" || $0.type == "resume" }, timeout: timeout)
        if case .resume = first {
            _ = try await next(where: { if case .window(let w) = $0 { return w.replace } else { return false } }, timeout: timeout)
        }
        // A large order follows the welcome in parts: the mirror holds it whole before this returns.
        if case .welcome(let w) = first, w.orderFollows == true {
            _ = try await next(where: { if case .order(let part) = $0 { return part.last } else { return false } }, timeout: timeout)
        }
        return first
    }

    /// The next message of `type` (messages before it are applied and kept).
    ///
    /// - Parameters:
    ///   - type: The message's `type`.
    ///   - timeout: How long to wait.
    /// - Returns: The message.
    /// - Throws: When none comes in time, or the connection closes.
    @discardableResult
    public func next(_ type: String, timeout: Duration = .seconds(5)) async throws -> ServerMessage {
        try await next(where: { $0.type == type }, timeout: timeout)
    }

    /// The next message matching `predicate`.
    ///
    /// - Parameters:
    ///   - predicate: Which message is awaited.
    ///   - timeout: How long to wait.
    /// - Returns: The message.
    /// - Throws: When none comes in time, or the connection closes.
    public func next(where predicate: (ServerMessage) -> Bool, timeout: Duration = .seconds(5)) async throws -> ServerMessage {
        let deadline = ContinuousClock.now + timeout
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw TransportError.timedOut("a matching message") }
            let message = try await receiveOne(timeout: remaining)
            if predicate(message) { return message }
        }
    }

    /// The next message, whatever it is (applied to the mirror).
    ///
    /// - Parameter timeout: How long to wait.
    /// - Returns: The next message.
    /// - Throws: When none comes in time, or the connection closes.
    public func receiveOne(timeout: Duration = .seconds(5)) async throws -> ServerMessage {
        let raw = try await socket.receive(timeout: timeout)
        guard case .text(let text) = raw else { throw Mirror.Divergence(description: "binary message from the server") }
        let message = try ServerMessage.decode(Array(text.utf8))
        received.append(message)
        try mirror.apply(message)
        // A viewer whose messages are already queued would otherwise decode them one
        // after another without ever suspending, holding one of the few cooperative
        // threads: with two cores, two such loops starved every other task for seconds.
        await Task.yield()
        return message
    }

    /// Reads until the mirror reaches sequence `seq`.
    ///
    /// - Parameters:
    ///   - seq: The batch number awaited.
    ///   - timeout: How long to wait.
    /// - Throws: When it does not come in time, or the connection closes.
    public func wait(forSeq seq: Int, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while mirror.seq < seq {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw TransportError.timedOut("sequence \(seq) (at \(mirror.seq))") }
            _ = try await receiveOne(timeout: remaining)
        }
    }

    /// True when nothing arrives within `window`.
    ///
    /// - Parameter window: How long to listen.
    /// - Returns: Whether nothing came.
    public func staysQuiet(for window: Duration = .milliseconds(300)) async -> Bool {
        do {
            _ = try await socket.receive(timeout: window)
            return false
        } catch {
            return true
        }
    }
}
