import CollectionProtocol

/// Each section's identity, count and checksum (what welcomes and batches carry, so
/// that a client can check its copy), kept from batch to batch: hashing every item
/// identifier of the collection for each batch cost its whole size. Only the
/// sections a batch changed are hashed again.
package struct SectionInfoCache {
    private var infos: [String: SectionInfo] = [:]

    /// The infos of every section of `model`.
    package init(_ model: CollectionModel) { reset(to: model) }

    /// Forgets what was kept and takes every section of `model` (a load, a restore).
    package mutating func reset(to model: CollectionModel) {
        infos = [:]
        for id in model.snapshot.sectionIdentifiers { infos[id] = model.sectionInfo(id) }
    }

    /// The infos of `model`'s sections in order: `changed`'s first, then the kept ones
    /// (a section neither holds is hashed).
    package func infos(of model: CollectionModel, changed: [String: SectionInfo] = [:]) -> [SectionInfo] {
        model.snapshot.sectionIdentifiers.map { changed[$0] ?? infos[$0] ?? model.sectionInfo($0) }
    }

    /// The infos of `next`'s sections that differ from the kept ones of `model` (the
    /// contents now): sections new to it, retitled, or whose items are not the very
    /// storage `model` holds. The others are left out.
    package func changes(from model: CollectionModel, to next: CollectionModel) -> [String: SectionInfo] {
        var changed: [String: SectionInfo] = [:]
        let sameTitles = next.sectionTitles == model.sectionTitles   // at once while they are one storage
        for id in next.snapshot.sectionIdentifiers {
            if let kept = infos[id], model.snapshot.indexOfSection(id) != nil, sameTitles || kept.title == next.sectionTitles[id] ?? id,
               Self.sameStorage(next.snapshot.itemIdentifiers(inSection: id), model.snapshot.itemIdentifiers(inSection: id)) {
                continue
            }
            changed[id] = next.sectionInfo(id)
        }
        return changed
    }

    /// Keeps `changed` (from ``changes(from:to:)``) and forgets the sections `removed`.
    package mutating func update(_ changed: [String: SectionInfo], removing removed: some Sequence<String>) {
        for id in removed { infos[id] = nil }
        for (id, info) in changed { infos[id] = info }
    }

    /// Whether two arrays are one storage (so equal without a compare).
    static func sameStorage(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { $0.baseAddress } == b.withUnsafeBufferPointer { $0.baseAddress }
    }
}
