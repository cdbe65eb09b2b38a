import CollectionCore
import CollectionProtocol
import Foundation

/// The window a viewer's client holds, kept up to date with its collection view's
/// displayed views.
///
/// Each element the client holds is a ``WindowEntry``, found by its key; the view
/// showing it keeps the entry at hand too (its mirror, a ``SentView``), so a batch
/// that moves a view's element updates the entry without looking it up, and a
/// refresh finds what left the window by the entries no view marked, not by
/// hashing every key shown.
extension ViewState {
    /// Elements the client holds, by key, as last sent. Setting it (a new client,
    /// a state copied for a viewer) forgets what was sent for every view.
    var window: [String: Element] {
        get { entries.mapValues(\.element) }
        set {
            for entry in entries.values { entry.isHeld = false }
            entries = newValue.mapValues { WindowEntry($0) }
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
        if !sectionOffsets.isEmpty { applySectionOffsets() }
        collectionView.layoutIfNeeded()
        guard force || collectionView.displayGeneration != windowGeneration else { return ([], []) }
        windowGeneration = collectionView.displayGeneration
        if force { sentGeneration += 1 }
        pass &+= 1
        let pass = pass
        var shown = 0   // entries marked by this pass
        var changed: [Element] = []
        changed.reserveCapacity(8)   // a refresh runs when something changed: one buffer, not two or three
        // A list row's style follows its neighbours (the last row loses its separator
        // when one is added after it): list rows are always looked at again.
        let lists = listLayout != nil
        for (key, view) in collectionView.displayedElements {
            let record = view.mirror.map { unsafeDowncast($0, to: SentView.self) }
            let last = record?.generation == sentGeneration ? record : nil
            if key.category == .cell, !lists, let last, last.revision == view.revision, last.entry.isHeld {
                if last.entry.pass != pass { last.entry.pass = pass; shown += 1 }
                continue
            }
            let entry: WindowEntry
            if !lists, let last, last.entry.isHeld, let moved = move(last.entry, to: key, view, last) {
                // The element the view showed, moved in place to where the view is now
                // (its encoding stays).
                entry = last.entry
                if moved { changed.append(entry.element) }
            } else {
                guard var made = element(for: key, view) else {
                    view.mirror = nil
                    continue
                }
                if let held = entries[made.key] {
                    entry = held
                    if held.element != made {
                        made.prepareEncoding(using: dataSource.store.encodingCache)   // once: its moves reuse it
                        held.element = made
                        changed.append(made)
                    }
                } else {
                    made.prepareEncoding(using: dataSource.store.encodingCache)
                    entry = WindowEntry(made)
                    entries[made.key] = entry
                    changed.append(made)
                }
            }
            if entry.pass != pass { entry.pass = pass; shown += 1 }
            if let record {
                record.update(generation: sentGeneration, revision: view.revision, contentRevision: view.contentRevision, entry: entry)
            } else {
                view.mirror = SentView(generation: sentGeneration, revision: view.revision, contentRevision: view.contentRevision, entry: entry)
            }
        }
        if let background = backgroundElement() {
            let entry: WindowEntry
            if let held = entries[background.key] {
                entry = held
                if held.element != background {
                    held.element = background
                    changed.append(background)
                }
            } else {
                entry = WindowEntry(background)
                entries[background.key] = entry
                changed.append(background)
            }
            if entry.pass != pass { entry.pass = pass; shown += 1 }
        }
        // Every element shown is marked: only a window with more holds elements that left.
        var removed: [String] = []
        if entries.count > shown {
            removed = entries.compactMap { $0.value.pass == pass ? nil : $0.key }
            removed.sort()
            for key in removed { entries.removeValue(forKey: key)?.isHeld = false }
        }
        changed.sort { ($0.section, $0.item ?? -1) < ($1.section, $1.item ?? -1) }
        return (changed, removed)
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

/// What the client was last sent for one displayed view, kept on the view (its
/// `mirror`): no table to look views up in on every batch. The element sent is its
/// entry's (the one view showing an element is the one that updates its entry).
final class SentView {
    private(set) var generation: Int
    private(set) var revision: Int
    /// The view's content revision when its element was sent.
    private(set) var contentRevision: Int
    /// The window's entry for the element.
    private(set) var entry: WindowEntry

    init(generation: Int, revision: Int, contentRevision: Int, entry: WindowEntry) {
        self.generation = generation
        self.revision = revision
        self.contentRevision = contentRevision
        self.entry = entry
    }

    func update(generation: Int, revision: Int, contentRevision: Int, entry: WindowEntry) {
        self.generation = generation
        self.revision = revision
        self.contentRevision = contentRevision
        self.entry = entry
    }
}
