import CollectionCore
import Foundation
import Testing

/// The prefetch list notes the cache lines of what it is given, and no more than
/// its bound. (`#expect` cannot take the list itself, which cannot be copied: what
/// it says is read first.)
@Suite struct PrefetchListTests {
    final class Box { var numbers = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }

    @Test func notesEveryLineOfAnObjectOnce() {
        let box = Box()
        var list = PrefetchList()
        list.add(box, bytes: 112)
        let base = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
        let ends = (list.contains(base), list.contains(base + 111), list.contains(base + 111 + 64))
        #expect(ends.0 && ends.1 && !ends.2)
        let lines = (Int(bitPattern: base + 111) / 64) - (Int(bitPattern: base) / 64) + 1
        let count = list.count
        #expect(count == lines)
        list.removeAll()
        let after = (list.count, list.contains(base))
        #expect(after.0 == 0 && !after.1)
    }

    @Test func notesArraysAndDictionaryTables() {
        var numbers = Array(0..<100)
        var table: [Int: String] = [:]
        for n in 0..<20 { table[n] = "\(n)" }
        var list = PrefetchList()
        list.add(&numbers, maxBytes: 128)   // the buffer's header (32 bytes), then its elements
        let arrayNoted = numbers.withUnsafeBytes { bytes in
            (list.contains(bytes.baseAddress!), list.contains(bytes.baseAddress! + 95), list.contains(bytes.baseAddress! + 96 + 64))
        }
        #expect(arrayNoted.0 && arrayNoted.1 && !arrayNoted.2)
        let before = list.count
        list.add(&table)
        let tableNoted = (list.contains(unsafeBitCast(table, to: UnsafeRawPointer.self)), list.count)
        #expect(tableNoted.0 && tableNoted.1 > before)
        // Empty collections have no storage of their own: nothing is noted.
        var noNumbers: [Int] = []
        var noTable: [Int: Int] = [:]
        list.add(&noNumbers)
        list.add(&noTable)
        let count = list.count
        #expect(count == tableNoted.1)
    }

    @Test func stopsAtItsBound() {
        let boxes = (0..<200).map { _ in Box() }
        var list = PrefetchList()
        for box in boxes { list.add(box, bytes: 112) }
        let count = list.count
        #expect(count == PrefetchList.maxLines)
        let big = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 64)
        defer { big.deallocate() }
        var one = PrefetchList()
        one.add(UnsafeRawPointer(big), bytes: 1 << 16)   // one run: at most 64 lines
        let lines = (one.count, one.contains(big + 64 * 63), one.contains(big + 64 * 64))
        #expect(lines.0 == 64 && lines.1 && !lines.2)
        list.issue()   // prefetches are hints: issuing any address is harmless
        one.issue()
    }

    /// A collection view of 30 titles in a flow layout, 320 × 480 (its data source
    /// returned too: the view holds it weakly).
    func makeView() -> (CollectionView, CollectionViewFlowLayout, ArrayDataSource) {
        let layout = CollectionViewFlowLayout()
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        let source = ArrayDataSource([(0..<30).map { "item \($0)" }])
        view.register(TitleCell.self, forCellWithReuseIdentifier: "title")
        view.dataSource = source
        return (view, layout, source)
    }

    @Test func aCollectionViewNotesItselfItsTablesAndItsFlowLayout() {
        let (view, layout, source) = makeView()
        view.layoutIfNeeded()
        var list = PrefetchList()
        view.mirror.gatherPrefetch(into: &list)
        let noted = (list.contains(UnsafeRawPointer(Unmanaged.passUnretained(view).toOpaque())),
                     list.contains(UnsafeRawPointer(Unmanaged.passUnretained(layout).toOpaque())),
                     list.contains(unsafeBitCast(view.mirror.displayedElements, to: UnsafeRawPointer.self)))
        #expect(noted.0 && noted.1 && noted.2)
        // And the collection view's parts a batch reads: its displayed elements and its batch updater.
        #expect(list.contains(UnsafeRawPointer(Unmanaged.passUnretained(view.display).toOpaque()))
                && list.contains(UnsafeRawPointer(Unmanaged.passUnretained(view.updater).toOpaque())))
        // The flow layout adds its sections and geometry to the object itself.
        var layoutOnly = PrefetchList()
        layout.gatherPrefetch(into: &layoutOnly)
        let lines = layoutOnly.count
        #expect(lines > 384 / 64 + 1)
        withExtendedLifetime(source) {}
    }

    @Test func aCollectionViewWithoutViewsNotesTheAttributesItShows() {
        let (view, _, source) = makeView()
        view.mirror.keepsNoViews = true
        view.layoutIfNeeded()
        #expect(view.mirror.displayedCount > 0)
        var list = PrefetchList()
        view.mirror.gatherPrefetch(into: &list)
        // A batch of moves keeps the attributes (the same frames): the next batch
        // reads the very buffer, untouched since.
        let noted = view.mirror.shownAttributes.withUnsafeBytes { bytes in
            (list.contains(bytes.baseAddress!), list.contains(bytes.baseAddress! + min(bytes.count, 960) - 1))
        }
        #expect(noted.0 && noted.1)
        withExtendedLifetime(source) {}
    }
}
