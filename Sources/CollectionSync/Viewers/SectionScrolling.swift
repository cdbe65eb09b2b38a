import CollectionCore
import CollectionProtocol
import Foundation

/// How far the sections that scroll on their own (UIKit's orthogonal scrolling)
/// are scrolled, by section id, as the client last said: kept by id, so that they
/// follow their sections as those move, and given to the collection view by index.
struct SectionScrolling {
    /// Offsets past 0, by section id.
    private(set) var offsets: [String: Double] = [:]

    /// Takes the client's offsets (by section id; 0 forgets one). An id `snapshot`
    /// does not have is refused, and nothing is taken.
    mutating func take(_ new: [String: Double], in snapshot: Snapshot<String, String>) throws(ProtocolError) {
        guard !new.isEmpty else { return }
        if let unknown = new.keys.sorted().first(where: { snapshot.indexOfSection($0) == nil }) {
            throw ProtocolError(.unknownSection, "'sectionOffsets' names no section with id '\(unknown.prefix(80))'; nothing scrolled")
        }
        for (id, offset) in new { offsets[id] = offset > 0 ? offset : nil }
    }

    /// Gives `collectionView` the offsets by the sections' indices in `snapshot`
    /// (offsets of sections gone are forgotten).
    mutating func apply(to collectionView: CollectionView, in snapshot: Snapshot<String, String>) {
        var byIndex: [Int: CGFloat] = [:]
        for (id, offset) in offsets {
            if let s = snapshot.indexOfSection(id) { byIndex[s] = CGFloat(offset) } else { offsets[id] = nil }
        }
        // Sections scroll on their own only in some layouts: leave the view alone otherwise.
        if !byIndex.isEmpty || !collectionView.mirror.orthogonalScrollOffsets.isEmpty { collectionView.mirror.orthogonalScrollOffsets = byIndex }
    }

    /// The sections of `collectionView` that scroll on their own, for messages (nil: none).
    /// (`snapshot` is read only when there are some: every batch asks, for every view state.)
    static func bands(of collectionView: CollectionView, in snapshot: @autoclosure () -> Snapshot<String, String>) -> [Band]? {
        let regions = collectionView.mirror.orthogonalScrollingRegions
        guard !regions.isEmpty else { return nil }
        let snapshot = snapshot()
        let offsets = collectionView.mirror.orthogonalScrollOffsets
        return regions.compactMap { r in
            guard r.section < snapshot.numberOfSections else { return nil }
            let f = r.frame
            return Band(section: snapshot.sectionIdentifiers[r.section], frame: [Double(f.minX), Double(f.minY), Double(f.width), Double(f.height)],
                        axis: r.scrollsHorizontally ? "x" : "y", length: Double(r.contentLength), behavior: r.behavior.name,
                        pitch: Double(r.groupPitch), offset: Double(offsets[r.section] ?? 0))
        }
    }
}
