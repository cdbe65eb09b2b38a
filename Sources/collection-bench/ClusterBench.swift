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
        for count in 1...3 {
            let database = "bench_\(count)_\(UInt32.random(in: 0...UInt32.max))"
            try psql(host: host, "CREATE DATABASE \(database)")
            let nodes = try (0..<count).map { i in
                try NetworkBench.Server(open + ["--postgres", "postgres:///\(database)?host=\(host)&user=collections", "--node-id", "n\(i)"])
            }
            defer { nodes.forEach { $0.stop() } }
            lines.append(try await measure("\(count) node\(count == 1 ? " (viewer on the same node)" : "s"), PostgreSQL", nodes))
        }
        return lines.joined(separator: "\n")
    }

    static func measure(_ label: String, _ nodes: [NetworkBench.Server]) async throws -> String {
        let ports = nodes.map(\.port)
        let throughput = try await StorageBench.editsPerSecond(ports: ports, editors: 8, inFlight: 8, total: 4_000)
        let latencies = try await StorageBench.paced(port: ports[0], viewerPort: ports[ports.count - 1], rate: 200, edits: 1_000)
        return row([label, String(format: "%.0f", throughput),
                                 formatTime(NetworkBench.percentile(latencies, 0.5)), formatTime(NetworkBench.percentile(latencies, 0.99))])
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
