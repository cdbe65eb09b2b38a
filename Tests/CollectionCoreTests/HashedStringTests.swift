import CollectionCore
import Testing

/// A string keyed by its hash worked out once behaves as the string would as a key.
@Suite struct HashedStringTests {
    @Test func equalStringsAreEqualKeysAndOthersAreNot() {
        let a = HashedString("i:p1"), b = HashedString("i:" + "p1"), c = HashedString("i:p2")
        #expect(a == b && a.hash == b.hash && a.hashValue == b.hashValue)
        #expect(a != c)
        #expect(a < c && !(c < a))
        #expect(a.description == "i:p1")
        // A long string (not a small one held in line) works the same.
        let long = String(repeating: "x", count: 40)
        #expect(HashedString(long) == HashedString(String(long.reversed())))
    }

    /// A table keyed by hashed strings finds exactly what a table keyed by the strings
    /// finds, through insertions and removals (a removal moves the entries after it).
    @Test func tableMatchesAStringKeyedTable() {
        var hashed: [HashedString: Int] = [:]
        var plain: [String: Int] = [:]
        var rng = SplitMix64(seed: 11)
        for step in 0..<5_000 {
            let key = "i:p\(Int.random(in: 0..<300, using: &rng))"
            if Bool.random(using: &rng) {
                hashed[HashedString(key)] = step
                plain[key] = step
            } else {
                #expect(hashed.removeValue(forKey: HashedString(key)) == plain.removeValue(forKey: key))
            }
        }
        #expect(hashed.count == plain.count)
        for (key, value) in plain { #expect(hashed[HashedString(key)] == value) }
        #expect(Set(hashed.keys.map(\.string)) == Set(plain.keys))
    }
}
