import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// A stored collection "shelf" (two sections of string-field items) on a server
/// whose store is `store`, so that two servers in a row share it.
func shelfServer(_ store: any CollectionStore, groupCommit: Bool = true) throws -> (CollectionServer, LiveCollection, Int) {
    try shelfServer(storage: .custom(store), groupCommit: groupCommit)
}

/// The shelf on a server keeping it in `storage`.
func shelfServer(storage: CollectionServer.Configuration.Storage, groupCommit: Bool = true) throws -> (CollectionServer, LiveCollection, Int) {
    var configuration = CollectionServer.Configuration.testing
    configuration.storage = storage
    configuration.groupCommit = groupCommit
    let server = CollectionServer(configuration: configuration)
    let shelf = server.addCollection(named: "shelf")
    var model = CollectionModel()
    for section in ["top", "bottom"] {
        model.snapshot.appendSections([section])
        let items = (0..<6).map { "\(section)-\($0)" }
        model.snapshot.appendItems(items, toSection: section)
        for item in items { model.itemContent[item] = ["title": item] }
    }
    shelf.load(model)
    shelf.allowedEdits = .all
    return (server, shelf, try server.start())
}

/// An editor and a watcher of the shelf, welcomed.
func editorAndWatcher(port: Int) async throws -> (TestViewer, TestViewer) {
    let editor = try await TestViewer.connect(port: port)
    try await editor.hello(collection: "shelf")
    let watcher = try await TestViewer.connect(port: port)
    try await watcher.hello(collection: "shelf")
    return (editor, watcher)
}

@Suite(.serialized, .tags(.integration)) struct LibraryStorageTests {
    @Test func aRestartedServerResumesItsViewersWithTheSameHistory() async throws {
        let store = InMemoryCollectionStore()
        var (server, shelf, port) = try shelfServer(store)
        #expect(shelf.isStored)
        let viewer = try await TestViewer.connect(port: port)
        try await viewer.hello(wantOrder: true, collection: "shelf")
        viewer.send(#"{"type":"delete","op":"d1","items":["top-1"]}"#)
        try await viewer.wait(forSeq: 1)
        let seenOne = viewer.mirror
        viewer.send(#"{"type":"move","op":"m1","item":"top-0","section":"bottom"}"#)
        try await viewer.wait(forSeq: 2)
        let epoch = shelf.epoch
        let model = shelf.model
        server.stop()
        #expect(try await viewer.socket.waitForClose() == 1001)

        (server, shelf, port) = try shelfServer(store)
        defer { server.stop() }
        #expect(shelf.sequence == 2 && shelf.epoch == epoch && shelf.model == model)
        // The viewer that saw batch 1 only resumes: it is sent batch 2, not everything.
        let back = try await TestViewer.connect(port: port, mirror: seenOne)
        let first = try await back.hello(lastSeq: 1, epoch: epoch, collection: "shelf")
        guard case .resume(let resume) = first else { Issue.record("expected resume, got \(first)"); return }
        #expect(resume.fromSeq == 1 && resume.seq == 2)
        #expect(back.received.compactMap { if case .batch(let b) = $0 { b.seq } else { nil } } == [2])
        // A resent edit is answered with its first ack, not applied again.
        back.send(#"{"type":"delete","op":"d1","items":["top-1"]}"#)
        #expect(try await back.next("ack") == .ack(op: "d1", seq: 1))
        #expect(shelf.sequence == 2)
    }

    @Test func nothingOfAnEditIsSentUntilItsCommitReturns() async throws {
        let store = GatedStore()
        let (server, shelf, port) = try shelfServer(store)
        defer { server.stop() }
        let (editor, watcher) = try await editorAndWatcher(port: port)
        // What the watcher's arrival sends (presence) has come.
        while await !editor.staysQuiet() {}
        store.hold()
        editor.send(#"{"type":"delete","op":"d1","items":["top-1"]}"#)
        // The commit is under way (on the writer queue) and does not return.
        #expect(await editor.staysQuiet())
        #expect(await watcher.staysQuiet())
        #expect(try store.log(of: "shelf", after: 0).isEmpty)
        store.release()
        #expect(try await editor.next("ack") == .ack(op: "d1", seq: 1))
        try await watcher.wait(forSeq: 1)
        try await editor.wait(forSeq: 1)
        #expect(try store.log(of: "shelf", after: 0).map(\.seq) == [1] && shelf.sequence == 1)
        // A change made on the server's side, off the service thread, waits the same way.
        store.hold()
        let change = Task { try await shelf.update { $0.snapshot.deleteItems(["top-2"]); $0.itemContent["top-2"] = nil; return [] } }
        #expect(await watcher.staysQuiet())
        #expect(await editor.staysQuiet())
        store.release()
        _ = try await change.value
        try await watcher.wait(forSeq: 2)
        #expect(try store.log(of: "shelf", after: 0).map(\.seq) == [1, 2])
    }

    @Test func editsOfOneTurnTakeTwoTransactionsAtMostAndEachIsAckedAfterIt() async throws {
        let store = InMemoryCollectionStore()
        let (server, shelf, port) = try shelfServer(store)
        defer { server.stop() }
        // Twenty edits in one write: the server reads them in one turn.
        let raw = try RawWebSocket(port: port)
        let hello = #"{"type":"hello","viewport":{"width":400,"height":300}}"#
        raw.send([hello])
        #expect(raw.read(until: "\"welcome\"", count: 1))
        let created = store.transactions
        raw.send((0..<20).map { #"{"type":"reload","op":"r\#($0)","items":["top-\#($0 % 6)"]}"# })
        #expect(raw.read(until: "\"ack\"", count: 20))
        #expect(shelf.sequence == 20)
        #expect(try store.log(of: "shelf", after: 0).count == 20)
        // The turn's first edit starts committing at once, the other nineteen share one transaction after it.
        #expect(store.transactions - created == 2)
    }

    @Test func withoutGroupCommitEachEditIsATransaction() async throws {
        let store = InMemoryCollectionStore()
        let (server, _, port) = try shelfServer(store, groupCommit: false)
        defer { server.stop() }
        let viewer = try await TestViewer.connect(port: port)
        try await viewer.hello(collection: "shelf")
        for i in 0..<10 { viewer.send(#"{"type":"reload","op":"r\#(i)","items":["top-1"]}"#) }
        try await viewer.wait(forSeq: 10)
        #expect(store.transactions == 10)
    }

    @Test func aStoreThatCannotWriteRefusesEditsWhileViewersWatch() async throws {
        let store = InMemoryCollectionStore()
        let (server, shelf, port) = try shelfServer(store)
        defer { server.stop() }
        let (editor, watcher) = try await editorAndWatcher(port: port)
        store.setFailure(StoreError(.readOnly, "the data folder is read-only"))
        editor.send(#"{"type":"delete","op":"d1","items":["top-1"]}"#)
        let reject = try await editor.next("reject")
        #expect(reject == .reject(op: "d1", code: .storageUnavailable, message: "the data folder is read-only"))
        #expect(shelf.sequence == 0 && shelf.model.snapshot.contains(item: "top-1"))
        // The watcher is still served: a scroll is answered.
        watcher.send(#"{"type":"scroll","offset":{"x":0,"y":40}}"#)
        _ = try await watcher.next("window")
        #expect(await watcher.staysQuiet())
        // The server's own changes are refused the same way.
        await #expect(throws: ProtocolError.self) { try await shelf.update { $0.snapshot.deleteItems(["top-2"]); return [] } }
        store.setFailure(nil)
        editor.send(#"{"type":"delete","op":"d2","items":["top-1"]}"#)
        #expect(try await editor.next("ack") == .ack(op: "d2", seq: 1))
    }

    @Test func aCommitThatFailsIsNeverAckedAndViewersComeBackToWhatWasKept() async throws {
        let store = InMemoryCollectionStore()
        let (server, shelf, port) = try shelfServer(store)
        defer { server.stop() }
        let (editor, watcher) = try await editorAndWatcher(port: port)
        editor.send(#"{"type":"delete","op":"d1","items":["top-1"]}"#)
        try await watcher.wait(forSeq: 1)
        let epoch = shelf.epoch
        // The disk fills in the middle of the next commit.
        store.setAppendFailure(StoreError(.full, "no space left on device"))
        editor.send(#"{"type":"delete","op":"d2","items":["top-2"]}"#)
        #expect(try await editor.socket.waitForClose() == 1011)
        #expect(try await watcher.socket.waitForClose() == 1011)
        #expect(!editor.received.contains(.ack(op: "d2", seq: 2)))
        #expect(!watcher.received.contains { $0.type == "batch" && watcher.mirror.seq > 1 })
        #expect(shelf.sequence == 1 && shelf.model.snapshot.contains(item: "top-2"))
        // Back with room: the viewers resume from batch 1, and the edit can be sent again.
        store.setAppendFailure(nil)
        let back = try await TestViewer.connect(port: port, mirror: watcher.mirror)
        let first = try await back.hello(lastSeq: 1, epoch: epoch, collection: "shelf")
        guard case .resume = first else { Issue.record("expected resume, got \(first)"); return }
        back.send(#"{"type":"delete","op":"d2","items":["top-2"]}"#)
        #expect(try await back.next("ack") == .ack(op: "d2", seq: 2))
    }

    @Test func aCollectionWithATypedDataSourceKeepsItsOwnData() async throws {
        let store = InMemoryCollectionStore()
        var configuration = CollectionServer.Configuration.testing
        configuration.storage = .custom(store)
        let server = CollectionServer(configuration: configuration)
        defer { server.stop() }
        let typed = server.addCollection(named: "typed")
        _ = LiveDiffableDataSource<String, String>(collection: typed, cellRegistration: CellRegistration(template: "card") { ["title": $0] })
        let opted = server.addCollection(named: "opted", persistence: .appManaged)
        let kept = server.addCollection(named: "kept")
        _ = try server.start()
        // The app keeps their contents; the store keeps the history of all three (so
        // that pages resume after a restart).
        #expect(!typed.isStored && !opted.isStored && kept.isStored)
        #expect(try store.load("typed") != nil && store.load("opted") != nil && store.load("kept") != nil)
    }

    struct Card: Identifiable, Hashable, Sendable {
        var id: String
        var title: String
    }

    /// The app's board: a typed data source over cards it keeps itself (here, an
    /// array it follows through onChange), on `store`.
    final class Board: Sendable {
        let server: CollectionServer
        let cards: LiveDiffableDataSource<String, Card>
        let port: Int
        /// The app's own store of its cards.
        final class Database: Sendable { let cards = Mutex<[Card]>([]) }
        let database = Database()

        init(store: any CollectionStore, cards initial: [Card]) async throws {
            var configuration = CollectionServer.Configuration.testing
            configuration.storage = .custom(store)
            server = CollectionServer(configuration: configuration)
            let board = server.addCollection(named: "board")
            board.delegate = MoveAnything()
            cards = LiveDiffableDataSource(collection: board, cellRegistration: CellRegistration(template: "card") { ["title": $0.title] })
            database.cards.withLock { $0 = initial }
            let database = self.database
            cards.onChange { snapshot, _ in database.cards.withLock { $0 = snapshot.itemIdentifiers } }
            var snapshot = NSDiffableDataSourceSnapshot<String, Card>()
            snapshot.appendSections(["todo"])
            snapshot.appendItems(initial)
            try await cards.apply(snapshot)
            port = try server.start()
        }
    }

    final class MoveAnything: LiveCollectionDelegate {}

    /// A typed collection whose app gives the same contents after a restart keeps
    /// its epoch and sequence: open pages resume instead of reloading; contents the
    /// app changed meanwhile come as one batch after the last one they saw.
    @Test func aTypedCollectionResumesItsPagesAfterARestart() async throws {
        let store = InMemoryCollectionStore()
        let cards = [Card(id: "c1", title: "Write"), Card(id: "c2", title: "Test"), Card(id: "c3", title: "Ship")]
        var board = try await Board(store: store, cards: cards)
        let viewer = try await TestViewer.connect(port: board.port)
        try await viewer.hello(wantOrder: true, collection: "board")
        viewer.send(#"{"type":"move","op":"m1","item":"c3","section":"todo"}"#)
        #expect(try await viewer.next("ack") == .ack(op: "m1", seq: 2))
        try await viewer.wait(forSeq: 2)
        let epoch = try #require(viewer.mirror.epoch)
        let seen = viewer.mirror
        board.server.stop()
        // The app restarts from its own database (which followed the move).
        let kept = board.database.cards.withLock { $0 }
        #expect(kept.map(\.id) == ["c3", "c1", "c2"])
        board = try await Board(store: store, cards: kept)
        #expect(board.cards.collection.epoch == epoch && board.cards.collection.sequence == 2)
        var back = try await TestViewer.connect(port: board.port, mirror: seen)
        guard case .resume(let resume) = try await back.hello(wantOrder: true, lastSeq: 2, epoch: epoch, collection: "board") else {
            Issue.record("the page reloaded instead of resuming"); return
        }
        #expect(resume.seq == 2 && back.mirror.order == [["c3", "c1", "c2"]])
        let resumed = back.mirror
        board.server.stop()
        // Meanwhile a card's title changed in the app's database: one batch, the same item.
        var changed = kept
        changed[1].title = "Write well"
        board = try await Board(store: store, cards: changed)
        defer { board.server.stop() }
        #expect(board.cards.collection.epoch == epoch && board.cards.collection.sequence == 3)
        back = try await TestViewer.connect(port: board.port, mirror: resumed)
        guard case .resume = try await back.hello(wantOrder: true, lastSeq: 2, epoch: epoch, collection: "board") else {
            Issue.record("the page reloaded instead of resuming"); return
        }
        guard case .batch(let batch)? = back.received.last(where: { $0.type == "batch" }) else { Issue.record("no batch"); return }
        #expect(batch.seq == 3 && batch.deletedIds.isEmpty && batch.insertedIds.isEmpty)
        #expect(back.mirror.order == [["c3", "c1", "c2"]])
        #expect(back.mirror.element(item: "c1")?.content["title"] == "Write well")
    }
}

/// A store whose appends wait while it is held: shows what is sent before a commit returns.
final class GatedStore: CollectionStore, @unchecked Sendable {
    private let inner = InMemoryCollectionStore()
    private let gate = NSCondition()
    private var held = false

    func hold() { gate.withLock { held = true } }
    func release() { gate.withLock { held = false; gate.broadcast() } }

    func load(_ name: String) throws(StoreError) -> StoredCollection? { try inner.load(name) }
    func create(_ collection: StoredCollection) throws(StoreError) { try inner.create(collection) }
    func append(_ batches: [CommittedBatch]) throws(StoreError) {
        gate.withLock { while held { gate.wait() } }
        try inner.append(batches)
    }
    func log(of name: String, after seq: Int) throws(StoreError) -> [CommittedBatch] { try inner.log(of: name, after: seq) }
    var writeProblem: StoreError? { inner.writeProblem }
}
