import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Foundation
import Testing

/// UIKit's reordering handlers on a diffable data source: `canReorderItem` says which
/// items viewers move (and lets a collection that took no moves take them);
/// `didReorder` hears the snapshots before and after.
@Suite(.tags(.integration)) struct ReorderingHandlersTests {
    final class Heard: @unchecked Sendable {
        let lock = NSLock()
        var transactions: [NSDiffableDataSourceTransaction<String, String>] = []
    }

    @Test func handlersDecideWhatMovesAndHearTheTransaction() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "letters", persistence: .appManaged)
        let dataSource = LiveDiffableDataSource<String, String>(collection: collection) { _, id in CellContent(template: "cell", fields: ["title": id]) }
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["s"])
        snapshot.appendItems(["a", "b", "c"], toSection: "s")
        try await dataSource.apply(snapshot)
        let port = try server.start()
        defer { server.stop() }
        let v = try await TestViewer.connect(port: port)
        try await v.hello(wantOrder: true, collection: "letters")
        // A collection that takes no moves takes them once an item may be reordered.
        collection.allowedEdits = []
        v.send(#"{"type":"move","op":"m0","item":"a","section":"s","after":"b"}"#)
        guard case .reject(_, .refused, _) = try await v.next("reject") else { Issue.record("a move was taken"); return }
        let heard = Heard()
        dataSource.reorderingHandlers.canReorderItem = { $0 != "c" }
        dataSource.reorderingHandlers.didReorder = { t in heard.lock.withLock { heard.transactions.append(t) } }
        v.send(#"{"type":"move","op":"m1","item":"a","section":"s","after":"b"}"#)
        guard case .ack(_, let seq) = try await v.next(where: { $0.type == "ack" || $0.type == "reject" }) else { Issue.record("the move was refused"); return }
        try await v.wait(forSeq: seq)
        #expect(v.mirror.order == [["b", "a", "c"]] && dataSource.snapshot().itemIdentifiers == ["b", "a", "c"])
        let t = try #require(heard.lock.withLock { heard.transactions.first })
        #expect(t.initialSnapshot.itemIdentifiers == ["a", "b", "c"] && t.finalSnapshot.itemIdentifiers == ["b", "a", "c"])
        #expect(t.difference.insertions.count == 1 && t.difference.removals.count == 1)
        // Section by section, as UIKit's reordering handlers read it.
        #expect(t.sectionTransactions.map(\.sectionIdentifier) == ["s"])
        #expect(["a", "b", "c"].applying(t.sectionTransactions[0].difference) == ["b", "a", "c"])
        // An item the handler keeps still: refused; a drag of it too.
        v.send(#"{"type":"move","op":"m2","item":"c","section":"s","after":null}"#)
        guard case .reject(_, .notMovable, _) = try await v.next("reject") else { Issue.record("c moved"); return }
        v.send(#"{"type":"moveBegin","item":"c"}"#)
        guard case .error(.notMovable, _, _) = try await v.next("error") else { Issue.record("c was lifted"); return }
        // Handlers removed: every item may move again (the collection's own rules), and nobody hears it.
        dataSource.reorderingHandlers = .init()
        v.send(#"{"type":"move","op":"m3","item":"c","section":"s","after":null}"#)
        guard case .ack(_, let last) = try await v.next(where: { $0.type == "ack" || $0.type == "reject" }) else { Issue.record("c did not move"); return }
        try await v.wait(forSeq: last)
        #expect(v.mirror.order == [["c", "b", "a"]])
        #expect(heard.lock.withLock { heard.transactions.count } == 1)
    }
}
