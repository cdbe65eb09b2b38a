import CollectionPostgres
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// A connection the server ends, or a statement it does not answer, fails what
/// runs on it and is made again: no queue of the store waits forever.
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)), .tags(.postgres))
struct PostgresLostConnectionTests {
    let server = TestPostgres.current!

    func store(_ url: String, queryTimeout: Double = 30) throws -> PostgresCollectionStore {
        var options = PostgresCollectionStore.Options()
        options.foldEvery = 10
        options.keepBatches = 5
        options.queryTimeout = queryTimeout
        return try PostgresCollectionStore(url: url, nodeID: "a", options: options)
    }

    func move(_ i: Int) -> String { #"{"type":"move","op":"m\#(i)","item":"b\#(i % 25)","section":"a"}"# }

    @Test func aFoldWhoseConnectionTheServerEndedGivesUpAndTheNextFoldWorks() async throws {
        let url = try server.makeDatabase(), database = TestPostgres.databaseName(in: url)
        let store = try store(url)
        defer { store.close() }
        let a = try photosNode(on: store)
        let (atDecision, go) = store.pauseFirstFoldAtItsDecision()
        defer { go.signal() }
        for i in 0..<10 { _ = try a.send(move(i), from: 1) }
        try #require(await signalled(atDecision, within: 30), "no fold at the 10th batch")
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
        #expect(await ends(within: 20) { store.waitForFolds() }, "the fold waits forever on its ended connection")
        // It gave up; the next commit's fold, on a new connection, folds.
        _ = try a.send(move(21), from: 1)
        #expect(await ends(within: 20) { store.waitForFolds() })
        let base = try server.sql("SELECT base_seq FROM collection WHERE name = 'photos'", database: database)
        #expect(base.trimmingCharacters(in: .whitespacesAndNewlines) == "22")
        #expect(try store.load("photos")?.model == a.hub.model)
    }

    @Test func anEditWaitingPastTheTimeoutIsRefusedAndTheNextOneIsKept() throws {
        let url = try server.makeDatabase()
        let store = try store(url, queryTimeout: 1)
        let other = try PostgresCollectionStore(url: url, nodeID: "b")
        defer { store.close(); other.close() }
        let a = try photosNode(on: store)
        _ = try a.send(move(0), from: 1)
        // Another node's edit holds the collection's row (let go after 10 s at the
        // latest, so that an edit that waited for it is not refused but kept).
        _ = try other.beginEdit(["photos": 1])
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { other.cancelEdit() }
        let started = Date()
        let refused = try a.send(move(1), from: 1)
        let took = Date().timeIntervalSince(started)
        guard case .reject(let op, let code, let message) = refused.first?.message else {
            Issue.record("an edit waiting on the row was not refused: \(refused.map(\.message))")
            return
        }
        #expect(op == "m1" && code == .unavailable && message.contains("no answer in 1.0 s"), "\(message)")
        #expect(took >= 0.9, "refused after \(took) s, before its timeout")
        #expect(a.hub.sequence == 1)
        // Once the other node lets go, the next edit (on a new connection) is kept;
        // from another viewer: the first spent its share of the server's time waiting.
        other.cancelEdit()
        // (A statement may pass its one second on a machine busy with the whole suite,
        // and the session the timeout closed may hold the row a moment after the other
        // node lets go: a few tries, a second apart, each from a viewer of its own, as
        // each refused try spent a second of the server's time; each refused edit takes
        // no number. A make test on a shared machine once saw six such tries time out
        // in a row: up to thirty.)
        var kept: [Outgoing] = []
        for attempt in 2..<32 {
            _ = hello(a.hub, UInt64(attempt))
            kept = try a.send(move(attempt), from: UInt64(attempt))
            if case .ack = kept.first?.message { break }
            Thread.sleep(forTimeInterval: 1)
        }
        guard case .ack(_, let seq) = kept.first?.message else {
            Issue.record("no edit was kept after the other node let go: \(kept.map(\.message))")
            return
        }
        #expect(seq == 2)
        #expect(try store.log(of: "photos", after: 0).map(\.seq) == [1, 2])
    }
}
