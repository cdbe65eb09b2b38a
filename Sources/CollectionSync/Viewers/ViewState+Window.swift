import CollectionCore
import CollectionProtocol
import Foundation

/// The window a viewer's client holds, kept up to date with its collection view's
/// displayed views.
///
/// Each element the client holds is a ``WindowEntry``, found by its key; the view
/// showing it keeps the entry at hand too (its mirror, with the revisions sent), so a batch
/// that moves a view's element updates the entry without looking it up, and a
/// refresh finds what left the window by the entries no view marked, not by
/// hashing every key shown.
extension ViewState {
    /// Elements the client holds, by key, as last sent. Setting it (a new client,
    /// a state copied for a viewer) forgets what was sent for every view.
    var window: [String: Element] {
        get { Dictionary(uniqueKeysWithValues: entries.map { ($0.key.string, $0.value.element) }) }
        set {
            for entry in entries.values { entry.isHeld = false }
            entries = Dictionary(uniqueKeysWithValues: newValue.map { (HashedString($0.key), WindowEntry($0.value)) })
            sentGeneration += 1
        }
    }

    /// Whether `other` holds the same elements (compared in place, not rebuilt).
    func holdsSameWindow(as other: ViewState) -> Bool {
        entries.count == other.entries.count && entries.allSatisfy { other.entries[$0.key]?.element == $0.value.element }
    }

    /// Brings the window up to date; returns what changed (new or different, in
    /// index-path order) and what left. Nothing is rebuilt when the collection view's
    /// display has not changed (a scroll within the same elements, say), and a cell
    /// whose view has not changed since it was sent is not rebuilt either.
    func refreshWindow(force: Bool = false) -> (changed: [Element], removed: [String]) {
        if !sectionScrolling.offsets.isEmpty { applySectionOffsets() }
        let viewless = canDoWithoutViews
        if viewless != mirror.keepsNoViews { mirror.keepsNoViews = viewless }
        if viewless, let refreshed = refreshWithoutViews(force: force) { return refreshed }
        collectionView.layoutIfNeeded()
        guard force || mirror.displayGeneration != windowGeneration else { return ([], []) }
        windowGeneration = mirror.displayGeneration
        if force { sentGeneration += 1 }
        pass &+= 1
        let pass = pass
        var shown = 0   // entries marked by this pass
        // A refresh runs when something changed: one buffer, room for every view and the background.
        let displayed = mirror.displayedElements
        var changed = takeChanged(capacity: displayed.count + 1)
        // A list row's style follows its neighbours (the last row loses its separator
        // when one is added after it): list rows are always looked at again.
        let lists = listLayout != nil
        prefetch.removeAll()
        prefetch.add(self, bytes: Self.prefetchBytes)
        mirror.gatherPrefetch(into: &prefetch)
        let viewBytes = CollectionViewMirror.viewBytes
        for (key, view) in displayed {
            // The entry of what was sent for the view, read without retaining it: the
            // view keeps it until `keepMirror` below (each retained read and its release
            // were two atomic operations, for every displayed view of every viewer on
            // every batch). The numbers sent with it are the view's own fields.
            let mirror = lists ? nil : view.mirrorRecord
            prefetch.add(UnsafeRawPointer(Unmanaged.passUnretained(view).toOpaque()), bytes: viewBytes)
            var sent: Unmanaged<WindowEntry>?
            if let mirror, mirror.generation == sentGeneration {
                let held = Unmanaged<WindowEntry>.fromOpaque(mirror.object.toOpaque())
                if held._withUnsafeGuaranteedRef(\.isHeld) { sent = held }
            }
            if let sent, let mirror, key.category == .cell, mirror.revision == view.revision {
                prefetch.add(UnsafeRawPointer(sent.toOpaque()), bytes: WindowEntry.prefetchBytes)
                sent._withUnsafeGuaranteedRef { held in
                    if held.pass != pass { held.pass = pass; shown += 1 }
                }
                continue
            }
            let entry: WindowEntry
            if let sent = sent?.takeUnretainedValue(), let mirror, let moved = move(sent, to: key, view, sentContentRevision: mirror.contentRevision) {
                // The element the view showed, moved in place to where the view is now
                // (its encoding stays).
                entry = sent
                if moved { changed.append(entry.element) }
                if entry.pass != pass { entry.pass = pass; shown += 1 }
                prefetch.add(UnsafeRawPointer(Unmanaged.passUnretained(entry).toOpaque()), bytes: WindowEntry.prefetchBytes)
            } else {
                guard let made = element(for: key, view) else {
                    view.mirror = nil
                    continue
                }
                entry = hold(made, pass: pass, shown: &shown, changed: &changed)
            }
            view.keepMirror(entry, generation: sentGeneration)
        }
        if let background = backgroundElement() { hold(background, pass: pass, shown: &shown, changed: &changed, encoded: false) }
        let removed = finishRefresh(pass: pass, shown: shown, changed: &changed)
        return (changed, removed)
    }

    /// Keeps `made` as what the client holds for its key (a new entry, or the held
    /// one if it differs), counted as shown in `pass` and added to `changed` if new
    /// or different; `encoded`: its encoding made now (its moves reuse it).
    @discardableResult
    func hold(_ element: consuming Element, pass: Int, shown: inout Int, changed: inout [Element], encoded: Bool = true) -> WindowEntry {
        var made = element
        let entry: WindowEntry
        if let held = entries[made.hashedKey] {
            entry = held
            if held.element != made {
                if encoded { made.prepareEncoding(using: dataSource.store.encodingCache) }
                held.element = made
                changed.append(made)
            }
        } else {
            if encoded { made.prepareEncoding(using: dataSource.store.encodingCache) }
            entry = WindowEntry(made)
            entries[made.hashedKey] = entry
            changed.append(made)
        }
        if entry.pass != pass { entry.pass = pass; shown += 1 }
        prefetch.add(UnsafeRawPointer(Unmanaged.passUnretained(entry).toOpaque()), bytes: WindowEntry.prefetchBytes)
        return entry
    }

    /// Forgets the elements no longer shown (every element shown in `pass` is
    /// marked: only a window with more holds elements that left) and puts the
    /// changed ones in index-path order; returns the keys of those that left.
    func finishRefresh(pass: Int, shown: Int, changed: inout [Element]) -> [String] {
        var removed: [String] = []
        if entries.count > shown {
            swap(&removed, &lastRemoved)
            var gone: [HashedString] = []
            gone.reserveCapacity(entries.count - shown)   // one allocation, not one per doubling
            for (key, entry) in entries where entry.pass != pass { gone.append(key) }
            gone.sort()
            Self.empty(&removed, capacity: gone.count)
            for key in gone {
                entries.removeValue(forKey: key)?.isHeld = false
                removed.append(key.string)
            }
        }
        prefetch.add(&entries)   // after the refresh: an insertion may have moved its table
        // In order as the layout gave them, mostly: sorted only if not.
        if !changed.isInOrder { changed.sort { $0.precedes($1) } }
        // Kept for the next refresh (the message shares them until it is gone).
        lastChanged = changed
        prefetch.add(&lastChanged, upTo: 256)
        if removed.capacity > 0 {
            lastRemoved = removed
            prefetch.add(&lastRemoved, upTo: 128)
        }
        return removed
    }

    /// An empty array for a refresh's changed elements, with room for `capacity`: the
    /// last refresh's, once the message that took it is gone. A batch's messages
    /// live until it went to every viewer, hundreds of them: more than the
    /// allocator keeps at hand, so each array made for one, and its free, walked the
    /// allocator's lists, cold, for every viewer of every batch.
    func takeChanged(capacity: Int) -> [Element] {
        var changed: [Element] = []
        swap(&changed, &lastChanged)
        Self.empty(&changed, capacity: capacity)
        return changed
    }

    /// Empties `array` keeping its buffer when it has room for `capacity` and no one
    /// else holds it; otherwise gives it a new one with that room.
    static func empty<T>(_ array: inout [T], capacity: Int) {
        if array.capacity >= capacity {
            array.removeAll(keepingCapacity: true)
        } else {
            array = []
            array.reserveCapacity(capacity)
        }
    }
}

extension Element {
    /// Whether it comes before `other` in a batch: by section, a section's header
    /// (no item) before its cells, cells by item.
    @inline(__always)
    func precedes(_ other: Element) -> Bool {
        (section, item ?? -1) < (other.section, other.item ?? -1)
    }
}

extension [Element] {
    /// Whether no element comes before the one ahead of it.
    var isInOrder: Bool {
        var i = 1
        while i < count {
            if self[i].precedes(self[i - 1]) { return false }
            i += 1
        }
        return true
    }
}

/// One element the client holds, and the last refresh that found it shown.
final class WindowEntry {
    @exclusivity(unchecked) var element: Element
    @exclusivity(unchecked) var pass = 0
    /// False once the element left the window (a view's mirror may still name it).
    @exclusivity(unchecked) var isHeld = true

    init(_ element: Element) { self.element = element }
}
