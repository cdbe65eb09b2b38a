import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Foundation
import PhotoLibraryExample
import Testing

/// An app's context menu: Pin, a hidden entry, Delete for editors.
final class PinMenus: LiveCollectionDelegate {
    let pinned = Locked<[String]>([])

    func collectionView(_ collectionView: LiveCollection, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint,
                        by viewer: Viewer) -> ContextMenuConfiguration? {
        guard !indexPaths.isEmpty else { return nil }
        let ids = indexPaths.compactMap { collectionView.model.snapshot.itemIdentifier(at: $0) }
        return ContextMenuConfiguration(identifier: nil, previewProvider: nil) { [pinned] _ in
            Menu(title: "\(viewer.name): \(ids.joined(separator: ", ")) at \(Int(point.x)),\(Int(point.y))", children: [
                Action(title: "Pin", image: "📌") { _ in pinned.withLock { $0 += ids } },
                Action(title: "Secret", attributes: .hidden) { _ in },
                Menu(title: "More", options: .displayInline, children: [
                    Action(title: "Archive", attributes: .disabled) { _ in },
                    Action(title: "Starred", state: .on) { _ in },
                ]),
            ])
        }
    }
}

/// A lock around a value, for tests.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

@Suite(.tags(.integration)) struct ContextMenuServerTests {
    @Test func aViewersMenuComesFromTheDelegateAndItsActionRunsOnce() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "x")
        let menus = PinMenus()
        collection.delegate = menus
        collection.load(DragDropDelegateTests.model(["a", "b", "c"]))
        let port = try server.start()
        defer { server.stop() }
        let v = try await TestViewer.connect(port: port)
        try await v.hello(name: "Ana")
        v.send(#"{"type":"contextMenu","items":["b","c"],"x":120.5,"y":40}"#)
        guard case .contextMenu(let items, let menu?) = try await v.next("contextMenu") else { Issue.record("no menu"); return }
        #expect(items == ["b", "c"])
        // The hidden entry is left out; the others keep their places.
        #expect(menu == MenuEntry(index: 0, title: "Ana: b, c at 120,40", children: [
            MenuEntry(index: 0, title: "Pin", image: "📌"),
            MenuEntry(index: 2, title: "More", inline: true, children: [
                MenuEntry(index: 0, title: "Archive", attributes: ["disabled"]),
                MenuEntry(index: 1, title: "Starred", state: "on"),
            ]),
        ]))
        // A disabled action, a submenu, nothing: refused, the menu stays open.
        for path in ["[2,0]", "[2]", "[9]"] {
            v.send(#"{"type":"contextMenuAction","path":\#(path)}"#)
            guard case .error(.badMessage, let message, _) = try await v.next("error") else { Issue.record("no error for \(path)"); return }
            #expect(message.contains("the menu stays open"))
        }
        v.send(#"{"type":"contextMenuAction","path":[0]}"#)
        v.send(#"{"type":"contextMenuAction","path":[0]}"#)
        guard case .error(.noMenu, _, _) = try await v.next("error") else { Issue.record("the menu was still open"); return }
        #expect(menus.pinned.withLock { $0 } == ["b", "c"])
        // The background has no menu; an unknown item is refused.
        v.send(#"{"type":"contextMenu","items":[],"x":0,"y":0}"#)
        guard case .contextMenu([], nil) = try await v.next("contextMenu") else { Issue.record("a menu for the background"); return }
        v.send(#"{"type":"contextMenu","items":["zz"],"x":0,"y":0}"#)
        guard case .error(.unknownItem, _, _) = try await v.next("error") else { Issue.record("unknown item accepted"); return }
    }

    @Test func aClosedMenuRunsNothing() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "x")
        let menus = PinMenus()
        collection.delegate = menus
        collection.load(DragDropDelegateTests.model(["a", "b"]))
        let port = try server.start()
        defer { server.stop() }
        let v = try await TestViewer.connect(port: port)
        try await v.hello()
        v.send(#"{"type":"contextMenu","items":["a"],"x":1,"y":1}"#)
        _ = try await v.next("contextMenu")
        v.send(#"{"type":"contextMenuEnd"}"#)
        v.send(#"{"type":"contextMenuAction","path":[0]}"#)
        guard case .error(.noMenu, _, _) = try await v.next("error") else { Issue.record("the menu was still open"); return }
        #expect(menus.pinned.withLock { $0 }.isEmpty)
    }

    @Test func thePhotosMenuMovesAndDeletesForEveryone() async throws {
        let server = CollectionServer(configuration: .testing)
        PhotoLibraryExample.add(to: server, size: "small")
        let port = try server.start()
        defer { server.stop() }
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(wantOrder: true, collection: "photos")
        let ben = try await TestViewer.connect(port: port)
        try await ben.hello(wantOrder: true, collection: "photos")
        ana.send(#"{"type":"contextMenu","items":["p2","p3"],"x":10,"y":10}"#)
        guard case .contextMenu(_, let menu?) = try await ana.next("contextMenu") else { Issue.record("no menu"); return }
        #expect(menu.title == "2 photos" && menu.children?.map(\.title) == ["Move to Top", "Move to Album", "Delete"])
        let albums = try #require(menu.children?[1].children)
        #expect(albums.map(\.title) == ["Summer in Lisbon", "Mountains", "City Nights"] && albums.map(\.state) == ["on", nil, nil])
        // Move to Album › Mountains: both photos open that album, for Ben too.
        ana.send(#"{"type":"contextMenuAction","path":[1,1]}"#)
        try await ben.wait(forSeq: 1)
        // The batch names Ana, whose menu it was.
        let moved = ben.received.compactMap { m -> ServerMessage.Batch? in if case .batch(let b) = m, b.seq == 1 { b } else { nil } }.first
        #expect(moved?.by == ana.mirror.viewer?.id && moved?.by != nil)
        #expect(ben.mirror.order?[1].prefix(2) == ["p2", "p3"])
        // Delete, from Ben's own menu.
        ben.send(#"{"type":"contextMenu","items":["p3"],"x":10,"y":10}"#)
        _ = try await ben.next("contextMenu")
        ben.send(#"{"type":"contextMenuAction","path":[2]}"#)
        try await ana.wait(forSeq: 2)
        #expect(ana.mirror.order?.joined().contains("p3") == false && ana.mirror.order?[1].first == "p2")
    }
}
