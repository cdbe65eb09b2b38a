import Foundation
import WebSocketTransport

/// A server's fan-out audience: 200 viewers (viewer `k` is `width(k)` wide) read by
/// one thread, and an editor that shuffles the small demo's album in rounds.
final class FanOutRig {
    let server: NetworkBench.Server
    let viewers = 200
    private let audience: PolledViewers
    private let editor: WebSocketClient
    /// The last batch the viewers saw.
    private var after: Int

    init(server: NetworkBench.Server, width: @escaping (Int) -> Int) async throws {
        self.server = server
        // One thread reads all 200 viewers (see PolledViewers: a thread each charged the
        // server for waking them).
        audience = try PolledViewers(port: server.port, count: viewers) { k in
            #"{"type":"hello","viewport":{"width":\#(width(k)),"height":200}}"#
        }
        after = try await audience.welcomes().max() ?? 0
        editor = try await WebSocketClient.connect(port: server.port)
        editor.send(#"{"type":"hello","viewport":{"width":200,"height":100}}"#)
        while true { if case .text(let t) = try await editor.receive(), t.hasPrefix(#"{"type":"welcome""#) { break } }
    }

    func close() {
        audience.close()
        editor.close()
    }

    /// `edits` shuffles, paced by `interval` (nil: as fast as possible): the latency of
    /// each (edit → last viewer), the round's wall time, its deliveries, and the
    /// deliveries per second of the server's CPU time over the round.
    func round(edits: Int, interval: Duration?) async throws -> (latencies: [Double], wall: Double, deliveries: Int, perCPUSecond: Double) {
        let first = after
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
        let wall = NetworkBench.seconds(arrivals.map { $0[first + edits]! }.max()! - startAll)
        let cpu = server.cpuSeconds - cpuBefore
        after += edits
        // The editor's acks and batches, read to keep its socket drained.
        var editorSaw = 0
        while editorSaw < edits {
            guard case .text(let t) = try await editor.receive(timeout: .seconds(60)) else { continue }
            if NetworkBench.batchSeq(t) != nil { editorSaw += 1 }
        }
        let latencies = (0..<edits).map { k in
            arrivals.map { NetworkBench.seconds($0[first + k + 1]! - sent[k]) }.max()!
        }
        let deliveries = edits * (viewers + 1)
        return (latencies, wall, deliveries, Double(deliveries) / max(cpu, 0.001))
    }
}
