import CollectionCore
import CollectionProtocol
import CollectionStorage
import CollectionSync
import ProjectTestSupport
import Foundation
import GRDB
import Testing

/// A folder of its own, removed at the end.
final class TemporaryFolder {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
    }
    var database: String { path + "/collections.sqlite" }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

func photoHub(_ name: String = "photos") -> CollectionHub {
    var model = CollectionModel()
    for (id, count) in [("a", 40), ("b", 25)] {
        model.snapshot.appendSections([id])
        model.sectionTitles[id] = id.uppercased()
        let items = (0..<count).map { "\(id)\($0)" }
        model.snapshot.appendItems(items, toSection: id)
        for item in items { model.itemContent[item] = ["title": item] }
    }
    return CollectionHub(model: model, factory: SerialItemFactory(), policy: FixedLayoutPolicy(itemSize: CGSize(width: 100, height: 100), headerHeight: 20), name: name)
}

func hello(_ hub: CollectionHub, _ key: UInt64, lastSeq: Int? = nil, epoch: String? = nil) -> [ServerMessage] {
    hub.connect(key)
    var fields = #""type":"hello","viewport":{"width":320,"height":200}"#
    if let lastSeq { fields += #","lastSeq":\#(lastSeq)"# }
    if let epoch { fields += #","epoch":"\#(epoch)""# }
    return hub.receive(Array("{\(fields)}".utf8), from: key).filter { $0.viewer == key }.map(\.message)
}

@Suite struct SQLiteStoreTests {
    @Test func batchesSurviveAReopenAndViewersResume() throws {
        let folder = TemporaryFolder()
        var epoch = ""
        var model = CollectionModel()
        do {
            let journaled = try JournaledHub(photoHub(), store: SQLiteCollectionStore(directory: folder.path))
            guard case .welcome(let w) = hello(journaled.hub, 1).first else { Issue.record("no welcome"); return }
            epoch = w.epoch
            for i in 0..<30 {
                _ = try journaled.send(#"{"type":"move","op":"m\#(i)","item":"a\#(i)","section":"b"}"#, from: 1)
            }
            _ = try journaled.send(#"{"type":"insert","op":"i","section":"a","count":3}"#, from: 1)
            _ = try journaled.send(#"{"type":"shuffle","op":"s","section":"b"}"#, from: 1)
            _ = try journaled.send(#"{"type":"delete","op":"d","items":["a35","b3"]}"#, from: 1)
            model = journaled.hub.model
            #expect(journaled.hub.sequence == 33)
        }
        let reopened = try JournaledHub(photoHub(), store: SQLiteCollectionStore(directory: folder.path))
        #expect(reopened.hub.model == model)
        #expect(reopened.hub.sequence == 33 && reopened.hub.epoch == epoch)
        let out = hello(reopened.hub, 2, lastSeq: 30, epoch: epoch)
        guard case .resume(let resume) = out.first else { Issue.record("expected resume, got \(out)"); return }
        #expect(resume.fromSeq == 30 && resume.seq == 33)
        #expect(out.compactMap { if case .batch(let b) = $0 { b.seq } else { nil } } == [31, 32, 33])
        // The op ids are remembered across the reopen.
        let again = try reopened.send(#"{"type":"move","op":"m4","item":"a4","section":"b"}"#, from: 2)
        #expect(again.map(\.message) == [.ack(op: "m4", seq: 5)])
    }

    @Test func theLogIsFoldedPastItsBoundAndStillReplays() throws {
        let folder = TemporaryFolder()
        var options = SQLiteCollectionStore.Options()
        options.foldEvery = 10
        options.keepBatches = 5
        let store = try SQLiteCollectionStore(directory: folder.path, options: options)
        let journaled = try JournaledHub(photoHub(), store: store)
        _ = hello(journaled.hub, 1)
        for i in 0..<47 {
            _ = try journaled.send(#"{"type":"move","op":"m\#(i)","item":"b\#(i % 25)","section":"a"}"#, from: 1)
        }
        store.waitForFolds()
        // Folded (in the background, every 10 batches): at most 5 kept before the
        // stored state and fewer than 10 after it, in order, ending at 47.
        let kept = try store.log(of: "photos", after: 0).map(\.seq)
        #expect(kept.last == 47 && kept == Array(kept.first!...47))
        #expect(kept.count <= 5 + 10 + 1)
        let reopened = try SQLiteCollectionStore(directory: folder.path, options: options).load("photos")
        #expect(reopened?.seq == 47 && reopened?.model == journaled.hub.model)
        #expect(reopened?.recent.map(\.seq) == kept)
    }

    @Test func severalCollectionsShareOneTransaction() throws {
        let folder = TemporaryFolder()
        let store = try SQLiteCollectionStore(directory: folder.path)
        // Two hubs whose batches are only kept aside here, to be appended by hand.
        final class Kept: CollectionHubJournal {
            var batches: [CommittedBatch] = []
            func hub(_ hub: CollectionHub, stage batch: CommittedBatch) throws(ProtocolError) { batches.append(batch) }
        }
        let (a, b) = (photoHub("left"), photoHub("right"))
        let (keptA, keptB) = (Kept(), Kept())
        a.journal = keptA
        b.journal = keptB
        try store.create(a.storedState)
        try store.create(b.storedState)
        _ = hello(a, 1)
        _ = hello(b, 2)
        _ = a.receive(Array(#"{"type":"delete","op":"x","items":["a1"]}"#.utf8), from: 1)
        _ = b.receive(Array(#"{"type":"delete","op":"y","items":["a2"]}"#.utf8), from: 2)
        // A batch out of order makes the whole append fail: neither is kept.
        var wrong = keptB.batches[0]
        wrong.seq = 5
        #expect(throws: StoreError.self) { try store.append(keptA.batches + [wrong]) }
        #expect(try store.log(of: "left", after: 0).isEmpty)
        try store.append(keptA.batches + keptB.batches)
        #expect(try store.log(of: "left", after: 0).map(\.op) == ["x"])
        #expect(try store.log(of: "right", after: 0).map(\.op) == ["y"])
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let junk = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try junk.write(to: URL(fileURLWithPath: folder.database))
        do {
            _ = try SQLiteCollectionStore(directory: folder.path)
            Issue.record("a junk file was opened")
        } catch {
            #expect(error.kind == .corrupt)
            #expect(error.message.contains("collections.sqlite") && error.message.contains("not changed"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.database)) == junk)
    }

    @Test func aDamagedDatabaseIsRefused() throws {
        let folder = TemporaryFolder()
        do {
            let journaled = try JournaledHub(photoHub(), store: SQLiteCollectionStore(directory: folder.path))
            _ = hello(journaled.hub, 1)
            for i in 0..<20 { _ = try journaled.send(#"{"type":"reload","op":"r\#(i)","items":["a\#(i)"]}"#, from: 1) }
        }
        // Closed: the log was checkpointed into the file and removed.
        #expect(!FileManager.default.fileExists(atPath: folder.database + "-wal"))
        // Scribble over every page but the first (the header and the schema).
        let size = try #require(FileManager.default.attributesOfItem(atPath: folder.database)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.database))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: size - 4096))
        try handle.close()
        do {
            let store = try SQLiteCollectionStore(directory: folder.path)
            _ = try store.load("photos")
            Issue.record("a damaged database was opened")
        } catch {
            #expect(error.kind == .corrupt)
        }
    }

    @Test func aDatabaseOfANewerSchemaIsRefused() throws {
        let folder = TemporaryFolder()
        _ = try SQLiteCollectionStore(directory: folder.path)
        try sqlite(folder.database, "INSERT INTO grdb_migrations (identifier) VALUES ('v9: from the future')")
        do {
            _ = try SQLiteCollectionStore(directory: folder.path)
            Issue.record("a newer schema was opened")
        } catch {
            #expect(error.kind == .newerSchema)
            #expect(error.message.contains("newer version"))
        }
    }

    @Test func aFullDatabaseRejectsEditsAndChangesNothing() throws {
        let folder = TemporaryFolder()
        var options = SQLiteCollectionStore.Options()
        options.maximumSize = 256 * 1024
        let journaled = try JournaledHub(photoHub(), store: SQLiteCollectionStore(directory: folder.path, options: options))
        _ = hello(journaled.hub, 1)
        var rejected: String?
        for i in 0..<5_000 {
            let before = journaled.hub.model
            let out = try journaled.send(#"{"type":"reload","op":"r\#(i)","items":["a\#(i % 40)"]}"#, from: 1)
            if case .reject(_, .storageUnavailable, let message) = out.first?.message {
                rejected = message
                #expect(journaled.hub.model == before)
                break
            }
        }
        #expect(rejected?.contains("cap") == true)
        // Everything acknowledged is there.
        let reopened = try SQLiteCollectionStore(directory: folder.path, options: options).load("photos")
        #expect(reopened?.seq == journaled.hub.sequence && reopened?.model == journaled.hub.model)
        // Past the cap, SQLite itself refuses (what a full disk does in the middle of a commit).
        let store = try SQLiteCollectionStore(directory: folder.path, options: options)
        var batch = try #require(reopened?.recent.last)
        var failure: StoreError?
        for _ in 0..<1_000 {
            batch.seq += 1
            batch.delta.content = ["a1": ["title": String(repeating: "x", count: 4_000)]]
            do { try store.append([batch]) } catch { failure = error; break }
        }
        #expect(failure?.kind == .full)
    }

    @Test func aReadOnlyDatabaseIsServedAndRefusesEdits() throws {
        let folder = TemporaryFolder()
        var model = CollectionModel()
        do {
            let journaled = try JournaledHub(photoHub(), store: SQLiteCollectionStore(directory: folder.path))
            _ = hello(journaled.hub, 1)
            _ = try journaled.send(#"{"type":"delete","op":"d","items":["a1"]}"#, from: 1)
            model = journaled.hub.model
        }
        var options = SQLiteCollectionStore.Options()
        options.readOnly = true
        let store = try SQLiteCollectionStore(directory: folder.path, options: options)
        #expect(store.isReadOnly)
        let journaled = try JournaledHub(photoHub(), store: store)
        #expect(journaled.hub.model == model)
        _ = hello(journaled.hub, 2)
        let out = try journaled.send(#"{"type":"delete","op":"d2","items":["a2"]}"#, from: 2)
        guard case .reject(_, .storageUnavailable, let message) = out.first?.message else { Issue.record("expected a reject, got \(out)"); return }
        #expect(message.contains("read-only"))
        #expect(journaled.hub.model == model)
    }
}

/// Runs SQL on a database, as another program would.
func sqlite(_ path: String, _ sql: String) throws {
    try DatabaseQueue(path: path).write { try $0.execute(sql: sql) }
}
