import CollectionProtocol
import Foundation
import MessageBytes
import Testing

/// Every server message written by the hand-made JSON writer decodes back (with
/// Foundation's JSONDecoder) to the same value: escapes, non-ASCII, numbers.
@Suite struct ServerMessageRoundTripTests {
    static let tricky = ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\r", "\u{01}\u{1F} control", "émoji 📸 ü", "", "</script>"]

    static func element(_ i: Int) -> Element {
        Element(key: "i:\(tricky[i % tricky.count])", kind: i % 3 == 0 ? "header" : "cell", reuse: "photo", section: i % 4,
                item: i % 3 == 0 ? nil : i, frame: [Double(i) * 10.5, -3, 158.85, 1e-5 + Double(i)], zIndex: i % 2 == 0 ? 0 : 1024,
                alpha: i % 2 == 0 ? 1 : 0.25, hidden: i % 5 == 0, content: ["title": tricky[(i + 1) % tricky.count], "n": "\(i)"])
    }

    static let bands = [Band(section: "s\"1", frame: [0, 20.5, 400, 100], axis: "x", length: 1_000_000, behavior: "groupPagingCentered", pitch: 330.25, offset: 12)]

    static let messages: [ServerMessage] = {
        let viewer = ViewerInfo(id: "v1", name: "Ann \"A\"", color: "#e4572e")
        let sections = [SectionInfo(id: "s\n1", title: "Summer 🌞", count: 640, checksum: orderChecksum(["a", "b"]))]
        let elements = (0..<12).map(element)
        return [
            .welcome(.init(viewer: viewer, epoch: "e1", seq: 3, contentSize: Size(width: 1200, height: 64890.5), sections: sections,
                           elements: elements, selections: [SelectionInfo(viewer: "v2", items: ["p1", "é"])], viewers: [viewer], order: [["a", "b"], []])),
            .welcome(.init(viewer: viewer, epoch: "e2", seq: 0, contentSize: Size(width: 1, height: 1), sections: [], elements: [], selections: [], viewers: [])),
            .resume(.init(viewer: viewer, fromSeq: 2, seq: 5, selections: [], viewers: [viewer], focuses: [FocusInfo(viewer: "v3", item: "p1")], layout: "list", collection: "photos")),
            .window(.init(contentSize: Size(width: 320, height: 99.125), add: elements, remove: tricky, replace: true)),
            .batch(.init(seq: 7, by: "v2", deletes: [[0, 1]], deletedIds: ["x"], inserts: [[1, 0], [1, 1]], insertedIds: ["y", "z"],
                         moves: [[[0, 2], [1, 5]]], reloads: [[2, 3]], replay: false, sections: sections,
                         contentSize: Size(width: 10, height: 20), elements: elements, remove: ["i:gone"])),
            .ack(op: "op-\"1\"", seq: 42),
            .selection(viewer: "v1", item: "p\\9", selected: false),
            .presenceChange(joined: [viewer], left: ["v9"]),
            .error(code: .badJSON, message: "message is not valid JSON", op: nil),
            .error(code: .unknownItem, message: "no item 'x'", op: "op"),
            .reject(op: "m1", code: .notMovable, message: "item 'p' cannot be moved"),
            .focus(viewer: "v2", item: "p7"),
            .focus(viewer: "v2", item: nil),
            .drag(viewer: "v3", item: "p\"1", at: Point(x: 10.5, y: -3)),
            .drag(viewer: "v3", item: nil, at: Point(x: 0, y: 0)),
            .drag(viewer: "v3", item: "p1", at: Point(x: 4, y: 5), over: DragAnchor(item: "p\"2", x: 0.25, y: 1)),
            .layout(name: "list", by: "v1"),
            .dropProposal(.init(operation: "move", intent: "insertIntoDestinationIndexPath", section: 1, item: 4, target: "p9", x: 12.5, y: 40)),
            .dropProposal(.init(operation: "cancel", intent: "unspecified", section: nil, item: nil, target: nil, x: 0, y: 0)),
            .editing(on: true),
            .actionResult(.init(op: "a1", name: "vote", item: "p1", status: "done", value: ["votes": "3", "by": "Ana"])),
            .actionResult(.init(op: nil, name: "crash", item: nil, status: "failed", message: "the \"vote\" was lost")),
            .dragSession(id: "v\"1-2", items: ["a", "é"], allowsMove: false),
            .contextMenu(items: ["a", "é"], menu: MenuEntry(index: 0, title: "2 \"photos\"", children: [
                MenuEntry(index: 0, title: "Move", image: "⤒"),
                MenuEntry(index: 2, title: "Album", children: [MenuEntry(index: 0, title: "Summer", attributes: ["disabled", "keepsMenuPresented"], state: "mixed")]),
                MenuEntry(index: 3, title: "Inline", inline: true, children: []),
            ])),
            .contextMenu(items: [], menu: nil),
            .swipeActions(item: "b1", edge: "leading", actions: [SwipeActionInfo(title: nil, style: "normal"), SwipeActionInfo(title: "Flag", style: "normal", color: "#f0a400")], fullSwipe: false),
            .selections(viewer: "v2", items: ["a", "b"], selected: false),
            .window(.init(contentSize: Size(width: 320, height: 10), add: [], remove: [], animated: true)),
            .window(.init(contentSize: Size(width: 400, height: 900), bands: bands, add: [], remove: [])),
            {
                var b = ServerMessage.Batch(seq: 8, by: "server", deletes: [], deletedIds: [], inserts: [], insertedIds: [], moves: [], reloads: [],
                                            sections: sections, contentSize: Size(width: 400, height: 900), elements: [], remove: [])
                b.bands = bands
                return .batch(b)
            }(),
            {
                var turned = element(3)
                turned.transform = [0, 1, -1, 0, 0, 0.5]
                var b = ServerMessage.Batch(seq: 9, by: "v1", deletes: [[0, 0]], deletedIds: ["p0"], inserts: [[0, 0]], insertedIds: ["p9"], moves: [], reloads: [],
                                            sections: sections, contentSize: Size(width: 400, height: 900), elements: [turned], remove: ["i:p0"])
                b.appear = [Pose(key: "i:p9", frame: [8, -92, 188, 100.5], alpha: 0)]
                b.disappear = [Pose(key: "i:p0", frame: [204, 8, 188, 50], alpha: 0.25, transform: [0.2, 0, 0, 0.2, 0, 0])]
                return .batch(b)
            }(),
            {
                var w = ServerMessage.Welcome(viewer: viewer, epoch: "e4", seq: 2, contentSize: Size(width: 400, height: 900), sections: sections,
                                              elements: [], selections: [], viewers: [])
                w.bands = bands
                return .welcome(w)
            }(),
            .welcome(.init(viewer: viewer, epoch: "e3", seq: 1, contentSize: Size(width: 1, height: 1), sections: [], elements: [], selections: [],
                           viewers: [], focuses: [FocusInfo(viewer: "v2", item: "p1")])),
        ]
    }()

    @Test(arguments: messages)
    func roundTrips(message: ServerMessage) throws {
        let bytes = message.encoded()
        #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is [String: Any])
        #expect(try ServerMessage.decode(bytes) == message)
    }

    /// A batch's index paths and moves, read number by number, refuse what is not
    /// an array of arrays of integers, as the generic decoding did.
    @Test func malformedIndexPathsAreRefused() throws {
        let batch = try #require(Self.messages.first { if case .batch = $0 { true } else { false } })
        let good = try #require(try JSONSerialization.jsonObject(with: Data(batch.encoded())) as? [String: Any])
        let cases: [(String, Any)] = [("inserts", [[0, "x"]]), ("deletes", [0]), ("reloads", NSNull()), ("moves", [[0, 1]]),
                                      ("moves", [[[0, 1], [1, 1.5]]])]
        for (field, bad) in cases {
            var broken = good
            broken[field] = bad
            let bytes = Array(try JSONSerialization.data(withJSONObject: broken))
            #expect(throws: (any Error).self, "\(field): \(bad)") { try ServerMessage.decode(bytes) }
        }
        #expect(try ServerMessage.decode(Array(try JSONSerialization.data(withJSONObject: good))) == batch)
    }

    /// One writer reused for message after message (as a hub encodes) writes each
    /// exactly as a fresh one would: after a longer message, and after one larger than
    /// the buffer it keeps (about 1.5 MB here).
    @Test func aReusedWriterWritesEachMessageAsAFreshOne() throws {
        let large = ServerMessage.window(.init(contentSize: Size(width: 1, height: 1), add: (0..<6_000).map(Self.element), remove: [], replace: true))
        var writer = JSONWriter(capacity: 64)
        for message in Self.messages + [large] + Self.messages.reversed() {
            let bytes = message.encoded(using: &writer)
            #expect(bytes == message.encoded())
            #expect(try ServerMessage.decode(bytes) == message)
        }
    }

    @Test func numbersAreCompactAndExact() throws {
        let m = ServerMessage.window(.init(contentSize: Size(width: 100, height: 0.1 + 0.2), add: [], remove: []))
        let text = String(decoding: m.encoded(), as: UTF8.self)
        #expect(text.contains(#""width":100,"#))
        guard case .window(let back) = try ServerMessage.decode(m.encoded()) else { Issue.record("not a window"); return }
        #expect(back.contentSize.height == 0.1 + 0.2)
    }

    /// Every number is written as Swift's shortest round-trip text (`description`,
    /// without ".0" on whole numbers), whether it takes the fast path for whole
    /// numbers and hundredths or not, and reads back exactly.
    @Test func numbersAreWrittenAsTheirShortestRoundTripText() throws {
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = [0, 1, -1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 123_456.78, -0.5, 0.05, 0.5, 143.67, 143.6, -143.07,
                                1e-5, 0.1 + 0.2, 106.66666666666667, 1e14 + 0.5, 9_999.99, 10_000.01, 2_147_483_647.25]
        values += [166.335, 324.67, 0.001, -0.0005, 0.0001, 0.00005, 1e-4 + 1e-12, 12_345.6789, 9_999_999_999.999, 1e10 + 0.5, 0.125, 2.675]
        for _ in 0..<3_000 {
            values.append(Double(Int.random(in: -2_000_000...2_000_000, using: &rng)) / 100)
            values.append(Double(Int.random(in: -20_000_000...20_000_000, using: &rng)) / 1_000)
            values.append(Double(Int.random(in: -200_000_000...200_000_000, using: &rng)) / 10_000)
            // A layout's thirds and sevenths, rounded to thousandths or not at all.
            let width = Double(Int.random(in: 1...2_000, using: &rng))
            values.append(((width / 3) * 1_000).rounded() / 1_000)
            values.append(width / 7)
            values.append(Double.random(in: -5_000...5_000, using: &rng))
        }
        for v in values {
            let m = ServerMessage.drag(viewer: "v", item: nil, at: Point(x: v, y: 0))
            let text = String(decoding: m.encoded(), as: UTF8.self)
            let expected = v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : v.description
            #expect(text.contains(#""x":\#(expected),"#), "\(v) written as \(text)")
            guard case .drag(_, _, let at, _) = try ServerMessage.decode(m.encoded()) else { Issue.record("not a drag"); return }
            #expect(at.x == v)
        }
    }

    /// An element whose fixed members were encoded ahead (and one given that encoding
    /// from a cache, and one moved with `placed`) is written as one encoded afresh.
    @Test func preparedAndCachedElementsEncodeTheSame() throws {
        let cache = ElementEncodingCache()
        for i in 0..<12 {
            let plain = Self.element(i)
            var prepared = plain
            prepared.prepareEncoding(using: cache)
            var fromCache = Self.element(i)
            fromCache.prepareEncoding(using: cache)
            let window = { (e: Element) in ServerMessage.window(.init(contentSize: Size(width: 1, height: 1), add: [e], remove: [])).encoded() }
            #expect(window(prepared) == window(plain))
            #expect(window(fromCache) == window(plain))
            var moved = prepared
            let changedPlace = moved.place(section: 3, item: 7, x: 1.5, y: 2, width: 30.25, height: 40, zIndex: 2, alpha: 0.5, hidden: false, transform: nil)
            var again = moved
            let changedAgain = again.place(section: 3, item: 7, x: 1.5, y: 2, width: 30.25, height: 40, zIndex: 2, alpha: 0.5, hidden: false, transform: nil)
            #expect(changedPlace && !changedAgain && again == moved)
            var expected = plain
            expected.section = 3
            expected.item = 7
            expected.frame = [1.5, 2, 30.25, 40]
            expected.zIndex = 2
            expected.alpha = 0.5
            expected.hidden = false
            #expect(moved == expected && window(moved) == window(expected))
            // A changed content is not taken from the cache.
            var changed = Self.element(i)
            changed.content["extra"] = "1"
            var changedPrepared = changed
            changedPrepared.prepareEncoding(using: cache)
            #expect(window(changedPrepared) == window(changed))
        }
    }

    /// A batch whose shared members were encoded once gives the same bytes as one
    /// encoded whole, for each viewer's own content size, elements and removals.
    @Test func sharedMembersSpliceToTheSameBytes() throws {
        guard case .batch(var template) = Self.messages[4] else { Issue.record("not a batch"); return }
        template.encodeSharedMembers()
        for k in 0..<4 {
            var fresh = Self.messages[4]
            var cached = template
            if case .batch(var b) = fresh {
                b.contentSize = Size(width: Double(k), height: 1.5)
                b.elements = Array(b.elements.prefix(k))
                b.remove = Array(Self.tricky.prefix(k))
                fresh = .batch(b)
                cached.contentSize = b.contentSize
                cached.elements = b.elements
                cached.remove = b.remove
            }
            #expect(ServerMessage.batch(cached).encoded() == fresh.encoded())
            #expect(try ServerMessage.decode(ServerMessage.batch(cached).encoded()) == fresh)
        }
    }

    /// Each viewer's message keeps only its own bytes: the shared members stay one
    /// buffer for all of them, and joined they give the message encoded whole. A
    /// writer used again afterwards splices nothing into the next message.
    @Test func sharedMembersStayOneBufferAcrossViewers() throws {
        guard case .batch(var template) = Self.messages[4] else { Issue.record("not a batch"); return }
        template.encodeSharedMembers()
        let shared = try #require(template.shared)
        #expect(shared.count > 0)
        var writer = JSONWriter()
        var insertedAt: Set<Int> = []
        for k in 0..<3 {
            var viewer = template
            viewer.contentSize = Size(width: Double(300 + k), height: 10)
            viewer.elements = Array(viewer.elements.prefix(k))
            var whole = Self.messages[4]
            if case .batch(var b) = whole {
                b.contentSize = viewer.contentSize
                b.elements = viewer.elements
                whole = .batch(b)
            }
            let message = ServerMessage.batch(viewer).encodedMessage(using: &writer)
            #expect(message.joined() == whole.encoded())
            #expect(message.count == whole.encoded().count)
            #expect(message.own.count + shared.count + 1 == message.count)   // the comma before the members is shared too
            #expect(!message.own.isEmpty && message.inserted.count == shared.count + 1)
            _ = message.inserted.withUnsafeBufferPointer { insertedAt.insert(Int(bitPattern: $0.baseAddress)) }
        }
        #expect(insertedAt.count == 1)
        let ack = ServerMessage.ack(op: "op-1", seq: 3).encodedMessage(using: &writer)
        #expect(ack.inserted.isEmpty && ack.joined() == ServerMessage.ack(op: "op-1", seq: 3).encoded())
        // A batch with nothing encoded ahead is written whole.
        let plain = Self.messages[4].encodedMessage()
        #expect(plain.inserted.isEmpty && plain.joined() == Self.messages[4].encoded())
    }
}
