import CollectionCore
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// A clock the test moves by hand.
final class FakeClock: Sendable {
    private let now = Mutex<Double>(0)
    func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    var read: @Sendable () -> Double { { [self] in now.withLock { $0 } } }
}

func lastBatch(_ out: [Outgoing], to key: UInt64) -> ServerMessage.Batch? {
    for o in out.reversed() where o.viewer == key { if case .batch(let b) = o.message { return b } }
    return nil
}

@Suite struct EditTests {
    @Test func moveByIdentifierAfterAnItemAtTheStartAndAcrossSections() throws {
        let hub = makeHub(sections: [("a", 5), ("b", 3)])
        _ = hub.hello(1)
        _ = hub.send(#"{"type":"move","op":"m1","item":"a0","section":"a","after":"a3"}"#, from: 1)
        #expect(hub.model.snapshot.itemIdentifiers(inSection: "a") == ["a1", "a2", "a3", "a0", "a4"])
        let out = hub.send(#"{"type":"move","op":"m2","item":"a4","section":"b"}"#, from: 1)
        #expect(hub.model.snapshot.itemIdentifiers(inSection: "b") == ["a4", "b0", "b1", "b2"])
        let batch = try #require(lastBatch(out, to: 1))
        #expect(batch.seq == 2 && batch.moves == [[[0, 4], [1, 0]]])
        #expect(batch.sections.map(\.count) == [4, 4])
        #expect(messages(out, to: 1).first == .ack(op: "m2", seq: 2))
    }

    @Test func movesTheDataSourceForbidsAreRejected() {
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        model.snapshot.appendItems(["x", "pinned", "y"], toSection: "a")
        for id in ["x", "pinned", "y"] { model.itemContent[id] = ["title": id] }
        model.immovableItems = ["pinned"]
        let hub = CollectionHub(model: model, factory: testFactory(), policy: testPolicy())
        _ = hub.hello(1)
        let out = hub.send(#"{"type":"move","op":"m","item":"pinned","section":"a"}"#, from: 1)
        #expect(out == [Outgoing(viewer: 1, message: .reject(op: "m", code: .notMovable, message: "“pinned” cannot be moved"))])
        #expect(hub.sequence == 0)
        let afterElsewhere = hub.send(#"{"type":"move","op":"m2","item":"x","section":"a","after":"ghost"}"#, from: 1)
        if case .reject(_, let code, _) = afterElsewhere.first?.message { #expect(code == .unknownItem) } else { Issue.record("expected a reject") }
    }

    @Test func reloadRefreshesContentAsAFreshCell() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        let out = hub.send(#"{"type":"reload","op":"r","items":["a1"]}"#, from: 1)
        let batch = try #require(lastBatch(out, to: 1))
        #expect(batch.reloads == [[0, 1]] && batch.moves.isEmpty && batch.inserts.isEmpty)
        #expect(batch.elements.first { $0.key == "i:a1" }?.content["version"] == "1")
        #expect(hub.model.itemContent["a1"]?["version"] == "1")
    }

    @Test func staleEditsAreRejectedAndChangeNothing() {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.send(#"{"type":"shuffle","op":"s1","section":"a","ifSeq":0}"#, from: 1)
        let model = hub.model
        let out = hub.send(#"{"type":"shuffle","op":"s2","section":"a","ifSeq":0}"#, from: 1)
        #expect(out == [Outgoing(viewer: 1, message: .reject(op: "s2", code: .stale, message: "the edit expects sequence 0; the collection is at 1"))])
        #expect(hub.model == model && hub.sequence == 1)
    }

    @Test func aReplayedOpIdGetsTheOriginalAckAndChangesNothing() {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        _ = hub.send(#"{"type":"insert","op":"once","section":"a","count":1}"#, from: 1)
        let model = hub.model
        let again = hub.send(#"{"type":"insert","op":"once","section":"a","count":1}"#, from: 2)
        #expect(again == [Outgoing(viewer: 2, message: .ack(op: "once", seq: 1))])
        #expect(hub.model == model && hub.sequence == 1)
    }

    @Test func theOldestOpIdsAreForgottenFirst() {
        let hub = makeHub()
        hub.limits.rememberedOps = 3
        _ = hub.hello(1)
        for k in 1...10 { _ = hub.send(#"{"type":"shuffle","op":"op\#(k)","section":"a"}"#, from: 1) }
        // The last three are remembered: a retry is acked with its first sequence number.
        for k in 8...10 {
            #expect(hub.send(#"{"type":"shuffle","op":"op\#(k)","section":"a"}"#, from: 1) == [Outgoing(viewer: 1, message: .ack(op: "op\(k)", seq: k))])
        }
        #expect(hub.sequence == 10)
        // An older one is a new edit again.
        let out = hub.send(#"{"type":"shuffle","op":"op2","section":"a"}"#, from: 1)
        #expect(out.first == Outgoing(viewer: 1, message: .ack(op: "op2", seq: 11)))
    }

    @Test func sectionChecksumsFollowTheOrder() throws {
        let hub = makeHub()
        let welcome = try #require(hub.hello(1))
        #expect(welcome.sections[0].checksum == orderChecksum((0..<30).map { "a\($0)" }))
        let out = hub.send(#"{"type":"shuffle","section":"b"}"#, from: 1)
        let batch = try #require(lastBatch(out, to: 1))
        #expect(batch.sections[1].checksum == orderChecksum(hub.model.snapshot.itemIdentifiers(inSection: "b")))
        #expect(batch.sections[0].checksum == welcome.sections[0].checksum)
        #expect(batch.sections[1].checksum != welcome.sections[1].checksum)
    }

    @Test func theRateLimitDropsMessagesAndRecovers() {
        let clock = FakeClock()
        var limits = HubLimits()
        limits.messagesPerSecond = 10
        limits.messageBurst = 5
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        let hub = CollectionHub(model: model, factory: testFactory(), policy: testPolicy(), limits: limits, clock: clock.read)
        _ = hub.hello(1)   // 1 of 5
        var limited = 0
        for _ in 0..<10 {
            let out = hub.send(#"{"type":"insert","section":"a","count":1}"#, from: 1)
            if case .error(.rateLimited, _, _) = out.first?.message { limited += 1 }
        }
        #expect(limited == 6 && hub.model.snapshot.numberOfItems == 4)
        clock.advance(0.5)   // 5 tokens back
        let out = hub.send(#"{"type":"insert","section":"a","count":1}"#, from: 1)
        #expect(hub.model.snapshot.numberOfItems == 5)
        #expect(lastBatch(out, to: 1) != nil)
    }

    /// A journal whose store takes `wait` seconds (of the test's clock) to keep each
    /// batch: a database restarting, say.
    final class SlowJournal: CollectionHubJournal {
        let clock: FakeClock
        let wait: Double
        init(clock: FakeClock, wait: Double) { (self.clock, self.wait) = (clock, wait) }
        func hub(_ hub: CollectionHub, stage batch: CommittedBatch) throws(ProtocolError) { clock.advance(wait) }
    }

    @Test func waitsOnStorageAreNotChargedToTheViewerButTheHubsOwnWorkIs() {
        let clock = FakeClock()
        var limits = HubLimits()
        limits.serverTimeShare = 0.25
        limits.serverTimeBurst = 0.5
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        let hub = CollectionHub(model: model, factory: testFactory(), policy: testPolicy(), limits: limits, clock: clock.read)
        let journal = SlowJournal(clock: clock, wait: 2)
        hub.journal = journal
        _ = hub.hello(1)
        // Each edit waits 2 s on the store: eight times the share, but the store's time.
        for n in 1...5 {
            let out = hub.send(#"{"type":"insert","op":"i\#(n)","section":"a","count":1}"#, from: 1)
            #expect(messages(out, to: 1).first == .ack(op: "i\(n)", seq: n), "edit \(n): \(out.map(\.message))")
        }
        // The same time spent by the hub itself (here: the clock moving while the
        // delegate is not involved, as a slow layout would) is charged.
        let budgetBreaker = SlowLayoutDelegate(clock: clock, wait: 2)
        hub.delegate = budgetBreaker
        _ = hub.send(#"{"type":"select","item":"n1","selected":true}"#, from: 1)
        let out = hub.send(#"{"type":"select","item":"n2","selected":true}"#, from: 1)
        guard case .error(.rateLimited, _, _)? = out.first?.message else {
            Issue.record("the hub's own slow work was not charged: \(out.map(\.message))")
            return
        }
        withExtendedLifetime(journal) {}
    }

    @Test func whatASharedStoreMustLockBeforeAMessageIsHandled() {
        let hub = makeHub(sections: [("a", 3)])
        let other = "other"
        func lock(_ json: String, from key: UInt64 = 1) -> [String]? { hub.changeLock(for: Array(json.utf8), from: key)?.collections }
        // Before its hello a viewer changes nothing.
        hub.connect(1)
        #expect(lock(#"{"type":"delete","op":"d","items":["a0"]}"#) == nil)
        _ = hub.receive(Array(#"{"type":"hello","viewport":{"width":400,"height":300}}"#.utf8), from: 1)
        #expect(lock(#"{"type":"delete","op":"d","items":["a0"]}"#) == [hub.name])
        #expect(hub.changeLock(for: Array(#"{"type":"delete","op":"d","items":["a0"]}"#.utf8), from: 1)?.op == "d")
        #expect(hub.changeLock(for: Array(#"{"type":"action","name":"vote","op":"v1"}"#.utf8), from: 1)?.op == "v1")
        // A drop from another collection locks that one too.
        let drop = #"{"type":"drop","op":"x","x":10,"y":10,"source":{"collection":"\#(other)","item":"b0"}}"#
        #expect(lock(drop) == [hub.name, other])
        // Messages that change no contents, and messages that will be refused anyway, lock nothing.
        #expect(lock(#"{"type":"scroll","offset":{"x":0,"y":40}}"#) == nil)
        #expect(lock(#"{"type":"nonsense"}"#) == nil)
        #expect(lock(#"{"type":"delete","op":"d","items":["a0"]}"#, from: 9) == nil)
    }

    @Test func aMessageOverTheRateLimitLocksNothing() {
        let clock = FakeClock()
        var limits = HubLimits()
        limits.messagesPerSecond = 0.001
        limits.messageBurst = 3
        let hub = CollectionHub(model: makeModel(sections: [("a", 5)]), factory: testFactory(), policy: testPolicy(), limits: limits, clock: clock.read)
        _ = hub.hello(1)   // 1 of 3
        let delete = Array(#"{"type":"delete","op":"d1","items":["a0"]}"#.utf8)
        // Asking takes no token: the same answer twice, and the edit still goes through.
        #expect(hub.changeLock(for: delete, from: 1)?.collections == [hub.name])
        #expect(hub.changeLock(for: delete, from: 1)?.collections == [hub.name])
        #expect(messages(hub.receive(delete, from: 1), to: 1).first == .ack(op: "d1", seq: 1))   // 2 of 3
        _ = hub.send(#"{"type":"scroll","offset":{"x":0,"y":10}}"#, from: 1)   // 3 of 3
        // Now a flood: refused by the hub, and nothing for the store to lock.
        let next = Array(#"{"type":"delete","op":"d2","items":["a1"]}"#.utf8)
        #expect(hub.changeLock(for: next, from: 1) == nil)
        guard case .reject("d2", .rateLimited, _)? = hub.receive(next, from: 1).first?.message else {
            Issue.record("expected a rate-limited reject")
            return
        }
    }

    /// A delegate whose selection rule takes `wait` seconds of the test's clock, not
    /// timed as the app's (it is the collection view's own delegate here, not an
    /// app's callback the library times with `uncharged`).
    final class SlowLayoutDelegate: CollectionViewDelegate {
        let clock: FakeClock
        let wait: Double
        init(clock: FakeClock, wait: Double) { (self.clock, self.wait) = (clock, wait) }
        func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
            clock.advance(wait)
            return true
        }
    }
}

@Suite struct PresenceTests {
    @Test func focusIsSharedWithOthersAndInTheWelcome() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        let out = hub.send(#"{"type":"focus","item":"a4"}"#, from: 1)
        #expect(out == [Outgoing(viewer: 2, message: .focus(viewer: "v1", item: "a4"))])
        #expect(hub.send(#"{"type":"focus","item":"a4"}"#, from: 1).isEmpty)   // no change, no news
        let third = try #require(hub.hello(3))
        #expect(third.focuses == [FocusInfo(viewer: "v1", item: "a4")])
        let left = hub.send(#"{"type":"focus","item":null}"#, from: 1)
        #expect(messages(left, to: 2) == [.focus(viewer: "v1", item: nil)] && messages(left, to: 1).isEmpty)
        let bad = hub.send(#"{"type":"focus","item":"ghost"}"#, from: 1)
        if case .error(.unknownItem, _, _) = bad.first?.message {} else { Issue.record("expected unknown_item") }
        #expect(hub.sequence == 0)
    }

    @Test func dragGhostsGoToTheOthersOnly() {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        _ = hub.hello(3)
        let out = hub.send(#"{"type":"drag","item":"a1","x":150.5,"y":40}"#, from: 2)
        // Over a1's frame (110, 20, 100 × 100) in v2's layout: at 40.5% across, 20% down.
        let over = DragAnchor(item: "a1", x: 0.405, y: 0.2)
        #expect(out == [Outgoing(viewer: 1, message: .drag(viewer: "v2", item: "a1", at: Point(x: 150.5, y: 40), over: over)),
                        Outgoing(viewer: 3, message: .drag(viewer: "v2", item: "a1", at: Point(x: 150.5, y: 40), over: over))])
        let end = hub.send(#"{"type":"drag","item":null}"#, from: 2)
        #expect(end.count == 2 && hub.sequence == 0)
    }
}

@Suite struct ResumeTests {
    func hello(_ hub: CollectionHub, _ key: UInt64, lastSeq: Int?, epoch: String?) -> [Outgoing] {
        hub.connect(key)
        var fields = #""type":"hello","viewport":{"width":320,"height":200}"#
        if let lastSeq { fields += #","lastSeq":\#(lastSeq)"# }
        if let epoch { fields += #","epoch":"\#(epoch)""# }
        return hub.send("{\(fields)}", from: key)
    }

    @Test func aShortGapIsReplayedThenTheWindowReplaced() throws {
        let hub = makeHub()
        let first = try #require(hub.hello(1))
        _ = hub.hello(2)
        _ = hub.send(#"{"type":"insert","section":"a","count":2}"#, from: 2)
        _ = hub.send(#"{"type":"delete","items":["b3"]}"#, from: 2)
        _ = hub.disconnect(1)
        let out = messages(hello(hub, 3, lastSeq: 0, epoch: first.epoch), to: 3)
        guard case .resume(let resume) = out.first else { Issue.record("expected resume, got \(out)"); return }
        #expect(resume.fromSeq == 0 && resume.seq == 2)
        let replayed = out.compactMap { if case .batch(let b) = $0 { return b } else { return nil } }
        #expect(replayed.map(\.seq) == [1, 2] && replayed.allSatisfy { $0.replay && $0.elements.isEmpty })
        #expect(replayed[0].insertedIds == ["n61", "n62"] && replayed[1].deletedIds == ["b3"])
        guard case .window(let window) = out.last else { Issue.record("expected a window last"); return }
        #expect(window.replace && window.add.contains { $0.key == "i:n61" })
    }

    @Test func aGapPastTheLogOrAnotherEpochGetsAWelcome() throws {
        var limits = HubLimits()
        limits.replayLogCapacity = 2
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        let hub = CollectionHub(model: model, factory: testFactory(), policy: testPolicy(), limits: limits)
        let first = try #require(hub.hello(1))
        for _ in 0..<3 { _ = hub.send(#"{"type":"insert","section":"a","count":1}"#, from: 1) }
        // lastSeq 0: batch 1 has left the log.
        if case .welcome(let w) = messages(hello(hub, 2, lastSeq: 0, epoch: first.epoch), to: 2).first {
            #expect(w.seq == 3 && w.sections[0].count == 3)
        } else { Issue.record("expected a welcome") }
        // lastSeq 1 is still covered: batches 2 and 3.
        let covered = messages(hello(hub, 3, lastSeq: 1, epoch: first.epoch), to: 3)
        #expect(covered.count == 4)   // resume, 2 batches, window
        // Another server's history: a welcome, never a resume.
        if case .welcome = messages(hello(hub, 4, lastSeq: 3, epoch: "someone-else"), to: 4).first {} else { Issue.record("expected a welcome") }
    }

    @Test func welcomeCarriesTheFullOrderWhenAsked() throws {
        let hub = makeHub(sections: [("a", 3), ("b", 2)])
        hub.connect(1)
        let out = hub.send(#"{"type":"hello","viewport":{"width":320,"height":200},"wantOrder":true}"#, from: 1)
        guard case .welcome(let w) = out.first?.message else { Issue.record("no welcome"); return }
        #expect(w.order == [["a0", "a1", "a2"], ["b0", "b1"]] && w.orderFollows == nil)
    }

    /// A large order (25,000 ids here) follows the welcome in parts of about 48 KB,
    /// the welcome itself small: the page draws its cells before reading the ids.
    @Test func aLargeOrderFollowsTheWelcomeInParts() throws {
        let hub = makeHub(sections: [("a", 20_000), ("b", 5_000)])
        hub.connect(1)
        let out = messages(hub.send(#"{"type":"hello","viewport":{"width":320,"height":200},"wantOrder":true}"#, from: 1), to: 1)
        guard case .welcome(let w) = out.first else { Issue.record("no welcome"); return }
        #expect(w.order == nil && w.orderFollows == true)
        #expect(out[0].encoded().count < 100_000)
        let parts = out.dropFirst().compactMap { if case .order(let p) = $0 { p } else { nil } }
        #expect(parts.count == out.count - 1 && parts.count > 2)
        #expect(parts.allSatisfy { ServerMessage.order($0).encoded().count <= 64 * 1024 })
        #expect(parts.map(\.last) == Array(repeating: false, count: parts.count - 1) + [true])
        // Appended in order, they are the whole order; a mirror checks them against the sections' checksums.
        var order: [[String]] = [[], []]
        for p in parts { order[p.section] += p.ids }
        #expect(order == hub.model.snapshot.sectionIdentifiers.map { hub.model.snapshot.itemIdentifiers(inSection: $0) })
        var mirror = CollectionTesting.Mirror()
        for m in out { try mirror.apply(m) }
        #expect(mirror.orderComplete && mirror.order == order)
    }
}
