import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Testing

/// Each delegate callback reaches the app with the viewer who caused it.
@Suite(.tags(.integration)) struct DelegateTests {
    @Test func selectionCallbacksNameTheViewer() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        let ben = try await h.viewer("Ben")
        ana.send(#"{"type":"select","item":"b","selected":true}"#)
        try await ben.next("selection")
        #expect(h.delegate.calls("shouldSelect") == [Call(method: "shouldSelect", indexPath: IndexPath(item: 1, section: 0), viewer: "Ana")])
        #expect(h.delegate.calls("didSelect") == [Call(method: "didSelect", indexPath: IndexPath(item: 1, section: 0), viewer: "Ana")])

        ben.send(#"{"type":"select","item":"c","selected":true}"#)
        try await ana.next("selection")
        ana.send(#"{"type":"select","item":"b","selected":false}"#)
        _ = try await ben.next(where: { if case .selection(_, "b", false) = $0 { true } else { false } })
        #expect(h.delegate.calls("didSelect").map(\.viewer) == ["Ana", "Ben"])
        #expect(h.delegate.calls("didDeselect") == [Call(method: "didDeselect", indexPath: IndexPath(item: 1, section: 0), viewer: "Ana")])

        // The delegate refuses "f": asked by Ben, nothing is selected, nobody hears of it.
        ben.send(#"{"type":"select","item":"f","selected":true}"#)
        let heard = await ana.drain()
        #expect(!heard.contains { if case .selection(_, "f", _) = $0 { true } else { false } })
        #expect(h.delegate.calls("shouldSelect").last == Call(method: "shouldSelect", indexPath: IndexPath(item: 5, section: 0), viewer: "Ben"))
        #expect(h.delegate.calls("didSelect").count == 2)
    }

    @Test func moveRulesAskAndTellWithTheViewer() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        let ben = try await h.viewer("Ben")
        // Only Ana may move: Ben's move is refused and changes nothing.
        ben.send(#"{"type":"move","op":"b1","item":"a","section":"s1","after":"c"}"#)
        let refused = try await ben.next("reject")
        guard case .reject(_, let code, _) = refused else { Issue.record("expected a reject"); return }
        #expect(code == .notMovable)
        #expect(h.delegate.calls("canMove") == [Call(method: "canMove", indexPath: IndexPath(item: 0, section: 0), viewer: "Ben")])
        #expect(h.delegate.calls("moveFrom").isEmpty)
        #expect(h.dataSource.snapshot().itemIdentifiers == ["a", "b", "c", "d", "e", "f"])

        ana.send(#"{"type":"move","op":"a1","item":"a","section":"s1","after":"c"}"#)
        try await ana.next("ack")
        try await ben.wait(forSeq: 2)
        #expect(h.delegate.calls("canMove").last?.viewer == "Ana")
        #expect(h.delegate.calls("moveFrom") == [Call(method: "moveFrom", indexPath: IndexPath(item: 0, section: 0), viewer: "Ana")])
        #expect(h.delegate.calls("moveTo") == [Call(method: "moveTo", indexPath: IndexPath(item: 2, section: 0), viewer: "Ana")])
        // The typed data source follows the viewer's move.
        #expect(h.dataSource.snapshot().itemIdentifiers == ["b", "c", "a", "d", "e", "f"])
        #expect(ben.mirror.order == [["b", "c", "a", "d", "e", "f"]])
    }

    @Test func interactiveMovementAsksForTargetsAsTheMover() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        let ben = try await h.viewer("Ben")
        ben.send(#"{"type":"moveBegin","item":"b"}"#)
        try await ben.next("error")
        #expect(h.delegate.calls("canMove").map(\.viewer) == ["Ben"])
        ana.send(#"{"type":"moveBegin","item":"b"}"#)
        try await ana.next("window")
        // Over the fourth cell (100 × 50 cells, 10 apart: x 330…430).
        ana.send(#"{"type":"moveUpdate","x":380,"y":25}"#)
        try await ana.next("window")
        let targets = h.delegate.calls("target")
        #expect(!targets.isEmpty)
        #expect(targets.allSatisfy { $0.viewer == "Ana" })
        #expect(targets.last?.indexPath == IndexPath(item: 3, section: 0))
        ana.send(#"{"type":"moveEnd","op":"m1"}"#)
        try await ana.next("ack")
        try await ben.wait(forSeq: 2)
        #expect(h.dataSource.snapshot().itemIdentifiers == ["a", "c", "d", "b", "e", "f"])
        #expect(h.delegate.calls("moveTo").last == Call(method: "moveTo", indexPath: IndexPath(item: 3, section: 0), viewer: "Ana"))
    }
}

extension TestViewer {
    /// Everything that arrives until `window` passes with nothing.
    func drain(_ window: Duration = .milliseconds(300)) async -> [ServerMessage] {
        var got: [ServerMessage] = []
        while let m = try? await receiveOne(timeout: window) { got.append(m) }
        return got
    }
}
