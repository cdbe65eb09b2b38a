import CollectionCore

// What a view state's next batch reads, noted by each refresh of its window
// (``PrefetchList``): the hub prefetches it during the previous viewer's turn.

extension ViewState {
    /// Bytes of a view state object (all of it).
    static let prefetchBytes = 272

    /// What the next batch reads that the prefetch list misses, named (empty when
    /// none): the state, its collection view and layout, every displayed view and
    /// the record and entry it was last sent with. An invariant check for tests.
    func prefetchGaps() -> [String] {
        var gaps: [String] = []
        func check(_ object: AnyObject, bytes: Int, _ name: @autoclosure () -> String) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            if !prefetch.contains(base) || !prefetch.contains(base + (bytes - 1)) { gaps.append(name()) }
        }
        guard prefetch.count < PrefetchList.maxLines else { return [] }   // full: the rest is left out on purpose
        check(self, bytes: Self.prefetchBytes, "the view state")
        check(collectionView, bytes: CollectionView.prefetchBytes, "the collection view")
        check(collectionView.collectionViewLayout, bytes: 1, "the layout")
        for (key, view) in collectionView.displayedElements {
            check(view, bytes: CollectionView.viewPrefetchBytes, "the view of \(key)")
            guard let record = view.mirror as? SentView else { continue }
            check(record, bytes: SentView.prefetchBytes, "the record of \(key)")
            if record.generation == sentGeneration, record.entry.isHeld {
                check(record.entry, bytes: WindowEntry.prefetchBytes, "the entry of \(key)")
            }
        }
        return gaps
    }
}

extension WindowEntry {
    /// Bytes of an entry object (all of it).
    static let prefetchBytes = 144
}

extension SentView {
    /// Bytes of a record object (all of it).
    static let prefetchBytes = 80
}

extension CollectionHub {
    /// What a viewer's next batch reads that its prefetch list misses (see
    /// ``ViewState/prefetchGaps()``); nil for an unknown viewer.
    package func prefetchGaps(of viewer: UInt64) -> [String]? {
        viewers[viewer]?.state.prefetchGaps()
    }

    /// The objects of a viewer's next batch whose allocation (`size`, the
    /// allocator's) is larger than the bytes its prefetch list notes for them, named:
    /// a class that grew past its hint would be fetched in part. For tests.
    package func prefetchHintShortfalls(of viewer: UInt64, size: (AnyObject) -> Int) -> [String]? {
        guard let state = viewers[viewer]?.state else { return nil }
        // An allocation rounds its size up by less than 16 bytes.
        func over(_ object: AnyObject, _ hint: Int) -> Bool { size(object) > hint + 15 }
        var short: [String] = []
        if over(state, ViewState.prefetchBytes) { short.append("view state: \(size(state)) bytes") }
        if over(state.collectionView, CollectionView.prefetchBytes) { short.append("collection view: \(size(state.collectionView)) bytes") }
        for (key, view) in state.collectionView.displayedElements {
            if over(view, CollectionView.viewPrefetchBytes) { short.append("view of \(key): \(size(view)) bytes") }
            guard let record = view.mirror as? SentView else { continue }
            if over(record, SentView.prefetchBytes) { short.append("record of \(key): \(size(record)) bytes") }
            if over(record.entry, WindowEntry.prefetchBytes) { short.append("entry of \(key): \(size(record.entry)) bytes") }
        }
        return short
    }

    /// How many cache lines a viewer's prefetch list holds.
    package func prefetchCount(of viewer: UInt64) -> Int? {
        viewers[viewer]?.state.prefetch.count
    }
}
