import MessageBytes

/// Writes JSON straight into bytes: the server's messages are encoded once per
/// viewer per batch, and Foundation's `JSONEncoder` spent most of the server's
/// time doing it. Output is plain RFC 8259 JSON (checked by decoding it back).
/// Shared with the other modules of the package (the stores write their batches with it).
package struct JSONWriter: ~Copyable {
    /// The bytes written, in a buffer of the writer's own (appending to an `Array`
    /// byte by byte checked its uniqueness and capacity each time: most of the
    /// encoding's cost).
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Members recorded by ``splice(_:)`` to go in at `splicedAt` (-1: none), not copied.
    private var splicedAt = -1
    private var spliced: [UInt8] = []

    package init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The JSON written so far (with any spliced members in place).
    package var bytes: [UInt8] { message.joined() }

    /// The JSON written so far, spliced members apart: ``SplicedBytes/own`` is this
    /// writer's bytes alone.
    package var message: SplicedBytes {
        let own = [UInt8](UnsafeBufferPointer(start: base, count: count))
        return splicedAt < 0 ? SplicedBytes(own) : SplicedBytes(own: own, inserting: spliced, at: splicedAt)
    }

    /// Members encoded once for many messages (``EncodedMembers``), written where the
    /// next member would go. Only recorded, not copied, when they follow a member
    /// (the usual case: after `"type"`) and none were spliced yet: ``message`` then
    /// holds them apart. Otherwise copied in.
    package mutating func splice(_ members: EncodedMembers) {
        guard members.count > 0 else { return }
        let last = count > 0 ? base[count - 1] : UInt8(ascii: "{")
        guard splicedAt < 0, last != UInt8(ascii: "{"), last != UInt8(ascii: "["), last != UInt8(ascii: ":") else {
            self.members(members.bytes)
            return
        }
        // `,"a":1,"b":2` ends in a value as the last byte here does: what follows
        // separates itself from it just the same.
        splicedAt = count
        spliced = members.separated
    }

    /// Forgets what was written, to write anew in the same buffer (kept unless it
    /// grew past `keeping` bytes for some large message: then a small one).
    package mutating func reset(keeping: Int = 1 << 20) {
        count = 0
        if splicedAt >= 0 { (splicedAt, spliced) = (-1, []) }
        guard capacity > keeping else { return }
        base.deallocate()
        capacity = 4096
        base = .allocate(capacity: capacity)
    }

    @inline(__always)
    private mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        let grown = max(capacity * 2, count + n)
        let next = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        next.update(from: base, count: count)
        base.deallocate()
        base = next
        capacity = grown
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        let n = bytes.count
        reserve(n)
        if n <= 16 {
            // A member's name and the like: copied in place, not through a call to memcpy.
            var i = 0
            while i < n { base[count &+ i] = from[i]; i &+= 1 }
        } else {
            (base + count).update(from: from, count: n)
        }
        count += n
    }

    private mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    private mutating func append(_ s: StaticString) {
        append(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    private mutating func append(_ s: String.UTF8View) {
        if s.withContiguousStorageIfAvailable({ append($0) }) == nil { append(Array(s)) }
    }

    /// A value needs a comma before it unless it is the first thing written, or the
    /// last byte opened an object or array or ended a key. (Every value ends in a
    /// quote, a digit, a letter, `}` or `]`, so the last byte says which case holds:
    /// no stack of states to keep.)
    @inline(__always)
    private mutating func separate() {
        guard count > 0 else { return }
        let last = base[count - 1]
        if last != UInt8(ascii: "{") && last != UInt8(ascii: "[") && last != UInt8(ascii: ":") { append(UInt8(ascii: ",")) }
    }

    package mutating func beginObject() { separate(); append(UInt8(ascii: "{")) }
    package mutating func endObject() { append(UInt8(ascii: "}")) }
    package mutating func beginArray() { separate(); append(UInt8(ascii: "[")) }
    package mutating func endArray() { append(UInt8(ascii: "]")) }

    /// Writes `"name":` (the next value follows without a comma).
    package mutating func key(_ name: StaticString) {
        separate()
        withCursor(atMost: name.utf8CodeUnitCount + 3) { c in
            c.put(UInt8(ascii: "\""))
            c.put(name)
            c.put(#"":"#)
        }
    }

    /// Writes a dynamic key (content fields).
    package mutating func dynamicKey(_ name: String) {
        string(name)
        append(UInt8(ascii: ":"))
    }

    package mutating func string(_ s: String) {
        separate()
        // Most strings need no escaping: copied as they are scanned, and kept if no
        // byte needed escaping (nothing counts as written until then).
        let copied: Bool? = s.utf8.withContiguousStorageIfAvailable { utf8 in
            let n = utf8.count
            reserve(n + 2)
            let to = base + count
            to[0] = UInt8(ascii: "\"")
            var i = 0
            while i < n {
                let byte = utf8[i]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
                to[i + 1] = byte
                i += 1
            }
            to[n + 1] = UInt8(ascii: "\"")
            count += n + 2
            return true
        }
        if copied != true {
            append(UInt8(ascii: "\""))
            escaped(s)
            append(UInt8(ascii: "\""))
        }
    }

    private mutating func escaped(_ s: String) {
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append([UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): append([UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: append([UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: append([UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: append([UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                append([UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: append(byte)
            }
        }
    }

    package mutating func uint(_ value: UInt64) {
        separate()
        withCursor(atMost: 20) { $0.unsigned(UInt(value)) }
    }

    package mutating func int(_ value: Int) {
        separate()
        withCursor(atMost: 20) { $0.integer(value) }
    }

    /// Whole numbers as integers, others in Swift's shortest round-trip form;
    /// a non-finite number (never produced by a layout) is written as 0.
    package mutating func double(_ value: Double) {
        separate()
        withCursor(atMost: Self.numberRoom) { $0.number(value) }
    }

    /// Makes room for `n` bytes at the end, and lets `body` write up to that many
    /// there through a cursor (no check per byte).
    @inline(__always)
    mutating func withCursor(atMost n: Int, _ body: (inout ByteCursor) -> Void) {
        reserve(n)
        var cursor = ByteCursor(base + count)
        body(&cursor)
        count = cursor.p - base
    }

    package mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
    }

    /// Appends JSON text as it is, with no comma before it: for a caller that
    /// writes `,"name":` itself where it knows a member came before.
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        append(text)
    }

    /// Appends members already encoded by another writer (see ``ServerMessage/Batch/shared``):
    /// `"a":1,"b":2`, written where the next member would go.
    package mutating func members(_ fragment: [UInt8]) {
        guard !fragment.isEmpty else { return }
        separate()
        append(fragment)
    }

    /// The members this writer holds inside its one top-level object, without the braces.
    package var membersOfObject: [UInt8] {
        if splicedAt >= 0 { return Array(bytes.dropFirst().dropLast()) }
        return count < 2 ? [] : [UInt8](UnsafeBufferPointer(start: base + 1, count: count - 2))
    }

    package mutating func null() {
        separate()
        append("null")
    }
}
