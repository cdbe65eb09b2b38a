import CollectionProtocol
import ProjectTestSupport
import Foundation
import Testing
import WebSocketTransport

/// Several viewers on the real server, each with a mirror built only from what it
/// received; a mirror checks every batch against the server's counts and checksums.
@Suite(.serialized, .tags(.process)) struct SyncTests {
    func order(_ v: TestViewer) -> [[String]] { v.mirror.order ?? [] }

    /// The example in README.md.
    @Test func aMoveReachesAnotherViewer() async throws {
        let server = try ServerProcess(["--demo", "photos"])
        let port = server.port
        let a = try await TestViewer.connect(port: port)
        let b = try await TestViewer.connect(port: port)
        try await a.hello(width: 1200, height: 800, wantOrder: true)
        try await b.hello(width: 375, height: 700, wantOrder: true)

        a.send(#"{"type":"move","op":"m1","item":"p3","section":"summer"}"#)
        try await a.next("ack")
        try await b.wait(forSeq: 1)
        #expect(b.mirror.order?[0].first == "p3")
        #expect(b.mirror.element(section: 0, item: 0)?.frame == [8, 52, 177.5, 177.5])   // b's own layout
    }

    @Test func viewersOfDifferentWidthsGetTheSameEditsInOrder() async throws {
        let server = try ServerProcess(["--demo", "photos"])
        let widths: [Double] = [320, 480, 768, 1024, 1440, 1920]
        var viewers: [TestViewer] = []
        for w in widths {
            let v = try await TestViewer.connect(port: server.port)
            try await v.hello(width: w, height: 700, wantOrder: true)
            viewers.append(v)
        }
        var rng = SplitMix(seed: 1)
        for step in 1...24 {
            let editor = viewers[step % viewers.count]
            let ids = order(editor).flatMap { $0 }
            let a = ids[rng.next(ids.count)], b = ids[rng.next(ids.count)]
            let section = ["summer", "mountains", "city", "garden"][rng.next(4)]
            let edits = [
                #"{"type":"insert","op":"e\#(step)","section":"\#(section)","count":2}"#,
                #"{"type":"delete","op":"e\#(step)","items":["\#(a)"]}"#,
                #"{"type":"move","op":"e\#(step)","item":"\#(a)","section":"\#(section)"}"#,
                #"{"type":"shuffle","op":"e\#(step)","section":"\#(section)"}"#,
                #"{"type":"reload","op":"e\#(step)","items":["\#(b)"]}"#,
            ]
            editor.send(edits[step % edits.count])
            guard case .ack(let op, let seq) = try await editor.next(where: { $0.type == "ack" || $0.type == "reject" }) else {
                Issue.record("step \(step) was rejected")
                continue
            }
            #expect(op == "e\(step)" && seq == step)
            for v in viewers { try await v.wait(forSeq: step) }
            // Every mirror holds the same order (each was checked against the server's checksums).
            for v in viewers.dropFirst() { #expect(order(v) == order(viewers[0]), "step \(step)") }
        }
        // Same item, own layout: the frames differ between a narrow and a wide viewer.
        let first = order(viewers[0])[0][0]
        #expect(viewers[0].mirror.element(item: first)?.frame != viewers[5].mirror.element(item: first)?.frame)
        // A newcomer's welcome is the server's state: the mirrors equal it, order and
        // window alike (batches carry only changed elements; the rest must still be right).
        let fresh = try await TestViewer.connect(port: server.port)
        try await fresh.hello(wantOrder: true)
        #expect(order(fresh) == order(viewers[0]) && fresh.mirror.seq == 24)
        for (w, v) in zip(widths, viewers) {
            let same = try await TestViewer.connect(port: server.port)
            try await same.hello(width: w, height: 700)
            #expect(v.mirror.elements == same.mirror.elements, "width \(w)")
        }
    }

    @Test func twentyConcurrentEditorsEachGetOneAnswerPerOpAndConverge() async throws {
        // This process reads slowly for all twenty, all from one address: no cap on
        // what may wait for them (each one's own bound stays).
        let server = try ServerProcess(["--demo", "small", "--max-queued-total", "4096", "--max-queued-per-address", "4096"])
        let clients = 20, opsEach = 200
        var viewers: [TestViewer] = []
        for _ in 0..<clients {
            let v = try await TestViewer.connect(port: server.port)
            try await v.hello(width: 200, height: 100, wantOrder: true)
            viewers.append(v)
        }
        let initial = order(viewers[0])
        let sectionOf = Dictionary(uniqueKeysWithValues: initial.enumerated().flatMap { s, ids in ids.map { ($0, ["summer", "mountains", "city"][s]) } })
        let ids = initial.flatMap { $0 }
        // Each client sends its ops without waiting, while reading everything that comes.
        let answers = try await sendRandomEdits(viewers, opsEach: opsEach, ids: ids, sectionOf: sectionOf, seed: 100, timeout: 60)
        // Exactly one answer per op; accepted edits numbered 1...n with no gap or repeat.
        var seqs: [Int] = []
        for (c, a) in answers {
            #expect(Set(a.keys) == Set((0..<opsEach).map { "c\(c)-\($0)" }))
            for case .ack(_, let seq) in a.values { seqs.append(seq) }
        }
        #expect(seqs.sorted() == Array(1...seqs.count), "sequence numbers must have no gaps")
        // Every mirror reaches the last batch (checked against checksums all the way) and agrees.
        for v in viewers { try await v.wait(forSeq: seqs.count, timeout: scaled(60)) }
        let fresh = try await TestViewer.connect(port: server.port)
        try await fresh.hello(wantOrder: true)
        for v in viewers { #expect(order(v) == order(fresh)) }
        print("concurrent editors: \(clients) × \(opsEach) ops, \(seqs.count) accepted, \(clients * opsEach - seqs.count) rejected")
    }

    @Test func droppedViewersResumeShortGapsAndReloadLongOnes() async throws {
        let server = try ServerProcess(["--demo", "small", "--replay-log", "5"])
        let editor = try await TestViewer.connect(port: server.port)
        try await editor.hello()
        let dropped = try await TestViewer.connect(port: server.port)
        try await dropped.hello(width: 300, height: 200, wantOrder: true)
        let epoch = try #require(dropped.mirror.epoch)
        let kept = dropped.mirror
        dropped.socket.abort()   // no closing handshake, as a crashed tab

        for k in 0..<3 {
            editor.send(#"{"type":"insert","op":"i\#(k)","section":"city","count":1}"#)
            _ = try await editor.next("ack")
        }
        // Short gap: resumed from the log, three replayed batches, then the window.
        let back = try await TestViewer.connect(port: server.port, mirror: kept)
        let answer = try await back.hello(width: 300, height: 200, lastSeq: kept.seq, epoch: epoch)
        guard case .resume = answer else { Issue.record("expected a resume, got \(answer.type)"); return }
        #expect(back.mirror.seq == 3 && back.received.filter { $0.type == "batch" }.count == 3)
        let fresh = try await TestViewer.connect(port: server.port)
        try await fresh.hello(width: 300, height: 200, wantOrder: true)
        #expect(back.mirror.order == fresh.mirror.order)
        // The window after the resume is the one a newcomer with that viewport gets.
        #expect(!back.mirror.elements.isEmpty && back.mirror.elements == fresh.mirror.elements)

        // Long gap: more batches than the log keeps, so a full welcome.
        let again = back.mirror
        back.socket.abort()
        for k in 0..<8 {
            editor.send(#"{"type":"shuffle","op":"s\#(k)","section":"summer"}"#)
            _ = try await editor.next("ack")
        }
        let late = try await TestViewer.connect(port: server.port, mirror: again)
        let reload = try await late.hello(width: 300, height: 200, wantOrder: true, lastSeq: again.seq, epoch: epoch)
        #expect(reload.type == "welcome" && late.mirror.seq == 11)
    }

    @Test func aStalledViewerIsDroppedWithoutDelayingTheOthers() async throws {
        let server = try ServerProcess(["--demo", "photos", "--max-backlog-bytes", "300000", "--rate-limit", "1000", "--time-share", "1"])
        let stalled = try await TestViewer.connect(port: server.port)
        try await stalled.hello(width: 1920, height: 2000)
        let other = try await TestViewer.connect(port: server.port)
        try await other.hello(width: 1920, height: 2000)
        let editor = try await TestViewer.connect(port: server.port)
        try await editor.hello(width: 200, height: 100)
        stalled.socket.pauseReading()
        let edits = 150
        for k in 0..<edits {
            editor.send(#"{"type":"shuffle","op":"s\#(k)","section":"summer"}"#)
            _ = try await editor.next("ack")
            // The reading viewer keeps up, batch by batch, while the stalled one does not read.
            try await other.wait(forSeq: k + 1)
        }
        #expect(other.mirror.seq == edits)
        // The stalled viewer was cut off once its backlog passed the bound: at once,
        // with no close frame (it was not reading one); see test_transport_limits.py.
        stalled.socket.resumeReading()
        let code = try await stalled.socket.waitForClose(timeout: scaled(30))
        #expect(code == nil || code == 1006)
    }

    @Test func connectionAndRateLimitsAnswerWithTheirCodes() async throws {
        let server = try ServerProcess(["--demo", "small", "--max-connections", "2", "--rate-limit", "5"])
        let a = try await TestViewer.connect(port: server.port)
        try await a.hello()
        // Both places taken, one by a connection that said nothing: it makes room for the next.
        let silent = try await WebSocketClient.connect(port: server.port)
        let b = try await TestViewer.connect(port: server.port)
        #expect(try await silent.waitForClose() == 1008)
        try await b.hello()
        let c = try await WebSocketClient.connect(port: server.port)
        #expect(try await c.waitForClose() == 1008)
        // Rate: 5 a second, bursts of 10; the hello took one.
        for k in 0..<20 { a.send(#"{"type":"insert","op":"r\#(k)","section":"city","count":1}"#) }
        var acks = 0, limited = 0
        for _ in 0..<20 {
            switch try await a.next(where: { ["ack", "reject"].contains($0.type) }) {
            case .ack: acks += 1
            case .reject(_, .rateLimited, _): limited += 1   // an edit learns its fate by op
            default: break
            }
        }
        // 9 tokens were left; a few more may have refilled while the messages arrived.
        #expect((9...11).contains(acks) && limited == 20 - acks)
        _ = b
        let fresh = try await TestViewer.connect(port: server.port)   // a's and b's slots: refused too
        #expect(try await fresh.socket.waitForClose() == 1008)
    }
}

/// Time-outs grow under sanitizers: COLLECTION_TEST_TIMEOUT_SCALE=5 make tsan.
let timeoutScale = Double(ProcessInfo.processInfo.environment["COLLECTION_TEST_TIMEOUT_SCALE"] ?? "") ?? 1

func scaled(_ seconds: Double) -> Duration { .milliseconds(Int(seconds * 1000 * timeoutScale)) }

/// A tiny seeded generator for the tests' choices.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
