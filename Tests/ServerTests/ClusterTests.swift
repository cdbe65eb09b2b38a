import CollectionProtocol
import ProjectTestSupport
import Foundation
import Testing

/// Several `collection-server` processes (nodes) sharing collections through
/// PostgreSQL: the private server `make test` starts, a database per test.
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)), .tags(.process, .postgres))
struct ClusterTests {
    func order(_ v: TestViewer) -> [[String]] { v.mirror.order ?? [] }

    /// `count` nodes on the database at `url`. Stop them at the end of the test
    /// (`defer`): an optimized build may end the array's life after its last use,
    /// and a node's deinit stops it.
    func nodes(_ count: Int, url: String, _ extra: [String] = []) throws -> [ServerProcess] {
        try (0..<count).map { i in try ServerProcess(["--postgres", url, "--node-id", "n\(i)", "--demo", "small", "--ticket-interval", "0"] + extra) }
    }

    @Test func threeNodesTwentyClientsFiveHundredEditsEachConverge() async throws {
        let url = try TestPostgres.current!.makeDatabase("cluster")
        // Limits off: every edit goes to the database, none is dropped by a budget, and
        // the test process (decoding 200,000 batches for its mirrors) may read slowly.
        let servers = try nodes(3, url: url, ["--rate-limit", "100000", "--output-rate", "4096", "--time-share", "1", "--max-backlog-bytes", "536870912",
                                                "--max-queued-total", "8192", "--max-queued-per-address", "8192"])
        defer { servers.forEach { $0.stop() } }
        let clients = 20, opsEach = 500
        var viewers: [TestViewer] = []
        for c in 0..<clients {
            let v = try await TestViewer.connect(port: servers[c % 3].port)
            try await v.hello(width: 200 + Double(c) * 10, height: 100, wantOrder: true)
            viewers.append(v)
        }
        // One collection, one history: every node gives the same epoch and contents.
        #expect(Set(viewers.map(\.mirror.epoch)).count == 1)
        // Viewer ids are unique across the nodes (each node numbers its own from 1).
        let viewerIDs = viewers.compactMap(\.mirror.viewer?.id)
        #expect(Set(viewerIDs).count == clients && viewerIDs.allSatisfy { $0.hasPrefix("n0-") || $0.hasPrefix("n1-") || $0.hasPrefix("n2-") }, "\(viewerIDs)")
        let initial = order(viewers[0])
        #expect(viewers.allSatisfy { order($0) == initial })
        let sectionOf = Dictionary(uniqueKeysWithValues: initial.enumerated().flatMap { s, ids in ids.map { ($0, ["summer", "mountains", "city"][s]) } })
        let ids = initial.flatMap { $0 }
        // Each client sends its edits without waiting, while reading everything that comes.
        let answers = try await sendRandomEdits(viewers, opsEach: opsEach, ids: ids, sectionOf: sectionOf, seed: 7, timeout: 120)
        // Exactly one answer per edit; accepted edits numbered 1...n across all nodes, no gap, no repeat.
        var seqs: [Int] = []
        var codes: [String: Int] = [:]
        for (c, a) in answers {
            #expect(Set(a.keys) == Set((0..<opsEach).map { "c\(c)-\($0)" }))
            for m in a.values {
                switch m {
                case .ack(_, let seq): seqs.append(seq)
                case .reject(_, let code, _): codes[code.rawValue, default: 0] += 1
                default: break
                }
            }
        }
        #expect(seqs.sorted() == Array(1...seqs.count), "sequence numbers must have no gaps or repeats")
        // Refused only for what they name: items deleted meanwhile, moves after themselves.
        #expect(Set(codes.keys).isSubset(of: ["unknown_item", "bad_message"]), "\(codes)")
        #expect(seqs.count > clients * opsEach / 4, "many edits are accepted: \(codes)")
        // Every viewer, on whichever node, reaches the last batch (its mirror checked
        // against checksums all the way) and holds the same order as a newcomer.
        for v in viewers { try await v.wait(forSeq: seqs.count, timeout: scaled(120)) }
        for server in servers {
            let fresh = try await TestViewer.connect(port: server.port)
            try await fresh.hello(wantOrder: true)
            #expect(fresh.mirror.seq == seqs.count)
            for v in viewers { #expect(order(v) == order(fresh)) }
        }
        print("cluster: 3 nodes, \(clients) × \(opsEach) edits, \(seqs.count) accepted, rejected \(codes)")
    }

    @Test func aNodeKilledMidRunLosesNoAcknowledgedEditAndItsViewersResumeElsewhere() async throws {
        let url = try TestPostgres.current!.makeDatabase("killed")
        let servers = try nodes(2, url: url, ["--rate-limit", "100000", "--time-share", "1", "--replay-log", "4000"])
        defer { servers.forEach { $0.stop() } }
        let editor = try await TestViewer.connect(port: servers[0].port)
        try await editor.hello(wantOrder: true)
        let watcher = try await TestViewer.connect(port: servers[1].port)
        try await watcher.hello(wantOrder: true)
        let epoch = try #require(editor.mirror.epoch)
        let ids = order(editor).flatMap { $0 }
        // A stream of edits; the node is killed once a few are acknowledged, while
        // the rest are in flight (some committed and not yet answered, some not sent on).
        // Most are sent late, and the kill comes at the first of their acks: sent all
        // at first, a node answered every one while this test, on two busy cores,
        // waited for its first acks.
        func edit(_ k: Int) -> String { #"{"type":"move","op":"k\#(k)","item":"\#(ids[k % ids.count])","section":"\#(k % 2 == 0 ? "city" : "summer")"}"# }
        let total = 2_000, first = 100
        for k in 0..<first { editor.send(edit(k)) }
        var acked: [String: Int] = [:]
        while acked.count < 10 {
            if case .ack(let op, let seq) = try await editor.next("ack", timeout: scaled(30)) { acked[op] = seq }
        }
        for k in first..<total { editor.send(edit(k)) }
        while true {
            guard case .ack(let op, let seq) = try await editor.next("ack", timeout: scaled(30)) else { continue }
            acked[op] = seq
            if let k = Int(op.dropFirst()), k >= first { break }
        }
        servers[0].crash()
        // Whatever else was acknowledged before the connection went.
        while let m = try? await editor.receiveOne(timeout: .milliseconds(500)) {
            if case .ack(let op, let seq) = m { acked[op] = seq }
        }
        #expect(acked.count < total, "the node was killed before it answered every edit")
        let kept = editor.mirror
        // The editor comes back on the other node and resumes from its last batch.
        let back = try await TestViewer.connect(port: servers[1].port, mirror: kept)
        // (Generous waits here and below: the whole suite runs at once on two cores.)
        let answer = try await back.hello(wantOrder: true, lastSeq: kept.seq, epoch: epoch, timeout: scaled(60))
        #expect(answer.type == "resume", "a viewer of a dead node resumes on another: \(answer.type)")
        // It sends every edit again, as a client does with those it holds unanswered:
        // each acknowledged one is answered as the same edit, with its first number
        // (it was kept); the others are taken now, or were kept unanswered.
        var numbers: [Int] = []
        for k in 0..<total {
            back.send(edit(k))
            let reply = try await back.next(where: { $0.type == "ack" || $0.type == "reject" }, timeout: scaled(30))
            guard case .ack(let op, let seq) = reply else { Issue.record("k\(k): \(reply)"); continue }
            if let first = acked[op] { #expect(seq == first, "\(op) was acknowledged as \(first), then \(seq)") }
            numbers.append(seq)
        }
        #expect(numbers.sorted() == Array(1...total), "one batch per edit, numbered with no gap")
        print("node killed: \(acked.count) of \(total) edits acknowledged before, the rest answered by the survivor")
        // The survivor goes on numbering after the last kept batch; both viewers agree.
        back.send(#"{"type":"shuffle","op":"after","section":"summer"}"#)
        guard case .ack(_, let last) = try await back.next("ack", timeout: scaled(30)) else { return }
        #expect(last > (acked.values.max() ?? 0))
        try await watcher.wait(forSeq: last, timeout: scaled(60))
        try await back.wait(forSeq: last, timeout: scaled(60))
        #expect(order(watcher) == order(back))
    }

    @Test func editsAreRefusedWhilePostgresIsDownAndWorkAgainAfter() async throws {
        let database = try TestPostgres.launch()
        defer { database.shutdown() }
        let url = try database.makeDatabase("restart")
        let servers = try nodes(2, url: url)
        defer { servers.forEach { $0.stop() } }
        let editor = try await TestViewer.connect(port: servers[0].port)
        try await editor.hello(wantOrder: true)
        let watcher = try await TestViewer.connect(port: servers[1].port)
        try await watcher.hello(width: 300, height: 200, wantOrder: true)
        editor.send(#"{"type":"shuffle","op":"s0","section":"summer"}"#)
        #expect(try await editor.next("ack") == .ack(op: "s0", seq: 1))
        try await watcher.wait(forSeq: 1)

        // Each node says it is fit to serve, and which node it is.
        let healthy = try rawGET(port: servers[1].port, path: "/healthz")
        #expect(healthy.status == 200 && healthy.body == "ready\nnode n1\ndatabase: reachable\n", "\(healthy)")

        try database.stop()
        editor.send(#"{"type":"shuffle","op":"s1","section":"summer"}"#)
        guard case .reject(let op, let code, let message) = try await editor.next(where: { $0.type == "ack" || $0.type == "reject" }, timeout: scaled(10)) else {
            Issue.record("an edit was accepted while PostgreSQL was down")
            return
        }
        #expect(op == "s1" && code == .unavailable && message.contains("unavailable"))
        // Viewers keep watching: a scroll is answered while the database is down.
        watcher.send(#"{"type":"scroll","offset":{"x":0,"y":40}}"#)
        _ = try await watcher.next("window")
        // Health checks see it (each node probes its connection every second), so
        // that a load balancer sends new viewers elsewhere.
        var down = try rawGET(port: servers[1].port, path: "/healthz")
        for _ in 0..<50 where down.status == 200 {
            try await Task.sleep(for: .milliseconds(100))
            down = try rawGET(port: servers[1].port, path: "/healthz")
        }
        #expect(down.status == 503 && down.body.hasPrefix("unavailable\nnode n1\ndatabase: "), "\(down)")

        try database.start()
        // Once it is back (the node reconnects, waiting at most 5 s between tries), edits work again.
        var accepted: Int?
        for k in 2..<40 where accepted == nil {
            editor.send(#"{"type":"shuffle","op":"s\#(k)","section":"summer"}"#)
            if case .ack(_, let seq) = try await editor.next(where: { $0.type == "ack" || $0.type == "reject" }, timeout: scaled(10)) {
                accepted = seq
            } else {
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        let seq = try #require(accepted, "edits never worked again after PostgreSQL came back")
        var up = try rawGET(port: servers[1].port, path: "/healthz")
        for _ in 0..<100 where up.status != 200 {
            try await Task.sleep(for: .milliseconds(100))
            up = try rawGET(port: servers[1].port, path: "/healthz")
        }
        #expect(up.status == 200, "\(up)")
        #expect(seq == 2, "the refused edits took no number")
        // The other node hears of it (its listener reconnected too).
        try await watcher.wait(forSeq: seq, timeout: scaled(20))
        try await editor.wait(forSeq: seq)
        #expect(order(watcher) == order(editor))
    }

    @Test func presenceCrossesNodesAndLeavesWithANodeThatDies() async throws {
        let url = try TestPostgres.current!.makeDatabase("presence")
        let servers = try nodes(2, url: url)
        defer { servers.forEach { $0.stop() } }
        let ana = try await TestViewer.connect(port: servers[0].port)
        try await ana.hello(name: "Ana")
        let anaID = try #require(ana.mirror.viewer?.id)
        // Ben, on the other node, hears of Ana: in his welcome, or as a join once
        // his node has heard of hers (nodes that meet tell each other who is there).
        let ben = try await TestViewer.connect(port: servers[1].port)
        let welcome = try await ben.hello(name: "Ben")
        if case .welcome(let w) = welcome, w.viewers.contains(where: { $0.id == anaID }) {
        } else {
            _ = try await ben.next(where: { if case .presenceChange(let joined, _) = $0 { joined.contains { $0.id == anaID } } else { false } }, timeout: scaled(10))
        }
        // And Ana of Ben.
        let benID = try #require(ben.mirror.viewer?.id)
        if !ana.received.contains(where: { if case .presenceChange(let joined, _) = $0 { joined.contains { $0.id == benID } } else { false } }) {
            _ = try await ana.next(where: { if case .presenceChange(let joined, _) = $0 { joined.contains { $0.id == benID } } else { false } }, timeout: scaled(10))
        }
        // Her selection and focus reach him, with her id.
        ana.send(#"{"type":"select","item":"p5","selected":true}"#)
        #expect(try await ben.next("selection", timeout: scaled(5)) == .selection(viewer: anaID, item: "p5", selected: true))
        ana.send(#"{"type":"focus","item":"p7"}"#)
        #expect(try await ben.next("focus", timeout: scaled(5)) == .focus(viewer: anaID, item: "p7"))
        // A newcomer on Ben's node sees both, with her selection and focus.
        let cleo = try await TestViewer.connect(port: servers[1].port)
        guard case .welcome(let w) = try await cleo.hello(name: "Cleo") else { Issue.record("no welcome"); return }
        #expect(Set(w.viewers.map(\.id)).isSuperset(of: [anaID, benID]))
        #expect(w.selections.contains(SelectionInfo(viewer: anaID, items: ["p5"])))
        #expect(w.focuses.contains(FocusInfo(viewer: anaID, item: "p7")))
        // Ana's node dies: within three "alive" intervals her presence goes, selection too.
        servers[0].crash()
        let left = try await ben.next(where: { if case .presenceChange(_, let left) = $0 { left.contains(anaID) } else { false } }, timeout: scaled(15))
        #expect(left == .presenceChange(joined: [], left: [anaID]))
        #expect(ben.received.contains(.selections(viewer: anaID, items: ["p5"], selected: false)))
    }
}
