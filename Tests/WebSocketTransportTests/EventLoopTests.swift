import Synchronization
import Testing
import WebSocketTransport

/// The server's service thread waits on libev's epoll loop, and what lws does on
/// that loop (accepting, reading, writing at once and when writable, another
/// thread's wake-up) still happens. Its timers on that loop are the heartbeat
/// conformance test's (`test_a_silent_connection_is_closed_by_the_heartbeat`).
@Suite(.tags(.integration)) struct EventLoopTests {
    @Test func theServerWaitsOnEpollAndStillServes() async throws {
        let opened = Mutex<[ConnectionID]>([])
        let received = Mutex<[String]>([])
        var configuration = WebSocketServerConfiguration()
        configuration.port = 0
        configuration.fragmentSize = 1_024
        let server = WebSocketServer(configuration: configuration) { event in
            switch event {
            case let .opened(id, _, _, _): opened.withLock { $0.append(id) }
            case let .message(_, bytes, binary: false): received.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
            default: break
            }
        }
        let port = try server.start()
        defer { server.stop() }
        #expect(server.eventLoop == .epoll)
        let clients = try await (0..<3).asyncMap { _ in try await WebSocketClient.connect(port: port) }
        defer { for client in clients { client.close() } }
        var ids: [ConnectionID] = []
        for _ in 0..<500 where ids.count < 3 {
            ids = opened.withLock { $0 }
            if ids.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(ids.count == 3)
        for (k, client) in clients.enumerated() { client.send("from \(k)") }
        for _ in 0..<500 where received.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(Set(received.withLock { $0 }) == ["from 0", "from 1", "from 2"])
        // Sent from this thread (posted to the service thread, which wakes for it):
        // one short message each, written at once, and a long one queued and written
        // a fragment per writable turn.
        let long = String(repeating: "x", count: 10_000)
        for (k, id) in ids.enumerated() {
            server.send(Array("to \(k)".utf8), to: id)
            server.send(Array(long.utf8), to: id)
        }
        for client in clients {
            let first = try await client.receive().text
            let second = try await client.receive().text
            #expect(first?.hasPrefix("to ") == true)
            #expect(second == long)
        }
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
