/// Writes JSON straight into bytes: the server's messages are encoded once per
/// viewer per batch, and Foundation's `JSONEncoder` spent most of the server's
/// time doing it. Output is plain RFC 8259 JSON (checked by decoding it back).
/// Shared with the other modules of the package (the stores write their batches with it).
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    package init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    private mutating func separate() {
        if let last = needsComma.last {
            if last { bytes.append(UInt8(ascii: ",")) }
            needsComma[needsComma.count - 1] = true
        }
    }

    package mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    package mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    package mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    package mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// Writes `"name":` (the next value follows without a comma).
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    /// Writes a dynamic key (content fields).
    package mutating func dynamicKey(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    package mutating func string(_ s: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them in one go.
        var plain = true
        for byte in s.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            plain = false
            break
        }
        if plain {
            bytes.append(contentsOf: s.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func uint(_ value: UInt64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func int(_ value: Int) {
        separate()
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits least significant first, then reversed in place: no temporary array.
        var v = value.magnitude
        let start = bytes.count
        while v > 0 { bytes.append(UInt8(ascii: "0") + UInt8(v % 10)); v /= 10 }
        bytes[start...].reverse()
    }

    /// Whole numbers as integers, others in Swift's shortest round-trip form;
    /// a non-finite number (never produced by a layout) is written as 0.
    package mutating func double(_ value: Double) {
        guard value.isFinite else { int(0); return }
        if value == value.rounded(), abs(value) < 1e15 { int(Int(value)); return }
        separate()
        bytes.append(contentsOf: value.description.utf8)
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Appends members already encoded by another writer (see ``ServerMessage/Batch/shared``):
    /// `"a":1,"b":2`, written where the next member would go.
    package mutating func members(_ fragment: [UInt8]) {
        guard !fragment.isEmpty else { return }
        separate()
        bytes.append(contentsOf: fragment)
    }

    /// The members this writer holds inside its one top-level object, without the braces.
    package var membersOfObject: [UInt8] { Array(bytes.dropFirst().dropLast()) }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }
}
