/// An element's object written through one cursor: room for all of it is made
/// once, then its members go in with no check per byte or per number. Every viewer's
/// batch is mostly elements, and writing them member by member (a capacity check,
/// a comma test and a call for each) was most of the encoding's cost.
extension JSONWriter {
    /// `[{…},{…}]`: the elements, each read in place (no copy of it made).
    mutating func elements(_ values: [Element]) {
        beginArray()
        values.withUnsafeBufferPointer { elements in
            guard let first = elements.baseAddress else { return }
            for i in elements.indices {
                if i > 0 { raw(",") }
                element(first + i)
            }
        }
        endArray()
    }

    /// The most bytes a number's text takes (`-2.2250738585072014e-308`, with room to spare).
    static let numberRoom = 32

    private mutating func element(_ e: UnsafePointer<Element>) {
        // The usual element: its fixed members' JSON made, a frame of four numbers,
        // no transform. Others member by member.
        guard e.pointee.extras == nil, let head = e.pointee.encodedHead, let body = e.pointee.encodedContent else {
            elementByMembers(e.pointee)
            return
        }
        let room = head.count + body.count + 96 + 5 * Self.numberRoom + 3 * 20
        withCursor(atMost: room) { c in
            c.put("{")
            c.put(head)
            c.put(#","section":"#)
            c.integer(e.pointee.section)
            if e.pointee.hasItem {
                c.put(#","item":"#)
                c.integer(e.pointee.itemIndex)
            }
            c.put(#","frame":["#)
            c.number(e.pointee.x)
            c.put(",")
            c.number(e.pointee.y)
            c.put(",")
            c.number(e.pointee.width)
            c.put(",")
            c.number(e.pointee.height)
            c.put(#"],"zIndex":"#)
            c.integer(e.pointee.zIndex)
            c.put(#","alpha":"#)
            c.number(e.pointee.alpha)
            c.put(e.pointee.hidden ? #","hidden":true,"# : #","hidden":false,"#)
            c.put(body)
            c.put("}")
        }
    }

    /// An element written member by member: one whose fixed members were not encoded
    /// ahead, or with a transform or a frame of another length.
    private mutating func elementByMembers(_ e: borrowing Element) {
        raw("{")   // its comma, if any, is written already
        if let head = e.encodedHead { members(head) } else { elementHead(key: e.key, kind: e.kind, reuse: e.reuse) }
        // A member came before each of these: their commas are written with their names.
        raw(#","section":"#); int(e.section)
        if let item = e.item { raw(#","item":"#); int(item) }
        key("frame"); doubles(e.frame)
        raw(#","zIndex":"#); int(e.zIndex)
        raw(#","alpha":"#); double(e.alpha)
        raw(e.hidden ? #","hidden":true"# : #","hidden":false"#)
        if let t = e.transform { key("transform"); doubles(t) }
        if let body = e.encodedContent { members(body) } else { elementContent(e.content) }
        endObject()
    }
}

/// Writes bytes at a pointer into room made beforehand: no capacity checks.
struct ByteCursor {
    var p: UnsafeMutablePointer<UInt8>

    @inline(__always)
    init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        p.pointee = byte
        p += 1
    }

    @inline(__always)
    mutating func put(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        let from = s.utf8Start
        var i = 0
        while i < n { p[i] = from[i]; i &+= 1 }
        p += n
    }

    @inline(__always)
    mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { b in
            guard let from = b.baseAddress else { return }
            p.update(from: from, count: b.count)
            p += b.count
        }
    }

    /// An integer's digits.
    @inline(__always)
    mutating func integer(_ value: Int) {
        if value < 0 { put(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// The digits of `v`: at once below 10,000, the usual case.
    @inline(__always)
    mutating func unsigned(_ v: UInt) {
        @inline(__always) func digit(_ d: UInt) -> UInt8 { UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: d) }
        if v < 10 {
            p[0] = digit(v)
            p += 1
        } else if v < 100 {
            p[0] = digit(v / 10)
            p[1] = digit(v % 10)
            p += 2
        } else if v < 1_000 {
            p[0] = digit(v / 100)
            p[1] = digit(v / 10 % 10)
            p[2] = digit(v % 10)
            p += 3
        } else if v < 10_000 {
            p[0] = digit(v / 1_000)
            p[1] = digit(v / 100 % 10)
            p[2] = digit(v / 10 % 10)
            p[3] = digit(v % 10)
            p += 4
        } else {
            longUnsigned(v)
        }
    }

    /// The digits of a larger number.
    private mutating func longUnsigned(_ value: UInt) {
        var n = 0, v = value
        repeat { n += 1; v /= 10 } while v > 0
        v = value
        var i = n
        repeat {
            i -= 1
            p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        } while i > 0
        p += n
    }

    /// A number as ``JSONWriter/double(_:)`` writes it: whole numbers as integers,
    /// others in Swift's shortest round-trip form, a non-finite one as 0.
    @inline(__always)
    mutating func number(_ value: Double) {
        // Whole numbers and hundredths below ten million (frames in points, a layout's
        // halves and quarters, an alpha of 0 or 1), told apart from one product.
        // Hundredths that read back as the very number: then their text (at most two
        // decimals, no trailing zero) is the shortest that does, as `description`
        // gives it. (NaN fails the range test.)
        let magnitude = abs(value)
        let h = magnitude * 100
        if h < 1e9 {
            let n = Int(h)
            if Double(n) == h {
                let whole = UInt(n) / 100, fraction = UInt(n) % 100
                if fraction == 0 {
                    if Double(whole) == magnitude {
                        if value < 0 && whole != 0 { put(UInt8(ascii: "-")) }
                        unsigned(whole)
                        return
                    }
                } else if Double(n) / 100 == magnitude {
                    if value < 0 { put(UInt8(ascii: "-")) }
                    unsigned(whole)
                    p[0] = UInt8(ascii: ".")
                    p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 10)
                    let last = fraction % 10
                    p[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: last)
                    p += last == 0 ? 2 : 3
                    return
                }
            }
        }
        otherNumber(value)
    }

    /// Any other number: a whole one as an integer, the rest as `description` has it.
    private mutating func otherNumber(_ value: Double) {
        guard value.isFinite else { put(UInt8(ascii: "0")); return }
        if abs(value) < 1e15, let whole = Int(exactly: value) { integer(whole); return }
        var text = value.description
        text.withUTF8 { utf8 in
            p.update(from: utf8.baseAddress!, count: utf8.count)
            p += utf8.count
        }
    }
}
