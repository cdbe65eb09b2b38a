import ProjectTestSupport
import Foundation
import Synchronization

/// Many WebSocket viewers served by one thread polling their sockets: the fan-out
/// benchmark's audience. With a thread per client (``WebSocketClient``) every
/// batch woke 200 client threads on the server's two cores, and the server's CPU
/// time paid for the wake-ups and the preemptions they caused, which clients on
/// other machines never cost it. Here one thread reads every socket that is
/// ready (`poll`), so the server's share is its own work and its `send`s.
///
/// A minimal client: the opening handshake, masked text frames out, unmasked
/// frames in (continuations joined, pings answered). It notes when each viewer
/// first sees each batch `seq`, and the `seq` of its welcome.
final class PolledViewers: @unchecked Sendable {
    private struct Connection {
        var fd: Int32
        var buffer: [UInt8] = []
        var message: [UInt8] = []
    }

    private var connections: [Connection] = []
    private let clock = ContinuousClock()
    /// Per viewer: when each batch arrived, and the welcome's seq.
    private let seen: Mutex<(arrivals: [[Int: ContinuousClock.Instant]], welcome: [Int?])>
    private let running = Atomic<Bool>(true)
    private var thread: Thread?

    /// Connects `count` viewers to `port` and says hello with `hello(k)` for viewer `k`.
    init(port: Int, count: Int, hello: (Int) -> String) throws {
        seen = Mutex((Array(repeating: [:], count: count), Array(repeating: nil, count: count)))
        for k in 0..<count {
            let fd = try Self.open(port: port)
            connections.append(Connection(fd: fd))
            Self.sendText(fd, hello(k))
        }
        let thread = Thread { [self] in serve() }
        thread.name = "polled-viewers"
        self.thread = thread
        thread.start()
    }

    /// The welcome seq of every viewer, once all have one.
    func welcomes(timeout: Duration = .seconds(30)) async throws -> [Int] {
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let w = seen.withLock { $0.welcome }
            if w.allSatisfy({ $0 != nil }) { return w.map { $0! } }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "viewers were not all welcomed"])
    }

    /// When each viewer saw batches `seqs`, once every viewer saw them all.
    func arrivals(of seqs: ClosedRange<Int>, timeout: Duration = .seconds(120)) async throws -> [[Int: ContinuousClock.Instant]] {
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let done = seen.withLock { s in s.arrivals.allSatisfy { a in seqs.allSatisfy { a[$0] != nil } } }
            if done { return seen.withLock { $0.arrivals } }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "viewers did not see every batch"])
    }

    func close() {
        running.store(false, ordering: .relaxed)
        while thread?.isFinished == false { usleep(1_000) }
        for c in connections { Glibc.close(c.fd) }
    }

    private func serve() {
        var fds = connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while running.load(ordering: .relaxed) {
            guard poll(&fds, nfds_t(fds.count), 50) > 0 else { continue }
            for k in fds.indices where fds[k].revents != 0 {
                while true {
                    let got = read(connections[k].fd, &chunk, chunk.count)
                    guard got > 0 else { break }
                    connections[k].buffer.append(contentsOf: chunk[0..<got])
                    if got < chunk.count { break }
                }
                frames(k)
            }
        }
    }

    /// Takes every whole frame out of viewer `k`'s buffer.
    private func frames(_ k: Int) {
        var c = connections[k]
        var at = 0
        let b = c.buffer
        while b.count - at >= 2 {
            let fin = b[at] & 0x80 != 0, opcode = b[at] & 0x0F
            var length = Int(b[at + 1] & 0x7F), header = 2
            if length == 126 {
                guard b.count - at >= 4 else { break }
                length = Int(b[at + 2]) << 8 | Int(b[at + 3])
                header = 4
            } else if length == 127 {
                guard b.count - at >= 10 else { break }
                length = (0..<8).reduce(0) { $0 << 8 | Int(b[at + 2 + $1]) }
                header = 10
            }
            guard b.count - at >= header + length else { break }
            let payload = b[(at + header)..<(at + header + length)]
            at += header + length
            switch opcode {
            case 0x0, 0x1, 0x2:
                if opcode != 0 { c.message = [] }
                c.message.append(contentsOf: payload)
                if fin { deliver(k, c.message) }
            case 0x9:
                Self.send(c.fd, opcode: 0xA, Array(payload))
            default:
                break
            }
        }
        c.buffer.removeFirst(at)
        connections[k] = c
    }

    private func deliver(_ k: Int, _ message: [UInt8]) {
        let now = clock.now
        let batch = Array(#"{"type":"batch","seq":"#.utf8)
        if message.starts(with: batch) {
            let seq = message.dropFirst(batch.count).prefix { $0 >= 0x30 && $0 <= 0x39 }.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            seen.withLock { if $0.arrivals[k][seq] == nil { $0.arrivals[k][seq] = now } }
        } else if message.starts(with: Array(#"{"type":"welcome""#.utf8)) {
            let seq = (try? JSONSerialization.jsonObject(with: Data(message)) as? [String: Any])?["seq"] as? Int ?? 0
            seen.withLock { $0.welcome[k] = seq }
        }
    }

    /// A blocking connection through the opening handshake, then non-blocking.
    private static func open(port: Int) throws -> Int32 {
        guard let fd = connectLoopback(port: port) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "connect failed"])
        }
        let request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: collection.v1\r\n\r\n"
        writeAll(fd, Array(request.utf8))
        // The answer ends with an empty line; the server says nothing more before a hello.
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while !answer.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard read(fd, &byte, 1) == 1 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "handshake failed"]) }
            answer.append(byte)
        }
        guard String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "handshake refused"])
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    private static func sendText(_ fd: Int32, _ text: String) { send(fd, opcode: 0x1, Array(text.utf8)) }

    /// One masked frame (RFC 6455: a client masks everything it sends).
    private static func send(_ fd: Int32, opcode: UInt8, _ payload: [UInt8]) {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        writeAll(fd, frame)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var at = 0
        while at < bytes.count {
            let n = bytes[at...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n > 0 { at += n } else if errno != EAGAIN && errno != EINTR { return }
        }
    }
}
