import Foundation
import WebSocketTransport

/// Loopback benchmarks against the real server (release build, started here).
enum NetworkBench {
    /// Starts `collection-server` (next to this binary) on a kernel-picked port.
    final class Server {
        let process = Process()
        let port: Int
        private let stdin = Pipe(), stdout = Pipe()

        init(_ arguments: [String]) throws {
            let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("collection-server")
            process.executableURL = binary
            let keep = arguments.contains("--data") ? [] : ["--in-memory"]
            process.arguments = ["--port", "0", "--exit-on-stdin-eof", "--log-level", "error"] + keep + arguments
            process.standardInput = stdin
            process.standardOutput = stdout
            try process.run()
            var line = [UInt8]()
            while let b = stdout.fileHandleForReading.readData(ofLength: 1).first, b != UInt8(ascii: "\n") { line.append(b) }
            guard let p = String(decoding: line, as: UTF8.self).split(separator: ":").last.flatMap({ Int($0.dropLast()) }) else {
                throw TransportError.connectFailed("server did not start: \(String(decoding: line, as: UTF8.self))")
            }
            port = p
        }

        /// User + system CPU seconds the server has used: the nanoseconds its threads
        /// ran (`/proc/<pid>/task/*/schedstat`). `/proc/<pid>/stat` counts in ticks of
        /// 10 ms, and a paced phase uses under 0.2 s: a tick was 6% of the figure.
        var cpuSeconds: Double {
            let tasks = "/proc/\(process.processIdentifier)/task"
            if let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) {
                var nanoseconds = 0.0
                var read = 0
                for thread in threads {
                    guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
                          let ran = stat.split(separator: " ").first.flatMap({ Double($0) }) else { continue }
                    nanoseconds += ran
                    read += 1
                }
                if read > 0 && nanoseconds > 0 { return nanoseconds / 1e9 }
            }
            guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8) else { return 0 }
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// The `seq` of a batch message, found without decoding the whole message.
    static func batchSeq(_ text: String) -> Int? {
        guard text.hasPrefix(#"{"type":"batch","seq":"#) else { return nil }
        let digits = text.dropFirst(22).prefix { $0.isNumber }
        return Int(digits)
    }

    static func roundTrips(_ client: WebSocketClient, message: String, count: Int) async throws -> [Double] {
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            client.send(message)
            _ = try await client.receive()
            times.append(seconds(clock.now - start))
        }
        return times
    }

    static func run() async throws -> String {
        var lines = ["### Network (loopback, release server, Swift lws client)", ""]
        // (a) Round trip: our protocol vs a plain echo on the same server.
        let server = try Server(["--demo", "small", "--echo", "--rate-limit", "1000000", "--output-rate", "1000000", "--time-share", "1"])
        defer { server.stop() }
        // NET_ONLY=width: only the fan-out with a width each (for a profiler).
        if ProcessInfo.processInfo.environment["NET_ONLY"] == "width" {
            return (lines + (try await fanOut(server: server, label: "a width each (nothing shared)", width: { 300 + $0 }))).joined(separator: "\n")
        }
        let echo = try await WebSocketClient.connect(port: server.port, path: "/echo")
        let ours = try await WebSocketClient.connect(port: server.port)
        ours.send(#"{"type":"hello","viewport":{"width":300,"height":200}}"#)
        _ = try await ours.receive()
        let scroll = #"{"type":"scroll","offset":{"x":0,"y":0}}"#
        _ = try await roundTrips(echo, message: scroll, count: 300)
        _ = try await roundTrips(ours, message: scroll, count: 300)
        let e = try await roundTrips(echo, message: scroll, count: 3000)
        let o = try await roundTrips(ours, message: scroll, count: 3000)
        lines += [
            row(["round trip (3,000 sequential)", "p50", "p99"]), row(["---", "---:", "---:"]),
            row(["plain echo (/echo)", formatTime(percentile(e, 0.5)), formatTime(percentile(e, 0.99))]),
            row(["scroll → window through the hub", formatTime(percentile(o, 0.5)), formatTime(percentile(o, 0.99))]),
            row(["ratio", String(format: "%.2f×", percentile(o, 0.5) / percentile(e, 0.5)), ""]),
            "",
        ]

        // (b) Fan-out: 200 viewers, one editor; first with one viewport for all
        // (they share one view state), then each with a width of its own.
        lines += [
            row(["fan-out, 200 viewers + editor", "rounds × edits", "edit → last viewer p50", "p99", "deliveries/s", "deliveries per server CPU-second: median of the rounds (range)"]),
            row(["---", "---:", "---:", "---:", "---:", "---:"]),
        ]
        lines += try await fanOut(server: server, label: "one viewport for all", width: { _ in 320 })
        lines += try await fanOut(server: server, label: "a width each (nothing shared)", width: { 300 + $0 })
        return lines.joined(separator: "\n")
    }

    /// Rounds of each pace of the fan-out (odd: the median is one of them).
    static let rounds = 5

    /// 200 viewers (viewer `k` is `width(k)` wide) and an editor: two paced and a flood phase of shuffles.
    static func fanOut(server: Server, label: String, width: @escaping (Int) -> Int) async throws -> [String] {
        let viewers = 200
        // One thread reads all 200 viewers (see PolledViewers: a thread each charged the
        // server for waking them).
        let audience = try PolledViewers(port: server.port, count: viewers) { k in
            #"{"type":"hello","viewport":{"width":\#(width(k)),"height":200}}"#
        }
        let seq = try await audience.welcomes().max() ?? 0
        let editor = try await WebSocketClient.connect(port: server.port)
        editor.send(#"{"type":"hello","viewport":{"width":200,"height":100}}"#)
        while true { if case .text(let t) = try await editor.receive(), t.hasPrefix(#"{"type":"welcome""#) { break } }
        defer {
            audience.close()
            editor.close()
        }

        /// `edits` shuffles after batch `first`, paced by `interval` (nil: as fast as possible).
        func phase(edits: Int, after first: Int, interval: Duration?) async throws -> (latencies: [Double], wall: Double, deliveries: Int, cpu: Double) {
            let clock = ContinuousClock()
            let cpuBefore = server.cpuSeconds
            var sent: [ContinuousClock.Instant] = []
            let startAll = clock.now
            for k in 0..<edits {
                if let interval { try await Task.sleep(until: startAll + interval * k, clock: clock) }
                sent.append(clock.now)
                editor.send(#"{"type":"shuffle","section":"summer"}"#)
            }
            let arrivals = try await audience.arrivals(of: (first + 1)...(first + edits))
            let wall = seconds(arrivals.map { $0[first + edits]! }.max()! - startAll)
            let cpu = server.cpuSeconds - cpuBefore
            // The editor's acks and batches, read to keep its socket drained.
            var editorSaw = 0
            while editorSaw < edits {
                guard case .text(let t) = try await editor.receive(timeout: .seconds(60)) else { continue }
                if batchSeq(t) != nil { editorSaw += 1 }
            }
            let latencies = (0..<edits).map { k in
                arrivals.map { seconds($0[first + k + 1]! - sent[k]) }.max()!
            }
            return (latencies, wall, edits * (viewers + 1), cpu)
        }
        // 50 and 200 edits a second, then as fast as possible. A core idle between
        // batches takes longer over each (its caches and clock go cold): the slower
        // the pace, the more CPU a delivery costs.
        // Each pace runs in rounds, and the figure per CPU-second is the rounds'
        // median, with their range: this machine's other tenants slow one round in
        // several by a quarter or more, for a few seconds at a time.
        var rows: [String] = []
        var after = seq
        for (name, edits, interval) in [("50 edits/s", 100, Duration.milliseconds(20)), ("200 edits/s", 200, .milliseconds(5)),
                                         ("as fast as possible", 200, nil)] as [(String, Int, Duration?)] {
            var latencies: [Double] = []
            var wall = 0.0, deliveries = 0
            var perCPUSecond: [Double] = []
            for _ in 0..<rounds {
                let p = try await phase(edits: edits, after: after, interval: interval)
                after += edits
                latencies += p.latencies
                wall += p.wall
                deliveries += p.deliveries
                perCPUSecond.append(Double(p.deliveries) / max(p.cpu, 0.001))
            }
            perCPUSecond.sort()
            rows.append(row([label + ", " + name, "\(rounds) × \(edits)", formatTime(percentile(latencies, 0.5)), formatTime(percentile(latencies, 0.99)),
                             String(format: "%.0f", Double(deliveries) / wall),
                             String(format: "%.0f (%.0f-%.0f)", perCPUSecond[rounds / 2], perCPUSecond[0], perCPUSecond[rounds - 1])]))
        }
        return rows
    }
}
