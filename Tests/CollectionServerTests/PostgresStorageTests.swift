import CollectionServer
import CollectionTesting
import Foundation
import Testing

/// The library's own PostgreSQL storage (`Configuration.Storage.postgres`), as an
/// app sets it up in code rather than with `--postgres`.
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)))
struct LibraryPostgresStorageTests {
    let database = TestPostgres.current!

    @Test func theStorageKeepsEditsWithTheOptionsGiven() async throws {
        let url = try database.makeDatabase()
        let name = String(try #require(URLComponents(string: url)).path.dropFirst())
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
}
