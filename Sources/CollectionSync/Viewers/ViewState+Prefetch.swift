import CollectionCore
import CollectionProtocol

// What a view state's next batch reads, noted by each refresh of its window
// (``PrefetchList``): the hub prefetches it during each of the three turns before its own.

extension ViewState {
    /// Bytes of a view state object (all of it).
    static let prefetchBytes = 312
}

extension PrefetchList {
    /// A window's table: ``add(_:maxBytes:)`` for its very type, whose generic form
    /// looked up the dictionary type's metadata on every batch.
    mutating func add(_ entries: inout [HashedString: WindowEntry]) {
        let capacity = entries.capacity
        add(table: withUnsafeBytes(of: &entries) { $0.load(as: UnsafeRawPointer.self) }, capacity: capacity,
            entryStride: MemoryLayout<HashedString>.stride + MemoryLayout<WindowEntry>.stride)
    }
}

extension PrefetchList {
    /// An array's buffer (a refresh's changed elements or removed keys), at most
    /// `maxBytes` bytes of it: ``add(_:maxBytes:)`` made in this module, for each
    /// element type (the generic form, called from another module, looks up the
    /// element's layout on every call).
    mutating func add<T>(_ array: inout [T], upTo maxBytes: Int) {
        guard !array.isEmpty else { return }
        add(withUnsafeBytes(of: &array) { $0.load(as: UnsafeRawPointer.self) }, bytes: min(32 + array.count * MemoryLayout<T>.stride, maxBytes))
    }
}

extension WindowEntry {
    /// Bytes of an entry object (all of it).
    static let prefetchBytes = 144
}

/// What a viewer's prefetch list notes and misses (``HubInspection/prefetchCheck(of:)``), for tests.
package struct PrefetchCheck {
    let state: ViewState

    /// How many cache lines the list holds.
    package var count: Int { state.prefetch.count }

    /// What the viewer's next batch reads that its prefetch list misses, named
    /// (empty when none): an invariant check for tests.
    package var gaps: [String] {
        guard state.prefetch.count < PrefetchList.maxLines else { return [] }   // full: the rest is left out on purpose
        return prefetchedObjects().filter { name, object, bytes in
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            return !state.prefetch.contains(base) || !state.prefetch.contains(base + (bytes - 1))
        }.map(\.name)
    }

    /// The objects of the viewer's next batch whose allocation (`size`, the
    /// allocator's) is larger than the bytes its prefetch list notes for them, named:
    /// a class that grew past its hint would be fetched in part.
    /// - Parameter size: the allocator's size of an object.
    /// - Returns: each such object's name and allocated size.
    package func shortfalls(size: (AnyObject) -> Int) -> [String] {
        // An allocation rounds its size up by less than 16 bytes.
        prefetchedObjects().filter { size($0.object) > $0.bytes + 15 }.map { "\($0.name): \(size($0.object)) bytes" }
    }

    /// What the next batch reads, named, with the bytes the list notes of each: the
    /// state, its collection view with its displayed elements, batch updater and layout, every displayed view and the
    /// entry it was last sent with. For the checks above.
    private func prefetchedObjects() -> [(name: String, object: AnyObject, bytes: Int)] {
        var objects: [(name: String, object: AnyObject, bytes: Int)] = [
            ("the view state", state, ViewState.prefetchBytes),
            ("the collection view", state.collectionView, CollectionViewMirror.collectionViewBytes),
            ("the displayed elements", state.collectionView.display, ElementDisplay.prefetchBytes),
            ("the batch updater", state.collectionView.updater, BatchUpdater.prefetchBytes),
            ("the layout", state.collectionView.collectionViewLayout, CollectionViewLayout.prefetchBytes),
        ]
        for (key, view) in state.mirror.displayedElements {
            objects.append(("the view of \(key)", view, CollectionViewMirror.viewBytes))
            guard let record = view.mirrorRecord, record.generation == state.sentGeneration,
                  let entry = record.object.takeUnretainedValue() as? WindowEntry, entry.isHeld else { continue }
            objects.append(("the entry of \(key)", entry, WindowEntry.prefetchBytes))
        }
        return objects
    }
}
