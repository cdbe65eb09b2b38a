import CollectionServerPostgres
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// The library's own PostgreSQL storage (`Configuration.Storage.postgres`), as an
/// app sets it up in code rather than with `--postgres`.
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)), .tags(.integration, .postgres))
struct LibraryPostgresStorageTests {
    let database = TestPostgres.current!

    @Test func theStorageKeepsEditsWithTheOptionsGiven() async throws {
        let url = try database.makeDatabase()
        let name = TestPostgres.databaseName(in: url)
        var options = PostgresCollectionStore.Options()
        options.foldEvery = 3
        options.keepBatches = 1
        let (server, shelf, port) = try shelfServer(storage: .postgres(url: url, nodeID: "lib", options: options))
        defer { server.stop() }
        #expect(shelf.isStored)
        let (editor, watcher) = try await editorAndWatcher(port: port)
        for k in 0..<4 { editor.send(#"{"type":"move","op":"m\#(k)","item":"top-\#(k)","section":"bottom"}"#) }
        try await watcher.wait(forSeq: 4)
        // In the database, folded past 3 batches as the options said (the default is 1,000).
        let folded = try await eventually(within: 20) {
            Int(try database.sql("SELECT base_seq FROM collection WHERE name = 'shelf'", database: name)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 3
        }
        #expect(folded, "the log was not folded at the 3 batches the options give")
        let kept = try database.sql("SELECT seq FROM batch WHERE collection = 'shelf' ORDER BY seq", database: name)
        #expect(kept.split(separator: "\n").compactMap { Int($0) }.allSatisfy { $0 >= 3 }, "\(kept)")
        let moved: Set = ["top-0", "top-1", "top-2", "top-3"]
        #expect(moved.isSubset(of: shelf.model.snapshot.itemIdentifiers(inSection: "bottom")))
        // Another server on that database (a node of its own) serves what was kept.
        let (other, again, _) = try shelfServer(storage: .postgres(url: url, nodeID: "lib2", options: options))
        defer { other.stop() }
        #expect(again.sequence == 4 && again.epoch == shelf.epoch && again.model == shelf.model)
    }

    @Test func aNodeWhoseReadingOfAnotherNodesBatchFailedReadsAgainByItself() async throws {
        let url = try database.makeDatabase()
        let (serverA, _, portA) = try shelfServer(storage: .postgres(url: url, nodeID: "a"))
        defer { serverA.stop() }
        let storeB = FailingLog(try PostgresCollectionStore(url: url, nodeID: "b"))
        defer { storeB.base.close() }
        let (serverB, _, portB) = try shelfServer(storage: .custom(storeB))
        defer { serverB.stop() }
        let editor = try await TestViewer.connect(port: portA)
        try await editor.hello(collection: "shelf")
        let watcher = try await TestViewer.connect(port: portB)
        try await watcher.hello(collection: "shelf")
        editor.send(#"{"type":"move","op":"m0","item":"top-0","section":"bottom"}"#)
        try await watcher.wait(forSeq: 1)
        // B's reading of the next batch fails (its database connection was being
        // made again, say); no other notification comes, and B has no change of its own.
        storeB.failures.withLock { $0 = 1 }
        editor.send(#"{"type":"move","op":"m1","item":"top-1","section":"bottom"}"#)
        try await watcher.wait(forSeq: 2, timeout: .seconds(20))
        #expect(storeB.failures.withLock { $0 } == 0, "the reading that was to fail was never made")
    }
}

/// A node's store whose next `failures` readings of the log fail.
final class FailingLog: SharedCollectionStore, Sendable {
    let base: PostgresCollectionStore
    let failures = Mutex(0)
    init(_ base: PostgresCollectionStore) { self.base = base }

    func log(of name: String, after seq: Int) throws(StoreError) -> [CommittedBatch] {
        let fail = failures.withLock { n in
            defer { n = max(n - 1, 0) }
            return n > 0
        }
        if fail { throw StoreError(.failed, "cannot reach PostgreSQL (a test's failure)") }
        return try base.log(of: name, after: seq)
    }
    func load(_ name: String) throws(StoreError) -> StoredCollection? { try base.load(name) }
    func create(_ collection: StoredCollection) throws(StoreError) { try base.create(collection) }
    func append(_ batches: [CommittedBatch]) throws(StoreError) { try base.append(batches) }
    var writeProblem: StoreError? { base.writeProblem }
    func beginEdit(_ collections: [String: Int]) throws(StoreError) -> [CommittedBatch] { try base.beginEdit(collections) }
    func commitEdit() throws(StoreError) { try base.commitEdit() }
    func cancelEdit() { base.cancelEdit() }
    func observeCommits(_ handler: @escaping @Sendable (String) -> Void) { base.observeCommits(handler) }
    func publish(presence payload: String) { base.publish(presence: payload) }
    func observePresence(_ handler: @escaping @Sendable (_ node: String, _ payload: String) -> Void) { base.observePresence(handler) }
}
