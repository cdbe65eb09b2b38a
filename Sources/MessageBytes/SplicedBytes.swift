/// A message's bytes as a run of its own with one run inserted at an offset, the
/// inserted run shared by many messages (one buffer, not a copy in each).
///
/// A server that sends one change to many connections sends each mostly the same
/// bytes: each message then holds only its own, and the shared run is read from
/// one place, hot in the cache, as each is written (not copied into every message,
/// which made hundreds of cold copies of it wait at once).
public struct SplicedBytes: Sendable {
    /// The message's own bytes, the inserted run going in at ``offset``.
    public let own: [UInt8]
    /// Where in ``own`` the inserted run goes (0 through `own.count`).
    public let offset: Int
    /// The shared run.
    public let inserted: [UInt8]

    /// Bytes with nothing inserted.
    public init(_ bytes: [UInt8]) {
        own = bytes
        offset = bytes.count
        inserted = []
    }

    /// `own` with `inserted` put in at `offset` (clamped to `own`).
    public init(own: [UInt8], inserting inserted: [UInt8], at offset: Int) {
        self.own = own
        self.offset = min(max(offset, 0), own.count)
        self.inserted = inserted
    }

    /// The message's length.
    public var count: Int { own.count + inserted.count }

    /// The message's bytes in one array.
    public func joined() -> [UInt8] {
        if inserted.isEmpty { return own }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        bytes += own[..<offset]
        bytes += inserted
        bytes += own[offset...]
        return bytes
    }

    /// Copies the message's bytes to `destination` (room for ``count`` bytes).
    public func copy(to destination: UnsafeMutablePointer<UInt8>) {
        own.withUnsafeBufferPointer { mine in
            guard let base = mine.baseAddress else { return }
            destination.update(from: base, count: offset)
            (destination + offset + inserted.count).update(from: base + offset, count: mine.count - offset)
        }
        inserted.withUnsafeBufferPointer { shared in
            guard let base = shared.baseAddress else { return }
            (destination + offset).update(from: base, count: shared.count)
        }
    }
}
