import CollectionProtocol
import Foundation
import Testing

@Suite struct ClientMessageTests {
    func decode(_ text: String) throws(ProtocolError) -> ClientMessage {
        try ClientMessage.decode(Array(text.utf8))
    }

    func failure(_ text: String) -> ProtocolError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesEveryMessage() throws {
        #expect(try decode(#"{"type":"hello","protocol":1,"viewport":{"width":800,"height":600},"offset":{"x":0,"y":120},"name":"Ann","lastSeq":4}"#)
                == .hello(.init(viewport: Size(width: 800, height: 600), offset: Point(x: 0, y: 120), name: "Ann", lastSeq: 4)))
        #expect(try decode(#"{"type":"hello","viewport":{"width":1,"height":2}}"#) == .hello(.init(viewport: Size(width: 1, height: 2))))
        #expect(try decode(#"{"type":"scroll","offset":{"x":0,"y":500.5}}"#) == .scroll(offset: Point(x: 0, y: 500.5), viewport: nil))
        #expect(try decode(#"{"type":"scroll","offset":{"x":0,"y":5},"viewport":{"width":300,"height":200}}"#)
                == .scroll(offset: Point(x: 0, y: 5), viewport: Size(width: 300, height: 200)))
        #expect(try decode(#"{"type":"scroll","offset":{"x":0,"y":5},"sectionOffsets":{"new":320,"top":0}}"#)
                == .scroll(offset: Point(x: 0, y: 5), viewport: nil, sectionOffsets: ["new": 320, "top": 0]))
        #expect(try decode(#"{"type":"select","item":"p1","selected":true}"#) == .select(item: "p1", selected: true))
        #expect(try decode(#"{"type":"transitionBegin","layout":"list"}"#) == .transitionBegin(layout: "list"))
        #expect(try decode(#"{"type":"dragBegin","item":"p1","x":1,"y":2}"#) == .dragBegin(item: "p1", at: Point(x: 1, y: 2)))
        #expect(try decode(#"{"type":"dragAdd","item":"p2","x":3,"y":4}"#) == .dragAdd(item: "p2", at: Point(x: 3, y: 4)))
        #expect(try decode(#"{"type":"dragEnd"}"#) == .dragEnd)
        #expect(try decode(#"{"type":"swipeActions","item":"b1","edge":"trailing"}"#) == .swipeActions(item: "b1", trailing: true))
        #expect(try decode(#"{"type":"outline","item":"h1","expanded":false}"#) == .outline(item: "h1", expanded: false))
        #expect(try decode(#"{"type":"accessory","item":"b1","name":"insert"}"#) == .accessory(item: "b1", name: "insert"))
        #expect(try decode(#"{"type":"contextMenu","items":["p1","p2"],"x":1.5,"y":2}"#) == .contextMenu(items: ["p1", "p2"], at: Point(x: 1.5, y: 2)))
        #expect(try decode(#"{"type":"contextMenu","items":[],"x":0,"y":0}"#) == .contextMenu(items: [], at: Point(x: 0, y: 0)))
        #expect(try decode(#"{"type":"contextMenuAction","path":[1,0]}"#) == .contextMenuAction(path: [1, 0]))
        #expect(try decode(#"{"type":"contextMenuEnd"}"#) == .contextMenuEnd)
        #expect(try decode(#"{"type":"swipeAction","item":"b1","edge":"leading","index":2}"#) == .swipeAction(item: "b1", trailing: false, index: 2))
        #expect(try decode(#"{"type":"drop","op":"d","x":1,"y":2,"source":{"collection":"c","item":"p1","session":"v1-1"}}"#)
                == .drop(.init(op: "d", at: Point(x: 1, y: 2), source: .init(collection: "c", item: "p1", session: "v1-1"), items: [])))
        #expect(try decode(#"{"type":"transitionUpdate","progress":0.25}"#) == .transitionUpdate(progress: 0.25))
        #expect(try decode(#"{"type":"transitionEnd","finish":false}"#) == .transitionEnd(finish: false))
        #expect(try decode(#"{"type":"insert","op":"a","section":"s","count":3}"#) == .edit(.init(op: "a", action: .insert(section: "s", count: 3))))
        #expect(try decode(#"{"type":"delete","items":["p1","p2"]}"#) == .edit(.init(op: nil, action: .delete(items: ["p1", "p2"]))))
        #expect(try decode(#"{"type":"shuffle","op":"z","section":"s","ifSeq":4}"#) == .edit(.init(op: "z", ifSeq: 4, action: .shuffle(section: "s"))))
        #expect(try decode(#"{"type":"move","op":"m","item":"p1","section":"s","after":"p9"}"#) == .edit(.init(op: "m", action: .move(item: "p1", section: "s", after: "p9"))))
        #expect(try decode(#"{"type":"move","item":"p1","section":"s","after":null}"#) == .edit(.init(op: nil, action: .move(item: "p1", section: "s", after: nil))))
        #expect(try decode(#"{"type":"reload","op":"r","items":["p1"]}"#) == .edit(.init(op: "r", action: .reload(items: ["p1"]))))
        #expect(try decode(#"{"type":"focus","item":"p2"}"#) == .focus(item: "p2"))
        #expect(try decode(#"{"type":"focus","item":null}"#) == .focus(item: nil))
        #expect(try decode(#"{"type":"drag","item":"p2","x":10,"y":20.5}"#) == .drag(item: "p2", at: Point(x: 10, y: 20.5)))
        #expect(try decode(#"{"type":"hello","viewport":{"width":1,"height":2},"lastSeq":3,"epoch":"e1","wantOrder":true}"#)
                == .hello(.init(viewport: Size(width: 1, height: 2), lastSeq: 3, epoch: "e1", wantOrder: true)))
    }

    @Test(arguments: [
        (#"{"type":"hello""#, ErrorCode.badJSON, "not valid JSON"),
        ("", .badJSON, "not valid JSON"),
        (#"{"type":"select","item":"p1","selected":NaN}"#, .badJSON, "not valid JSON"),
        (#"[1,2]"#, .badMessage, "must be a JSON object"),
        (#"{"type":"transitionUpdate","progress":-0.1}"#, .badMessage, "field 'progress' must be"),
        (#"{"type":"transitionEnd"}"#, .badMessage, "missing field 'finish'"),
        (#"{"type":"swipeActions","item":"b1","edge":"top"}"#, .badMessage, "field 'edge' must be leading or trailing"),
        (#"{"type":"accessory","item":"b1","name":"chevron"}"#, .badMessage, "field 'name' must name a cell accessory"),
        (#"{"type":"accessory","item":"b1"}"#, .badMessage, "missing field 'name'"),
        (#"{"type":"contextMenu","items":["a","a"],"x":0,"y":0}"#, .badMessage, "field 'items' names an item twice"),
        (#"{"type":"contextMenu","items":["a"]}"#, .badMessage, "missing field 'x'"),
        (#"{"type":"contextMenuAction","path":[]}"#, .badMessage, "field 'path' must be an array of 1 to 8 whole numbers between 0 and 255"),
        (#"{"type":"contextMenuAction","path":[256]}"#, .badMessage, "field 'path' must be an array of 1 to 8"),
        (#"{"type":"contextMenuAction","path":[0.5]}"#, .badMessage, "field 'path' must be an array of 1 to 8"),
        (#"{"type":"contextMenuAction","path":[0,0,0,0,0,0,0,0,0]}"#, .badMessage, "field 'path' must be an array of 1 to 8"),
        (#"{"type":"contextMenuEnd","items":[]}"#, .badMessage, "unknown field 'items'"),
        (#"{"type":"scroll","offset":{"x":0,"y":0},"sectionOffsets":{"s":-1}}"#, .badMessage, "field 'sectionOffsets.s' must be"),
        (#"{"type":"scroll","offset":{"x":0,"y":0},"sectionOffsets":{"s":"10"}}"#, .badMessage, "field 'sectionOffsets.s' must be a number"),
        (#"{"type":"scroll","offset":{"x":0,"y":0},"sectionOffsets":[10]}"#, .badMessage, "'sectionOffsets' must be a JSON object"),
        (#"{"item":"p1"}"#, .badMessage, "missing field 'type'"),
        (#"{"type":7}"#, .badMessage, "field 'type' must be a string"),
        (#"{"type":"explode"}"#, .unknownType, "unknown message type 'explode'"),
        (#"{"type":"select","item":5,"selected":true}"#, .badMessage, "field 'item' must be a string"),
        (#"{"type":"select","item":"p1","selected":1}"#, .badMessage, "field 'selected' must be true or false"),
        (#"{"type":"select","item":"p1"}"#, .badMessage, "missing field 'selected'"),
        (#"{"type":"select","item":"p1","selected":true,"extra":1}"#, .badMessage, "unknown field 'extra'"),
        (#"{"type":"hello","viewport":{"width":800}}"#, .badMessage, "missing field 'viewport.height'"),
        (#"{"type":"hello","viewport":{"width":-5,"height":600}}"#, .badMessage, "field 'viewport.width' must be between 1 and 100000"),
        (#"{"type":"hello","viewport":{"width":1e308,"height":600}}"#, .badMessage, "field 'viewport.width' must be between"),
        (#"{"type":"scroll","offset":{"x":0,"y":1e400}}"#, .badJSON, "not valid JSON"),
        (#"{"type":"insert","section":"s","count":2.5}"#, .badMessage, "field 'count' must be a whole number"),
        (#"{"type":"insert","section":"s","count":100000}"#, .badMessage, "field 'count' must be between 1 and 100"),
        (#"{"type":"delete","items":[]}"#, .badMessage, "must hold 1 to 1000 entries"),
        (#"{"type":"delete","items":[1]}"#, .badMessage, "must be an array of strings"),
        (#"{"type":"scroll","offset":{"x":0,"y":0,"z":1}}"#, .badMessage, "unknown field 'offset.z'"),
        (#"{"type":"move","item":"p1"}"#, .badMessage, "missing field 'section'"),
        (#"{"type":"move","item":"p1","section":"s","after":7}"#, .badMessage, "field 'after' must be a string"),
        (#"{"type":"reload","items":"p1"}"#, .badMessage, "must be an array of strings"),
        (#"{"type":"insert","section":"s","count":1,"ifSeq":-1}"#, .badMessage, "field 'ifSeq' must be between 0 and"),
        (#"{"type":"hello","viewport":{"width":1,"height":1},"wantOrder":"yes"}"#, .badMessage, "field 'wantOrder' must be true or false"),
    ])
    func refusesWithAMessageNamingTheProblem(input: String, code: ErrorCode, fragment: String) {
        let error = failure(input)
        #expect(error?.code == code, "\(input)")
        #expect(error?.message.contains(fragment) == true, "\(input): \(String(describing: error))")
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let error = failure(#"{"type":"select","item":"p","selected":true,"x":"# + deep + "}")
        #expect(error?.code == .badJSON)
        #expect(error?.message.contains("nests deeper") == true)
    }

    @Test func refusesOversizeMessages() {
        let big = #"{"type":"select","item":""# + String(repeating: "x", count: maxClientMessageBytes) + #"","selected":true}"#
        #expect(failure(big)?.message.contains("the limit is 65536") == true)
        let sections = (0...ClientMessage.maxSectionOffsets).map { #""s\#($0)":1"# }.joined(separator: ",")
        #expect(failure(#"{"type":"scroll","offset":{"x":0,"y":0},"sectionOffsets":{\#(sections)}}"#)?.message
                == "field 'sectionOffsets' holds 101 sections; the limit is 100")
    }

    @Test func encodesServerMessagesWithTheirType() throws {
        let ack = try JSONSerialization.jsonObject(with: Data(ServerMessage.ack(op: "o1", seq: 9).encoded())) as? [String: Any]
        #expect(ack?["type"] as? String == "ack")
        #expect(ack?["seq"] as? Int == 9)
        let error = try JSONSerialization.jsonObject(with: Data(ServerMessage.error(code: .unknownItem, message: "no", op: nil).encoded())) as? [String: Any]
        #expect(error?["type"] as? String == "error")
        #expect(error?["code"] as? String == "unknown_item")
    }
}
