import Foundation
import Synchronization
import WebSocketTransport

/// The server under load (release build, real sockets): memory over many batches,
/// and an ordinary viewer's latency while one client asks for the most expensive
/// answers it is allowed.
enum LoadBench {
    static func run() async throws -> String {
        var lines = ["### Under load (loopback, release server)", "", row(["figure", "goal", "result"]), row(["---", "---:", "---:"])]
        let only = ProcessInfo.processInfo.environment["LOAD_CASE"]
        if only == nil || only == "memory" { lines += try await memory() }
        if only == nil || only == "neighbour" { lines += try await noisyNeighbour() }
        if only == nil { lines += try await joins() }
        if only == nil || only == "abuse" {
            lines += try await AbuseBench.herd()
            lines += try await AbuseBench.preHelloFlood()
        }
        return lines.joined(separator: "\n")
    }

    /// Resident memory of a process, in bytes.
    static func rss(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb * 1024
    }

    /// Reads messages until one starts with `prefix`.
    static func await(_ client: WebSocketClient, prefix: String) async throws -> String {
        while true {
            if case .text(let t) = try await client.receive(timeout: .seconds(60)), t.hasPrefix(prefix) { return t }
        }
    }

    /// 200 viewers at 200 widths and 10,000 shuffles: RSS after warming up and at the end.
    static func memory() async throws -> [String] {
        // The small demo (3 albums of 12): 200 viewers × 10,000 shuffles of the photos'
        // 640-item albums would be 20 GB of JSON for this process's clients to read.
        let demo = ProcessInfo.processInfo.environment["LOAD_DEMO"] ?? "small"
        let server = try NetworkBench.Server(["--demo", demo, "--rate-limit", "1000000", "--output-rate", "1000000", "--time-share", "1"])
        defer { server.stop() }
        var viewers: [WebSocketClient] = []
        let count = Int(ProcessInfo.processInfo.environment["LOAD_VIEWERS"] ?? "") ?? 200
        // Warm: past the replay log's fill (1,000 batches kept, dropped in bulk every 1,024).
        let total = Int(ProcessInfo.processInfo.environment["LOAD_SHUFFLES"] ?? "") ?? 10_000, warmUp = total / 4
        for k in 0..<count {
            let c = try await WebSocketClient.connect(port: server.port)
            c.send(#"{"type":"hello","viewport":{"width":\#(320 + k),"height":700}}"#)
            viewers.append(c)
        }
        for c in viewers { _ = try await self.await(c, prefix: #"{"type":"welcome""#) }
        let editor = try await WebSocketClient.connect(port: server.port)
        editor.send(#"{"type":"hello","viewport":{"width":200,"height":100}}"#)
        _ = try await self.await(editor, prefix: #"{"type":"welcome""#)
        defer {
            for c in viewers { c.close() }
            editor.close()
        }
        // Every viewer reads everything it is sent; the editor lets them keep up (a
        // viewer that falls 8 MiB behind is cut off as a slow reader).
        let clients = viewers
        let progress = Progress(clients.count)
        let readers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (i, c) in clients.enumerated() {
                    group.addTask { [progress] in
                        var last = 0
                        while last < total {
                            guard case .text(let t) = try await c.receive(timeout: .seconds(120)), let seq = NetworkBench.batchSeq(t) else { continue }
                            last = seq
                            progress.set(i, seq)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var before = 0.0
        let albums = demo == "small" ? ["summer", "mountains", "city"] : ["summer", "mountains", "city", "garden"]
        for k in 0..<total {
            editor.send(#"{"type":"shuffle","op":"m\#(k)","section":"\#(albums[k % albums.count])"}"#)
            _ = try await self.await(editor, prefix: #"{"type":"ack""#)
            if (k + 1) % 50 == 0 {
                while progress.minimum < k + 1 - 50 { try await Task.sleep(for: .milliseconds(2)) }
            }
            if (k + 1) % 1_000 == 0 {
                FileHandle.standardError.write(Data("\(k + 1) shuffles: \(Int(rss(server.process.processIdentifier) / 1_048_576)) MiB\n".utf8))
            }
            if k + 1 == warmUp {
                try await Task.sleep(for: .seconds(1))
                before = rss(server.process.processIdentifier)
            }
        }
        try await readers.value
        try await Task.sleep(for: .seconds(1))
        let after = rss(server.process.processIdentifier)
        return [row(["server RSS after \(warmUp) and after \(total) shuffles (\(count) viewers at \(count) widths, demo \(demo))", "flat within 10%",
                     String(format: "%.0f MiB → %.0f MiB (%+.1f%%)", before / 1_048_576, after / 1_048_576, (after / before - 1) * 100)])]
    }

    /// One client sends its most expensive allowed messages as fast as it may (a
    /// hello with a 100,000-px viewport, a range selection over 10,000 items and its
    /// undoing, a far scroll), reading everything; another viewer scrolls, and its
    /// round trips are timed.
    static func noisyNeighbour() async throws -> [String] {
        let server = try NetworkBench.Server(["--demo", "large"])
        defer { server.stop() }
        let viewer = try await WebSocketClient.connect(port: server.port)
        viewer.send(#"{"type":"hello","viewport":{"width":1200,"height":800}}"#)
        _ = try await self.await(viewer, prefix: #"{"type":"welcome""#)
        let quiet = try await roundTrips(viewer, count: 200)
        let expensive = [
            #"{"type":"hello","viewport":{"width":100000,"height":100000},"offset":{"x":0,"y":50000}}"#,
            #"{"type":"selectRange","from":"p1","to":"p10000","replace":true}"#,
            #"{"type":"selectRange","from":"p1","to":"p10000","selected":false}"#,
            #"{"type":"scroll","offset":{"x":0,"y":4000000},"viewport":{"width":100000,"height":100000}}"#,
        ]
        let stop = StopFlag()
        let cpuBefore = server.cpuSeconds
        let port = server.port
        let sending = Task {
            var k = 0, limited = 0, answered = 0, cutOff = 0
            while !stop.isSet {
                // A few messages in flight, the next sent as each answer comes back; if
                // the server cuts the connection off, a new one goes on.
                let attacker = try await WebSocketClient.connect(port: port)
                attacker.send(expensive[0])
                for _ in 0..<3 { attacker.send(expensive[k % 4]); k += 1 }
                do {
                    while !stop.isSet {
                        guard case .text(let t) = try await attacker.receive(timeout: .seconds(30)) else { continue }
                        if t.contains(#""rate_limited""#) { limited += 1 } else { answered += 1 }
                        attacker.send(expensive[k % 4])
                        k += 1
                    }
                    attacker.close()
                } catch {
                    cutOff += 1
                }
            }
            return (answered, limited, cutOff)
        }
        try await Task.sleep(for: .seconds(1))
        let loaded = try await roundTrips(viewer, count: 500)
        stop.set()
        let (answered, limited, cutOff) = try await sending.value
        let cpu = server.cpuSeconds - cpuBefore
        viewer.close()
        return [
            row(["ordinary viewer's scroll round trip p50 / p99, alone", "", "\(formatTime(NetworkBench.percentile(quiet, 0.5))) / \(formatTime(NetworkBench.percentile(quiet, 0.99)))"]),
            row(["… while another client sends its most expensive messages (100,000 items)", "p99 ≤ 50 ms",
                 "\(formatTime(NetworkBench.percentile(loaded, 0.5))) / \(formatTime(NetworkBench.percentile(loaded, 0.99)))"]),
            row(["… that client's messages answered / dropped as over its cost / connections cut off; server CPU", "",
                 String(format: "%d / %d / %d; %.1f s in %.1f s", answered, limited, cutOff, cpu, 1 + 0.01 * 500)]),
        ]
    }

    /// 1,000 viewers join one after another, each reading everything: the server's
    /// memory and the presence traffic, then everyone leaves.
    static func joins() async throws -> [String] {
        let server = try NetworkBench.Server(["--demo", "photos", "--max-connections", "2000", "--max-connections-per-address", "2000"])
        defer { server.stop() }
        let start = rss(server.process.processIdentifier)
        let count = 1_000
        let received = Progress(count)
        var clients: [WebSocketClient] = []
        var readers: [Task<Void, Never>] = []
        for k in 0..<count {
            let c = try await WebSocketClient.connect(port: server.port)
            c.send(#"{"type":"hello","viewport":{"width":1200,"height":800}}"#)
            _ = try await self.await(c, prefix: #"{"type":"welcome""#)
            clients.append(c)
            readers.append(Task {
                var bytes = 0
                while true {
                    guard case .text(let t) = try? await c.receive(timeout: .seconds(600)) else { return }
                    if t.hasPrefix(#"{"type":"presenceChange""#) { bytes += t.utf8.count }
                    received.set(k, bytes)
                }
            })
        }
        try await Task.sleep(for: .seconds(1))
        let joined = rss(server.process.processIdentifier)
        let open = clients.filter { !$0.isClosed }.count
        let presenceBytes = received.total
        for c in clients { c.close() }
        try await Task.sleep(for: .seconds(2))
        let left = rss(server.process.processIdentifier)
        for r in readers { r.cancel() }
        return [row(["1,000 viewers join one by one, then leave: server RSS; presence bytes received by all; still connected", "",
                     String(format: "%.0f → %.0f → %.0f MiB; %.1f MB; %d of %d", start / 1_048_576, joined / 1_048_576, left / 1_048_576,
                            Double(presenceBytes) / 1e6, open, count)])]
    }

    /// Scrolls between two offsets `count` times, 100 a second (a person scrolling,
    /// well within the rate limit); the seconds each answer took.
    static func roundTrips(_ client: WebSocketClient, count: Int) async throws -> [Double] {
        var times: [Double] = []
        let clock = ContinuousClock()
        let begin = clock.now
        for k in 0..<count {
            try await Task.sleep(until: begin + .milliseconds(10 * k), clock: clock)
            let start = clock.now
            client.send(#"{"type":"scroll","offset":{"x":0,"y":\#(k % 2 == 0 ? 1600 : 0)}}"#)
            _ = try await self.await(client, prefix: #"{"type":"window""#)
            times.append(NetworkBench.seconds(clock.now - start))
        }
        return times
    }
}

/// How far each viewer has read, shared between tasks.
final class Progress: Sendable {
    private let seqs: Mutex<[Int]>
    init(_ count: Int) { seqs = Mutex([Int](repeating: 0, count: count)) }
    func set(_ index: Int, _ seq: Int) { seqs.withLock { $0[index] = seq } }
    var minimum: Int { seqs.withLock { $0.min() ?? 0 } }
    var total: Int { seqs.withLock { $0.reduce(0, +) } }
}

/// A flag set once, read from another task.
final class StopFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
