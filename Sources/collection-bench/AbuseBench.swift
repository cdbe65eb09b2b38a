import ProjectTestSupport
import Foundation
import Synchronization
import WebSocketTransport

/// Clients that attack by holding on: a herd of viewers that never read, and a flood
/// of sockets that never say hello. What the server's memory does, and whether a
/// real viewer is still served.
enum AbuseBench {
    /// A socket from loopback address `source`, upgraded; `hello` is sent, then
    /// nothing is ever read. nil: refused.
    static func holdOn(port: Int, from source: String, hello: String?) -> Int32? {
        guard let fd = connectLoopback(port: port, from: source) else { return nil }
        let request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: collection.v1\r\n\r\n"
        var frame = Array(request.utf8)
        if let hello {
            // One masked text frame.
            let payload = Array(hello.utf8), mask: [UInt8] = [1, 2, 3, 4]
            frame += payload.count < 126 ? [0x81, 0x80 | UInt8(payload.count)] : [0x81, 0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        }
        _ = frame.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while !answer.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { close(fd); return nil }
            answer.append(byte)
        }
        return fd
    }

    /// Samples a process's RSS every 50 ms until stopped; the most seen.
    final class PeakRSS: Sendable {
        private let peak = Mutex(0.0)
        private let stop = Atomic<Bool>(false)
        init(_ pid: Int32) {
            Thread { [self] in
                while !stop.load(ordering: .relaxed) {
                    let now = LoadBench.rss(pid)
                    peak.withLock { $0 = max($0, now) }
                    usleep(50_000)
                }
            }.start()
        }
        func end() -> Double {
            stop.store(true, ordering: .relaxed)
            return peak.withLock { $0 }
        }
    }

    /// 250 viewers of 100,000 photos, from ten addresses, say hello with the whole
    /// order and never read, while an editor shuffles: the server's memory (its
    /// send queues are capped, 256 MiB in all) and a reading viewer's batch times.
    static func herd() async throws -> [String] {
        let server = try NetworkBench.Server(["--demo", "large", "--rate-limit", "1000000", "--output-rate", "1000000", "--time-share", "1"])
        defer { server.stop() }
        let pid = server.process.processIdentifier
        let start = LoadBench.rss(pid)
        let peak = PeakRSS(pid)
        var herd: [Int32] = []
        for k in 0..<250 {
            if let fd = holdOn(port: server.port, from: "127.0.0.\(10 + k % 10)",
                               hello: #"{"type":"hello","viewport":{"width":1200,"height":800},"wantOrder":true}"#) { herd.append(fd) }
        }
        let viewer = try await WebSocketClient.connect(port: server.port)
        let editor = try await WebSocketClient.connect(port: server.port)
        // Shuffles beside them: each batch times from the edit to the reading viewer.
        var times: [Double] = []
        var failure = ""
        let clock = ContinuousClock()
        do {
            viewer.send(#"{"type":"hello","viewport":{"width":1200,"height":800}}"#)
            _ = try await LoadBench.await(viewer, prefix: #"{"type":"welcome""#)
            editor.send(#"{"type":"hello","viewport":{"width":200,"height":100}}"#)
            _ = try await LoadBench.await(editor, prefix: #"{"type":"welcome""#)
            for k in 0..<40 {
                let sent = clock.now
                editor.send(#"{"type":"shuffle","op":"h\#(k)","section":"\#(["summer", "mountains", "city", "garden"][k % 4])"}"#)
                _ = try await LoadBench.await(viewer, prefix: #"{"type":"batch""#)
                let took = clock.now - sent
                times.append(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
            }
        } catch {
            failure = "; the reading viewer or the editor lost its connection after \(times.count) batches (\(error))"
        }
        let highest = peak.end()
        for fd in herd { close(fd) }
        viewer.close()
        editor.close()
        try await Task.sleep(for: .seconds(3))
        let after = LoadBench.rss(pid)
        return [
            row(["250 viewers that never read (hello with the whole order, 100,000 photos, 10 addresses) beside 40 shuffles: server RSS start → peak → after they left",
                 "bounded; given back", String(format: "%.0f → %.0f → %.0f MiB", start / 1_048_576, highest / 1_048_576, after / 1_048_576)]),
            row(["… a reading viewer's batch after each shuffle, p50 / p99", "",
                 times.isEmpty ? "none" + failure
                    : "\(formatTime(NetworkBench.percentile(times, 0.5))) / \(formatTime(NetworkBench.percentile(times, 0.99)))" + failure]),
        ]
    }

    /// 256 upgrades from each of four addresses that never say hello (1,024, every
    /// slot), then a viewer arrives: how long until its welcome, and the memory.
    static func preHelloFlood() async throws -> [String] {
        let server = try NetworkBench.Server(["--demo", "photos"])
        defer { server.stop() }
        let pid = server.process.processIdentifier
        let start = LoadBench.rss(pid)
        var flood: [Int32] = []
        for k in 0..<1_024 {
            if let fd = holdOn(port: server.port, from: "127.0.0.\(20 + k % 4)", hello: nil) { flood.append(fd) }
        }
        let during = LoadBench.rss(pid)
        let clock = ContinuousClock()
        let began = clock.now
        var welcomed = "refused"
        do {
            let viewer = try await WebSocketClient.connect(port: server.port)
            viewer.send(#"{"type":"hello","viewport":{"width":1200,"height":800}}"#)
            _ = try await LoadBench.await(viewer, prefix: #"{"type":"welcome""#)
            let took = clock.now - began
            welcomed = formatTime(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
            viewer.close()
        } catch {
            welcomed = "refused (\(error))"
        }
        for fd in flood { close(fd) }
        try await Task.sleep(for: .seconds(2))
        let after = LoadBench.rss(pid)
        return [row(["1,024 upgrades from 4 addresses that never say hello, then a viewer: its welcome; server RSS start → during → after",
                     "welcomed", "\(welcomed); " + String(format: "%.0f → %.0f → %.0f MiB", start / 1_048_576, during / 1_048_576, after / 1_048_576)])]
    }
}
