import CollectionProtocol

/// What a hub asks of the storage behind it while it handles a message: the
/// server's engine (its store, and with a store several servers share, the edit
/// that locks the collections), or a test's journaled or shared hub. Either call may
/// refuse by throwing, and then nothing changes. Held weakly by the hub
/// (``CollectionHub/journal``): its owner keeps it; without one, nothing is kept.
package protocol CollectionHubJournal: AnyObject {
    /// Keeps `batch` before it is applied (a store's staging); throwing (say
    /// `storageUnavailable`) refuses the edit, changing nothing.
    func hub(_ hub: CollectionHub, stage batch: CommittedBatch) throws(ProtocolError)
    /// Before a message that may change contents (``ClientMessage/mayChangeContents``)
    /// is handled, with the collections it may change (this one, and a drop's
    /// source): a store shared by several servers locks them there and brings them up
    /// to date, so that the message is checked against the latest state. Throwing
    /// refuses the message. Default: nothing to do.
    func hub(_ hub: CollectionHub, willChange collections: [String]) throws(ProtocolError)
}

extension CollectionHubJournal {
    package func hub(_ hub: CollectionHub, willChange collections: [String]) throws(ProtocolError) {}
}
