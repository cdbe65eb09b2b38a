import CollectionPostgres
import CollectionSync
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// Folding a collection's log when several nodes share it: one node folds at a
/// time, and none folds again what another has just folded (each fold decodes,
/// replays and encodes the whole model).
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)), .tags(.postgres))
struct PostgresFoldTests {
    let server = TestPostgres.current!

    /// A store folding every 10 batches, keeping `keep`.
    func store(_ url: String, _ node: String, keep: Int = 5) throws -> PostgresCollectionStore {
        var options = PostgresCollectionStore.Options()
        options.foldEvery = 10
        options.keepBatches = keep
        return try PostgresCollectionStore(url: url, nodeID: node, options: options)
    }

    /// The batch the stored model of `photos` is at.
    func base(_ database: String) throws -> Int? {
        Int(try server.sql("SELECT base_seq FROM collection WHERE name = 'photos'", database: database).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func move(_ i: Int) -> String { #"{"type":"move","op":"m\#(i)","item":"b\#(i % 25)","section":"a"}"# }

    @Test func aNodeSkipsTheFoldAnotherNodeIsMaking() async throws {
        let url = try server.makeDatabase()
        let database = TestPostgres.databaseName(in: url)
        let store = try store(url, "a")
        defer { store.close() }
        let a = try photosNode(on: store)
        // Another node's fold under way: its lock, held by a session of its own.
        let holder = Thread { [server] in
            _ = try? server.sql("SELECT pg_advisory_lock(hashtext('collection fold: photos')), pg_sleep(60)", database: database)
        }
        holder.start()
        // This database's advisory locks only (pg_locks lists every database's).
        let advisory = "FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        let endHolder = "SELECT pg_terminate_backend(pid) \(advisory)"
        defer { _ = try? server.sql(endHolder, database: database) }
        _ = try await eventually(within: 5) {
            try server.sql("SELECT count(*) \(advisory) AND granted", database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
        for i in 0..<12 { _ = try a.send(move(i), from: 1) }
        store.waitForFolds()
        #expect(try base(database) == 0, "folded while another node held the fold")
        // That node went (its session ended): past the next bound, this one folds.
        _ = try server.sql(endHolder, database: database)
        for i in 12..<24 { _ = try a.send(move(i), from: 1) }
        store.waitForFolds()
        let folded = try #require(try base(database))
        #expect((20...24).contains(folded), "\(folded)")
        #expect(try store.load("photos")?.model == a.hub.model)
    }

    @Test func aNodeDoesNotFoldAgainWhatAnotherJustFolded() throws {
        let url = try server.makeDatabase()
        let database = TestPostgres.databaseName(in: url)
        // Batches kept past a fold: B, behind, takes them up from the log.
        let storeA = try store(url, "a", keep: 50), storeB = try store(url, "b", keep: 50)
        defer { storeA.close(); storeB.close() }
        let a = try SharedNode(photoHub(), store: storeA)
        let b = try SharedNode(photoHub(), store: storeB)
        _ = hello(a.hub, 1)
        _ = hello(b.hub, 2)
        for i in 0..<10 { _ = try a.send(move(i), from: 1) }
        storeA.waitForFolds()
        #expect(try base(database) == 10)
        // B takes up A's ten and commits the 11th: by its own count a fold is due.
        let out = try b.send(move(10), from: 2)
        #expect(b.hub.sequence == 11, "\(out.map(\.message))")
        storeB.waitForFolds()
        #expect(try base(database) == 10, "B folded again what A had just folded")
        // Counted from A's fold, B folds at the next bound.
        for i in 11..<20 { _ = try b.send(move(i), from: 2) }
        storeB.waitForFolds()
        #expect(try base(database) == 20)
    }

    @Test func commitsMadeAsAFoldEndsAreFoldedToo() async throws {
        let url = try server.makeDatabase()
        let database = TestPostgres.databaseName(in: url)
        let store = try store(url, "a")
        defer { store.close() }
        let a = try photosNode(on: store)
        let (atDecision, go) = store.pauseFirstFoldAtItsDecision()
        defer { go.signal() }
        for i in 0..<10 { _ = try a.send(move(i), from: 1) }
        try #require(await signalled(atDecision, within: 30), "no fold at the 10th batch")
        #expect(try base(database) == 10)
        // Eleven commits while that fold decides: none schedules a fold of its own
        // (one is under way), so that fold must see them and fold again.
        for i in 10..<21 { _ = try a.send(move(i), from: 1) }
        go.signal()
        store.waitForFolds()
        #expect(try base(database) == 21, "the log was left a bound past its fold")
        #expect(try store.load("photos")?.model == a.hub.model)
    }
}

extension PostgresCollectionStore {
    /// Makes this store's first fold stop between its query of the log's end and
    /// its decision to fold again: `atDecision` is signalled when it gets there, and
    /// it goes on once `go` is.
    func pauseFirstFoldAtItsDecision() -> (atDecision: DispatchSemaphore, go: DispatchSemaphore) {
        let atDecision = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
        let first = Mutex(true)
        onFoldDecision {
            guard first.withLock({ f in defer { f = false }; return f }) else { return }
            atDecision.signal()
            go.wait()
        }
        return (atDecision, go)
    }
}

/// The photos collection served on `store`, as one node, its viewer 1 welcomed.
func photosNode(on store: PostgresCollectionStore) throws -> SharedNode {
    let node = try SharedNode(photoHub(), store: store)
    _ = hello(node.hub, 1)
    return node
}
