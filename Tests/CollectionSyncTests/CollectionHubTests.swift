import CollectionCore
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Testing

/// New items n<serial>.
func testFactory() -> SerialItemFactory { SerialItemFactory() }

/// 100-point squares, spacing 10, no insets, 20-point headers.
func testPolicy() -> FixedLayoutPolicy { FixedLayoutPolicy(itemSize: CGSize(width: 100, height: 100), headerHeight: 20) }

/// Sections of items `<section><n>`, each titled with its own id.
func makeModel(sections: [(String, Int)] = [("a", 30), ("b", 30)]) -> CollectionModel {
    var model = CollectionModel()
    for (id, count) in sections {
        model.snapshot.appendSections([id])
        model.sectionTitles[id] = id.uppercased()
        let items = (0..<count).map { "\(id)\($0)" }
        model.snapshot.appendItems(items, toSection: id)
        for item in items { model.itemContent[item] = ["title": item] }
    }
    return model
}

/// Limits with no message rate to speak of (tests that send many messages at once).
func unlimitedMessages() -> HubLimits {
    var limits = HubLimits()
    limits.messagesPerSecond = 1e9
    limits.messageBurst = 1e9
    return limits
}

func makeHub(sections: [(String, Int)] = [("a", 30), ("b", 30)]) -> CollectionHub {
    CollectionHub(model: makeModel(sections: sections), factory: testFactory(), policy: testPolicy())
}

extension CollectionHub {
    func send(_ text: String, from key: UInt64) -> [Outgoing] { receive(Array(text.utf8), from: key) }

    func hello(_ key: UInt64, width: Int = 320, height: Int = 200, y: Int = 0) -> ServerMessage.Welcome? {
        connect(key)
        let out = send(#"{"type":"hello","viewport":{"width":\#(width),"height":\#(height)},"offset":{"x":0,"y":\#(y)}}"#, from: key)
        for o in out where o.viewer == key { if case .welcome(let w) = o.message { return w } }
        return nil
    }
}

func messages(_ out: [Outgoing], to key: UInt64) -> [ServerMessage] { out.filter { $0.viewer == key }.map(\.message) }

@Suite struct CollectionHubTests {
    @Test func welcomeHoldsTheWindowInTheViewersOwnLayout() throws {
        let hub = makeHub()
        let narrow = try #require(hub.hello(1, width: 320, height: 200))
        let wide = try #require(hub.hello(2, width: 700, height: 200))
        #expect(narrow.sections.map(\.count) == [30, 30])
        // 320 wide: 3 columns; window = viewport ± one screen: y -200 ..< 400.
        // Header 0..20, lines at 20, 130, 240, 350 → 4 lines × 3 = 12 cells.
        #expect(narrow.elements.filter { $0.kind == "cell" }.count == 12)
        #expect(narrow.elements.first { $0.key == "i:a1" }?.frame == [110, 20, 100, 100])
        // 700 wide: (700 + 10) / 110 = 6 columns, justified: (700 - 600) / 5 = 20 → second column at 120.
        #expect(wide.elements.first { $0.key == "i:a1" }?.frame == [120, 20, 100, 100])
        let expectedHeight: Double = 2 * 20 + 2 * (10 * 100 + 9 * 10)
        #expect(narrow.contentSize.height == expectedHeight)
        #expect(wide.viewers.map(\.id) == ["v1", "v2"])
    }

    @Test func scrollingAddsAndRemovesElements() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        let out = hub.send(#"{"type":"scroll","offset":{"x":0,"y":1000}}"#, from: 1)
        guard case .window(let w) = try #require(messages(out, to: 1).first) else { Issue.record("expected window"); return }
        // New window 800 ..< 1400; the first lines left, later lines came in.
        #expect(w.remove.contains("i:a0") && w.remove.contains("h:a"))
        #expect(w.add.allSatisfy { $0.frame[1] + $0.frame[3] > 800 && $0.frame[1] < 1400 })
        #expect(Set(w.add.map(\.key)).isSubset(of: hub.inspect.windowKeys(of: 1)))
        #expect(!hub.inspect.windowKeys(of: 1).contains("i:a0"))
    }

    @Test func anEditReachesEveryViewerInOrderWithAnAckForTheSender() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2, width: 650)
        let out = hub.send(#"{"type":"insert","op":"x1","section":"a","count":2}"#, from: 1)
        #expect(messages(out, to: 1).first == .ack(op: "x1", seq: 1))
        for viewer in [UInt64(1), 2] {
            guard case .batch(let b) = try #require(messages(out, to: viewer).last) else { Issue.record("no batch"); return }
            #expect(b.seq == 1)
            #expect(b.inserts == [[0, 0], [0, 1]])
            #expect(b.sections.map(\.count) == [32, 30])
            #expect(b.elements.first { $0.key == "i:n61" }?.item == 0)
        }
        #expect(hub.sequence == 1)
        #expect(hub.model.snapshot.itemIdentifiers(inSection: "a").prefix(3) == ["n61", "n62", "a0"])
        #expect(hub.model.checkInvariants().isEmpty)
    }

    @Test func batchesCarryOnlyWhatChangedInEachWindow() throws {
        let hub = makeHub()
        _ = hub.hello(1)                       // at the top of section a
        _ = hub.hello(2, y: 1500)              // down in section b
        let out = hub.send(#"{"type":"shuffle","section":"b"}"#, from: 1)
        let top = try #require(messages(out, to: 1).compactMap { if case .batch(let b) = $0 { b } else { nil } }.first)
        let down = try #require(messages(out, to: 2).compactMap { if case .batch(let b) = $0 { b } else { nil } }.first)
        #expect(top.elements.isEmpty && top.remove.isEmpty)      // nothing in its window moved
        #expect(!down.elements.isEmpty)                          // its window did
        #expect(down.elements.allSatisfy { $0.section == 1 })
    }

    @Test func shuffleIsOneBatchOfMovesThatReproducesTheNewOrder() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        let before = hub.model.snapshot.itemIdentifiers(inSection: "b")
        let out = hub.send(#"{"type":"shuffle","section":"b"}"#, from: 1)
        guard case .batch(let b) = try #require(messages(out, to: 1).first) else { Issue.record("no batch"); return }
        let after = hub.model.snapshot.itemIdentifiers(inSection: "b")
        #expect(Set(before) == Set(after) && before != after)
        #expect(b.deletes.isEmpty && b.inserts.isEmpty && !b.moves.isEmpty)
        var rebuilt = [String?](repeating: nil, count: after.count)
        let movedFrom = Set(b.moves.map { $0[0][1] })
        for m in b.moves { rebuilt[m[1][1]] = before[m[0][1]] }
        var rest = before.indices.filter { !movedFrom.contains($0) }.map { before[$0] }.makeIterator()
        for i in rebuilt.indices where rebuilt[i] == nil { rebuilt[i] = rest.next() }
        #expect(rebuilt.compactMap { $0 } == after)
    }

    @Test func refusedEditsChangeNothingAndReachNobodyElse() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        let model = hub.model
        for bad in [
            #"{"type":"delete","op":"d","items":["a1","nope"]}"#,
            #"{"type":"insert","section":"zzz","count":1}"#,
            #"{"type":"shuffle","section":5}"#,
            #"{"type":"select","item":"ghost","selected":true}"#,
            "not json",
        ] {
            let out = hub.send(bad, from: 1)
            #expect(out.count == 1 && out.first?.viewer == 1, "\(bad)")
            switch out.first?.message {
            case .error(let code, let message, _):
                #expect(!message.isEmpty && (code != .badJSON || bad == "not json"))
            case .reject(let op, let code, let message):
                #expect(op == "d" && code == .unknownItem && message.contains("nope"))
            default:
                Issue.record("expected an error or a reject for \(bad)")
            }
        }
        #expect(hub.model == model)
        #expect(hub.sequence == 0)
        let binary = hub.receiveBinary(from: 2)
        #expect(binary == [Outgoing(viewer: 2, message: .error(code: .binaryUnsupported, message: "binary frames are not part of collection.v1; send JSON text", op: nil))])
    }

    @Test func messagesBeforeHelloAreRefused() {
        let hub = makeHub()
        hub.connect(1)
        let out = hub.send(#"{"type":"select","item":"a1","selected":true}"#, from: 1)
        #expect(out == [Outgoing(viewer: 1, message: .error(code: .notReady, message: "send 'hello' first", op: nil))])
    }

    @Test func selectionIsSharedAndClearedByDeleteAndDisconnect() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        let out = hub.send(#"{"type":"select","item":"a3","selected":true}"#, from: 1)
        #expect(messages(out, to: 2) == [.selection(viewer: "v1", item: "a3", selected: true)])
        #expect(hub.inspect.selection(of: 1) == ["a3"])
        let third = try #require(hub.hello(3))
        _ = hub.endTurn()
        #expect(third.selections == [SelectionInfo(viewer: "v1", items: ["a3"])])
        let deleted = hub.send(#"{"type":"delete","items":["a3"]}"#, from: 2)
        if case .batch(let b) = messages(deleted, to: 1).last { #expect(b.deletedIds == ["a3"]) } else { Issue.record("no batch") }
        #expect(hub.inspect.selection(of: 1).isEmpty)
        _ = hub.send(#"{"type":"selectRange","from":"a4","to":"a6"}"#, from: 1)
        let gone = hub.disconnect(1)
        // One message for the whole selection, however large.
        #expect(messages(gone, to: 2).first == .selections(viewer: "v1", items: ["a4", "a5", "a6"], selected: false))
        // Who left is told at the end of the turn.
        #expect(!messages(gone, to: 2).contains { if case .presenceChange = $0 { true } else { false } })
        #expect(messages(hub.endTurn(), to: 2) == [.presenceChange(joined: [], left: ["v1"])])
    }
}
