import CollectionProtocol
import Foundation
import Testing

/// Keeps docs/PROTOCOL.md honest: every JSON example in it is read. Client examples
/// must decode with the strict decoder; server examples must have exactly the fields
/// the encoder writes for their type (and decode as that type).
@Suite struct ProtocolDocumentTests {
    static let document: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/PROTOCOL.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The text of the document between two headings.
    static func part(from start: String, to end: String) -> String {
        guard let a = document.range(of: start), let b = document.range(of: end, range: a.upperBound..<document.endIndex) else { return "" }
        return String(document[a.upperBound..<b.lowerBound])
    }

    /// JSON objects in ```json blocks and in inline `{"type"…}` spans.
    static func examples(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "```json\n") {
            guard let close = rest.range(of: "```", range: open.upperBound..<rest.endIndex) else { break }
            found += objects(in: rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        let withoutBlocks = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
        for (i, span) in withoutBlocks.components(separatedBy: "`").enumerated() where i % 2 == 1 && span.hasPrefix("{\"type\"") {
            found.append(span)
        }
        return found
    }

    /// Top-level JSON objects in a text, by balancing braces outside strings.
    static func objects(in text: Substring) -> [String] {
        var out: [String] = []
        var depth = 0, inString = false, escaped = false
        var start: String.Index?
        for i in text.indices {
            let c = text[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true
            case "{":
                if depth == 0 { start = i }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0, let s = start { out.append(String(text[s...i])) }
            default: break
            }
        }
        return out
    }

    static let clientExamples = examples(in: part(from: "## Client → server", to: "## Server → client"))
    static let serverExamples = examples(in: part(from: "## Server → client", to: "## Close codes"))

    @Test func theDocumentHasExamplesOfEveryMessage() {
        #expect(!Self.document.isEmpty)
        let clientTypes = Set(Self.clientExamples.compactMap { Self.type(of: $0) })
        #expect(Set(ClientMessage.types).subtracting(clientTypes).isEmpty, "client types without an example: \(Set(ClientMessage.types).subtracting(clientTypes).sorted())")
        let serverTypes = Set(Self.serverExamples.compactMap { Self.type(of: $0) })
        let every = Set(Self.samples.map { $0.message.type })
        #expect(every.subtracting(serverTypes).isEmpty, "server types without an example: \(every.subtracting(serverTypes).sorted())")
    }

    @Test(arguments: clientExamples)
    func everyClientExampleDecodesStrictly(example: String) {
        #expect(throws: Never.self, "\(example)") { _ = try ClientMessage.decode(Array(example.utf8)) }
    }

    @Test(arguments: serverExamples)
    func everyServerExampleHasExactlyTheEncodersFields(example: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(example.utf8)) as? [String: Any], "\(example)")
        let type = try #require(object["type"] as? String)
        let samples = Self.samples.filter { $0.message.type == type }
        try #require(!samples.isEmpty, "no such server message type: \(type)")
        let written = samples.map { Set(Self.fields(of: $0.message)) }
        let required = written.dropFirst().reduce(written[0]) { $0.intersection($1) }
        let possible = written.reduce(Set<String>()) { $0.union($1) }
        let keys = Set(object.keys)
        #expect(required.subtracting(keys).isEmpty, "\(type) example lacks \(required.subtracting(keys).sorted())")
        #expect(keys.subtracting(possible).isEmpty, "\(type) example has fields the server never writes: \(keys.subtracting(possible).sorted())")
        // Elements, wherever they appear, have the element's fields.
        for key in ["elements", "add"] {
            for element in object[key] as? [[String: Any]] ?? [] {
                let fields = Set(element.keys)
                let cell: Set<String> = ["key", "kind", "reuse", "section", "item", "frame", "zIndex", "alpha", "hidden", "content"]
                #expect(fields == cell || fields == cell.subtracting(["item"]), "element fields \(fields.sorted())")
            }
        }
        #expect(throws: Never.self, "\(example)") { _ = try ServerMessage.decode(Array(example.utf8)) }
    }

    static func type(of example: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(example.utf8)) as? [String: Any])?["type"] as? String
    }

    static func fields(of message: ServerMessage) -> [String] {
        ((try? JSONSerialization.jsonObject(with: Data(message.encoded()))) as? [String: Any]).map { Array($0.keys) } ?? []
    }

    /// Every server message type, with and without its optional fields.
    struct Sample: Sendable { let message: ServerMessage }
    static let samples: [Sample] = {
        let viewer = ViewerInfo(id: "v1", name: "Viewer 1", color: "#e4572e")
        let size = Size(width: 10, height: 10)
        let element = Element(key: "i:p1", kind: "cell", reuse: "photo", section: 0, item: 0, frame: [0, 0, 1, 1], content: [:])
        let batch = ServerMessage.Batch(seq: 1, by: "v1", deletes: [], deletedIds: [], inserts: [], insertedIds: [], moves: [], reloads: [],
                                        sections: [], contentSize: size, elements: [element], remove: [])
        let band = Band(section: "s", frame: [0, 0, 10, 10], axis: "x", length: 20, behavior: "paging", pitch: 5, offset: 0)
        var banded = batch
        banded.bands = [band]
        var posed = batch
        posed.appear = [Pose(key: "i:p1", frame: [0, -1, 1, 1], alpha: 0)]
        posed.disappear = [Pose(key: "i:p2", frame: [0, 0, 1, 1], alpha: 0, transform: [0.2, 0, 0, 0.2, 0, 0])]
        var bandedWelcome = ServerMessage.Welcome(viewer: viewer, epoch: "e", seq: 0, contentSize: size, sections: [], elements: [], selections: [], viewers: [viewer])
        bandedWelcome.bands = [band]
        let messages: [ServerMessage] = [
            .welcome(.init(viewer: viewer, epoch: "e", seq: 0, contentSize: size, sections: [], elements: [element], selections: [], viewers: [viewer])),
            .welcome(bandedWelcome),
            .dragSession(id: "v1-1", items: ["p1"], allowsMove: true),
            .contextMenu(items: ["p1"], menu: MenuEntry(index: 0, title: "t", children: [
                MenuEntry(index: 0, title: "a", image: "i", attributes: ["destructive"], state: "on"),
                MenuEntry(index: 1, title: "m", inline: true, children: []),
            ])),
            .contextMenu(items: [], menu: nil),
            .swipeActions(item: "p1", edge: "trailing", actions: [SwipeActionInfo(title: "Delete", style: "destructive", color: "#e4572e")], fullSwipe: true),
            .window(.init(contentSize: size, bands: [band], add: [], remove: [])),
            .batch(banded),
            .batch(posed),
            .welcome(.init(viewer: viewer, epoch: "e", seq: 0, contentSize: size, sections: [], elements: [], selections: [], viewers: [viewer],
                           order: [[]], focuses: [], layout: "grid", collection: "photos")),
            .resume(.init(viewer: viewer, fromSeq: 1, seq: 2, selections: [], viewers: [viewer])),
            .resume(.init(viewer: viewer, fromSeq: 1, seq: 2, selections: [], viewers: [viewer], collection: "photos")),
            .window(.init(contentSize: size, add: [element], remove: [])),
            .window(.init(contentSize: size, add: [], remove: [], offset: Point(x: 0, y: 1))),
            .batch(batch),
            .ack(op: "o", seq: 1),
            .selection(viewer: "v1", item: "p1", selected: true),
            .presenceChange(joined: [viewer], left: []),
            .error(code: .unknownItem, message: "m", op: nil),   // refused edits with an op get `reject`
            .reject(op: "o", code: .stale, message: "m"),
            .focus(viewer: "v1", item: nil),
            .drag(viewer: "v1", item: "p1", at: Point(x: 1, y: 2)),
            .drag(viewer: "v1", item: "p1", at: Point(x: 1, y: 2), over: DragAnchor(item: "p2", x: 0.5, y: 0.5)),
            .order(OrderPart(section: 0, ids: ["p1"], last: true)),
            .layout(name: "list", by: "v1"),
            .dropProposal(.init(operation: "move", intent: "insertAtDestinationIndexPath", section: 0, item: 1, target: nil, x: 1, y: 2)),
            .editing(on: true),
            .selections(viewer: "v1", items: ["p1"], selected: true),
            .actionResult(.init(op: "a1", name: "vote", item: "p1", status: "done", value: ["votes": "3"])),
            .actionResult(.init(op: "a2", name: "vote", item: "p1", status: "refused", message: "closed")),
            .actionResult(.init(op: nil, name: "refresh", item: nil, status: "done")),
        ]
        return messages.map(Sample.init)
    }()
}
