import CollectionCore
import Testing

/// A snapshot taken, changed and applied while others changed the collection
/// brings its own changes only (three-way merge by identifier).
@Suite struct SnapshotRebaseTests {
    typealias S = NSDiffableDataSourceSnapshot<String, String>

    func snapshot(_ sections: [(String, [String])]) -> S {
        var s = S()
        for (id, items) in sections {
            s.appendSections([id])
            s.appendItems(items, toSection: id)
        }
        return s
    }

    func order(_ s: S) -> [[String]] { s.sectionIdentifiers.map { s.itemIdentifiers(inSection: $0) } }

    @Test func aSnapshotTakenBeforeAViewersMoveKeepsTheMove() {
        let base = snapshot([("a", ["1", "2", "3", "4"]), ("b", ["5", "6"])])
        // A viewer moved 4 to the top of b meanwhile; the app only reconfigured 2.
        var current = base
        current.deleteItems(["4"])
        current.insertItems(["4"], at: 0, inSection: "b")
        var mine = base
        mine.reconfigureItems(["2"])
        let result = mine.rebased(from: base, onto: current)
        #expect(order(result) == [["1", "2", "3"], ["4", "5", "6"]])
        #expect(result.reconfiguredItemIdentifiers == ["2"])
    }

    @Test func theAppsOwnMovesInsertsAndDeletesComeThrough() {
        let base = snapshot([("a", ["1", "2", "3"]), ("b", ["4", "5"])])
        var current = base
        current.deleteItems(["5"])                                 // another deleted 5
        current.insertItems(["x"], at: 1, inSection: "a")          // and inserted x after 1
        var mine = base
        mine.deleteItems(["2"])                                    // the app deletes 2,
        mine.insertItems(["n"], at: 0, inSection: "b")             // adds n at the top of b,
        mine.deleteItems(["3"])
        mine.insertItems(["3"], at: 2, inSection: "b")             // moves 3 to after 5 (gone meanwhile),
        mine.deleteItems(["5"])
        mine.insertItems(["5"], at: 0, inSection: "a")             // and moves 5 (deleted meanwhile: stays gone)
        let result = mine.rebased(from: base, onto: current)
        #expect(order(result) == [["1", "x"], ["n", "4", "3"]])
    }

    @Test func sectionsAddedMovedAndDeletedByTheApp() {
        let base = snapshot([("a", ["1"]), ("b", ["2"]), ("c", ["3"])])
        var current = base
        current.appendSections(["d"])                             // another added d
        current.appendItems(["4"], toSection: "d")
        var mine = snapshot([("c", ["3"]), ("a", ["1"]), ("e", ["5"])])   // c moved first, b gone, e new
        mine.basis = nil
        let result = mine.rebased(from: base, onto: current)
        #expect(order(result) == [["3"], ["1"], ["5"], ["4"]])
        #expect(result.sectionIdentifiers == ["c", "a", "e", "d"])
    }

    /// Random bases, random changes by the app and by others: what each did stays
    /// (the app's deletes and inserts, others' inserts, deletes and relative order
    /// of what the app left alone), and the two edge cases are exact.
    @Test(arguments: 0..<200)
    func randomConcurrentChangesKeepWhatEachSideDid(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let sections = ["a", "b", "c"]
        var base = S()
        base.appendSections(sections)
        var serial = 0
        for section in sections {
            let n = Int.random(in: 0...6, using: &random)
            base.appendItems((0..<n).map { _ in serial += 1; return "i\(serial)" }, toSection: section)
        }
        func edit(_ s: inout S, prefix: String) {
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let items = s.itemIdentifiers
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !items.isEmpty:
                    s.deleteItems([items.randomElement(using: &random)!])
                case 1:
                    serial += 1
                    let section = sections.randomElement(using: &random)!
                    s.insertItems(["\(prefix)\(serial)"], at: Int.random(in: 0...s.numberOfItems(inSection: section), using: &random), inSection: section)
                default:
                    guard let item = items.randomElement(using: &random) else { continue }
                    s.deleteItems([item])
                    let section = sections.randomElement(using: &random)!
                    s.insertItems([item], at: Int.random(in: 0...s.numberOfItems(inSection: section), using: &random), inSection: section)
                }
            }
        }
        var mine = base
        edit(&mine, prefix: "m")
        var current = base
        edit(&current, prefix: "o")
        let result = mine.rebased(from: base, onto: current)
        let all = Set(result.itemIdentifiers)
        #expect(all.count == result.numberOfItems)
        let baseItems = Set(base.itemIdentifiers), mineItems = Set(mine.itemIdentifiers), currentItems = Set(current.itemIdentifiers)
        for item in baseItems.subtracting(mineItems) { #expect(!all.contains(item), "the app deleted \(item)") }
        for item in baseItems.subtracting(currentItems) { #expect(!all.contains(item), "another deleted \(item)") }
        for item in mineItems.subtracting(baseItems) {
            #expect(result.sectionIdentifier(containingItem: item) == mine.sectionIdentifier(containingItem: item), "the app inserted \(item)")
        }
        for item in currentItems.subtracting(baseItems) {
            #expect(result.sectionIdentifier(containingItem: item) == current.sectionIdentifier(containingItem: item), "another inserted \(item)")
        }
        // What the app did not move keeps the order others gave it, section by section.
        var untouched: Set<String> = []
        for section in sections {
            let before = base.itemIdentifiers(inSection: section)
            untouched.formUnion(S.longestKeptOrder(of: mine.itemIdentifiers(inSection: section).filter { before.contains($0) }, in: before))
        }
        for section in sections {
            let inResult = result.itemIdentifiers(inSection: section).filter { untouched.contains($0) && current.sectionIdentifier(containingItem: $0) == section }
            let inCurrent = current.itemIdentifiers(inSection: section).filter { untouched.contains($0) }
            #expect(inResult == inCurrent, "others' order of what the app left alone, in \(section)")
        }
        // Nothing happened meanwhile: the app's snapshot exactly; the app changed nothing: the current one.
        #expect(mine.rebased(from: base, onto: base) == mine)
        #expect(base.rebased(from: base, onto: current) == current)
    }
}
