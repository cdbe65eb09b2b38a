import CPrefetch

/// Where the memory one viewer's next batch reads lies, noted while its last batch
/// read it. A batch goes out to every viewer in turn, and with a layout per viewer
/// each turn reads memory of that viewer's own, untouched since the batch before:
/// cold, so its cache misses came one after another (each retain and release is a
/// locked instruction that waits for every load before it). The hub issues the
/// next viewer's list as prefetches before the current viewer's turn, and the
/// misses overlap that turn's work instead.
///
/// The addresses are hints and nothing else: never read through, so an address
/// whose object has gone since is harmless (a prefetch does not fault).
package struct PrefetchList: ~Copyable {
    /// Runs of lines: a line's address with the run's length less one in its low
    /// six bits (one entry per object, not one per line), in a buffer of fixed
    /// size (noting is on every batch's path too: a plain store, no array's checks).
    private let runs: UnsafeMutablePointer<UInt>
    private var runCount = 0
    /// Lines noted.
    package private(set) var count = 0

    /// Cache lines noted at most: a turn's working set fits well within the first-
    /// level cache, and a viewer with a huge window gains nothing from more.
    package static let maxLines = 256
    /// Runs noted at most.
    static let maxRuns = 128

    package init() {
        runs = .allocate(capacity: Self.maxRuns)
    }

    deinit { runs.deallocate() }

    /// Forgets the addresses.
    package mutating func removeAll() {
        runCount = 0
        count = 0
    }

    /// The lines of `bytes` bytes from `base` (at most 64 lines).
    package mutating func add(_ base: UnsafeRawPointer, bytes: Int) {
        guard bytes > 0, count < Self.maxLines, runCount < Self.maxRuns else { return }
        let first = UInt(bitPattern: Int(bitPattern: base)) & ~63
        let last = UInt(bitPattern: Int(bitPattern: base) &+ bytes &- 1) & ~63
        let lines = min(Int((last &- first) >> 6) &+ 1, 64, Self.maxLines &- count)
        runs[runCount] = first | UInt(lines &- 1)
        runCount &+= 1
        count &+= lines
    }

    /// An object's lines, its first `bytes` bytes (header included).
    package mutating func add(_ object: AnyObject, bytes: Int) {
        add(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), bytes: bytes)
    }

    // The stored collections below are taken `inout`: their storage's address is read
    // in place, where passing them would retain and release each (a locked
    // instruction apiece, on every batch).

    /// An array's buffer: its header and elements, `maxBytes` bytes at most.
    package mutating func add<Element>(_ array: inout [Element], maxBytes: Int = 1024) {
        let count = array.count
        guard count > 0 else { return }   // the shared empty buffer: nothing of its own
        let buffer = withUnsafeBytes(of: &array) { $0.load(as: UnsafeRawPointer.self) }
        add(buffer, bytes: min(32 &+ count &* MemoryLayout<Element>.stride, maxBytes))
    }

    /// A dictionary's table: its header, occupancy bits and first keys, as the
    /// standard library lays a native dictionary out (one allocation). At most
    /// `maxBytes` bytes.
    package mutating func add<Key, Value>(_ dictionary: inout [Key: Value], maxBytes: Int = 512) {
        guard MemoryLayout<[Key: Value]>.size == MemoryLayout<UnsafeRawPointer>.size else { return }
        add(table: withUnsafeBytes(of: &dictionary) { $0.load(as: UnsafeRawPointer.self) }, capacity: dictionary.capacity,
            entryStride: MemoryLayout<Key>.stride + MemoryLayout<Value>.stride, maxBytes: maxBytes)
    }

    /// A dictionary's table from its storage's address, its capacity and the bytes of
    /// a key and a value: for a caller outside this module with a concrete type (the
    /// generic method looks up the dictionary type's metadata on every call there).
    package mutating func add(table: UnsafeRawPointer, capacity: Int, entryStride: Int, maxBytes: Int = 512) {
        guard capacity > 0 else { return }
        var buckets = 1   // the table's size: a power of two, at most 3/4 full
        while buckets &* 3 < capacity &* 4 { buckets &*= 2 }
        add(table, bytes: min(96 + buckets / 8 + buckets &* entryStride, maxBytes))
    }

    /// Prefetches the lines of `bytes` bytes from `base` now (not noted).
    @inline(__always)
    package static func fetch(_ base: UnsafeRawPointer, bytes: Int) {
        var offset = 0
        while offset < bytes {
            cpf_prefetch(base + offset)
            offset &+= 64
        }
    }

    /// Issues a prefetch of every line noted.
    package func issue() {
        for index in 0..<runCount {
            let run = runs[index]
            var line = run & ~63
            for _ in 0...Int(run & 63) {
                cpf_prefetch(UnsafeRawPointer(bitPattern: line))
                line &+= 64
            }
        }
    }

    /// Whether the line holding `address` is noted (for tests).
    package func contains(_ address: UnsafeRawPointer) -> Bool {
        let line = UInt(bitPattern: Int(bitPattern: address)) & ~63
        return UnsafeBufferPointer(start: runs, count: runCount).contains { line >= $0 & ~63 && line <= ($0 & ~63) + ($0 & 63) * 64 }
    }
}
