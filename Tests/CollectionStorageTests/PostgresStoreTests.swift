import CollectionPostgres
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Locking
import Testing

/// The PostgreSQL store against the private server `make test` starts
/// (Tests/support/with-postgres); each test has a database of its own.
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)), .tags(.postgres))
struct PostgresStoreTests {
    let server = TestPostgres.current!

    func seqs(_ out: [Outgoing], to key: UInt64) -> [Int] {
        out.filter { $0.viewer == key }.compactMap { if case .batch(let b) = $0.message { b.seq } else { nil } }
    }

    @Test func batchesSurviveAReopenAndViewersResume() throws {
        let url = try server.makeDatabase()
        var epoch = ""
        var model = CollectionModel()
        do {
            let store = try PostgresCollectionStore(url: url)
            defer { store.close() }
            let journaled = try JournaledHub(photoHub(), store: store)
            guard case .welcome(let w) = hello(journaled.hub, 1).first else { Issue.record("no welcome"); return }
            epoch = w.epoch
            for i in 0..<12 {
                _ = try journaled.send(#"{"type":"move","op":"m\#(i)","item":"a\#(i)","section":"b"}"#, from: 1)
            }
            _ = try journaled.send(#"{"type":"insert","op":"i","section":"a","count":3}"#, from: 1)
            _ = try journaled.send(#"{"type":"delete","op":"d","items":["a35","b3"]}"#, from: 1)
            model = journaled.hub.model
            #expect(journaled.hub.sequence == 14)
        }
        let store = try PostgresCollectionStore(url: url)
        defer { store.close() }
        let reopened = try JournaledHub(photoHub(), store: store)
        #expect(reopened.hub.model == model)
        #expect(reopened.hub.sequence == 14 && reopened.hub.epoch == epoch)
        let out = hello(reopened.hub, 2, lastSeq: 11, epoch: epoch)
        guard case .resume(let resume) = out.first else { Issue.record("expected resume, got \(out)"); return }
        #expect(resume.fromSeq == 11 && resume.seq == 14)
        // The op ids are remembered across the reopen.
        let again = try reopened.send(#"{"type":"move","op":"m4","item":"a4","section":"b"}"#, from: 2)
        #expect(again.map(\.message) == [.ack(op: "m4", seq: 5)])
        #expect(try store.log(of: "photos", after: 12).map(\.seq) == [13, 14])
    }

    @Test func twoNodesNumberInOneOrderAndCheckEditsAgainstTheLatestState() throws {
        let url = try server.makeDatabase()
        let storeA = try PostgresCollectionStore(url: url, nodeID: "a"), storeB = try PostgresCollectionStore(url: url, nodeID: "b")
        defer { storeA.close(); storeB.close() }
        let a = try SharedNode(photoHub(), store: storeA)
        let b = try SharedNode(photoHub(), store: storeB)
        // The second node found the collection the first made, and took it up.
        #expect(a.hub.epoch == b.hub.epoch && a.hub.model == b.hub.model)
        _ = hello(a.hub, 1)
        _ = hello(b.hub, 2)
        #expect(try a.send(#"{"type":"delete","op":"x","items":["a5"]}"#, from: 1).contains { $0.message == .ack(op: "x", seq: 1) })
        #expect(try a.send(#"{"type":"move","op":"y","item":"a6","section":"b"}"#, from: 1).contains { $0.message == .ack(op: "y", seq: 2) })
        // B has not heard yet. Its edit takes up A's two batches first (its viewer
        // gets them), and is then checked against that state: a5 is gone.
        let refused = try b.send(#"{"type":"move","op":"z","item":"a5","section":"b"}"#, from: 2)
        #expect(seqs(b.takenUp, to: 2) == [1, 2])
        #expect(refused.map(\.message) == [.reject(op: "z", code: .unknownItem, message: "no item with id 'a5'; nothing was changed")])
        let accepted = try b.send(#"{"type":"move","op":"w","item":"a7","section":"b"}"#, from: 2)
        #expect(accepted.contains { $0.message == .ack(op: "w", seq: 3) })
        // A retry of A's op sent to B is answered as the same edit, not applied again.
        #expect(try b.send(#"{"type":"delete","op":"x","items":["a5"]}"#, from: 2).map(\.message) == [.ack(op: "x", seq: 1)])
        // A catches up from the log; both hold the same contents, and the log has no gap.
        #expect(seqs(try a.catchUp(), to: 1) == [3])
        #expect(a.hub.model == b.hub.model && a.hub.sequence == 3 && b.hub.sequence == 3)
        #expect(try storeA.log(of: "photos", after: 0).map(\.seq) == [1, 2, 3])
        #expect(try storeA.log(of: "photos", after: 0).map(\.op) == ["x", "y", "w"])
    }

    @Test func anOpenEditHoldsTheOtherNodesEditUntilItCommits() throws {
        let url = try server.makeDatabase()
        let storeA = try PostgresCollectionStore(url: url, nodeID: "a"), storeB = try PostgresCollectionStore(url: url, nodeID: "b")
        defer { storeA.close(); storeB.close() }
        let a = try SharedNode(photoHub(), store: storeA)
        _ = hello(a.hub, 1)
        _ = try storeA.beginEdit(["photos": 0])
        // B asks while A holds the lock, at the same number A is about to use.
        let got = Locked<[CommittedBatch]?>(nil)   // a pthread mutex: ThreadSanitizer does not see Mutex's futex
        let waiter = Thread { got.withLock { $0 = try? storeB.beginEdit(["photos": 0]) } }
        waiter.start()
        usleep(200_000)
        // A's batch, made by the hub as a node would (journal appends to the open edit).
        a.locksBeforeChanges = false
        let out = a.hub.receive(Array(#"{"type":"delete","op":"x","items":["a1"]}"#.utf8), from: 1)
        #expect(out.contains { $0.message == .ack(op: "x", seq: 1) })
        try storeA.commitEdit()
        var waited = 0
        while got.withLock({ $0 == nil }) && waited < 500 { usleep(10_000); waited += 1 }
        // B got the lock only after A's commit: it sees A's batch as one to take up.
        #expect(got.withLock { $0?.map(\.seq) } == [1])
        storeB.cancelEdit()
    }

    @Test func commitsAreAnnouncedToTheOtherNodesOnly() throws {
        let url = try server.makeDatabase()
        let storeA = try PostgresCollectionStore(url: url, nodeID: "a"), storeB = try PostgresCollectionStore(url: url, nodeID: "b")
        defer { storeA.close(); storeB.close() }
        let a = try SharedNode(photoHub(), store: storeA)
        let b = try SharedNode(photoHub(), store: storeB)
        let heardA = Locked<[String]>([]), heardB = Locked<[String]>([])
        storeA.observeCommits { name in heardA.withLock { $0.append(name) } }
        storeB.observeCommits { name in heardB.withLock { $0.append(name) } }
        // Both listening before A commits (a notification sent before is not heard).
        var listening = 0
        while !(storeA.isListening && storeB.isListening) && listening < 1_000 { usleep(10_000); listening += 1 }
        #expect(storeA.isListening && storeB.isListening, "the nodes did not listen within 10 s")
        _ = hello(a.hub, 1)
        _ = hello(b.hub, 2)
        _ = try a.send(#"{"type":"delete","op":"x","items":["a1"]}"#, from: 1)
        var waited = 0
        while heardB.withLock({ $0.isEmpty }) && waited < 500 { usleep(10_000); waited += 1 }
        #expect(heardB.withLock { $0 } == ["photos"])
        // B reads the batch from the log, as a notification makes it do.
        #expect(seqs(try b.catchUp(), to: 2) == [1])
        usleep(200_000)
        #expect(heardA.withLock { $0 }.isEmpty, "a node is not told of its own commits")
    }

    @Test func theLogIsFoldedPastItsBoundAndStillLoads() throws {
        let url = try server.makeDatabase()
        var options = PostgresCollectionStore.Options()
        options.foldEvery = 10
        options.keepBatches = 5
        let store = try PostgresCollectionStore(url: url, options: options)
        defer { store.close() }
        let a = try SharedNode(photoHub(), store: store)
        _ = hello(a.hub, 1)
        for i in 0..<37 {
            _ = try a.send(#"{"type":"move","op":"m\#(i)","item":"b\#(i % 25)","section":"a"}"#, from: 1)
        }
        store.waitForFolds()
        let kept = try store.log(of: "photos", after: 0).map(\.seq)
        #expect(kept.last == 37 && kept == Array(kept.first!...37))
        #expect(kept.count <= 5 + 10)
        let other = try PostgresCollectionStore(url: url, options: options)
        defer { other.close() }
        let loaded = try other.load("photos")
        #expect(loaded?.seq == 37 && loaded?.model == a.hub.model && loaded?.recent.map(\.seq) == kept)
    }

    @Test func anUnreachableServerIsRefusedWithWhereItWasLookedFor() throws {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-pg-\(UUID().uuidString)").path
        #expect {
            _ = try PostgresCollectionStore(url: "postgres:///x?host=\(nowhere)&user=collections")
        } throws: { error in
            "\(error)".contains("cannot reach PostgreSQL at collections@\(nowhere)/.s.PGSQL.5432/x")
        }
        #expect(throws: StoreError.self) { _ = try PostgresCollectionStore(url: "mysql://localhost/x") }
        #expect(throws: StoreError.self) { _ = try PostgresCollectionStore(url: "postgres://localhost/x?sslmode=verify-full") }
    }
}
