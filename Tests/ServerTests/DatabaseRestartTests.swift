import CollectionProtocol
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// Two nodes while their PostgreSQL server restarts under edits: no node hangs.
/// (A node once deadlocked here: its service thread held the store's lock waiting
/// for postgres-nio's event loop, which waited for that lock in a callback.)
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)), .tags(.process, .postgres))
struct DatabaseRestartTests {
    /// What the editors saw: each acknowledged op with its number and its edit, the
    /// slowest answer, and the ops never answered.
    final class Record: Sendable {
        struct State {
            var acked: [String: (seq: Int, edit: String)] = [:]
            var ackedAfter: [Int: Int] = [:]   // node → acks since `mark`
            var slowest = 0.0
            var unanswered: [String] = []
            var refused: [String: Int] = [:]
            var reconnects = 0
        }
        let state = Mutex(State())
        let stop = Atomic<Bool>(false)
    }

    @Test func restartingPostgresUnderEditsHangsNoNodeAndLosesNothing() async throws {
        let database = try TestPostgres.launch()
        defer { database.shutdown() }
        let url = try database.makeDatabase("restarts")
        let servers = try (0..<2).map { i in
            try ServerProcess(["--postgres", url, "--node-id", "n\(i)", "--demo", "small", "--ticket-interval", "0",
                               "--rate-limit", "100000", "--time-share", "1"])
        }
        defer { servers.forEach { $0.stop() } }
        let probe = try await TestViewer.connect(port: servers[0].port)
        try await probe.hello(wantOrder: true)
        let ids = (probe.mirror.order ?? []).flatMap { $0 }
        try #require(!ids.isEmpty)
        let record = Record()
        let answerLimit = 20.0 * timeoutScale

        // Six editors, three on each node, each sending its next edit once the last is answered.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for e in 0..<6 {
                let node = e % 2
                let port = servers[node].port
                group.addTask {
                    var viewer = try await TestViewer.connect(port: port)
                    try await viewer.hello(wantOrder: true, timeout: scaled(20))
                    var k = 0
                    while !record.stop.load(ordering: .relaxed) {
                        let op = "e\(e)-\(k)"
                        let edit = #"{"type":"move","op":"\#(op)","item":"\#(ids[(e * 7 + k * 13) % ids.count])","section":"\#(["summer", "mountains", "city"][k % 3])"}"#
                        let sent = ContinuousClock.now
                        viewer.send(edit)
                        var reply: ServerMessage?
                        while reply == nil {
                            do {
                                reply = try await viewer.next(where: {
                                    switch $0 {
                                    case .ack(let o, _), .reject(let o, _, _): o == op
                                    default: false
                                    }
                                }, timeout: .seconds(answerLimit))
                            } catch where viewer.socket.isClosed {
                                // Closed by the server (it read the collection again): come
                                // back, resume, and send the edit again, as a page does.
                                let kept = viewer.mirror
                                viewer = try await TestViewer.connect(port: port, mirror: kept)
                                try await viewer.hello(wantOrder: true, lastSeq: kept.seq, epoch: kept.epoch, timeout: scaled(20))
                                record.state.withLock { $0.reconnects += 1 }
                                viewer.send(edit)
                            } catch {
                                record.state.withLock { $0.unanswered.append(op) }
                                return
                            }
                        }
                        let took = Double((ContinuousClock.now - sent).components.seconds) + Double((ContinuousClock.now - sent).components.attoseconds) / 1e18
                        record.state.withLock { s in
                            s.slowest = max(s.slowest, took)
                            if case .ack(_, let seq) = reply {
                                s.acked[op] = (seq, edit)
                                s.ackedAfter[node, default: 0] += 1
                            } else if case .reject(_, let code, _) = reply {
                                s.refused[code.rawValue, default: 0] += 1
                            }
                        }
                        // Paced (about 40 edits a second each): what is checked below stays
                        // within the ops a node remembers (``HubLimits/rememberedOps``).
                        try await Task.sleep(for: .milliseconds(25))
                        k += 1
                    }
                }
            }
            group.addTask {
                defer { record.stop.store(true, ordering: .relaxed) }
                for round in 0..<3 {
                    // Edits flow on both nodes, then the database restarts under them.
                    record.state.withLock { $0.ackedAfter = [:] }
                    let flowing = await eventually(within: 30 * timeoutScale) {
                        record.state.withLock { s in (s.ackedAfter[0] ?? 0) >= 30 && (s.ackedAfter[1] ?? 0) >= 30 || !s.unanswered.isEmpty }
                    }
                    #expect(flowing, "round \(round): edits flow on both nodes (before the restart, or after the last)")
                    guard flowing, record.state.withLock({ $0.unanswered.isEmpty }) else { return }
                    try database.restart()
                }
                // Back within 15 s: each node healthy, and edits acknowledged on both.
                record.state.withLock { $0.ackedAfter = [:] }
                let back = await eventually(within: 15 * timeoutScale) {
                    record.state.withLock { s in (s.ackedAfter[0] ?? 0) > 0 && (s.ackedAfter[1] ?? 0) > 0 }
                }
                #expect(back, "both nodes take edits within 15 s of the last restart")
                for server in servers {
                    let healthy = await eventually(within: 15 * timeoutScale) { (try? rawGET(port: server.port, path: "/healthz").status) == 200 }
                    #expect(healthy, "/healthz answers 200 again")
                }
            }
            try await group.waitForAll()
        }

        let seen = record.state.withLock { $0 }
        #expect(seen.unanswered.isEmpty, "edits never answered within \(answerLimit) s: \(seen.unanswered)")
        #expect(seen.slowest < answerLimit)
        // Refused only as unavailable while the database was away.
        #expect(Set(seen.refused.keys).isSubset(of: ["unavailable"]), "\(seen.refused)")
        print("database restarts: \(seen.acked.count) edits acknowledged, \(seen.refused) refused, \(seen.reconnects) reconnects, slowest answer \(String(format: "%.2f", seen.slowest)) s")

        // SIGTERM is clean on both, within 5 s.
        for server in servers {
            server.terminate()
            let exited = await eventually(within: 5) { !server.process.isRunning }
            #expect(exited, "a node exits within 5 s of SIGTERM")
            if exited { #expect(server.process.terminationStatus == 0) }
        }
        // Nothing acknowledged was lost: a new node answers every acknowledged edit,
        // sent again, with its first number.
        let survivor = try ServerProcess(["--postgres", url, "--node-id", "n2", "--demo", "small", "--ticket-interval", "0",
                                          "--rate-limit", "100000", "--time-share", "1"])
        defer { survivor.stop() }
        let checker = try await TestViewer.connect(port: survivor.port)
        try await checker.hello(wantOrder: true)
        let numbers = seen.acked.values.map(\.seq)
        #expect(checker.mirror.seq >= (numbers.max() ?? 0))
        let remembered = seen.acked.filter { $0.value.seq > checker.mirror.seq - 9_000 }.sorted { $0.value.seq < $1.value.seq }
        #expect(remembered.count > 100)
        for chunk in stride(from: 0, to: remembered.count, by: 200) {
            let part = remembered[chunk..<min(chunk + 200, remembered.count)]
            for (_, kept) in part { checker.send(kept.edit) }
            for (op, kept) in part {
                let reply = try await checker.next(where: {
                    switch $0 {
                    case .ack(let o, _), .reject(let o, _, _): o == op
                    default: false
                    }
                }, timeout: scaled(10))
                #expect(reply == .ack(op: op, seq: kept.seq), "\(op) was acknowledged as \(kept.seq)")
            }
        }
        #expect(Set(numbers).count == numbers.count, "no number given twice")
    }

    @Test func aNodeStopsWithinFiveSecondsWhileItsDatabaseDoesNotAnswer() async throws {
        let database = try TestPostgres.launch()
        defer { database.shutdown() }
        let url = try database.makeDatabase("frozen")
        let server = try ServerProcess(["--postgres", url, "--node-id", "n0", "--demo", "small", "--ticket-interval", "0"])
        defer { server.stop() }
        let editor = try await TestViewer.connect(port: server.port)
        try await editor.hello(wantOrder: true)
        editor.send(#"{"type":"shuffle","op":"s0","section":"summer"}"#)
        #expect(try await editor.next("ack") == .ack(op: "s0", seq: 1))
        // The database stops answering; an edit waits on it (up to its statement
        // timeout, 10 s), holding the node's service thread, when SIGTERM comes.
        try database.freeze()
        defer { try? database.freeze(false) }
        editor.send(#"{"type":"shuffle","op":"s1","section":"summer"}"#)
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        server.terminate()
        let exited = await eventually(within: 5) { !server.process.isRunning }
        #expect(exited, "the node exits within 5 s of SIGTERM while an edit waits on its database")
        if exited { #expect(server.process.terminationStatus == 0) }
        print("stopped in \(ContinuousClock.now - start) with the database frozen")
        // The edit was not acknowledged: the page sends it again elsewhere.
        let answers = editor.received.filter { if case .ack(let op, _) = $0 { op == "s1" } else { false } }
        #expect(answers.isEmpty)
    }
}
