import CollectionProtocol
import Foundation

extension CommittedBatch {
    /// This batch (another server's) taken up where the contents are `model`, whose
    /// sections' infos `sections` keeps: the contents after; the sections it
    /// changed (made once here, for the check and for the commit); the items to
    /// reload, as the log records them; and those to configure again (whose content
    /// changed and that stay: reconfigured where the batch was made, and the log
    /// keeps reloads only). Throws `invalid_batch` when the sections after are not
    /// the ones it recorded (the contents here diverged).
    func replayed(on model: CollectionModel, sections: SectionInfoCache) throws(ProtocolError)
        -> (next: CollectionModel, changed: [String: SectionInfo], reloading: [String], reconfiguring: [String]) {
        var next = model
        delta.apply(to: &next)
        let changed = sections.changes(from: model, to: next)
        let checks = sections.infos(of: next, changed: changed).map { "\($0.id) \($0.count) \($0.checksum)" }
        guard checks == replay.sections.map({ "\($0.id) \($0.count) \($0.checksum)" }) else {
            throw ProtocolError(.invalidBatch, "batch \(seq) of '\(collection)' does not give the sections it recorded here; restore the collection from the store")
        }
        let reloading = replay.reloads.compactMap { p in p.count == 2 ? model.snapshot.itemIdentifier(at: IndexPath(item: p[1], section: p[0])) : nil }
        let reconfiguring = delta.content.keys.filter { model.snapshot.contains(item: $0) && next.snapshot.contains(item: $0) }.sorted()
        return (next, changed, reloading, reconfiguring)
    }
}
