import Foundation
import Synchronization
import Testing
import WebSocketTransport

/// Clients that stop reading cannot take the server's memory: past the caps on
/// queued bytes (per address and in all) the largest backlogs are cut, and a
/// client that reads is served throughout.
@Suite(.tags(.integration)) struct SendQueueCapTests {
    /// A socket from the loopback address `source` that upgrades and never reads
    /// again, with a small receive buffer (the kernel holds little for it).
    static func nonReader(port: Int, from source: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4_096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &local) { l in withUnsafePointer(to: &remote) { r in
            l.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } == 0
                && r.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } == 0
        } }
        guard ok else { close(fd); throw TransportError.timedOut("connect from \(source)") }
        let request = Array(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                             + "Sec-WebSocket-Protocol: collection.v1\r\n\r\n").utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        return fd
    }

    @Test func nonReadersAreCutLargestFirstAndAReaderIsServed() async throws {
        let opened = Mutex<[ConnectionID]>([])
        let closed = Mutex<Set<ConnectionID>>([])
        var configuration = WebSocketServerConfiguration()
        configuration.port = 0
        configuration.maxQueuedBytes = 64 * 1_048_576   // each one's own bound is not what cuts here
        configuration.maxQueuedBytesTotal = 6 * 1_048_576
        configuration.maxQueuedBytesPerAddress = 4 * 1_048_576
        let server = WebSocketServer(configuration: configuration) { event in
            switch event {
            case let .opened(id, _, _, _): opened.withLock { $0.append(id) }
            case let .closed(id): _ = closed.withLock { $0.insert(id) }
            default: break
            }
        }
        let port = try server.start()
        defer { server.stop() }
        // Six that never read, three from each of two addresses; then one that reads.
        var herd: [Int32] = []
        for k in 0..<6 { herd.append(try Self.nonReader(port: port, from: k < 3 ? "127.0.0.2" : "127.0.0.3")) }
        defer { herd.forEach { close($0) } }
        #expect(await waitFor { opened.withLock { $0.count } == 6 })
        let reader = try await WebSocketClient.connect(port: port)
        defer { reader.close() }
        #expect(await waitFor { opened.withLock { $0.count } == 7 })
        let ids = opened.withLock { $0 }
        let herdIDs = Set(ids.prefix(6)), readerID = ids[6]
        // 80 messages of 128 KiB to everyone: 10 MiB each, 60 MiB for the herd (the
        // kernel holds a few MiB of each), over both caps.
        let message = [UInt8](repeating: UInt8(ascii: "x"), count: 131_072)
        var got = 0
        for _ in 0..<80 {
            for id in ids { server.send(message, to: id) }
            let m = try await reader.receive(timeout: .seconds(10))
            if m.text?.count == 131_072 { got += 1 }
        }
        print("peak \(server.peakQueuedBytes) now \(server.queuedBytes) closed \(closed.withLock { $0.count })")
        #expect(got == 80, "the reader got every message")
        #expect(server.peakQueuedBytes <= configuration.maxQueuedBytesTotal, "\(server.peakQueuedBytes) bytes waited at once")
        // Most of the herd was cut off (their backlogs grew past the caps), never the reader.
        #expect(await waitFor { closed.withLock { $0.intersection(herdIDs).count } >= 4 }, "cut: \(closed.withLock { $0 })")
        #expect(!closed.withLock { $0.contains(readerID) })
        // What the cut connections held is gone from the count.
        #expect(await waitFor { server.queuedBytes <= configuration.maxQueuedBytesTotal })
    }

    func waitFor(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
