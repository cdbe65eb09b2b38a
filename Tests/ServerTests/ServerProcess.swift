import ProjectTestSupport
import Foundation
import Testing

/// The real `collection-server` binary, started on 127.0.0.1 with port 0. It
/// stops when `stop()` is called, and by itself if this process dies (its
/// stdin is a pipe we hold; it exits at EOF).
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let scheme: String
    private let stdin = Pipe()
    private let stdout = Pipe()

    /// Starts the server with `arguments`; as the user `user` (a uid) when given,
    /// through setpriv (the test runs as root, which no file permission stops).
    init(_ arguments: [String] = [], user: UInt32? = nil) throws {
        let binary = ServerProcess.binaryURL
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ServerError.message("collection-server not built at \(binary.path)")
        }
        // Nothing is kept on disk unless the test gives a data folder.
        let keep = arguments.contains("--data") || arguments.contains("--postgres") ? [] : ["--in-memory"]
        // A test's `hello` once waited ten seconds for a cooperative thread (test clients
        // decoding queued messages without suspending; TestViewer now yields), and the
        // server's 10-second pre-hello limit closed it. The limit itself is tested
        // in-process (HelloTimeoutTests); here it is a minute, a margin for slow machines.
        let patience = arguments.contains("--hello-timeout") ? [] : ["--hello-timeout", "60"]
        let all = ["--host", "127.0.0.1", "--port", "0", "--exit-on-stdin-eof", "--log-level", "warning"] + keep + patience + arguments
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", binary.path] + all
        } else {
            process.executableURL = binary
            process.arguments = all
        }
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // The first line says where it listens.
        var line = [UInt8]()
        let handle = stdout.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let b = byte.first else { throw ServerError.message("server exited before listening") }
            if b == UInt8(ascii: "\n") { break }
            line.append(b)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let match = text.wholeMatch(of: /listening on (https?):\/\/127\.0\.0\.1:(\d+)\//), let port = Int(match.2) else {
            throw ServerError.message("unexpected first line: \(text)")
        }
        self.port = port
        scheme = String(match.1)
    }

    /// SIGTERM, then wait up to 10 s (SIGKILL after that); returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                while process.isRunning { usleep(10_000) }
            }
        }
        return process.terminationStatus
    }

    /// SIGKILL: no chance to commit or close anything.
    func crash() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Whether it runs, or how it ended (for failure messages).
    var state: String {
        if process.isRunning { return "the server runs" }
        return "the server ended: \(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus)"
    }

    /// SIGTERM only; the server is left to finish by itself.
    func terminate() { process.terminate() }

    /// Waits up to `seconds` for the process to exit; its status, or nil if it still runs.
    func waitForExit(within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit { stop() }

    static var binaryURL: URL {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("collection-server")
    }
}

enum ServerError: Error, CustomStringConvertible {
    case message(String)
    var description: String {
        if case .message(let m) = self { return m }
        return "server error"
    }
}

/// A plain HTTP/1.1 GET over a socket, so that paths go out exactly as written.
func rawGET(port: Int, path: String) throws -> (status: Int, headers: String, body: String) {
    guard let fd = connectLoopback(port: port) else { throw ServerError.message("connect failed") }
    defer { close(fd) }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    var response = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        response += buffer[0..<n]
    }
    let text = String(decoding: response, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    let head = parts.first ?? ""
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, head, parts.dropFirst().joined(separator: "\r\n\r\n"))
}
