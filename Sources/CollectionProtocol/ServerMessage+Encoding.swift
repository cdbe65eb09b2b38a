import MessageBytes

extension ServerMessage {
    /// The JSON text of this message as UTF-8 bytes.
    public func encoded() -> [UInt8] {
        var w = JSONWriter(capacity: 512 + elementCount * 320)
        return encoded(using: &w)
    }

    /// Room for the elements at once (an element takes about 250 bytes): no growing.
    private var elementCount: Int {
        switch self {
        case .welcome(let m): m.elements.count
        case .order(let m): m.ids.count / 16
        case .window(let m): m.add.count
        case .batch(let m): m.elements.count
        default: 0
        }
    }

    /// ``encoded()``, a batch's shared members (``Batch/shared``) kept apart: one
    /// buffer for every viewer's copy.
    public func encodedMessage() -> SplicedBytes {
        var w = JSONWriter(capacity: 512 + elementCount * 320)
        return encodedMessage(using: &w)
    }

    /// ``encoded()``, written in `w`'s buffer (emptied first): a server encoding
    /// message after message reuses one buffer instead of making one for each.
    package func encoded(using w: inout JSONWriter) -> [UInt8] {
        write(into: &w)
        return w.bytes
    }

    /// ``encodedMessage()``, written in `w`'s buffer (emptied first).
    package func encodedMessage(using w: inout JSONWriter) -> SplicedBytes {
        write(into: &w)
        return w.message
    }

    private func write(into w: inout JSONWriter) {
        w.reset()
        w.beginObject()
        w.key("type")
        w.string(type)
        switch self {
        case .welcome(let m):
            w.key("protocol"); w.int(m.protocolVersion)
            w.key("viewer"); w.viewer(m.viewer)
            w.key("epoch"); w.string(m.epoch)
            w.key("seq"); w.int(m.seq)
            w.key("contentSize"); w.size(m.contentSize)
            if let bands = m.bands { w.key("bands"); w.bands(bands) }
            w.key("sections"); w.sections(m.sections)
            w.key("elements"); w.elements(m.elements)
            w.key("selections"); w.selections(m.selections)
            w.key("viewers"); w.viewers(m.viewers)
            if let order = m.order {
                w.key("order")
                w.beginArray()
                for ids in order { w.strings(ids) }
                w.endArray()
            }
            if m.orderFollows == true { w.key("orderFollows"); w.bool(true) }
            w.key("focuses"); w.focuses(m.focuses)
            w.key("layout"); w.string(m.layout)
            if let collection = m.collection { w.key("collection"); w.string(collection) }
            if let can = m.can { w.key("can"); w.strings(can) }
        case .resume(let m):
            w.key("viewer"); w.viewer(m.viewer)
            w.key("fromSeq"); w.int(m.fromSeq)
            w.key("seq"); w.int(m.seq)
            w.key("selections"); w.selections(m.selections)
            w.key("viewers"); w.viewers(m.viewers)
            w.key("focuses"); w.focuses(m.focuses)
            w.key("layout"); w.string(m.layout)
            if let collection = m.collection { w.key("collection"); w.string(collection) }
            if let can = m.can { w.key("can"); w.strings(can) }
        case .window(let m):
            w.key("contentSize"); w.size(m.contentSize)
            if let bands = m.bands { w.key("bands"); w.bands(bands) }
            w.key("add"); w.elements(m.add)
            w.key("remove"); w.strings(m.remove)
            w.key("replace"); w.bool(m.replace)
            w.key("animated"); w.bool(m.animated)
            if let offset = m.offset {
                w.key("offset")
                w.beginObject()
                w.key("x"); w.double(offset.x)
                w.key("y"); w.double(offset.y)
                w.endObject()
            }
        case .batch(let m):
            if let shared = m.shared { w.splice(shared) } else { w.batchSharedMembers(m) }
            w.key("contentSize"); w.size(m.contentSize)
            if let bands = m.bands { w.key("bands"); w.bands(bands) }
            w.key("elements"); w.elements(m.elements)
            w.key("remove"); w.strings(m.remove)
            if let appear = m.appear { w.key("appear"); w.poses(appear) }
            if let disappear = m.disappear { w.key("disappear"); w.poses(disappear) }
        case let .ack(op, seq):
            w.key("op"); w.string(op)
            w.key("seq"); w.int(seq)
        case let .selection(viewer, item, selected):
            w.key("viewer"); w.string(viewer)
            w.key("item"); w.string(item)
            w.key("selected"); w.bool(selected)
        case let .presenceChange(joined, left):
            w.key("joined"); w.viewers(joined)
            w.key("left"); w.strings(left)
        case let .error(code, message, op):
            w.key("code"); w.string(code.rawValue)
            w.key("message"); w.string(message)
            if let op { w.key("op"); w.string(op) }
        case let .reject(op, code, message):
            w.key("op"); w.string(op)
            w.key("code"); w.string(code.rawValue)
            w.key("message"); w.string(message)
        case let .focus(viewer, item):
            w.key("viewer"); w.string(viewer)
            w.key("item")
            if let item { w.string(item) } else { w.null() }
        case .order(let part):
            w.key("section"); w.int(part.section)
            w.key("ids"); w.strings(part.ids)
            w.key("last"); w.bool(part.last)
        case let .drag(viewer, item, at, over):
            w.key("viewer"); w.string(viewer)
            w.key("item")
            if let item { w.string(item) } else { w.null() }
            w.key("x"); w.double(at.x)
            w.key("y"); w.double(at.y)
            if let over {
                w.key("over"); w.beginObject()
                w.key("item"); w.string(over.item)
                w.key("x"); w.double(over.x)
                w.key("y"); w.double(over.y)
                w.endObject()
            }
        case let .layout(name, by):
            w.key("name"); w.string(name)
            w.key("by"); w.string(by)
        case .dropProposal(let p):
            w.key("operation"); w.string(p.operation)
            w.key("intent"); w.string(p.intent)
            w.key("section"); if let s = p.section { w.int(s) } else { w.null() }
            w.key("item"); if let i = p.item { w.int(i) } else { w.null() }
            w.key("target"); if let t = p.target { w.string(t) } else { w.null() }
            w.key("x"); w.double(p.x)
            w.key("y"); w.double(p.y)
        case .editing(let on):
            w.key("on"); w.bool(on)
        case .actionResult(let r):
            if let op = r.op { w.key("op"); w.string(op) }
            w.key("name"); w.string(r.name)
            w.key("item"); if let item = r.item { w.string(item) } else { w.null() }
            w.key("status"); w.string(r.status)
            if let message = r.message { w.key("message"); w.string(message) }
            if let value = r.value {
                w.key("value")
                w.beginObject()
                for key in value.keys.sorted() { w.dynamicKey(key); w.string(value[key]!) }
                w.endObject()
            }
        case let .swipeActions(item, edge, actions, fullSwipe):
            w.key("item"); w.string(item)
            w.key("edge"); w.string(edge)
            w.key("actions")
            w.objects(actions) { w, a in
                if let title = a.title { w.key("title"); w.string(title) }
                w.key("style"); w.string(a.style)
                if let color = a.color { w.key("color"); w.string(color) }
                if let image = a.image { w.key("image"); w.string(image) }
            }
            w.key("fullSwipe"); w.bool(fullSwipe)
        case let .contextMenu(items, menu):
            w.key("items"); w.strings(items)
            w.key("menu")
            if let menu { w.menu(menu) } else { w.null() }
        case let .dragSession(id, items, allowsMove):
            w.key("session"); w.string(id)
            w.key("items"); w.strings(items)
            w.key("allowsMove"); w.bool(allowsMove)
        case let .selections(viewer, items, selected):
            w.key("viewer"); w.string(viewer)
            w.key("items"); w.strings(items)
            w.key("selected"); w.bool(selected)
        }
        w.endObject()
    }
}

extension JSONWriter {
    /// An array of objects, each one's members written by `members` between its braces.
    mutating func objects<T>(_ values: [T], _ members: (inout JSONWriter, T) -> Void) {
        beginArray()
        for v in values {
            beginObject()
            members(&self, v)
            endObject()
        }
        endArray()
    }

    mutating func focuses(_ values: [FocusInfo]) {
        objects(values) { w, f in
            w.key("viewer"); w.string(f.viewer)
            w.key("item"); w.string(f.item)
        }
    }

    package mutating func strings(_ values: [String]) {
        beginArray()
        for v in values { string(v) }
        endArray()
    }

    mutating func paths(_ values: [[Int]]) {
        beginArray()
        for p in values {
            beginArray()
            for i in p { int(i) }
            endArray()
        }
        endArray()
    }

    mutating func size(_ s: Size) {
        beginObject()
        key("width"); double(s.width)
        key("height"); double(s.height)
        endObject()
    }

    mutating func viewer(_ v: ViewerInfo) {
        beginObject()
        key("id"); string(v.id)
        key("name"); string(v.name)
        key("color"); string(v.color)
        if v.guest { key("guest"); bool(true) }
        endObject()
    }

    mutating func viewers(_ values: [ViewerInfo]) {
        beginArray()
        for v in values { viewer(v) }
        endArray()
    }

    /// An array of numbers (a frame).
    mutating func doubles(_ values: [Double]) {
        beginArray()
        for v in values { double(v) }
        endArray()
    }

    mutating func bands(_ values: [Band]) {
        objects(values) { w, b in
            w.key("section"); w.string(b.section)
            w.key("frame"); w.doubles(b.frame)
            w.key("axis"); w.string(b.axis)
            w.key("length"); w.double(b.length)
            w.key("behavior"); w.string(b.behavior)
            w.key("pitch"); w.double(b.pitch)
            w.key("offset"); w.double(b.offset)
        }
    }

    mutating func sections(_ values: [SectionInfo]) {
        objects(values) { w, s in
            w.key("id"); w.string(s.id)
            w.key("title"); w.string(s.title)
            w.key("count"); w.int(s.count)
            w.key("checksum"); w.string(s.checksum)
        }
    }

    mutating func selections(_ values: [SelectionInfo]) {
        objects(values) { w, s in
            w.key("viewer"); w.string(s.viewer)
            w.key("items"); w.strings(s.items)
        }
    }

    /// An element's `"key":…,"kind":…,"reuse":…`.
    mutating func elementHead(key k: String, kind: String, reuse: String) {
        key("key"); string(k)
        key("kind"); string(kind)
        key("reuse"); string(reuse)
    }

    /// An element's `"content":{…}`, its fields in order.
    mutating func elementContent(_ content: [String: String]) {
        key("content")
        beginObject()
        if content.count == 1, let (k, v) = content.first {
            dynamicKey(k)
            string(v)
        } else {
            for (k, v) in content.sorted(by: { $0.key < $1.key }) {
                dynamicKey(k)
                string(v)
            }
        }
        endObject()
    }
}

extension JSONWriter {
    /// The members of a batch that are the same for every viewer.
    mutating func batchSharedMembers(_ m: ServerMessage.Batch) {
        key("seq"); int(m.seq)
        key("by"); string(m.by)
        key("deletes"); paths(m.deletes)
        key("deletedIds"); strings(m.deletedIds)
        key("inserts"); paths(m.inserts)
        key("insertedIds"); strings(m.insertedIds)
        key("moves")
        beginArray()
        for move in m.moves { paths(move) }
        endArray()
        key("reloads"); paths(m.reloads)
        key("replay"); bool(m.replay)
        key("sections"); sections(m.sections)
    }
}
