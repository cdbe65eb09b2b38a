import Foundation
import WebSocketTransport

/// Loopback benchmarks against the real server (release build, started here).
enum NetworkBench {
    /// Starts `collection-server` (next to this binary) on a kernel-picked port.
    final class Server {
        let process = Process()
        let port: Int
        private let stdin = Pipe(), stdout = Pipe()

        /// `binary`: another build's server (default: the one next to this binary).
        init(_ arguments: [String], binary other: String? = nil) throws {
            let binary = other.map { URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("collection-server")
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
        // NET_COMPARE=<another collection-server>: that server against this one, round by round.
        if let other = ProcessInfo.processInfo.environment["NET_COMPARE"] {
            return (lines + (try await compare(with: other))).joined(separator: "\n")
        }
        let server = try Server(serverArguments)
        defer { server.stop() }
        // NET_ONLY=width: only the fan-out with a width each (for a profiler).
        if ProcessInfo.processInfo.environment["NET_ONLY"] == "width" {
            return (lines + (try await fanOut(server: server, label: "a width each (nothing shared)", width: { 300 + $0 }))).joined(separator: "\n")
        }
        // NET_ONLY=shared: only the fan-out with one viewport for all.
        if ProcessInfo.processInfo.environment["NET_ONLY"] == "shared" {
            return (lines + (try await fanOut(server: server, label: "one viewport for all", width: { _ in 320 }))).joined(separator: "\n")
        }
        // (a) Round trip: our protocol vs a plain echo on the same server.
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

    /// The servers' options for every network bench.
    static let serverArguments = ["--demo", "small", "--echo", "--rate-limit", "1000000", "--output-rate", "1000000", "--time-share", "1"]

    /// Rounds of each pace of the fan-out (odd: the median is one of them).
    static let rounds = 5

    /// The paces of the fan-out: edits a round, and the interval between edits (nil:
    /// as fast as possible). A core idle between batches takes longer over each (its
    /// caches and clock go cold): the slower the pace, the more CPU a delivery costs.
    /// `NET_PACE=<start of a name>` keeps the paces so named (for a profiler).
    static let paces: [(name: String, edits: Int, interval: Duration?)] = {
        let all: [(name: String, edits: Int, interval: Duration?)] = [
            ("50 edits/s", 100, .milliseconds(20)), ("200 edits/s", 200, .milliseconds(5)), ("as fast as possible", 200, nil),
        ]
        guard let only = ProcessInfo.processInfo.environment["NET_PACE"] else { return all }
        return all.filter { $0.name.hasPrefix(only) }
    }()

    /// 200 viewers (viewer `k` is `width(k)` wide) and an editor: each pace in rounds.
    /// The figure per CPU-second is the rounds' median, with their range: this
    /// machine's other tenants slow one round in several by a quarter or more, for a
    /// few seconds at a time.
    static func fanOut(server: Server, label: String, width: @escaping (Int) -> Int) async throws -> [String] {
        let rig = try await FanOutRig(server: server, width: width)
        defer { rig.close() }
        var rows: [String] = []
        for pace in paces {
            var latencies: [Double] = []
            var wall = 0.0, deliveries = 0
            var perCPUSecond: [Double] = []
            for _ in 0..<rounds {
                let p = try await rig.round(edits: pace.edits, interval: pace.interval)
                latencies += p.latencies
                wall += p.wall
                deliveries += p.deliveries
                perCPUSecond.append(p.perCPUSecond)
            }
            rows.append(row([label + ", " + pace.name, "\(rounds) × \(pace.edits)", formatTime(percentile(latencies, 0.5)), formatTime(percentile(latencies, 0.99)),
                             String(format: "%.0f", Double(deliveries) / wall), medianAndRange(perCPUSecond)]))
        }
        return rows
    }

    /// "median (lowest-highest)".
    static func medianAndRange(_ values: [Double]) -> String {
        let v = values.sorted()
        return String(format: "%.0f (%.0f-%.0f)", v[v.count / 2], v[0], v[v.count - 1])
    }

    /// This build's server and another's, each with its 200 viewers at 200 widths,
    /// their rounds interleaved (one on each in turn, the first alternating): a
    /// few seconds apart, both meet the machine as it is then, which runs of one
    /// server after the other's did not (a pair's second run did better by itself).
    /// Run twice, the servers started and their viewers connected in one order and
    /// then the other: a build compared with itself came out ahead in the slot it
    /// was given (up to 9%).
    static func compare(with other: String) async throws -> [String] {
        let pairs = max(1, Int(ProcessInfo.processInfo.environment["NET_ROUNDS"] ?? "") ?? 9)
        var x = [[Double]](repeating: [], count: paces.count), y = x
        for oursFirst in [true, false] {
            let first = try Server(serverArguments, binary: oursFirst ? nil : other)
            let second = try Server(serverArguments, binary: oursFirst ? other : nil)
            defer { first.stop(); second.stop() }
            let firstRig = try await FanOutRig(server: first, width: { 300 + $0 })
            let secondRig = try await FanOutRig(server: second, width: { 300 + $0 })
            defer { firstRig.close(); secondRig.close() }
            let (theirs, ours) = oursFirst ? (secondRig, firstRig) : (firstRig, secondRig)
            for (p, pace) in paces.enumerated() {
                for k in 0..<pairs {
                    if k % 2 == 0 {
                        x[p].append(try await theirs.round(edits: pace.edits, interval: pace.interval).perCPUSecond)
                        y[p].append(try await ours.round(edits: pace.edits, interval: pace.interval).perCPUSecond)
                    } else {
                        y[p].append(try await ours.round(edits: pace.edits, interval: pace.interval).perCPUSecond)
                        x[p].append(try await theirs.round(edits: pace.edits, interval: pace.interval).perCPUSecond)
                    }
                }
            }
        }
        var rows = [row(["a width each, deliveries per server CPU-second, 2 × \(pairs) rounds each", "other (NET_COMPARE): median (range)", "this build: median (range)",
                         "this / other, round by round: median (range)", "this build ahead"]),
                    row(["---", "---:", "---:", "---:", "---:"])]
        for (p, pace) in paces.enumerated() {
            let ratios = zip(y[p], x[p]).map { $0 / $1 }.sorted()
            rows.append(row([pace.name, medianAndRange(x[p]), medianAndRange(y[p]),
                             String(format: "%.3f (%.3f-%.3f)", ratios[ratios.count / 2], ratios[0], ratios[ratios.count - 1]),
                             "\(zip(y[p], x[p]).filter { $0 > $1 }.count) of \(ratios.count)"]))
        }
        return rows
    }
}
