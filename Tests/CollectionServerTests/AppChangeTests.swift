import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// The app's changes against viewers' and each other's: none undoes an
/// acknowledged change, none blocks a thread of the app's, an item keeps its
/// identity when its fields change.
@Suite(.tags(.integration)) struct AppChangeTests {
    /// A viewer moves items again and again (each acknowledged) while the app
    /// reconfigures items and applies snapshots it took earlier: at the end every
    /// move is there, in the model and in the app's snapshot.
    @Test func theAppsChangesNeverUndoAViewersMove() async throws {
        let h = try LibraryHarness()
        let items = (0..<12).map { "m\($0)" }
        try await h.fill(items)
        let ana = try await h.viewer("Ana")   // the harness's delegate lets Ana move
        let stop = Atomic<Bool>(false)
        let dataSource = h.dataSource
        // What the app is told: every change, with the snapshot after it.
        final class Told: Sendable { let changes = Mutex<[(seq: Int, by: String, order: [String])]>([]) }
        let told = Told()
        dataSource.onChange { snapshot, change in
            told.changes.withLock { $0.append((change.sequence, change.by.name, snapshot.itemIdentifiers)) }
        }
        let first = h.collection.sequence
        // The app: a reconfigure every few milliseconds, and a snapshot taken, held
        // a moment (another task's work) and applied with one item reconfigured.
        let app = Task.detached {
            var k = 0
            var applied = 0
            while !stop.load(ordering: .relaxed) {
                k += 1
                if k % 2 == 0 {
                    _ = try await dataSource.reconfigureItems([items[k % items.count]])
                } else {
                    var snapshot = dataSource.snapshot()
                    try await Task.sleep(for: .milliseconds(2))
                    snapshot.reconfigureItems([items[k % items.count]])
                    _ = try await dataSource.apply(snapshot)
                }
                applied += 1
                try await Task.sleep(for: .milliseconds(3))
            }
            return applied
        }
        // Ana: 150 moves, each to the top, waiting for its ack before the next.
        var expected = items
        var random = SplitMix64(seed: 44)
        for k in 0..<150 {
            let item = expected.randomElement(using: &random)!
            ana.send(#"{"type":"move","op":"mv\#(k)","item":"\#(item)","section":"s1"}"#)
            let answer = try await ana.next(where: {
                switch $0 {
                case .ack(let op, _), .reject(let op, _, _): op == "mv\(k)"
                default: false
                }
            }, timeout: .seconds(20))
            guard case .ack = answer else { Issue.record("move \(k) refused: \(answer)"); continue }
            expected.removeAll { $0 == item }
            expected.insert(item, at: 0)
            // A person's pace, between the app's changes.
            try await Task.sleep(for: .milliseconds(4))
        }
        stop.store(true, ordering: .relaxed)
        let applied = try await app.value
        #expect(applied > 20, "the app changed the collection \(applied) times meanwhile")
        // Every acknowledged move is there: the app changed contents only.
        #expect(h.collection.model.snapshot.itemIdentifiers == expected)
        #expect(dataSource.snapshot().itemIdentifiers == expected)
        try await ana.wait(forSeq: h.collection.sequence)
        #expect(ana.mirror.order == [expected])
        // The app was told of each batch, Ana's moves and its own, the last with the final order.
        let changes = told.changes.withLock { $0 }
        #expect(changes.map(\.seq) == Array(first + 1...h.collection.sequence))
        #expect(changes.filter { $0.by == "Ana" }.count == 150 && changes.filter { $0.by == "server" }.count == applied)
        #expect(changes.last?.order == expected)
    }

    /// A store whose every commit takes 20 ms (a disk's `fsync`, a database's
    /// round trip): fifty changes at once from fifty tasks must leave the app's
    /// other tasks running, on a machine whose cooperative pool has two threads.
    final class SlowStore: CollectionStore {
        let inner = InMemoryCollectionStore()
        func load(_ name: String) throws(StoreError) -> StoredCollection? { try inner.load(name) }
        func create(_ collection: StoredCollection) throws(StoreError) { try inner.create(collection) }
        func append(_ batches: [CommittedBatch]) throws(StoreError) {
            usleep(20_000)
            try inner.append(batches)
        }
        func log(of name: String, after seq: Int) throws(StoreError) -> [CommittedBatch] { try inner.log(of: name, after: seq) }
        var writeProblem: StoreError? { inner.writeProblem }
    }

    @Test func fiftyConcurrentChangesLeaveTheAppsOtherTasksRunning() async throws {
        var configuration = CollectionServer.Configuration.testing
        configuration.storage = .custom(SlowStore())
        let server = CollectionServer(configuration: configuration)
        let collection = server.addCollection(named: "c")
        var model = CollectionModel()
        model.snapshot.appendSections(["s"])
        collection.load(model)
        _ = try server.start()
        defer { server.stop() }
        // A ticker: how often it gets to run while the changes wait for their commits.
        let ticks = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let ticker = Task.detached {
            while !done.load(ordering: .relaxed) {
                ticks.add(1, ordering: .relaxed)
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        // Where each change ran: its body runs with the collection locked, and its
        // commit is waited for on the same thread.
        final class Names: Sendable { let seen = Mutex<Set<String>>([]) }
        let threads = Names()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for k in 0..<50 {
                group.addTask {
                    try await collection.update { model in
                        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
                        threads.seen.withLock { _ = $0.insert(name.trimmingCharacters(in: .whitespacesAndNewlines)) }
                        model.snapshot.appendItems(["x\(k)"], toSection: "s")
                        model.itemContent["x\(k)"] = ["title": "\(k)"]
                        return []
                    }
                }
            }
            var numbers: [Int] = []
            for try await seq in group { numbers.append(seq) }
            #expect(numbers.sorted() == Array(1...50))
        }
        let took = clock.now - start
        done.store(true, ordering: .relaxed)
        await ticker.value
        // Every change ran on the server's own thread, never on Swift's pool: what
        // fails when a change runs on its caller's thread.
        #expect(threads.seen.withLock { $0 } == ["app-changes"])
        // Fifty commits of 20 ms: a second at least, during which the ticker ran. (Run
        // alone, it ticks about 50 times a second, against 5 when changes blocked the
        // pool; beside the whole suite, whose tests hold the pool too, it gets far
        // fewer either way, so the count is not the test.)
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        #expect(seconds >= 0.9)
        #expect(ticks.load(ordering: .relaxed) >= 1, "\(ticks.load(ordering: .relaxed)) ticks in \(seconds) s")
        #expect(collection.model.snapshot.numberOfItems == 50)
    }

    /// A delegate whose move handler writes to the app's own database (20 ms).
    final class SlowMover: LiveCollectionDelegate {
        func collectionView(_ collectionView: LiveCollection, canMoveItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool { true }
        func collectionView(_ collectionView: LiveCollection, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath, by viewer: Viewer) {
            usleep(20_000)
        }
    }

    /// The viewer is charged for the library's work its messages cause, not the
    /// app's: 60 quick moves, each costing the app 20 ms, are all taken (a quarter
    /// of the server's time, bursts of half a second: charged the app's time, about
    /// 25 of them would be refused).
    @Test func aFastMoverIsNotChargedForTheAppsOwnWork() async throws {
        let h = try LibraryHarness()
        try await h.fill((0..<10).map { "q\($0)" })
        h.collection.delegate = SlowMover()
        let mover = try await h.viewer("Mover")
        var refused = 0
        for k in 0..<60 {
            mover.send(#"{"type":"move","op":"f\#(k)","item":"q\#(k % 10)","section":"s1"}"#)
            let answer = try await mover.next(where: { $0.type == "ack" || $0.type == "reject" }, timeout: .seconds(20))
            if case .reject(_, let code, _) = answer {
                refused += 1
                #expect(code != .rateLimited, "move \(k): \(answer)")
            }
        }
        #expect(refused == 0)
    }

    struct Card: Identifiable, Hashable, Sendable {
        var id: String
        var title: String
        var votes: Int
    }

    /// An `Identifiable` item is its `id`: a card whose votes change is the same
    /// card, reconfigured under its wire id (its selection stays), not another one.
    @Test func anIdentifiableItemKeepsItsIdentityWhenItsFieldsChange() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "cards")
        let dataSource = LiveDiffableDataSource<String, Card>(collection: collection, cellRegistration: CellRegistration(template: "card") {
            ["title": $0.title, "votes": "\($0.votes)"]
        })
        let port = try server.start()
        defer { server.stop() }
        var snapshot = NSDiffableDataSourceSnapshot<String, Card>()
        snapshot.appendSections(["todo"])
        snapshot.appendItems([Card(id: "t1", title: "Write", votes: 0), Card(id: "t2", title: "Test", votes: 0)])
        try await dataSource.apply(snapshot)
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(wantOrder: true, collection: "cards")
        #expect(ana.mirror.order == [["t1", "t2"]])
        ana.send(#"{"type":"select","item":"t1","selected":true}"#)
        _ = try await ana.next("selection")
        // A vote: the app replaces the value (as a struct with synthesized Hashable is).
        var next = dataSource.snapshot()
        next.deleteItems([Card(id: "t1", title: "Write", votes: 0)])
        next.insertItems([Card(id: "t1", title: "Write", votes: 1)], beforeItem: Card(id: "t2", title: "Test", votes: 0))
        let seq = try await dataSource.apply(next)
        try await ana.wait(forSeq: seq)
        guard case .batch(let batch)? = ana.received.last(where: { $0.type == "batch" }) else { Issue.record("no batch"); return }
        #expect(batch.deletedIds.isEmpty && batch.insertedIds.isEmpty, "the card stays itself: \(batch)")
        #expect(ana.mirror.order == [["t1", "t2"]])
        #expect(ana.mirror.element(item: "t1")?.content["votes"] == "1")
        // Its selection stays: a newcomer is told Ana has t1 selected.
        let ben = try await TestViewer.connect(port: port)
        guard case .welcome(let welcome) = try await ben.hello(collection: "cards") else { Issue.record("no welcome"); return }
        #expect(welcome.selections.first { $0.viewer == ana.mirror.viewer?.id }?.items == ["t1"])
        #expect(dataSource.snapshot().itemIdentifiers.first?.votes == 1)
    }
}
