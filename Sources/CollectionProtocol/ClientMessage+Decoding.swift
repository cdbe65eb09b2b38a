import Foundation

/// Reading a client's message: strictly, with limits, naming the field at fault.
extension ClientMessage {
    /// Decodes one message strictly: unknown types and fields, wrong types,
    /// out-of-range numbers and oversize input are refused with a message
    /// that names the field.
    /// A refused edit whose `op` could be read carries it in the error (``ProtocolError/op``),
    /// so that it is answered with `reject`, like any other refused edit.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> ClientMessage {
        guard bytes.count <= maxClientMessageBytes else {
            throw ProtocolError(.badMessage, "message is \(bytes.count) bytes; the limit is \(maxClientMessageBytes)")
        }
        let value = try JSONValue.parse(bytes)
        do throws(ProtocolError) {
            return try decode(value)
        } catch {
            var refused = error
            refused.op = editOp(in: value)
            throw refused
        }
    }

    /// The `op` of an edit, read leniently from a message that may not decode: the
    /// message is a JSON object whose `type` is an edit type (or `action`) and whose `op` is a
    /// string of at most 64 bytes. Nil otherwise.
    public static func editOp(in bytes: [UInt8]) -> String? {
        guard bytes.count <= maxClientMessageBytes, let value = try? JSONValue.parse(bytes) else { return nil }
        return editOp(in: value)
    }

    private static func editOp(in value: JSONValue) -> String? {
        guard case .object(let fields) = value, case .string(let type)? = fields["type"], editTypes.contains(type) || type == "action",
              case .string(let op)? = fields["op"], op.utf8.count <= 64 else { return nil }
        return op
    }

    private static func decode(_ value: JSONValue) throws(ProtocolError) -> ClientMessage {
        var r = try FieldReader(value, path: "")
        guard case .string(let type)? = r.fields["type"] else {
            throw ProtocolError(.badMessage, r.fields["type"] == nil ? "missing field 'type'" : "field 'type' must be a string")
        }
        let message: ClientMessage
        switch type {
        case "hello":
            let version = try r.optionalInteger("protocol", in: 0...1_000) ?? protocolVersion
            let viewport = try size(r.object("viewport"))
            let offset = try point(r.optionalObject("offset")) ?? Point(x: 0, y: 0)
            let name = try r.optionalString("name", maxLength: 64)
            let lastSeq = try r.optionalInteger("lastSeq", in: 0...Int(Int32.max))
            let epoch = try r.optionalString("epoch", maxLength: 64)
            let wantOrder = try r.optionalBool("wantOrder") ?? false
            let collection = try r.optionalString("collection", maxLength: 64)
            message = .hello(Hello(version: version, viewport: viewport, offset: offset, name: name, lastSeq: lastSeq, epoch: epoch,
                                   wantOrder: wantOrder, collection: collection))
        case "scroll":
            let offset = try point(r.object("offset"))!
            let viewport = try r.optionalObject("viewport").map { reader throws(ProtocolError) in try size(reader) }
            var sectionOffsets: [String: Double] = [:]
            if var offsets = try r.optionalObject("sectionOffsets") {
                guard offsets.fields.count <= maxSectionOffsets else {
                    throw ProtocolError(.badMessage, "field 'sectionOffsets' holds \(offsets.fields.count) sections; the limit is \(maxSectionOffsets)")
                }
                for key in offsets.fields.keys.sorted() {
                    guard key.utf8.count <= 200 else { throw ProtocolError(.badMessage, "field 'sectionOffsets' names a section id longer than 200 bytes") }
                    sectionOffsets[key] = try offsets.number(key, in: 0...10_000_000)
                }
                try offsets.finish()
            }
            message = .scroll(offset: offset, viewport: viewport, sectionOffsets: sectionOffsets)
        case "select":
            message = .select(item: try r.string("item"), selected: try r.bool("selected"))
        case "focus":
            message = .focus(item: try r.optionalString("item"))
        case "drag":
            let item = try r.optionalString("item")
            let x = try r.optionalNumber("x", in: -10_000_000...10_000_000) ?? 0
            let y = try r.optionalNumber("y", in: -10_000_000...10_000_000) ?? 0
            message = .drag(item: item, at: Point(x: x, y: y))
        case "moveBegin":
            message = .moveBegin(item: try r.string("item"))
        case "moveUpdate":
            message = .moveUpdate(at: Point(x: try r.number("x", in: -10_000_000...10_000_000), y: try r.number("y", in: -10_000_000...10_000_000)))
        case "moveEnd":
            message = .moveEnd(op: try r.optionalString("op", maxLength: 64))
        case "moveCancel":
            message = .moveCancel
        case "layout":
            message = .layout(name: try r.string("name", maxLength: 64))
        case "dragBegin", "dragAdd":
            let item = try r.string("item")
            let at = Point(x: try r.number("x", in: -10_000_000...10_000_000), y: try r.number("y", in: -10_000_000...10_000_000))
            message = type == "dragBegin" ? .dragBegin(item: item, at: at) : .dragAdd(item: item, at: at)
        case "dragEnd":
            message = .dragEnd
        case "outline":
            message = .outline(item: try r.string("item"), expanded: try r.bool("expanded"))
        case "accessory":
            let item = try r.string("item")
            let name = try r.string("name", maxLength: 32)
            guard Self.accessoryKinds.contains(name) else {
                throw ProtocolError(.badMessage, "field 'name' must name a cell accessory (\(Self.accessoryKinds.sorted().joined(separator: ", "))), not '\(name.prefix(32))'")
            }
            message = .accessory(item: item, name: name)
        case "contextMenu":
            let items = try r.stringArray("items", count: 0...1_000)
            guard Set(items).count == items.count else { throw ProtocolError(.badMessage, "field 'items' names an item twice") }
            message = .contextMenu(items: items, at: Point(x: try r.number("x", in: -10_000_000...10_000_000), y: try r.number("y", in: -10_000_000...10_000_000)))
        case "contextMenuAction":
            message = .contextMenuAction(path: try r.integerArray("path", count: 1...8, in: 0...255))
        case "contextMenuEnd":
            message = .contextMenuEnd
        case "swipeActions", "swipeAction":
            let item = try r.string("item")
            let edge = try r.string("edge", maxLength: 16)
            guard edge == "leading" || edge == "trailing" else {
                throw ProtocolError(.badMessage, "field 'edge' must be leading or trailing, not '\(edge.prefix(16))'")
            }
            message = type == "swipeActions" ? .swipeActions(item: item, trailing: edge == "trailing")
                : .swipeAction(item: item, trailing: edge == "trailing", index: try r.integer("index", in: 0...64))
        case "transitionBegin":
            message = .transitionBegin(layout: try r.string("layout", maxLength: 64))
        case "transitionUpdate":
            message = .transitionUpdate(progress: try r.number("progress", in: 0...1))
        case "transitionEnd":
            message = .transitionEnd(finish: try r.bool("finish"))
        case "measure":
            var sizes: [MeasuredSize] = []
            for var entry in try r.objectArray("sizes", count: 1...500) {
                sizes.append(MeasuredSize(item: try entry.string("item"), size: Size(width: try entry.number("width", in: 1...100_000),
                                                                                     height: try entry.number("height", in: 1...100_000))))
                try entry.finish()
            }
            message = .measure(sizes)
        case "dropUpdate", "drop":
            let request = try dropRequest(&r, hovering: type == "dropUpdate")
            message = type == "drop" ? .drop(request) : .dropUpdate(request)
        case "editing":
            message = .editing(try r.bool("on"))
        case "selectRange":
            message = .selectRange(from: try r.string("from"), to: try r.string("to"), selected: try r.optionalBool("selected") ?? true,
                                   replace: try r.optionalBool("replace") ?? false)
        case "scrollToItem":
            let item = try r.string("item")
            let raw = try r.optionalString("position", maxLength: 16) ?? "nearest"
            guard let position = ScrollTarget(rawValue: raw) else {
                throw ProtocolError(.badMessage, "field 'position' must be one of top, center, bottom, nearest, not '\(raw.prefix(16))'")
            }
            message = .scrollToItem(item: item, position: position)
        case "action":
            let name = try r.string("name", maxLength: 64)
            guard !name.isEmpty else { throw ProtocolError(.badMessage, "field 'name' must not be empty") }
            let item = try r.optionalString("item")
            let op = try r.optionalString("op", maxLength: 64)
            var payload: [String: String] = [:]
            if let p = try r.optionalObject("payload") {
                guard p.fields.count <= maxActionPayload.entries else {
                    throw ProtocolError(.badMessage, "field 'payload' holds \(p.fields.count) entries; the limit is \(maxActionPayload.entries)")
                }
                for (key, value) in p.fields {
                    guard key.utf8.count <= 64, case .string(let text) = value, text.utf8.count <= maxActionPayload.valueBytes else {
                        throw ProtocolError(.badMessage, "field 'payload.\(key.prefix(64))' must be a string of at most \(maxActionPayload.valueBytes) bytes (keys at most 64)")
                    }
                    payload[key] = text
                }
            }
            message = .action(name: name, item: item, payload: payload, op: op)
        case "insert", "delete", "shuffle", "move", "reload":
            let op = try r.optionalString("op", maxLength: 64)
            let ifSeq = try r.optionalInteger("ifSeq", in: 0...Int(Int32.max))
            let action: EditAction
            switch type {
            case "insert": action = .insert(section: try r.string("section"), count: try r.integer("count", in: 1...100))
            case "delete":
                let items = try r.stringArray("items", count: 1...1_000)
                guard Set(items).count == items.count else { throw ProtocolError(.badMessage, "field 'items' names an item twice") }
                action = .delete(items: items)
            case "shuffle": action = .shuffle(section: try r.string("section"))
            case "move": action = .move(item: try r.string("item"), section: try r.string("section"), after: try r.optionalString("after"))
            default: action = .reload(items: try r.stringArray("items", count: 1...1_000))
            }
            message = .edit(EditRequest(op: op, ifSeq: ifSeq, action: action))
        default:
            throw ProtocolError(.unknownType, "unknown message type '\(type.prefix(64))'; expected one of \(types.joined(separator: ", "))")
        }
        try r.finish()
        return message
    }

    /// `source` (an item here) or `items` (external data), exactly one of them.
    private static func dropRequest(_ r: inout FieldReader, hovering: Bool) throws(ProtocolError) -> DropRequest {
        let op = hovering ? nil : try r.optionalString("op", maxLength: 64)
        let at = Point(x: try r.number("x", in: -10_000_000...10_000_000), y: try r.number("y", in: -10_000_000...10_000_000))
        var source: DropRequest.Source?
        if var s = try r.optionalObject("source") {
            source = DropRequest.Source(collection: try s.string("collection", maxLength: 64), item: try s.string("item"),
                                        session: try s.optionalString("session", maxLength: 64))
            try s.finish()
        }
        var items: [DropRequest.External] = []
        if r.fields["items"] != nil {
            for var entry in try r.objectArray("items", count: 1...20) {
                let kind = try entry.string("kind", maxLength: 8)
                guard externalKinds.contains(kind) else {
                    throw ProtocolError(.badMessage, "field '\(entry.path).kind' must be one of \(externalKinds.joined(separator: ", ")), not '\(kind.prefix(16))'")
                }
                // While hovering, browsers show only the kinds; the values come with the drop.
                let value = hovering ? (try entry.optionalString("value", maxLength: 2_000) ?? "") : try entry.string("value", maxLength: 2_000)
                items.append(DropRequest.External(kind: kind, value: value))
                try entry.finish()
            }
        }
        guard (source == nil) != items.isEmpty else {
            throw ProtocolError(.badMessage, "a \(hovering ? "dropUpdate" : "drop") carries either 'source' (an item here) or 'items' (external data), exactly one")
        }
        return DropRequest(op: op, at: at, source: source, items: items)
    }

    private static func size(_ reader: FieldReader) throws(ProtocolError) -> Size {
        var v = reader
        let size = Size(width: try v.number("width", in: 1...100_000), height: try v.number("height", in: 1...100_000))
        try v.finish()
        return size
    }

    private static func point(_ reader: FieldReader?) throws(ProtocolError) -> Point? {
        guard var p = reader else { return nil }
        let point = Point(x: try p.number("x", in: -10_000_000...10_000_000), y: try p.number("y", in: -10_000_000...10_000_000))
        try p.finish()
        return point
    }
}
