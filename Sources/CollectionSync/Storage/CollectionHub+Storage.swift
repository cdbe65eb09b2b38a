import CollectionProtocol
import Foundation

extension CollectionHub {
    /// What a store keeps of a new collection: its epoch and its contents now.
    public var storedState: StoredCollection {
        StoredCollection(name: name, epoch: epoch, seq: sequence, model: model, nextSerial: nextSerial)
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
        nextSerial = max(stored.nextSerial, nextSerial)
        restored = true
        sectionCache.reset(to: stored.model)
        history.restore(epoch: stored.epoch, sequence: stored.seq, recent: stored.recent, limits: limits)
        return true
    }


    /// A fingerprint of a message that is the same in every run (Swift's
    /// `hashValue` is seeded per process, and op ids outlive the process): FNV-1a
    /// over its description.
    public static func stableFingerprint(of message: ClientMessage) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in String(reflecting: message).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
