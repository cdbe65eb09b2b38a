extension ServerMessage {
    /// One numbered change to the model, in this viewer's index paths and layout.
    ///
    /// The members every viewer's copy shares (`seq` through `sections`) live in one
    /// unchanging object, with their JSON once ``encodeSharedMembers()`` made it: a
    /// batch goes to every viewer and is copied on its way, and a copy then holds a
    /// handful of references, not one per member. Setting a shared member makes a new
    /// object (and drops the JSON made for the old one).
    public struct Batch: Equatable, Sendable, Codable {
        /// The shared members, as plain values.
        struct Members: Equatable, Sendable {
            var seq: Int
            var by: String
            var deletes: [[Int]]
            var deletedIds: [String]
            var inserts: [[Int]]
            var insertedIds: [String]
            var moves: [WireMove]
            var reloads: [[Int]]
            var replay: Bool
            var sections: [SectionInfo]
        }

        final class Shared: Sendable {
            let members: Members
            let encoded: EncodedMembers?

            init(_ members: Members, encoded: EncodedMembers? = nil) {
                self.members = members
                self.encoded = encoded
            }
        }

        private var common: Shared

        private mutating func change(_ body: (inout Members) -> Void) {
            var members = common.members
            body(&members)
            common = Shared(members)
        }

        public var type = "batch"
        public var seq: Int {
            get { common.members.seq }
            set { change { $0.seq = newValue } }
        }
        /// The viewer whose edit this was.
        public var by: String {
            get { common.members.by }
            set { change { $0.by = newValue } }
        }
        public var deletes: [[Int]] {
            get { common.members.deletes }
            set { change { $0.deletes = newValue } }
        }
        /// Identifiers of the deleted items.
        public var deletedIds: [String] {
            get { common.members.deletedIds }
            set { change { $0.deletedIds = newValue } }
        }
        public var inserts: [[Int]] {
            get { common.members.inserts }
            set { change { $0.inserts = newValue } }
        }
        /// Identifiers of the inserted items, in the order of `inserts`.
        public var insertedIds: [String] {
            get { common.members.insertedIds }
            set { change { $0.insertedIds = newValue } }
        }
        public var moves: [WireMove] {
            get { common.members.moves }
            set { change { $0.moves = newValue } }
        }
        /// Reloaded items (index paths before the batch).
        public var reloads: [[Int]] {
            get { common.members.reloads }
            set { change { $0.reloads = newValue } }
        }
        /// True for a batch replayed to a resuming client: no elements; a window follows.
        public var replay: Bool {
            get { common.members.replay }
            set { change { $0.replay = newValue } }
        }
        public var sections: [SectionInfo] {
            get { common.members.sections }
            set { change { $0.sections = newValue } }
        }
        public var contentSize: Size
        /// Sections that scroll on their own (absent: none).
        public var bands: [Band]?
        /// Elements new to the window or changed by the batch (others are unchanged).
        public var elements: [Element]
        /// Keys that were in the window before and are not after.
        public var remove: [String]
        /// Where inserted cells of the window start their animation, where the
        /// layout says other than the default (absent: none).
        public var appear: [Pose]?
        /// Where deleted cells that were in the window end theirs, likewise.
        public var disappear: [Pose]?
        /// The members every viewer's copy shares (`seq` through `sections`), encoded
        /// once by ``encodeSharedMembers()`` and reused for each viewer. A cache: not
        /// part of the batch's value, not encoded as a field.
        public var shared: EncodedMembers? { common.encoded }

        private enum CodingKeys: String, CodingKey {
            case type, seq, by, deletes, deletedIds, inserts, insertedIds, moves, reloads, replay, sections, contentSize, bands, elements, remove, appear, disappear
        }

        public static func == (a: Batch, b: Batch) -> Bool {
            (a.common === b.common || a.common.members == b.common.members) && a.contentSize == b.contentSize && a.bands == b.bands
                && a.elements == b.elements && a.remove == b.remove && a.appear == b.appear && a.disappear == b.disappear
        }

        /// Encodes the shared members now, so that copies sent to many viewers (which
        /// differ only in `contentSize`, `bands`, `elements` and `remove`) do not each encode
        /// them again. Call it after the shared members are final.
        public mutating func encodeSharedMembers() {
            var w = JSONWriter()
            w.beginObject()
            w.batchSharedMembers(self)
            w.endObject()
            common = Shared(common.members, encoded: EncodedMembers(bytes: w.membersOfObject))
        }

        /// Creates a batch.
        public init(seq: Int, by: String, deletes: [[Int]], deletedIds: [String], inserts: [[Int]], insertedIds: [String], moves: [WireMove],
                    reloads: [[Int]], replay: Bool = false, sections: [SectionInfo], contentSize: Size, elements: [Element], remove: [String]) {
            common = Shared(Members(seq: seq, by: by, deletes: deletes, deletedIds: deletedIds, inserts: inserts, insertedIds: insertedIds,
                                    moves: moves, reloads: reloads, replay: replay, sections: sections))
            self.contentSize = contentSize
            self.elements = elements
            self.remove = remove
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(seq: try c.decode(Int.self, forKey: .seq), by: try c.decode(String.self, forKey: .by),
                      deletes: try c.decodeIndexPaths(forKey: .deletes), deletedIds: try c.decode([String].self, forKey: .deletedIds),
                      inserts: try c.decodeIndexPaths(forKey: .inserts), insertedIds: try c.decode([String].self, forKey: .insertedIds),
                      moves: try c.decodeMoves(forKey: .moves), reloads: try c.decodeIndexPaths(forKey: .reloads),
                      replay: try c.decode(Bool.self, forKey: .replay), sections: try c.decode([SectionInfo].self, forKey: .sections),
                      contentSize: try c.decode(Size.self, forKey: .contentSize), elements: try c.decode([Element].self, forKey: .elements),
                      remove: try c.decode([String].self, forKey: .remove))
            type = try c.decode(String.self, forKey: .type)
            bands = try c.decodeIfPresent([Band].self, forKey: .bands)
            appear = try c.decodeIfPresent([Pose].self, forKey: .appear)
            disappear = try c.decodeIfPresent([Pose].self, forKey: .disappear)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            let m = common.members
            try c.encode(type, forKey: .type)
            try c.encode(m.seq, forKey: .seq)
            try c.encode(m.by, forKey: .by)
            try c.encode(m.deletes, forKey: .deletes)
            try c.encode(m.deletedIds, forKey: .deletedIds)
            try c.encode(m.inserts, forKey: .inserts)
            try c.encode(m.insertedIds, forKey: .insertedIds)
            try c.encode(m.moves, forKey: .moves)
            try c.encode(m.reloads, forKey: .reloads)
            try c.encode(m.replay, forKey: .replay)
            try c.encode(m.sections, forKey: .sections)
            try c.encode(contentSize, forKey: .contentSize)
            try c.encodeIfPresent(bands, forKey: .bands)
            try c.encode(elements, forKey: .elements)
            try c.encode(remove, forKey: .remove)
            try c.encodeIfPresent(appear, forKey: .appear)
            try c.encodeIfPresent(disappear, forKey: .disappear)
        }
    }
}

extension KeyedDecodingContainer {
    /// Index paths (`[[Int]]`), read number by number: decoding `[[Int]].self` looked up
    /// an array type's metadata for every path, most of a batch's decoding in a test
    /// client that mirrors thousands of batches.
    fileprivate func decodeIndexPaths(forKey key: Key) throws -> [[Int]] {
        var paths = try nestedUnkeyedContainer(forKey: key)
        return try paths.decodeIndexPaths()
    }

    /// Moves (`[[from], [to]]` each), read as ``decodeIndexPaths(forKey:)`` reads paths.
    fileprivate func decodeMoves(forKey key: Key) throws -> [WireMove] {
        var moves = try nestedUnkeyedContainer(forKey: key)
        var out: [WireMove] = []
        out.reserveCapacity(moves.count ?? 0)
        while !moves.isAtEnd {
            var move = try moves.nestedUnkeyedContainer()
            out.append(try move.decodeIndexPaths())
        }
        return out
    }
}

extension UnkeyedDecodingContainer {
    /// The index paths left in this array.
    fileprivate mutating func decodeIndexPaths() throws -> [[Int]] {
        var paths: [[Int]] = []
        paths.reserveCapacity(count ?? 0)
        while !isAtEnd {
            var numbers = try nestedUnkeyedContainer()
            var path: [Int] = []
            path.reserveCapacity(numbers.count ?? 2)
            while !numbers.isAtEnd { path.append(try numbers.decode(Int.self)) }
            paths.append(path)
        }
        return paths
    }
}
