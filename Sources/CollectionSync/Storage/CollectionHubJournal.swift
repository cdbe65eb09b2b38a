import CollectionProtocol

/// What a hub asks of the storage behind it when it commits a batch: the server's
/// engine (its store, or the edit a store several servers share holds open), or a
/// test's journaled or shared hub. Held weakly by the hub (``CollectionHub/journal``):
/// its owner keeps it; without one, nothing is kept. (Locking before a change is not
/// asked: the owner does it before handing the hub the message, from
/// ``CollectionHub/changeLock(for:from:)``.)
package protocol CollectionHubJournal: AnyObject {
    /// Keeps `batch` before it is applied (a store's staging); throwing (say
    /// `storageUnavailable`) refuses the edit, changing nothing.
    func hub(_ hub: CollectionHub, stage batch: CommittedBatch) throws(ProtocolError)
}
