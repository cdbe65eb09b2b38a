import Foundation
import WebSocketTransport

/// A WebSocket client that speaks JSON objects, for the end-to-end tests.
struct ProtocolClient {
    let socket: WebSocketClient

    static func connect(_ server: ServerProcess, subprotocol: String? = "collection.v1", caFile: String? = nil) async throws -> ProtocolClient {
        ProtocolClient(socket: try await WebSocketClient.connect(
            port: server.port, subprotocol: subprotocol, tls: server.scheme == "https", caFile: caFile))
    }

    func send(_ json: String) { socket.send(json) }

    /// The next message as a JSON object.
    func next(timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        let message = try await socket.receive(timeout: timeout)
        guard let text = message.text, let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw ServerError.message("not a JSON object: \(message)")
        }
        return object
    }

    /// The next message of `type`, skipping others (presence, selection…).
    func next(_ type: String, timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let m = try await next(timeout: deadline - ContinuousClock.now)
            if m["type"] as? String == type { return m }
        }
    }

    /// Says hello and returns the welcome.
    func hello(width: Int = 800, height: Int = 600, y: Int = 0) async throws -> [String: Any] {
        send(#"{"type":"hello","protocol":1,"viewport":{"width":\#(width),"height":\#(height)},"offset":{"x":0,"y":\#(y)}}"#)
        return try await next("welcome")
    }

    /// True when nothing arrives within `window`.
    func staysQuiet(for window: Duration = .milliseconds(300)) async -> Bool {
        do {
            _ = try await socket.receive(timeout: window)
            return false
        } catch {
            return true
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    var elements: [[String: Any]] { self["elements"] as? [[String: Any]] ?? [] }
    var sectionCounts: [Int] { (self["sections"] as? [[String: Any]] ?? []).compactMap { $0["count"] as? Int } }
}
