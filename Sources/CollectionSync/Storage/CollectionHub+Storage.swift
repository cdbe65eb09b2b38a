import CollectionProtocol
import Foundation

extension CollectionHub {
    /// What a store keeps of a new collection: its epoch and its contents now.
    public var storedState: StoredCollection {
        StoredCollection(name: name, epoch: epoch, seq: sequence, model: model, nextSerial: ledger.nextSerial)
    }

    /// Takes up the history a store kept: the epoch, sequence number and contents,
    /// the recent batches (for viewers that resume) and their op ids (a resent edit
    /// is answered, not applied again). Only before any viewer connected; returns
    /// false, changing nothing, after that.
    @discardableResult
    public func restore(_ stored: StoredCollection) -> Bool {
        guard viewers.isEmpty else { return false }
        store.model = stored.model
        refreshBackground()
        restored = true
        ledger.restore(stored, limits: limits)
        return true
    }
}
