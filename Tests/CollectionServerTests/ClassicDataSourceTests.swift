import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Synchronization
import Testing

/// A data source in UIKit's classic style: the app keeps arrays and says what changed.
final class Albums: CollectionViewDataSource, @unchecked Sendable {
    var albums: [[String]] = [["IMG_1", "IMG_2", "IMG_3"], ["IMG_4"]]
    /// Photos drawn with another template than "photo", by title.
    var templates: [String: String] = [:]

    func numberOfSections(in collectionView: CollectionView) -> Int { albums.count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { albums[section].count }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        let title = albums[indexPath.section][indexPath.item]
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: templates[title] ?? "photo", for: indexPath)
        cell.content = ["title": title]
        return cell
    }
    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool { true }
    func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        let title = albums[sourceIndexPath.section].remove(at: sourceIndexPath.item)
        albums[destinationIndexPath.section].insert(title, at: destinationIndexPath.item)
    }
}

@Suite(.tags(.integration)) struct ClassicDataSourceTests {
    /// A server whose "photos" collection holds `Albums`, and a viewer of it.
    static func start() async throws -> (CollectionServer, LiveCollection, Albums, TestViewer) {
        let server = CollectionServer(configuration: .testing)
        let photos = server.addCollection(named: "photos")
        photos.register(CollectionViewCell.self, forCellWithReuseIdentifier: "photo")
        photos.register(CollectionViewCell.self, forCellWithReuseIdentifier: "featured")
        photos.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
        let albums = Albums()
        try photos.setDataSource(albums)
        let port = try server.start()
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(wantOrder: true)
        return (server, photos, albums, ana)
    }

    static func titles(_ v: TestViewer) -> [[String]] {
        (v.mirror.order ?? []).map { ids in ids.map { v.mirror.element(item: $0)?.content["title"] ?? "?" } }
    }

    @Test func batchUpdatesFromTheAppReachViewersAndBadOnesAreRefused() async throws {
        let (server, photos, albums, ana) = try await Self.start()
        defer { server.stop() }
        #expect(Self.titles(ana) == [["IMG_1", "IMG_2", "IMG_3"], ["IMG_4"]])

        // Insert one, delete one, move one, reload one: one batch, as UIKit's.
        let seq = try await photos.performBatchUpdates {
            albums.albums[0].remove(at: 1)                 // IMG_2
            albums.albums[0].insert("IMG_5", at: 0)
            albums.albums[1].append(albums.albums[0].remove(at: 2))   // IMG_3 to the second album
            albums.albums[0][1] = "IMG_1 (edited)"
            photos.deleteItems(at: [IndexPath(item: 1, section: 0)])
            photos.insertItems(at: [IndexPath(item: 0, section: 0)])
            photos.moveItem(at: IndexPath(item: 2, section: 0), to: IndexPath(item: 1, section: 1))
            photos.reloadItems(at: [IndexPath(item: 0, section: 0)])
        }
        #expect(seq == 2)
        try await ana.wait(forSeq: 2)
        #expect(Self.titles(ana) == [["IMG_5", "IMG_1 (edited)"], ["IMG_4", "IMG_3"]])
        guard case .batch(let b) = ana.received.last(where: { $0.type == "batch" }) else { Issue.record("no batch"); return }
        #expect(b.by == "server" && b.deletes.count == 1 && b.inserts.count == 1 && b.moves.count == 1 && b.reloads.count == 1)

        // Counts that disagree: refused with UIKit's message, nothing sent.
        await #expect(throws: ProtocolError.self) {
            try await photos.performBatchUpdates {
                albums.albums[1].append("IMG_6")
                photos.insertItems(at: [IndexPath(item: 0, section: 0)])
            }
        }
        do {
            albums.albums[1].removeLast()
            try await photos.performBatchUpdates {
                albums.albums[1].append("IMG_7")
            }
            Issue.record("an insert the batch does not name was accepted")
        } catch {
            #expect(error.code == .invalidBatch)
            #expect(error.message.contains("section 1"))
        }
        #expect(photos.sequence == 2)
    }

    @Test func aViewersMoveGoesThroughTheDataSource() async throws {
        let (server, photos, albums, ana) = try await Self.start()
        defer { server.stop() }
        let first = try #require(ana.mirror.order?[0][0])
        let sections = ana.mirror.sections.map(\.id)
        ana.send(#"{"type":"move","op":"m","item":"\#(first)","section":"\#(sections[1])"}"#)
        try await ana.next("ack")
        try await ana.wait(forSeq: 2)
        #expect(albums.albums == [["IMG_2", "IMG_3"], ["IMG_1", "IMG_4"]])
        #expect(Self.titles(ana) == albums.albums)
        // The app's next batch starts from the moved order.
        try await photos.performBatchUpdates {
            albums.albums[1].append("IMG_9")
            photos.insertItems(at: [IndexPath(item: 2, section: 1)])
        }
        try await ana.wait(forSeq: 3)
        #expect(Self.titles(ana) == [["IMG_2", "IMG_3"], ["IMG_1", "IMG_4", "IMG_9"]])
    }

    @Test func aReloadChangesTheCellsTemplateBothWays() async throws {
        let (server, photos, albums, ana) = try await Self.start()
        defer { server.stop() }
        let id = try #require(ana.mirror.order?[0][1])
        #expect(ana.mirror.element(item: id)?.reuse == "photo")
        albums.templates = ["IMG_2": "featured"]
        try await photos.performBatchUpdates { photos.reloadItems(at: [IndexPath(item: 1, section: 0)]) }
        try await ana.wait(forSeq: 2)
        #expect(ana.mirror.element(item: id)?.reuse == "featured")
        // Back to the collection's default template ("cell"): the item's own template goes.
        albums.templates = ["IMG_2": "cell"]
        try await photos.performBatchUpdates { photos.reloadItems(at: [IndexPath(item: 1, section: 0)]) }
        try await ana.wait(forSeq: 3)
        #expect(ana.mirror.element(item: id)?.reuse == "cell")
    }
}
