import Foundation
import WebSocketTransport

/// Several nodes on one PostgreSQL database, side by side in one run with one node
/// on SQLite: edits per second (editors spread over the nodes) and the edit →
/// viewer latency when the viewer is on another node than the editor. Needs the
/// private PostgreSQL server `make bench` starts (Tests/support/with-postgres).
enum ClusterBench {
    static func run() async throws -> String {
        guard let url = ProcessInfo.processInfo.environment["COLLECTION_TEST_POSTGRES"],
              let host = URLComponents(string: url)?.queryItems?.first(where: { $0.name == "host" })?.value else {
            return "### Cluster\n\nskipped: no PostgreSQL (run through `make bench`, which starts one)"
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cluster-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let open = ["--demo", "photos", "--rate-limit", "1000000", "--output-rate", "1000000", "--time-share", "1", "--ticket-interval", "0"]
        var lines = [
            "### Several nodes (loopback, release servers, photos demo: 2,200 items; moves of random photos; PostgreSQL 15 on a Unix socket, fsync on)", "",
            row(["setup", "edits/s, 8 editors × 8 in flight, spread over the nodes", "edit → viewer on another node, p50 at 200 edits/s", "p99"]),
            row(["---", "---:", "---:", "---:"]),
        ]
        let sqlite = try NetworkBench.Server(open + ["--data", folder])
        lines.append(try await measure("1 node, SQLite (viewer on the same node)", [sqlite]))
        sqlite.stop()
        var fanOuts = [
            "", "Fan-out over the nodes: 60 viewers per node, each at its own width (a layout per viewer), one editor sending 300 shuffles at once; every node on the same 2 cores", "",
            row(["setup", "viewers", "deliveries/s", "deliveries per core-second (the nodes' CPU)"]),
            row(["---", "---:", "---:", "---:"]),
        ]
        for count in 1...3 {
            let database = "bench_\(count)_\(UInt32.random(in: 0...UInt32.max))"
            try psql(host: host, "CREATE DATABASE \(database)")
            let nodes = try (0..<count).map { i in
                try NetworkBench.Server(open + ["--postgres", "postgres:///\(database)?host=\(host)&user=collections", "--node-id", "n\(i)"])
            }
            defer { nodes.forEach { $0.stop() } }
            lines.append(try await measure("\(count) node\(count == 1 ? " (viewer on the same node)" : "s"), PostgreSQL", nodes))
            let (perSecond, perCore) = try await fanOut(nodes, viewersPerNode: 60, edits: 300)
            fanOuts.append(row(["\(count) node\(count == 1 ? "" : "s"), PostgreSQL", "\(60 * count)",
                                String(format: "%.0f", perSecond), String(format: "%.0f", perCore)]))
        }
        return (lines + fanOuts).joined(separator: "\n")
    }

    static func measure(_ label: String, _ nodes: [NetworkBench.Server]) async throws -> String {
        let ports = nodes.map(\.port)
        let throughput = try await StorageBench.editsPerSecond(ports: ports, editors: 8, inFlight: 8, total: 4_000)
        let latencies = try await StorageBench.paced(port: ports[0], viewerPort: ports[ports.count - 1], rate: 200, edits: 1_000)
        return row([label, String(format: "%.0f", throughput),
                                 formatTime(NetworkBench.percentile(latencies, 0.5)), formatTime(NetworkBench.percentile(latencies, 0.99))])
    }

    /// `viewersPerNode` viewers on each node (viewer `k` is 300 + k wide), an editor
    /// on the first sending `edits` shuffles at once: deliveries per second, and per
    /// second of the nodes' CPU.
    static func fanOut(_ nodes: [NetworkBench.Server], viewersPerNode: Int, edits: Int) async throws -> (Double, Double) {
        var clients: [WebSocketClient] = []
        for k in 0..<viewersPerNode * nodes.count {
            let c = try await WebSocketClient.connect(port: nodes[k % nodes.count].port)
            c.send(#"{"type":"hello","viewport":{"width":\#(300 + k),"height":200},"collection":"photos"}"#)
            clients.append(c)
        }
        for c in clients {
            while true { if case .text(let t) = try await c.receive(timeout: .seconds(30)), t.hasPrefix(#"{"type":"welcome""#) { break } }
        }
        let (editor, _, sections) = try await StorageBench.join(port: nodes[0].port)
        defer {
            for c in clients { c.close() }
            editor.close()
        }
        let clock = ContinuousClock()
        let cpuBefore = nodes.map(\.cpuSeconds).reduce(0, +)
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for c in clients {
                group.addTask {
                    var seen = 0
                    while seen < edits {
                        guard case .text(let t) = try await c.receive(timeout: .seconds(120)), NetworkBench.batchSeq(t) != nil else { continue }
                        seen += 1
                    }
                }
            }
            for k in 0..<edits { editor.send(#"{"type":"shuffle","section":"\#(sections[k % sections.count])"}"#) }
            try await group.waitForAll()
        }
        let wall = NetworkBench.seconds(clock.now - start)
        let cpu = nodes.map(\.cpuSeconds).reduce(0, +) - cpuBefore
        let deliveries = Double(edits * clients.count)
        return (deliveries / wall, deliveries / max(cpu, 0.001))
    }

    static func psql(host: String, _ statement: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-h", host, "-U", "collections", "-d", "postgres", "-c", statement]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TransportError.connectFailed("psql failed: \(statement)") }
    }
}
