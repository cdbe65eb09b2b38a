import Foundation

/// The items a collection view told its prefetch data source about and has not
/// displayed yet: a band one screen beyond the displayed rect. It works out what to
/// start and cancel; the collection view tells the data source.
package struct PrefetchedItems {
    /// Empty.
    package init() {}

    /// The items prefetched.
    package private(set) var items: Set<IndexPath> = []

    /// The band changed to `inBand` (its items not displayed): the items to prefetch
    /// now, and those to cancel (left the band without being displayed), each sorted.
    package mutating func update(inBand: Set<IndexPath>, isDisplayed: (IndexPath) -> Bool) -> (start: [IndexPath], cancel: [IndexPath]) {
        let start = inBand.subtracting(items).sorted()
        let cancel = items.subtracting(inBand).filter { !isDisplayed($0) }.sorted()
        items = inBand
        return (start, cancel)
    }

    /// `indexPath` is displayed: it is no longer waiting.
    package mutating func displayed(_ indexPath: IndexPath) {
        if !items.isEmpty { items.remove(indexPath) }
    }

    /// The items after a batch (`mapper`'s); those it took away are forgotten.
    package mutating func remap(by mapper: IndexPathMapper) {
        if !items.isEmpty { items = Set(items.compactMap { mapper.map($0) }) }
    }

    /// Forgets them all.
    package mutating func removeAll() { items = [] }
}
