import ProjectTestSupport
import Foundation

/// An HTTP answer as read off the socket.
struct RawAnswer {
    var status: Int
    /// Headers by lower-case name; repeated ones (`set-cookie`) joined by "\n".
    var headers: [String: String]
    var body: String
}

/// Raw HTTP/1.1 over a bare socket (requests as written, answers as read), on a
/// thread of its own so that a test waiting for an answer holds no thread of the
/// pool the server's handlers run on.
final class RawHTTP: @unchecked Sendable {
    private let fd: Int32

    init?(port: Int, timeout: Int = 30) {
        guard let fd = connectLoopback(port: port, timeout: timeout) else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends `request` and reads one answer (nil: the connection ended first).
    func exchange(_ request: String, head: Bool = false) async -> RawAnswer? {
        await withCheckedContinuation { continuation in
            Thread { [self] in continuation.resume(returning: blockingExchange(request, head: head)) }.start()
        }
    }

    /// Sends `request` and reads nothing.
    func send(_ request: String) {
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Whether the server closed the connection (reads nothing more).
    func isClosed() async -> Bool {
        await withCheckedContinuation { continuation in
            Thread { [fd] in
                var byte: UInt8 = 0
                continuation.resume(returning: recv(fd, &byte, 1, 0) == 0)
            }.start()
        }
    }

    private var pending: [UInt8] = []

    private func blockingExchange(_ request: String, head: Bool) -> RawAnswer? {
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ Foundation.send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        func fill() -> Bool {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return false }
            pending += buffer[0..<n]
            return true
        }
        let separator = Array("\r\n\r\n".utf8)
        var end: Int?
        while end == nil {
            if pending.count >= 4 {
                end = (0...(pending.count - 4)).first { Array(pending[$0..<$0 + 4]) == separator }
            }
            if end == nil, !fill() { return nil }
        }
        let headText = String(decoding: pending[0..<end!], as: UTF8.self)
        pending.removeFirst(end! + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + "\n" + value } ?? value
        }
        let length = head ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while pending.count < length {
            if !fill() { return nil }
        }
        let body = String(decoding: pending[0..<length], as: UTF8.self)
        pending.removeFirst(length)
        return RawAnswer(status: status, headers: headers, body: body)
    }
}

/// A request's text: `method path`, `Host`, the given header lines, and `body` with its length.
func httpRequest(_ method: String, _ path: String, port: Int, headers: [String] = [], body: String? = nil) -> String {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for header in headers { text += header + "\r\n" }
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    return text + "\r\n" + (body ?? "")
}
