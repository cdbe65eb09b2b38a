import CollectionPostgres
import CollectionProtocol
import CollectionSync
import CollectionTesting
import Foundation
import Synchronization
import Testing

/// A connection the server ends, or a statement it does not answer, fails what
/// runs on it and is made again: no queue of the store waits forever.
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)))
struct PostgresLostConnectionTests {
    let server = TestPostgres.current!

    func store(_ url: String, queryTimeout: Double = 30) throws -> PostgresCollectionStore {
        var options = PostgresCollectionStore.Options()
        options.foldEvery = 10
        options.keepBatches = 5
        options.queryTimeout = queryTimeout
        return try PostgresCollectionStore(url: url, nodeID: "a", options: options)
    }

    func database(_ url: String) throws -> String { String(try #require(URLComponents(string: url)).path.dropFirst()) }

    func move(_ i: Int) -> String { #"{"type":"move","op":"m\#(i)","item":"b\#(i % 25)","section":"a"}"# }

    /// Runs `body` on a thread of its own; whether it ended within `seconds`.
    func ends(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    @Test func aFoldWhoseConnectionTheServerEndedGivesUpAndTheNextFoldWorks() throws {
        let url = try server.makeDatabase(), database = try database(url)
        let store = try store(url)
        defer { store.close() }
        let a = try SharedNode(photoHub(), store: store)
        _ = hello(a.hub, 1)
        let atDecision = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
        let first = Mutex(true)
        store.onFoldDecision {
            guard first.withLock({ f in defer { f = false }; return f }) else { return }
            atDecision.signal()
            go.wait()
        }
        defer { go.signal() }
        for i in 0..<10 { _ = try a.send(move(i), from: 1) }
        try #require(atDecision.wait(timeout: .now() + 30) == .success, "no fold at the 10th batch")
        // The fold's session ended by the server, as `pg_terminate_backend` by an
        // administrator does (its last statement is the fold loop's own).
        let ended = try server.sql("""
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'SELECT seq FROM collection%'
            """, database: database)
        #expect(ended.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        // Past the bound again: that fold would go on, on its ended connection.
        for i in 10..<21 { _ = try a.send(move(i), from: 1) }
        go.signal()
        #expect(ends(within: 20) { store.waitForFolds() }, "the fold waits forever on its ended connection")
        // It gave up; the next commit's fold, on a new connection, folds.
        _ = try a.send(move(21), from: 1)
        #expect(ends(within: 20) { store.waitForFolds() })
        let base = try server.sql("SELECT base_seq FROM collection WHERE name = 'photos'", database: database)
        #expect(base.trimmingCharacters(in: .whitespacesAndNewlines) == "22")
        #expect(try store.load("photos")?.model == a.hub.model)
    }

    @Test func anEditWaitingPastTheTimeoutIsRefusedAndTheNextOneIsKept() throws {
        let url = try server.makeDatabase(), database = try database(url)
        let store = try store(url, queryTimeout: 1)
        defer { store.close() }
        let a = try SharedNode(photoHub(), store: store)
        _ = hello(a.hub, 1)
        _ = try a.send(move(0), from: 1)
        // Another session holds the collection's row for 4 s.
        let holderDone = DispatchSemaphore(value: 0)
        Thread { [server] in
            _ = try? server.sql("BEGIN; SELECT 1 FROM collection WHERE name = 'photos' FOR UPDATE; SELECT pg_sleep(4); COMMIT;", database: database)
            holderDone.signal()
        }.start()
        var waited = 0
        while try server.sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep(4)%' AND state = 'active' AND pid <> pg_backend_pid()", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines) != "1" && waited < 500 { usleep(10_000); waited += 1 }
        let started = Date()
        let refused = try a.send(move(1), from: 1)
        let took = Date().timeIntervalSince(started)
        #expect(took >= 0.9 && took < 3.5, "\(took) s")
        guard case .reject(let op, let code, let message) = refused.first?.message else {
            Issue.record("an edit waiting on the row was not refused: \(refused.map(\.message))")
            return
        }
        #expect(op == "m1" && code == .unavailable && message.contains("no answer in 1.0 s"), "\(message)")
        #expect(a.hub.sequence == 1)
        // Once the other session lets go, the next edit (on a new connection) is kept.
        #expect(holderDone.wait(timeout: .now() + 30) == .success)
        let kept = try a.send(move(2), from: 1)
        #expect(kept.first?.message == .ack(op: "m2", seq: 2), "\(kept.map(\.message))")
        #expect(try store.log(of: "photos", after: 0).map(\.seq) == [1, 2])
    }
}
