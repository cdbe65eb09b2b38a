/// A string with its hash worked out once, for tables searched on every batch of
/// every viewer: a lookup, an insertion or a removal (which moves the entries after
/// it and hashes them again) costs one 64-bit mix, not SipHash over the string's
/// bytes. The hash is the string's own `hashValue`, so it keeps the standard
/// library's per-process seed (a client that names items cannot aim collisions).
package struct HashedString: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The string.
    package let string: String
    /// Its `hashValue`, worked out once.
    package let hash: Int

    package init(_ string: String) {
        self.string = string
        hash = string.hashValue
    }

    package static func == (a: HashedString, b: HashedString) -> Bool {
        a.hash == b.hash && a.string == b.string
    }

    package static func < (a: HashedString, b: HashedString) -> Bool { a.string < b.string }

    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    package func _rawHashValue(seed: Int) -> Int { mixedHash(hash, seed: seed) }

    package var description: String { string }
}
