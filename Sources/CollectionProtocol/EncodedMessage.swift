/// JSON object members encoded once, to be spliced into many messages (a batch's
/// members that every viewer's copy shares).
public final class EncodedMembers: Sendable {
    /// `,"name":value,...`: the members with the comma that puts them after another.
    let separated: [UInt8]

    init(bytes: [UInt8]) {
        var separated: [UInt8] = []
        if !bytes.isEmpty {
            separated.reserveCapacity(bytes.count + 1)
            separated.append(UInt8(ascii: ","))
            separated += bytes
        }
        self.separated = separated
    }

    /// `"name":value,...` without braces.
    public var bytes: [UInt8] { Array(separated.dropFirst()) }

    /// The length of ``bytes``.
    public var count: Int { max(separated.count - 1, 0) }
}

/// A message's JSON as bytes of its own with one run shared by many messages put
/// in at an offset: a batch's shared members (``EncodedMembers``) are one buffer for
/// all its viewers, not copied into each viewer's message, which holds only what
/// is its own (its window's elements).
public struct EncodedMessage: Sendable {
    /// The message's own bytes; ``inserted`` goes in at ``offset``.
    public let own: [UInt8]
    /// Where ``inserted`` goes in ``own``.
    public let offset: Int
    /// The shared run (empty: none).
    public let inserted: [UInt8]

    /// A message with nothing shared.
    public init(_ bytes: [UInt8]) {
        own = bytes
        offset = bytes.count
        inserted = []
    }

    init(own: [UInt8], inserting inserted: [UInt8], at offset: Int) {
        self.own = own
        self.offset = offset
        self.inserted = inserted
    }

    /// The message's length in bytes.
    public var count: Int { own.count + inserted.count }

    /// The message's JSON in one array.
    public var bytes: [UInt8] {
        if inserted.isEmpty { return own }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        bytes += own[..<offset]
        bytes += inserted
        bytes += own[offset...]
        return bytes
    }
}
