import CollectionProtocol
import CollectionServer
import Foundation
import ProjectTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Changes the app makes from its own tasks: numbered, fanned out, attributed to the server.
@Suite(.tags(.integration)) struct ServerChangeTests {
    @Test func theBackgroundViewReachesEveryViewerAndFollowsTheCollection() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        // Set by the app: every viewer gets it in a window, drawn with the page's tpl-banner.
        h.collection.backgroundView = CellContent(template: "banner", fields: ["title": "Maintenance at 6"])
        let shown = try await ana.next("window")
        guard case .window(let w) = shown else { return }
        #expect(w.add.map(\.key) == ["bg"] && w.add.first?.kind == "background" && w.add.first?.content["title"] == "Maintenance at 6")
        #expect(h.collection.backgroundView?.template == "banner")
        // Made from the collection: an empty state once the last item goes.
        h.collection.setBackgroundView { model in model.snapshot.numberOfItems == 0 ? CellContent(template: "empty", fields: [:]) : nil }
        guard case .window(let cleared) = try await ana.next("window") else { return }
        #expect(cleared.remove == ["bg"])
        var snapshot = h.dataSource.snapshot()
        snapshot.deleteItems(snapshot.itemIdentifiers)
        let seq = try await h.dataSource.apply(snapshot)
        try await ana.wait(forSeq: seq)
        let last = ana.received.compactMap { m -> ServerMessage.Batch? in if case .batch(let b) = m { b } else { nil } }.last
        #expect(last?.elements.first { $0.key == "bg" }?.reuse == "empty")
    }

    @Test func aPushFromABackgroundTaskReachesEveryViewerInSequence() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        let ben = try await h.viewer("Ben")
        let start = h.collection.sequence
        // Two pushes from a task of their own, as a timer would make them.
        let dataSource = h.dataSource
        let pushed = try await Task.detached {
            var seqs: [Int] = []
            for name in ["x", "y"] {
                var snapshot = dataSource.snapshot()
                snapshot.insertItems([name], beforeItem: "a")
                seqs.append(try await dataSource.apply(snapshot))
            }
            return seqs
        }.value
        #expect(pushed == [start + 1, start + 2])
        for viewer in [ana, ben] {
            try await viewer.wait(forSeq: start + 2)
            let batches = viewer.received.compactMap { m -> ServerMessage.Batch? in if case .batch(let b) = m { b } else { nil } }
            #expect(batches.map(\.seq) == [start + 1, start + 2])
            #expect(batches.allSatisfy { $0.by == "server" })
            #expect(batches.map(\.insertedIds) == [["x"], ["y"]])
            #expect(viewer.mirror.order == [["x", "y", "a", "b", "c", "d", "e", "f"]])
            #expect(viewer.mirror.element(item: "y")?.content["title"] == "Y")
        }
        // The server is nobody: no phantom viewer joined.
        #expect(h.collection.viewers.map(\.name) == ["Ana", "Ben"])
        let joined = ana.received.compactMap { m -> [ViewerInfo]? in if case .presenceChange(let j, _) = m { j } else { nil } }.flatMap { $0 }
        #expect(joined.map(\.name) == ["Ben"])
    }

    @Test func concurrentPushesAreNumberedWithoutGapsAndEveryViewerAgrees() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        let dataSource = h.dataSource
        let seqs = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<8 {
                group.addTask {
                    var snapshot = dataSource.snapshot()
                    snapshot.appendItems(["n\(i)"])
                    return try await dataSource.apply(snapshot)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seqs.sorted() == Array(2...9))
        try await ana.wait(forSeq: 9)
        // Each push was worked out from the snapshot its task read: the last one wins
        // what it saw; whatever the interleaving, the viewer's mirror matches the server.
        #expect(ana.mirror.order?.first == h.collection.model.snapshot.itemIdentifiers)
    }

    @Test func aRefusedChangeThrowsAndChangesNothing() async throws {
        let h = try LibraryHarness()
        var limits = h.collection.limits
        limits.maxItems = 4
        h.collection.limits = limits
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["s1"])
        snapshot.appendItems(["a", "b", "c", "d", "e"])
        await #expect(throws: ProtocolError.self) { try await h.dataSource.apply(snapshot) }
        #expect(h.collection.sequence == 0)
        #expect(h.dataSource.snapshot().numberOfItems == 0)
    }

    @Test func reconfiguredItemsGetNewContentInPlace() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        try await h.collection.update { model in
            model.itemContent["c"]?["title"] = "Changed"
            return ["c"]
        }
        try await ana.wait(forSeq: 2)
        #expect(ana.mirror.element(item: "c")?.content["title"] == "Changed")
        // A reconfigure through the data source makes the cell from the provider again.
        try await h.dataSource.reconfigureItems(["c"])
        try await ana.wait(forSeq: 3)
        #expect(ana.mirror.element(item: "c")?.content["title"] == "C")
        #expect(ana.mirror.order == [["a", "b", "c", "d", "e", "f"]])
    }

    @Test func theClientIsServedAtItsVersionedPath() async throws {
        let h = try LibraryHarness()
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(h.port)\(CollectionClient.mountPath)collection.js")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("export class LiveCollection"))
        let (_, missing) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(h.port)\(CollectionClient.mountPath)CollectionClient.swift")!)
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
    }
}
