import ProjectTestSupport
import Foundation

/// A WebSocket client on a bare socket, for what a library client cannot do:
/// several frames in one write, so that the server reads them in one turn.
final class RawWebSocket {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port` (from the loopback address `source`, when
    /// given) and upgrades /ws with subprotocol collection.v1 (and the header
    /// lines `headers`, each ending in CRLF).
    init(port: Int, from source: String? = nil, headers: String = "") throws {
        guard let fd = connectLoopback(port: port, from: source) else { throw CocoaError(.fileReadUnknown) }
        self.fd = fd
        write(Array(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                     + "Sec-WebSocket-Protocol: collection.v1\r\n" + headers + "\r\n").utf8))
        var head = [UInt8]()
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            var byte: UInt8 = 0
            guard recv(fd, &byte, 1, 0) == 1 else { throw CocoaError(.fileReadUnknown) }
            head.append(byte)
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else { throw CocoaError(.fileReadUnknown) }
    }

    /// Masked text frames, all in one write.
    func send(_ messages: [String]) {
        var bytes: [UInt8] = []
        for message in messages {
            let payload = Array(message.utf8)
            precondition(payload.count < 126)
            let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            bytes += [0x81, 0x80 | UInt8(payload.count)] + mask
            bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        }
        write(bytes)
    }

    private func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Reads until `marker` was seen `count` times (in frames' payloads, read as text).
    func read(until marker: String, count: Int) -> Bool {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65536)
        while text.components(separatedBy: marker).count - 1 < count {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return false }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return true
    }

    /// The code of the close frame the server sends (nil: the socket ended, or
    /// none came within the socket's 5 s).
    func closeCode() -> Int? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // Frames from the server are unmasked; a close frame's payload starts with its code.
            var at = 0
            while at + 2 <= data.count {
                let opcode = data[at] & 0x0f
                var length = Int(data[at + 1] & 0x7f)
                var start = at + 2
                if length == 126 {
                    guard at + 4 <= data.count else { break }
                    length = Int(data[at + 2]) << 8 | Int(data[at + 3])
                    start = at + 4
                } else if length == 127 {
                    guard at + 10 <= data.count else { break }
                    length = (2..<10).reduce(0) { $0 << 8 | Int(data[at + $1]) }
                    start = at + 10
                }
                guard start + length <= data.count else { break }
                if opcode == 0x8 { return length >= 2 ? Int(data[start]) << 8 | Int(data[start + 1]) : 1005 }
                at = start + length
            }
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            data += buffer[0..<n]
        }
    }

    deinit { close(fd) }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
