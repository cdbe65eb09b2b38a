import Foundation
import WebSocketTransport

/// What keeping collections in SQLite costs: edits per second into the store
/// with and without group commit, and the edit → viewer latency at 200 edits a
/// second, each beside `--in-memory`, in one run.
enum StorageBench {
    struct Setup {
        let label: String
        let arguments: [String]
    }

    static func run() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-data-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let open = ["--demo", "photos", "--rate-limit", "1000000", "--output-rate", "1000000", "--time-share", "1"]
        let setups = [
            Setup(label: "--in-memory", arguments: open),
            Setup(label: "SQLite, group commit", arguments: open + ["--data", folder + "/group"]),
            Setup(label: "SQLite, a commit per edit (--no-group-commit)", arguments: open + ["--data", folder + "/single", "--no-group-commit"]),
            Setup(label: "SQLite, group commit, --sync normal (no fsync)", arguments: open + ["--data", folder + "/normal", "--sync", "normal"]),
        ]
        var lines = [
            "### Storage (loopback, release server, photos demo: 2,200 items; edits are moves of random photos; WAL, --sync full unless said)", "",
            row(["store", "edits/s, 8 editors × 8 in flight", "edit → viewer p50 at 200 edits/s", "p99", "p50 vs in-memory"]),
            row(["---", "---:", "---:", "---:", "---:"]),
        ]
        var baseline: Double?
        for setup in setups {
            let server = try NetworkBench.Server(setup.arguments)
            defer { server.stop() }
            let throughput = try await editsPerSecond(port: server.port, editors: 8, inFlight: 8, total: 4_000)
            let latencies = try await paced(port: server.port, rate: 200, edits: 1_000)
            let p50 = NetworkBench.percentile(latencies, 0.5)
            if baseline == nil { baseline = p50 }
            lines.append(row([setup.label, String(format: "%.0f", throughput),
                                           formatTime(p50), formatTime(NetworkBench.percentile(latencies, 0.99)),
                                           String(format: "%.2f×", p50 / (baseline ?? p50))]))
        }
        return lines.joined(separator: "\n")
    }

    /// A client that said hello to the photos and knows their identifiers.
    static func join(port: Int) async throws -> (WebSocketClient, items: [String], sections: [String]) {
        let client = try await WebSocketClient.connect(port: port)
        client.send(#"{"type":"hello","viewport":{"width":300,"height":200},"wantOrder":true,"collection":"photos"}"#)
        var sections: [String] = []
        var order: [[String]] = []
        while true {
            guard case .text(let t) = try await client.receive() else { continue }
            let message = try JSONSerialization.jsonObject(with: Data(t.utf8)) as? [String: Any] ?? [:]
            if message["type"] as? String == "welcome" {
                sections = (message["sections"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                // A large order follows the welcome in parts.
                guard message["orderFollows"] as? Bool == true else { return (client, (message["order"] as? [[String]] ?? []).flatMap { $0 }, sections) }
                order = sections.map { _ in [] }
            } else if message["type"] as? String == "order", let section = message["section"] as? Int, order.indices.contains(section) {
                order[section] += message["ids"] as? [String] ?? []
                if message["last"] as? Bool == true { return (client, order.flatMap { $0 }, sections) }
            }
        }
    }

    static func move(_ k: Int, by name: String, items: [String], sections: [String]) -> String {
        let item = items[(k &* 7919 &+ name.count &* 131) % items.count]
        let section = sections[k % sections.count]
        return #"{"type":"move","op":"\#(name)-\#(k)","item":"\#(item)","section":"\#(section)"}"#
    }

    /// `editors` clients each keep `inFlight` moves unanswered until `total` are acknowledged; acks per second.
    /// (With several `ports`, the editors are spread over them.)
    static func editsPerSecond(port: Int = 0, ports: [Int]? = nil, editors: Int, inFlight: Int, total: Int) async throws -> Double {
        let ports = ports ?? [port]
        var clients: [(WebSocketClient, [String], [String])] = []
        for n in 0..<editors { clients.append(try await join(port: ports[n % ports.count])) }
        defer { for c in clients { c.0.close() } }
        let each = total / editors
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (n, (client, items, sections)) in clients.enumerated() {
                group.addTask {
                    let name = "t\(n)-\(UUID().uuidString.prefix(6))"
                    var sent = 0, answered = 0
                    while sent < min(inFlight, each) {
                        client.send(move(sent, by: name, items: items, sections: sections))
                        sent += 1
                    }
                    while answered < each {
                        guard case .text(let t) = try await client.receive(timeout: .seconds(60)) else { continue }
                        guard t.hasPrefix(#"{"type":"ack""#) || t.hasPrefix(#"{"type":"reject""#) else { continue }
                        answered += 1
                        if sent < each {
                            client.send(move(sent, by: name, items: items, sections: sections))
                            sent += 1
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(each * editors) / NetworkBench.seconds(clock.now - start)
    }

    /// One editor sends `rate` moves a second; a viewer (on `viewerPort`, another
    /// server, when given) times each batch's arrival after its edit left.
    static func paced(port: Int, viewerPort: Int? = nil, rate: Double, edits: Int) async throws -> [Double] {
        let (editor, items, sections) = try await join(port: port)
        let (viewer, _, _) = try await join(port: viewerPort ?? port)
        defer {
            editor.close()
            viewer.close()
        }
        let clock = ContinuousClock()
        let interval = Duration.seconds(1 / rate)
        let name = "p-\(UUID().uuidString.prefix(6))"
        return try await withThrowingTaskGroup(of: [ContinuousClock.Instant].self) { group in
            group.addTask {
                var arrivals: [ContinuousClock.Instant] = []
                while arrivals.count < edits {
                    guard case .text(let t) = try await viewer.receive(timeout: .seconds(60)), NetworkBench.batchSeq(t) != nil else { continue }
                    arrivals.append(clock.now)
                }
                return arrivals
            }
            // The editor's own answers are read (and dropped) as they come.
            group.addTask {
                var answers = 0
                while answers < edits {
                    guard case .text(let t) = try await editor.receive(timeout: .seconds(60)) else { continue }
                    if t.hasPrefix(#"{"type":"ack""#) || t.hasPrefix(#"{"type":"reject""#) { answers += 1 }
                }
                return []
            }
            var sent: [ContinuousClock.Instant] = []
            let start = clock.now
            for k in 0..<edits {
                try await Task.sleep(until: start + interval * k, clock: clock)
                sent.append(clock.now)
                editor.send(move(k, by: name, items: items, sections: sections))
            }
            var arrivals: [ContinuousClock.Instant] = []
            for try await a in group where !a.isEmpty { arrivals = a }
            return zip(sent, arrivals).map { NetworkBench.seconds($1 - $0) }
        }
    }
}
